import Observation
import Testing

@_spi(Package) @testable import SessionCore

/// Counts calls from a `@Sendable` callback. Observation calls `onChange` synchronously on the
/// thread that mutates the store, which in these tests is the test's own, so there is no race.
private final class CallCounter: @unchecked Sendable {
  var count = 0

  /// Tracks what `read` reads, as a view would, and counts the change that ends the tracking.
  func track(_ read: () -> Void) {
    withObservationTracking(read) { self.count += 1 }
  }
}

@Suite("SessionStore: sequencing, observers, queued sends, streams, observation")
struct StoreTests {
  static let video = SessionEvent.videoStatusChanged(user: 4, isOn: true)
  static let rename = SessionEvent.nameChanged(user: 4, name: "Benjamin")
  static let unknown = SessionEvent.videoStatusChanged(user: 9, isOn: true)

  @Test func sendAppliesEventsAndNumbersThemFromOne() {
    let store = SessionStore(state: SessionBuilder.classroom.build())
    #expect(store.appliedCount == 0)
    #expect(store.send(Self.video) == .applied(1))
    #expect(store.send(Self.rename) == .applied(2))
    #expect(store.appliedCount == 2)
    #expect(store.state[user: 4].isVideoOn)
    #expect(store.state[user: 4].name == "Benjamin")
  }

  @Test func aRejectedEventTakesNoNumberAndIsTheLastRejection() {
    let before = SessionBuilder.classroom.build()
    let store = SessionStore(state: before)
    guard case .rejected(let rejection) = store.send(Self.unknown) else {
      Issue.record("expected a rejection")
      return
    }
    #expect(rejection.code == .unknownUser)
    #expect(store.lastRejection == rejection)
    #expect(store.appliedCount == 0)
    #expect(store.state == before)
    #expect(store.send(Self.video) == .applied(1))
    #expect(store.lastRejection == nil)
  }

  @Test func observersGetEachAppliedEventWithTheStateAfterIt() {
    var clock: Int64 = 1_000
    let store = SessionStore(state: SessionBuilder.classroom.build()) {
      clock += 10
      return clock
    }
    var seen: [(AppliedEvent, Bool, String)] = []
    store.addObserver { applied, state in
      seen.append((applied, state[user: 4].isVideoOn, state[user: 4].name))
    }
    store.send(Self.video)
    store.send(Self.unknown)
    store.send(Self.rename)
    #expect(
      seen.map(\.0) == [
        AppliedEvent(sequence: 1, timestamp: 1_010, event: Self.video),
        AppliedEvent(sequence: 2, timestamp: 1_020, event: Self.rename),
      ])
    #expect(seen.map(\.1) == [true, true])
    #expect(seen.map(\.2) == ["Ben", "Benjamin"])
  }

  @Test func aSendFromAnObserverIsQueuedAndAppliedAfterEveryObserverSawTheFirst() {
    let store = SessionStore(state: SessionBuilder.classroom.build())
    var log: [String] = []
    store.addObserver { [unowned store] applied, state in
      log.append("A saw \(applied.sequence) \(applied.event.name)")
      guard applied.sequence == 1 else { return }
      let result = store.send(Self.rename)
      log.append("A's send: \(result)")
      #expect(state[user: 4].name == "Ben")
      #expect(store.state[user: 4].name == "Ben")
      #expect(store.appliedCount == 1)
    }
    store.addObserver { applied, _ in log.append("B saw \(applied.sequence)") }
    #expect(store.send(Self.video) == .applied(1))
    #expect(
      log == [
        "A saw 1 videoStatusChanged", "A's send: queued", "B saw 1", "A saw 2 nameChanged",
        "B saw 2",
      ])
    #expect(store.state[user: 4].name == "Benjamin")
    #expect(store.appliedCount == 2)
  }

  @Test func aQueuedEventThatIsRejectedBecomesTheLastRejection() {
    let store = SessionStore(state: SessionBuilder.classroom.build())
    store.addObserver { [unowned store] applied, _ in
      if applied.sequence == 1 { store.send(Self.unknown) }
    }
    #expect(store.send(Self.video) == .applied(1))
    #expect(store.lastRejection?.code == .unknownUser)
    #expect(store.appliedCount == 1)
  }

  @Test func queuedSendsFromManyEventsKeepTheirOrder() {
    let store = SessionStore(state: SessionBuilder.classroom.build())
    var names: [String] = []
    store.addObserver { [unowned store] applied, _ in
      names.append(applied.event.name)
      if applied.sequence < 4 {
        store.send(.networkStatusChanged(user: 5, quality: .good))
        store.send(.chatPrivilegeChanged(.noOne))
      }
    }
    store.send(Self.video)
    #expect(
      names == [
        "videoStatusChanged", "networkStatusChanged", "chatPrivilegeChanged",
        "networkStatusChanged", "chatPrivilegeChanged", "networkStatusChanged",
        "chatPrivilegeChanged",
      ])
    #expect(store.appliedCount == 7)
  }

  @Test func aRemovedObserverIsNotCalledAgain() {
    let store = SessionStore(state: SessionBuilder.classroom.build())
    var calls = 0
    let token = store.addObserver { _, _ in calls += 1 }
    store.send(Self.video)
    store.removeObserver(token)
    store.send(Self.rename)
    #expect(calls == 1)
  }

  /// A prefetch hint reads nothing a view observes and changes nothing, for any user; the
  /// events it is for name their subject.
  @Test func prefetchingAParticipantIsInert() {
    let store = SessionStore(state: SessionBuilder.classroom.build())
    let before = store.state
    let counter = CallCounter()
    counter.track { _ = store.state }
    var addresses = 0
    for id in [UserID(0), 1, 2, 3, 6, 7, 99, 4_000_000_000] {
      if store.participantAddress(id) != nil { addresses += 1 }
      store.forEachJoinerAddress(id) { _ in addresses += 1 }
    }
    #expect(store.participantAddress(3) != nil, "a present participant has an address")
    #expect(store.participantAddress(4_000_000_000) == nil, "an id far outside has none")
    #expect(addresses > 0)
    #expect(store.state == before)
    #expect(store.appliedCount == 0)
    #expect(counter.count == 0)

    #expect(SessionEvent.videoStatusChanged(user: 3, isOn: true).statusSubject == 3)
    #expect(SessionEvent.audioStatusChanged(user: 2, type: .voip, isMuted: true).statusSubject == 2)
    #expect(SessionEvent.networkStatusChanged(user: 1, quality: .good).statusSubject == 1)
    #expect(SessionEvent.nameChanged(user: 1, name: "G").statusSubject == nil)
    #expect(SessionEvent.usersLeft([1]).statusSubject == nil)
  }

  @Test func sendContentsOfReportsRejectionsByPosition() {
    let store = SessionStore(state: SessionBuilder.classroom.build())
    let rejections = store.send(contentsOf: [Self.video, Self.unknown, Self.rename, Self.unknown])
    #expect(rejections.map(\.0) == [1, 3])
    #expect(rejections.map(\.1.code) == [.unknownUser, .unknownUser])
    #expect(store.appliedCount == 2)
  }

  @Test func eventsStreamDeliversAppliedEventsWithTheirSequenceNumbers() async {
    let store = SessionStore(state: SessionBuilder.classroom.build()) { 42 }
    let stream = store.events()
    store.send(Self.video)
    store.send(Self.unknown)
    store.send(Self.rename)
    var received: [AppliedEvent] = []
    for await applied in stream {
      received.append(applied)
      if received.count == 2 { break }
    }
    #expect(
      received == [
        AppliedEvent(sequence: 1, timestamp: 42, event: Self.video),
        AppliedEvent(sequence: 2, timestamp: 42, event: Self.rename),
      ])
  }

  @Test func everyStreamGetsEveryEventAndStreamsEndWithTheStore() async {
    let (first, second) = Self.streamsOfAStoreThatIsGone()
    var firstCount = 0
    for await _ in first { firstCount += 1 }
    var secondCount = 0
    for await _ in second { secondCount += 1 }
    #expect(firstCount == 2)
    #expect(secondCount == 2)
  }

  private static func streamsOfAStoreThatIsGone() -> (
    AsyncStream<AppliedEvent>, AsyncStream<AppliedEvent>
  ) {
    let store = SessionStore(state: SessionBuilder.classroom.build())
    let streams = (store.events(), store.events())
    store.send(Self.video)
    store.send(Self.rename)
    return streams
  }

  @Test func viewsReadingTheStateAreInvalidatedOncePerSend() {
    let store = SessionStore(state: SessionBuilder.classroom.build())
    let changes = CallCounter()
    changes.track { _ = store.state }
    #expect(changes.count == 0)
    store.send(Self.video)
    #expect(changes.count == 1)
  }

  @Test func viewsReadingTheLastRejectionAreInvalidatedWhenItChanges() {
    let store = SessionStore(state: SessionBuilder.classroom.build())
    let changes = CallCounter()
    changes.track { _ = store.lastRejection }
    store.send(Self.video)
    #expect(changes.count == 0)
    store.send(Self.unknown)
    #expect(changes.count == 1)
  }

  @Test func aViewThatTracksAgainAfterEachChangeHearsEveryChange() {
    let store = SessionStore(state: SessionBuilder.classroom.build())
    let changes = CallCounter()
    for (round, event) in [Self.video, Self.rename, Self.unknown, Self.video].enumerated() {
      changes.track { _ = store.state }
      store.send(event)
      // The rejected event changes `lastRejection`, not the state, but a send is a send.
      #expect(changes.count == round + 1)
    }
  }

  @Test func sendsNobodyTrackedSinceTheLastChangeDoNotNotifyLaterTrackers() {
    let store = SessionStore(state: SessionBuilder.classroom.build())
    let changes = CallCounter()
    changes.track { _ = store.state }
    store.send(Self.video)
    store.send(Self.rename)
    #expect(changes.count == 1)
    changes.track { _ = store.state.participants.count }
    store.send(Self.rename)
    #expect(changes.count == 2)
  }

  @Test func anObservationRegisteredDuringASendHearsTheNextSend() {
    let store = SessionStore(state: SessionBuilder.classroom.build())
    let changes = CallCounter()
    var registered = false
    // Weak: the store holds its observers, so an observer holding the store is a cycle.
    store.addObserver { [weak store] _, _ in
      guard !registered, let store else { return }
      registered = true
      changes.track { _ = store.state }
    }
    store.send(Self.video)
    #expect(changes.count == 0)
    store.send(Self.rename)
    #expect(changes.count == 1)
  }

  @Test func rejectionTrackersAreNotForgottenWhenOnlyTheStateChanges() {
    let store = SessionStore(state: SessionBuilder.classroom.build())
    let stateChanges = CallCounter()
    let rejectionChanges = CallCounter()
    rejectionChanges.track { _ = store.lastRejection }
    stateChanges.track { _ = store.state }
    store.send(Self.video)
    store.send(Self.rename)
    #expect(stateChanges.count == 1)
    #expect(rejectionChanges.count == 0)
    store.send(Self.unknown)
    #expect(rejectionChanges.count == 1)
  }

  @Test func debugStoresCheckInvariantsAfterEveryEvent() {
    #if DEBUG
      #expect(SessionStore().checksInvariants)
    #else
      #expect(!SessionStore().checksInvariants)
    #endif
  }

  @Test func aTraceRecorderRecordsWhatTheStoreAppliesUntilStopped() {
    let store = SessionStore(state: SessionBuilder.classroom.build()) { 7 }
    let recorder = TraceRecorder(store: store, source: "StoreTests")
    store.send(Self.video)
    store.send(Self.unknown)
    store.send(Self.rename)
    recorder.stop()
    store.send(.videoStatusChanged(user: 4, isOn: false))
    #expect(recorder.trace.header.source == "StoreTests")
    #expect(
      recorder.trace.events == [
        AppliedEvent(sequence: 1, timestamp: 7, event: Self.video),
        AppliedEvent(sequence: 2, timestamp: 7, event: Self.rename),
      ])
  }
}
