import Testing

@testable import SessionCore

/// The store's own invariant sampling (what a simulation's replicas use instead of a call out
/// per event): which events are checked, and that a broken state is reported, once per
/// sampled event, with what is broken; a sound state is never reported.
@Suite("SessionStore: sampled invariants")
struct InvariantSamplingTests {
  /// A chat history no event can make: one id kept twice.
  static let repeatedID = ChatHistory(
    ["ghost", "ghost"].map {
      ChatMessage(id: $0, sender: 1, receiver: nil, content: "", timestamp: 0)
    })

  @Test func smallSessionsAreCheckedAfterEveryEvent() {
    let sampling = InvariantSampling(everyEventUpTo: 64, spread: 1_000, place: 7)
    for sequence in UInt64(1)...200 {
      #expect(sampling.isDue(sequence, participants: 64))
    }
  }

  @Test func largeSessionsAreCheckedOnceEveryStrideAtTheirPlace() {
    // 1,000 participants, 64 checked at every event: a stride of 1,000 × (1,000 / 64 = 15).
    let sampling = InvariantSampling(everyEventUpTo: 64, spread: 1_000, place: 3)
    let due = (UInt64(1)...60_000).filter { sampling.isDue($0, participants: 1_000) }
    #expect(due == [14_997, 29_997, 44_997, 59_997])
    // Another replica's place checks other events.
    let other = InvariantSampling(everyEventUpTo: 64, spread: 1_000, place: 4)
    #expect(!due.contains { other.isDue($0, participants: 1_000) })
  }

  @Test func nonsenseSettingsAreClampedInsteadOfTrapping() {
    let sampling = InvariantSampling(everyEventUpTo: 0, spread: -5, place: .max)
    #expect(sampling.everyEventUpTo == 1)
    #expect(sampling.spread == 1)
    #expect(sampling.isDue(.max, participants: .max))
    // A stride past `UInt64` (a huge spread times a huge session) checks rarely, never traps.
    let wide = InvariantSampling(everyEventUpTo: 1, spread: .max, place: 0)
    #expect(!wide.isDue(3, participants: .max))
    #expect(wide.isDue(UInt64.max, participants: .max))
  }

  @Test func aBrokenStateIsReportedAfterASampledEvent() {
    var broken = SessionBuilder.classroom.build()
    // Corrupt it the way no event can: one id kept twice.
    broken.chat = Self.repeatedID
    let store = SessionStore(state: broken)
    store.checksInvariants = false
    store.invariantSampling = InvariantSampling(everyEventUpTo: 64, spread: 1, place: 0)
    var reports: [(UInt64, String, [InvariantViolation])] = []
    store.onInvariantViolation = { reports.append(($0, $1.name, $2)) }
    store.send(.videoStatusChanged(user: 4, isOn: true))
    store.send(.videoStatusChanged(user: 4, isOn: false))
    #expect(reports.map(\.0) == [1, 2])
    #expect(reports.allSatisfy { $0.1 == "videoStatusChanged" })
    #expect(
      reports.first?.2.map(\.description) == ["chat message ids disagree with messages"])
  }

  @Test func aSoundStateIsNeverReportedAndUnsampledStoresCheckNothing() {
    let store = SessionStore(state: SessionBuilder.classroom.build())
    store.invariantSampling = InvariantSampling(everyEventUpTo: 64, spread: 1, place: 0)
    var reports = 0
    store.onInvariantViolation = { _, _, _ in reports += 1 }
    for index in 0..<50 { store.send(.videoStatusChanged(user: 4, isOn: index % 2 == 0)) }
    #expect(reports == 0)

    var broken = SessionBuilder.classroom.build()
    broken.chat = Self.repeatedID
    let unsampled = SessionStore(state: broken)
    unsampled.checksInvariants = false
    unsampled.onInvariantViolation = { _, _, _ in reports += 1 }
    unsampled.send(.videoStatusChanged(user: 4, isOn: true))
    #expect(reports == 0)
  }
}
