import Foundation
import Testing

@testable import SessionCore

/// Subsessions (breakout rooms) in the reducer, the shared rules, snapshots and random runs,
/// both directions: every refused event changes nothing, every applied one exactly what it
/// should, and the invariants hold after each.
@Suite struct SubSessionRulesTests {
  static let red = SubSession(id: "1-1", name: "Red")
  static let blue = SubSession(id: "1-2", name: "Blue")
  /// The list the fixtures commit: Red and Blue.
  static let list = [red, blue]
  /// Another list, for commits that replace the first one.
  static let green = [SubSession(id: "2-1", name: "Green")]

  static func status(_ status: SubSessionStatus, _ list: [SubSession] = list) -> SessionEvent {
    .subSession(.statusChanged(status, list))
  }

  static func move(_ user: UserID, to id: String?) -> SessionEvent {
    .subSession(.userMoved(user, to: id))
  }

  static func share(_ user: UserID, _ status: ShareStatus = .started) -> SessionEvent {
    .shareStatusChanged(user: user, status: status, kind: .view)
  }

  /// The classroom (1 Teacher host, 2 Assistant manager, 3 Ada myself, 4 Ben, 5 Cy) with the
  /// subsessions at `status`, reached by events.
  static func classroom(
    _ status: SubSessionStatus, _ builder: SessionBuilder = .classroom,
    sourceLocation: SourceLocation = #_sourceLocation
  ) -> SessionState {
    var state = builder.build(sourceLocation: sourceLocation)
    let path: [SessionEvent]
    switch status {
    case .none: path = []
    case .committed: path = [Self.status(.committed)]
    case .withdrawn: path = [Self.status(.committed), Self.status(.withdrawn, [])]
    case .started: path = [Self.status(.committed), Self.status(.started)]
    case .stopped:
      path = [Self.status(.committed), Self.status(.started), Self.status(.stopped)]
    case .stopping, .commitFailed, .withdrawFailed, .startFailed, .stopFailed:
      preconditionFailure("\(status) is never kept")
    }
    applyAll(path, to: &state, sourceLocation: sourceLocation)
    #expect(state.subSessions.status == status, sourceLocation: sourceLocation)
    return state
  }

  /// The classroom with the subsessions started and members placed (`rooms`: user → id).
  static func started(
    _ rooms: [UserID: String] = [:], _ builder: SessionBuilder = .classroom,
    sourceLocation: SourceLocation = #_sourceLocation
  ) -> SessionState {
    var state = classroom(.started, builder, sourceLocation: sourceLocation)
    let moves = rooms.sorted { $0.key < $1.key }.map { move($0.key, to: $0.value) }
    applyAll(moves, to: &state, sourceLocation: sourceLocation)
    return state
  }

  /// A state's board as a whole, for one-line expectations.
  static func board(
    _ status: SubSessionStatus, _ list: [SubSession] = list, _ rooms: [UserID: String] = [:]
  ) -> SubSessionBoard {
    SubSessionBoard(status: status, list: list, rooms: rooms)
  }

  static let notStarted: [SubSessionStatus] = [.none, .committed, .withdrawn, .stopped]
  static let neverKept: [SubSessionStatus] = [
    .none, .stopping, .commitFailed, .withdrawFailed, .startFailed, .stopFailed,
  ]
}

/// A list and why the reducer or the rules refuse it.
struct NamedList: Sendable, CustomTestStringConvertible {
  var label: String
  var list: [SubSession]
  var testDescription: String { label }

  /// `count` distinct names of `length` characters each (ids `"x-1"`…).
  static func names(_ count: Int, length: Int) -> [String] {
    (1...count).map { index in
      let suffix = "-\(index)"
      return String(repeating: "n", count: length - suffix.count) + suffix
    }
  }

  static func subSessions(_ names: [String]) -> [SubSession] {
    names.enumerated().map { SubSession(id: "x-\($0.offset + 1)", name: $0.element) }
  }

  /// Lists that must commit: the edges of every limit.
  static let good: [NamedList] = [
    NamedList(label: "one", list: subSessions(["Red"])),
    NamedList(label: "50 subsessions", list: subSessions(names(50, length: 8))),
    NamedList(label: "a 64-character name", list: subSessions([String(repeating: "a", count: 64)])),
    NamedList(label: "2,048 bytes of names", list: subSessions(names(32, length: 64))),
    NamedList(
      label: "a 24-byte id", list: [SubSession(id: String(repeating: "i", count: 24), name: "A")]),
  ]

  /// Lists that must not commit.
  static let bad: [NamedList] = [
    NamedList(label: "no subsession", list: []),
    NamedList(label: "51 subsessions", list: subSessions(names(51, length: 8))),
    NamedList(
      label: "a repeated id",
      list: [SubSession(id: "x-1", name: "A"), SubSession(id: "x-1", name: "B")]),
    NamedList(label: "an empty name", list: subSessions(["A", ""])),
    NamedList(label: "a repeated name", list: subSessions(["A", "B", "A"])),
    NamedList(label: "a 65-character name", list: subSessions([String(repeating: "a", count: 65)])),
    NamedList(label: "2,080 bytes of names", list: subSessions(names(40, length: 52))),
    NamedList(label: "an empty id", list: [SubSession(id: "", name: "A")]),
    NamedList(
      label: "a 25-byte id", list: [SubSession(id: String(repeating: "i", count: 25), name: "A")]),
  ]
}

// MARK: - 1. Status transitions

extension SubSessionRulesTests {
  @Test(arguments: notStarted)
  func aListCommitsWhileTheSubSessionsAreNotStarted(from status: SubSessionStatus) {
    var state = Self.classroom(status)
    expectApplies(Self.status(.committed, Self.green), to: &state) {
      $0.subSessions = Self.board(.committed, Self.green)
    }
  }

  @Test func noListCommitsWhileStarted() {
    expectRejects(
      Self.status(.committed, Self.green), in: Self.classroom(.started), .subSessionNotAllowed)
    expectRejects(
      Self.status(.committed, Self.green), in: Self.started([4: "1-1"]), .subSessionNotAllowed)
    expectRejects(Self.status(.committed), in: Self.classroom(.started), .subSessionNotAllowed)
  }

  @Test(arguments: NamedList.good)
  func everyLimitsEdgeCommits(_ named: NamedList) {
    var state = Self.classroom(.none)
    expectApplies(Self.status(.committed, named.list), to: &state) {
      $0.subSessions = Self.board(.committed, named.list)
    }
  }

  @Test(arguments: NamedList.bad)
  func aBadListIsRefused(_ named: NamedList) {
    for status in Self.notStarted {
      expectRejects(
        Self.status(.committed, named.list), in: Self.classroom(status), .subSessionNotAllowed)
    }
  }

  @Test(arguments: [SubSessionStatus.committed, .stopped])
  func aListIsWithdrawnWhileNotStarted(from status: SubSessionStatus) {
    var state = Self.classroom(status)
    expectApplies(Self.status(.withdrawn, []), to: &state) {
      $0.subSessions = Self.board(.withdrawn, [])
    }
  }

  @Test func aWithdrawalNeedsACommittedListAndNotStarted() {
    for status in [SubSessionStatus.none, .withdrawn, .started] {
      expectRejects(Self.status(.withdrawn, []), in: Self.classroom(status), .subSessionNotAllowed)
    }
    expectRejects(Self.status(.withdrawn, []), in: Self.started([4: "1-1"]), .subSessionNotAllowed)
    // The withdrawn status carries no list.
    expectRejects(Self.status(.withdrawn), in: Self.classroom(.committed), .subSessionNotAllowed)
  }

  @Test(arguments: [SubSessionStatus.committed, .stopped])
  func theCommittedListStarts(from status: SubSessionStatus) {
    var state = Self.classroom(status)
    expectApplies(Self.status(.started), to: &state) { $0.subSessions.status = .started }
  }

  @Test func aStartNeedsTheCommittedListAndNotStarted() {
    for status in [SubSessionStatus.none, .withdrawn] {
      expectRejects(Self.status(.started, []), in: Self.classroom(status), .subSessionNotAllowed)
      expectRejects(Self.status(.started), in: Self.classroom(status), .subSessionNotAllowed)
    }
    let committed = Self.classroom(.committed)
    expectRejects(Self.status(.started, Self.green), in: committed, .subSessionNotAllowed)
    expectRejects(Self.status(.started, []), in: committed, .subSessionNotAllowed)
    expectRejects(
      Self.status(.started, [Self.blue, Self.red]), in: committed, .subSessionNotAllowed)
    expectRejects(Self.status(.started), in: Self.classroom(.started), .subSessionNotAllowed)
  }

  @Test func aStopBringsEveryoneBackAndKeepsTheList() {
    var state = Self.started([3: "1-1", 4: "1-1", 5: "1-2", 1: "1-2"])
    #expect(state.subSessions.members(of: "1-1") == [3, 4])
    expectApplies(Self.status(.stopped), to: &state) {
      $0.subSessions = Self.board(.stopped)
    }
    #expect(state.subSessions.subSession(of: 4) == nil)
  }

  @Test func aStopLeavesAShareInTheMainSessionAlone() {
    var state = Self.started([4: "1-1", 5: "1-2"])
    applyAll([Self.share(1)], to: &state)
    expectApplies(Self.status(.stopped), to: &state) {
      $0.subSessions = Self.board(.stopped)
    }
    #expect(state.shares[1] != nil)
  }

  @Test func aStopNeedsStartedAndTheSameList() {
    for status in Self.notStarted {
      expectRejects(Self.status(.stopped), in: Self.classroom(status), .subSessionNotAllowed)
    }
    let started = Self.started([4: "1-1"])
    expectRejects(Self.status(.stopped, Self.green), in: started, .subSessionNotAllowed)
    expectRejects(Self.status(.stopped, []), in: started, .subSessionNotAllowed)
  }

  @Test(arguments: [ShareStatus.started, .paused, .resumed])
  func noStopWhileAMemberInASubSessionStillShares(_ shareStatus: ShareStatus) {
    var state = Self.started([4: "1-1", 3: "1-1"])
    var path = [Self.share(4)]
    if shareStatus != .started { path.append(Self.share(4, .paused)) }
    if shareStatus == .resumed { path.append(Self.share(4, .resumed)) }
    path.append(.annotationStarted(user: 3, shareOwner: 4))
    applyAll(path, to: &state)
    expectRejects(Self.status(.stopped), in: state, .subSessionNotAllowed)
    // Once the service has stopped the share (and with it the annotation), the stop applies.
    applyAll([Self.share(4, .stopped)], to: &state)
    expectApplies(Self.status(.stopped), to: &state) { $0.subSessions = Self.board(.stopped) }
  }

  @Test(arguments: neverKept, [SubSessionStatus.none, .committed, .started, .stopped])
  func aTransientOrFailedStatusIsNeverKept(_ reported: SubSessionStatus, from: SubSessionStatus) {
    let state = from == .started ? Self.started([4: "1-1"]) : Self.classroom(from)
    expectRejects(Self.status(reported), in: state, .subSessionNotAllowed)
    expectRejects(Self.status(reported, []), in: state, .subSessionNotAllowed)
  }

  @Test func aListStartsAgainAfterAStopAndANewCommitGetsNewIDs() {
    var state = Self.classroom(.stopped)
    expectApplies(Self.status(.started), to: &state) { $0.subSessions.status = .started }
    expectApplies(Self.move(4, to: "1-2"), to: &state) { $0.subSessions.rooms[4] = "1-2" }
    expectApplies(Self.status(.stopped), to: &state) { $0.subSessions = Self.board(.stopped) }
    expectApplies(Self.status(.committed, Self.green), to: &state) {
      $0.subSessions = Self.board(.committed, Self.green)
    }
    expectApplies(Self.status(.started, Self.green), to: &state) {
      $0.subSessions.status = .started
    }
    // A kit kept from the old list joins nothing.
    expectRejects(Self.move(4, to: "1-2"), in: state, .subSessionNotAllowed)
  }
}

// MARK: - 2. Moves

extension SubSessionRulesTests {
  @Test func aMemberJoinsAListedSubSessionSwitchesAndReturns() {
    var state = Self.classroom(.started)
    expectApplies(Self.move(4, to: "1-1"), to: &state) { $0.subSessions.rooms[4] = "1-1" }
    expectApplies(Self.move(1, to: "1-1"), to: &state) { $0.subSessions.rooms[1] = "1-1" }
    expectApplies(Self.move(4, to: "1-2"), to: &state) { $0.subSessions.rooms[4] = "1-2" }
    #expect(state.subSessions.subSession(of: 4) == Self.blue)
    #expect(!state.subSessions.together(1, 4))
    #expect(state.subSessions.together(2, 3), "both in the main session")
    expectApplies(Self.move(4, to: nil), to: &state) { $0.subSessions.rooms[4] = nil }
    expectApplies(Self.move(1, to: nil), to: &state) { $0.subSessions.rooms = [:] }
  }

  @Test(arguments: notStarted)
  func nobodyMovesWhileTheSubSessionsAreNotStarted(_ status: SubSessionStatus) {
    let state = Self.classroom(status)
    expectRejects(Self.move(4, to: "1-1"), in: state, .subSessionNotAllowed)
    expectRejects(Self.move(4, to: nil), in: state, .noChange)  // already in the main session
  }

  @Test func aMoveNeedsAListedSubSessionAPresentUserAndAChange() {
    let state = Self.started([4: "1-1"])
    expectRejects(Self.move(5, to: "9-9"), in: state, .subSessionNotAllowed)
    expectRejects(Self.move(5, to: ""), in: state, .subSessionNotAllowed)
    expectRejects(Self.move(9, to: "1-1"), in: state, .unknownUser)
    expectRejects(Self.move(9, to: nil), in: state, .unknownUser)
    expectRejects(Self.move(4, to: "1-1"), in: state, .noChange)
    expectRejects(Self.move(5, to: nil), in: state, .noChange)
  }

  @Test func nobodyMovesWhileSharing() {
    var state = Self.started([4: "1-1"])
    applyAll([Self.share(5), Self.share(4)], to: &state)
    // From the main session, between subsessions, back to the main session.
    expectRejects(Self.move(5, to: "1-2"), in: state, .subSessionNotAllowed)
    expectRejects(Self.move(4, to: "1-2"), in: state, .subSessionNotAllowed)
    expectRejects(Self.move(4, to: nil), in: state, .subSessionNotAllowed)
    applyAll([Self.share(4, .paused)], to: &state)
    expectRejects(Self.move(4, to: nil), in: state, .subSessionNotAllowed)  // a paused share
    applyAll([Self.share(4, .stopped)], to: &state)
    expectApplies(Self.move(4, to: nil), to: &state) { $0.subSessions.rooms = [:] }
  }

  @Test func nobodyMovesWhileAnnotating() {
    var state = Self.started([4: "1-1", 5: "1-1"])
    applyAll(
      [
        Self.share(1), .annotationStarted(user: 3, shareOwner: 1), Self.share(4),
        .annotationStarted(user: 5, shareOwner: 4),
      ],
      to: &state)
    expectRejects(Self.move(3, to: "1-1"), in: state, .subSessionNotAllowed)
    expectRejects(Self.move(5, to: nil), in: state, .subSessionNotAllowed)
    expectRejects(Self.move(5, to: "1-2"), in: state, .subSessionNotAllowed)
    applyAll([.annotationStopped(user: 5, shareOwner: 4)], to: &state)
    expectApplies(Self.move(5, to: "1-2"), to: &state) { $0.subSessions.rooms[5] = "1-2" }
  }
}

// MARK: - 3. Notices

extension SubSessionRulesTests {
  @Test func noticesAreNoticesAndMovesAreNot() {
    #expect(SubSessionEvent.broadcast(from: 1, message: "hi").isNotice)
    #expect(SubSessionEvent.helpRequested(by: 4, subSessionID: "1-1").isNotice)
    #expect(SubSessionEvent.helpResult(.busy).isNotice)
    #expect(!SubSessionEvent.userMoved(4, to: nil).isNotice)
    #expect(!SubSessionEvent.statusChanged(.started, []).isNotice)
  }

  @Test func aBroadcastNeedsAPresentSenderAndChangesNothing() {
    var state = Self.started([4: "1-1"])
    expectApplies(.subSession(.broadcast(from: 1, message: "Five minutes left")), to: &state)
    expectApplies(.subSession(.broadcast(from: 2, message: "Wrap up")), to: &state)
    expectRejects(.subSession(.broadcast(from: 9, message: "Hi")), in: state, .unknownUser)
  }

  @Test func aHelpRequestNeedsAPresentUserAndAListedSubSession() {
    var state = Self.started([4: "1-1"])
    expectApplies(.subSession(.helpRequested(by: 4, subSessionID: "1-1")), to: &state)
    expectRejects(.subSession(.helpRequested(by: 9, subSessionID: "1-1")), in: state, .unknownUser)
    expectRejects(
      .subSession(.helpRequested(by: 4, subSessionID: "9-9")), in: state, .subSessionNotAllowed)
    expectRejects(
      .subSession(.helpRequested(by: 4, subSessionID: "1-1")), in: Self.classroom(.none),
      .subSessionNotAllowed)
    expectRejects(
      .subSession(.helpRequested(by: 4, subSessionID: "1-1")), in: Self.classroom(.withdrawn),
      .subSessionNotAllowed)
  }

  @Test(arguments: SubSessionHelpResult.allCases)
  func aHelpResultAlwaysAppliesAndChangesNothing(_ result: SubSessionHelpResult) {
    for status in Self.notStarted {
      var state = Self.classroom(status)
      expectApplies(.subSession(.helpResult(result)), to: &state)
    }
    var state = Self.started([3: "1-2"])
    expectApplies(.subSession(.helpResult(result)), to: &state)
  }

  @Test func subSessionEventsNeedASession() {
    for phase in [Phase.idle, .initialized, .joining, .left, .failed] {
      expectRejects(.subSession(.helpResult(.idle)), in: phase.state, .outOfPhase)
      expectRejects(Self.status(.committed), in: phase.state, .outOfPhase)
    }
  }
}

// MARK: - 4. Place effects

extension SubSessionRulesTests {
  @Test func singleShareIsOneShareInEachPlace() {
    var state = Self.started([4: "1-1", 5: "1-2"])
    expectApplies(Self.share(4), to: &state) {
      $0.shares[4] = ActiveShare(owner: 4, startOrder: 1)
      $0.participants[4]?.shareStatus = .started
    }
    expectApplies(Self.share(5), to: &state) {
      $0.shares[5] = ActiveShare(owner: 5, startOrder: 2)
      $0.participants[5]?.shareStatus = .started
    }
    expectApplies(Self.share(1), to: &state) {
      $0.shares[1] = ActiveShare(owner: 1, startOrder: 3)
      $0.participants[1]?.shareStatus = .started
    }
    #expect(state.shares.count == 3)
    applyAll([Self.move(3, to: "1-1")], to: &state)
    expectRejects(Self.share(3), in: state, .shareNotAllowed)  // Ben shares in Red
    expectRejects(Self.share(2), in: state, .shareNotAllowed)  // the host shares in main
  }

  @Test func lockedShareIsOneShareInEachPlaceToo() {
    var builder = SessionBuilder.classroom
    builder.shareSetting = .locked
    var state = Self.started([1: "1-1", 2: "1-2"], builder)
    applyAll([Self.share(1), Self.share(2)], to: &state)
    expectRejects(Self.share(4), in: state, .shareNotAllowed)  // a participant, locked
  }

  /// `lockShare(false)` makes the service emit `shareSettingChanged(.single)` alone. Locked
  /// share let the host and a manager share in two places, and single share allows that too
  /// (one share in each place), yet the reducer refuses the change.
  @Test func unlockingKeepsOneShareInEachPlace() {
    var builder = SessionBuilder.classroom
    builder.shareSetting = .locked
    var state = Self.started([1: "1-1", 2: "1-2"], builder)
    applyAll([Self.share(1), Self.share(2)], to: &state)
    // One share in each place: unlocking keeps both.
    expectApplies(.shareSettingChanged(.single), to: &state) { $0.shareSetting = .single }
    // Sharing in one place only, the change applies.
    var oneShare = Self.started([1: "1-1", 2: "1-2"], builder)
    applyAll([Self.share(1)], to: &oneShare)
    expectApplies(.shareSettingChanged(.single), to: &oneShare) { $0.shareSetting = .single }
  }

  @Test func multiShareIgnoresPlaces() {
    var builder = SessionBuilder.classroom
    builder.shareSetting = .multi
    var state = Self.started([4: "1-1", 5: "1-1"], builder)
    applyAll([Self.share(4), Self.share(5), Self.share(3)], to: &state)
    #expect(state.shares.count == 3)
  }

  @Test func annotationStaysInItsPlace() {
    var state = Self.started([4: "1-1", 5: "1-2"])
    applyAll([Self.share(4), Self.share(1)], to: &state)
    expectRejects(.annotationStarted(user: 3, shareOwner: 4), in: state, .annotationNotAllowed)
    expectRejects(.annotationStarted(user: 5, shareOwner: 4), in: state, .annotationNotAllowed)
    expectRejects(.annotationStarted(user: 4, shareOwner: 1), in: state, .annotationNotAllowed)
    expectApplies(.annotationStarted(user: 4, shareOwner: 4), to: &state) {
      $0.shares[4]?.annotators.insert(4)
    }
    expectApplies(.annotationStarted(user: 3, shareOwner: 1), to: &state) {
      $0.shares[1]?.annotators.insert(3)
    }
    applyAll([.annotationStopped(user: 3, shareOwner: 1), Self.move(3, to: "1-1")], to: &state)
    expectApplies(.annotationStarted(user: 3, shareOwner: 4), to: &state) {
      $0.shares[4]?.annotators.insert(3)
    }
  }

  @Test func aMemberWhoLeavesLeavesTheirSubSession() {
    var state = Self.started([3: "1-1", 4: "1-1", 5: "1-2"])
    applyAll([Self.share(4), .annotationStarted(user: 3, shareOwner: 4)], to: &state)
    expectApplies(.usersLeft([5]), to: &state) {
      $0.participants[5] = nil
      $0.subSessions.rooms[5] = nil
    }
    expectApplies(.usersLeft([4]), to: &state) {
      $0.participants[4] = nil
      $0.shares[4] = nil
      $0.subSessions.rooms[4] = nil
    }
    #expect(state.subSessions.rooms == [3: "1-1"])
    #expect(state.subSessions.members(of: "1-2").isEmpty)
    // The last one out of the subsessions leaves everyone in the main session.
    var alone = Self.started([4: "1-1"])
    expectApplies(.usersLeft([4]), to: &alone) {
      $0.participants[4] = nil
      $0.subSessions.rooms = [:]
    }
    #expect(alone.subSessions.isStarted)
  }
}

// MARK: - 5. authorize

extension SubSessionRulesTests {
  static func call(_ call: SubSessionCommand) -> SessionCommand { .subSession(call) }

  @Test func onlyTheHostAndManagersRunTheSubSessions() {
    let committed = Self.classroom(.committed)
    let started = Self.started([4: "1-1"])
    let cases: [(SessionState, SubSessionCommand)] = [
      (committed, .commit(["A", "B"])),
      (committed, .withdraw),
      (committed, .start),
      (started, .stop),
      (started, .broadcast("Five minutes left")),
    ]
    for (state, call) in cases {
      #expect(state.authorize(Self.call(call), by: 1) == .success, "\(call.name) by the host")
      #expect(state.authorize(Self.call(call), by: 2) == .success, "\(call.name) by a manager")
      #expect(state.authorize(Self.call(call), by: 3) == .sessionNoRights, "\(call.name)")
      #expect(state.authorize(Self.call(call), by: 4) == .sessionNoRights, "\(call.name) by Ben")
      #expect(state.authorize(Self.call(call), by: 9) == .notInSession, "\(call.name) absent")
    }
  }

  @Test func aCommitIsOfWellFormedNamesWhileNotStarted() {
    for status in Self.notStarted {
      #expect(Self.classroom(status).authorize(Self.call(.commit(["A"])), by: 2) == .success)
    }
    let started = Self.started()
    #expect(started.authorize(Self.call(.commit(["A"])), by: 1) == .wrongUsage)
    let state = Self.classroom(.none)
    for named in NamedList.good {
      let names = named.list.map(\.name)
      #expect(state.authorize(Self.call(.commit(names)), by: 1) == .success, "\(named.label)")
      #expect(SessionState.validSubSessionNames(names), "\(named.label)")
    }
    let bad: [(String, [String])] = [
      ("none", []),
      ("51 names", NamedList.names(51, length: 8)),
      ("a repeated name", ["A", "B", "A"]),
      ("an empty name", ["A", ""]),
      ("a 65-character name", [String(repeating: "a", count: 65)]),
      ("2,080 bytes", NamedList.names(40, length: 52)),
      ("2,049 bytes", NamedList.names(31, length: 64) + ["é" + String(repeating: "z", count: 63)]),
      ("65 characters of 4 bytes", [String(repeating: "🙂", count: 65)]),
    ]
    for (label, names) in bad {
      #expect(state.authorize(Self.call(.commit(names)), by: 1) == .invalidParameter, "\(label)")
      #expect(!SessionState.validSubSessionNames(names), "\(label)")
    }
    // 64 four-byte characters are 256 bytes: still one name.
    let wide = [String(repeating: "🙂", count: 64)]
    #expect(state.authorize(Self.call(.commit(wide)), by: 1) == .success)
  }

  @Test func withdrawAndStartNeedACommittedListNotStarted() {
    for status in [SubSessionStatus.committed, .stopped] {
      let state = Self.classroom(status)
      #expect(state.authorize(Self.call(.withdraw), by: 1) == .success, "\(status)")
      #expect(state.authorize(Self.call(.start), by: 2) == .success, "\(status)")
    }
    for status in [SubSessionStatus.none, .withdrawn, .started] {
      let state = Self.classroom(status)
      #expect(state.authorize(Self.call(.withdraw), by: 1) == .wrongUsage, "\(status)")
      #expect(state.authorize(Self.call(.start), by: 2) == .wrongUsage, "\(status)")
    }
  }

  @Test func aStopAndABroadcastNeedStarted() {
    for status in Self.notStarted {
      let state = Self.classroom(status)
      #expect(state.authorize(Self.call(.stop), by: 1) == .wrongUsage, "\(status)")
      #expect(state.authorize(Self.call(.broadcast("Hi")), by: 2) == .wrongUsage, "\(status)")
    }
    let started = Self.classroom(.started)
    #expect(started.authorize(Self.call(.stop), by: 2) == .success)
  }

  @Test func aBroadcastIsOneTo512Characters() {
    let state = Self.started([4: "1-1"])
    let longest = String(repeating: "b", count: 512)
    #expect(state.authorize(Self.call(.broadcast(longest)), by: 1) == .success)
    #expect(state.authorize(Self.call(.broadcast("")), by: 1) == .invalidParameter)
    #expect(state.authorize(Self.call(.broadcast(longest + "b")), by: 1) == .invalidParameter)
    let wide = String(repeating: "🙂", count: 513)
    #expect(state.authorize(Self.call(.broadcast(wide)), by: 2) == .invalidParameter)
  }

  @Test func aMemberJoinsAListedSubSessionWhileStarted() {
    for status in Self.notStarted {
      let state = Self.classroom(status)
      #expect(state.authorize(Self.call(.join(subSessionID: "1-1")), by: 4) == .wrongUsage)
    }
    let state = Self.started([4: "1-1"])
    for user: UserID in [1, 2, 3, 5] {
      #expect(state.authorize(Self.call(.join(subSessionID: "1-2")), by: user) == .success)
    }
    #expect(state.authorize(Self.call(.join(subSessionID: "1-2")), by: 4) == .success)
    #expect(state.authorize(Self.call(.join(subSessionID: "9-9")), by: 3) == .invalidParameter)
    #expect(state.authorize(Self.call(.join(subSessionID: "")), by: 3) == .invalidParameter)
    #expect(state.authorize(Self.call(.join(subSessionID: "1-1")), by: 9) == .notInSession)
  }

  @Test func onlyAMemberInASubSessionReturnsOrAsksForHelp() {
    let state = Self.started([1: "1-2", 2: "1-2", 4: "1-1"])
    #expect(state.authorize(Self.call(.returnToMain), by: 4) == .success)
    #expect(state.authorize(Self.call(.returnToMain), by: 1) == .success)
    #expect(state.authorize(Self.call(.returnToMain), by: 3) == .wrongUsage)
    #expect(Self.classroom(.stopped).authorize(Self.call(.returnToMain), by: 4) == .wrongUsage)
    #expect(state.authorize(Self.call(.requestHelp), by: 4) == .success)
    #expect(state.authorize(Self.call(.requestHelp), by: 2) == .success, "a manager")
    #expect(state.authorize(Self.call(.requestHelp), by: 3) == .wrongUsage, "from main")
    #expect(state.authorize(Self.call(.requestHelp), by: 1) == .wrongUsage, "the host")
  }

  @Test func onlyTheHostAnswersHelpForAMemberInASubSession() {
    let state = Self.started([4: "1-1", 2: "1-2"])
    for join in [true, false] {
      let answer = Self.call(.answerHelp(requester: 4, join: join))
      #expect(state.authorize(answer, by: 1) == .success)
      #expect(state.authorize(answer, by: 2) == .sessionNoRights, "a manager")
      #expect(state.authorize(answer, by: 5) == .sessionNoRights)
      let mainRequester = Self.call(.answerHelp(requester: 3, join: join))
      #expect(state.authorize(mainRequester, by: 1) == .invalidParameter)
      let absent = Self.call(.answerHelp(requester: 9, join: join))
      #expect(state.authorize(absent, by: 1) == .invalidParameter)
    }
  }

  @Test func aShareStartsInTheCallersPlaceAlone() {
    var state = Self.started([1: "1-2", 3: "1-1", 4: "1-1", 5: "1-2"])
    #expect(state.authorize(.startShare(kind: .view), by: 4) == .success)
    applyAll([Self.share(4)], to: &state)
    #expect(state.authorize(.startShare(kind: .view), by: 3) == .sessionShareError, "Ben, in Red")
    #expect(state.authorize(.startShare(kind: .view), by: 5) == .success, "in Blue")
    #expect(state.authorize(.startShare(kind: .view), by: 2) == .success, "in main")
    applyAll([Self.share(5)], to: &state)
    // The host takes over a participant's share in their own place.
    #expect(state.authorize(.startShare(kind: .view), by: 1) == .success)
    applyAll([Self.share(5, .stopped), Self.move(1, to: nil), Self.share(1)], to: &state)
    #expect(state.authorize(.startShare(kind: .view), by: 2) == .sessionShareError, "the host's")
    #expect(state.authorize(.startShare(kind: .view), by: 5) == .success, "Blue is free")
  }

  @Test func annotationChatAndCommandsStayInThePlace() {
    var state = Self.started([3: "1-1", 4: "1-1", 5: "1-2"])
    applyAll([Self.share(4), Self.share(1)], to: &state)
    #expect(state.authorize(.startAnnotation(shareOwner: 4), by: 3) == .success)
    #expect(state.authorize(.startAnnotation(shareOwner: 4), by: 5) == .sessionShareError)
    #expect(state.authorize(.startAnnotation(shareOwner: 4), by: 2) == .sessionShareError)
    #expect(state.authorize(.startAnnotation(shareOwner: 1), by: 2) == .success)
    #expect(state.authorize(.startAnnotation(shareOwner: 1), by: 3) == .sessionShareError)
    for (sender, receiver, allowed): (UserID, UserID, Bool) in [
      (3, 4, true), (4, 3, true), (1, 2, true), (3, 5, false), (5, 3, false), (1, 4, false),
      (4, 1, false),
    ] {
      let expected: VideoSDKError = allowed ? .success : .invalidParameter
      let chat = SessionCommand.sendChat(receiver: receiver, content: "psst")
      let command = SessionCommand.sendCommand(receiver: receiver, content: "ping")
      #expect(state.authorize(chat, by: sender) == expected, "chat \(sender) → \(receiver)")
      #expect(state.authorize(command, by: sender) == expected, "cmd \(sender) → \(receiver)")
    }
    // To everyone: not a private message, never refused for the place.
    #expect(state.authorize(.sendChat(receiver: nil, content: "all"), by: 5) == .success)
    #expect(state.authorize(.sendCommand(receiver: nil, content: "all"), by: 5) == .success)
    // Once the subsessions stop, everyone is together again.
    applyAll([Self.share(4, .stopped), Self.status(.stopped)], to: &state)
    #expect(state.authorize(.sendChat(receiver: 1, content: "back"), by: 5) == .success)
    #expect(state.authorize(.startAnnotation(shareOwner: 1), by: 5) == .success)
  }
}

// MARK: - 6. Snapshots

extension SubSessionRulesTests {
  /// The classroom with the subsessions started: Ada and Ben in Red, Cy in Blue; Ben shares
  /// in Red with Ada annotating, the host shares in the main session (single share).
  static var placedSnapshot: SessionSnapshot {
    var builder = SessionBuilder.classroom
    builder.startShare(of: 4, annotators: [3])
    builder.startShare(of: 1)
    var snapshot = builder.snapshot
    snapshot.subSessions = board(.started, list, [3: "1-1", 4: "1-1", 5: "1-2"])
    return snapshot
  }

  /// `placedSnapshot` with its board replaced.
  static func placedSnapshot(_ board: SubSessionBoard) -> SessionSnapshot {
    var snapshot = placedSnapshot
    snapshot.subSessions = board
    return snapshot
  }

  @Test func aSnapshotWithABoardIsTheStateTheEventsBuilt() throws {
    let state = try SessionState(snapshot: Self.placedSnapshot)
    expectSound(state)
    var byEvents = Self.started([3: "1-1", 4: "1-1", 5: "1-2"])
    applyAll(
      [Self.share(4), Self.share(1), .annotationStarted(user: 3, shareOwner: 4)], to: &byEvents)
    #expect(state == byEvents, "\(difference(state, byEvents))")
    #expect(state.subSessions == Self.placedSnapshot.subSessions)
    // Round trip: the snapshot it gives another member, and this member again.
    let again = try SessionState(snapshot: state.snapshot(for: 3, sequence: 12))
    #expect(again == state)
    let cy = try SessionState(snapshot: state.snapshot(for: 5, sequence: 12))
    #expect(cy.subSessions == state.subSessions)
    #expect(cy.myselfID == 5)
  }

  @Test(arguments: [SubSessionStatus.none, .committed, .withdrawn, .stopped])
  func aSnapshotWithAListAndNobodyInASubSessionIsAdopted(_ status: SubSessionStatus) throws {
    let list = status == .none || status == .withdrawn ? [] : Self.list
    var builder = SessionBuilder.classroom
    builder.startShare(of: 4)
    var snapshot = builder.snapshot
    snapshot.subSessions = Self.board(status, list)
    let state = try SessionState(snapshot: snapshot)
    #expect(state.subSessions == Self.board(status, list))
    expectSound(state)
  }

  static let badBoards: [(String, SubSessionBoard)] = [
    ("a member in an unlisted subsession", board(.started, list, [4: "9-9"])),
    ("members while committed", board(.committed, list, [4: "1-1"])),
    ("members while stopped", board(.stopped, list, [4: "1-1"])),
    ("members and no list", board(.none, [], [4: "1-1"])),
    ("a list with status none", board(.none, list)),
    ("a list while withdrawn", board(.withdrawn, list)),
    ("an absent member", board(.started, list, [9: "1-1"])),
    ("started with no list", board(.started, [])),
    ("a repeated id", board(.committed, [red, SubSession(id: "1-1", name: "Other")])),
    ("an empty name", board(.committed, [SubSession(id: "1-1", name: "")])),
    ("status stopping", board(.stopping, list)),
    ("status startFailed", board(.startFailed, list)),
  ]

  @Test func aSnapshotWithABadBoardIsRefused() {
    let inSession = Self.started([4: "1-1"])
    for (label, board) in Self.badBoards {
      var builder = SessionBuilder.classroom
      builder.startShare(of: 1)
      var snapshot = builder.snapshot
      snapshot.subSessions = board
      Self.expectInvalid(snapshot, label)
      // A resync with it leaves the session as it was.
      expectRejects(.sessionJoined(snapshot), in: inSession, .invalidSnapshot)
    }
  }

  @Test func aSnapshotWithSharesAcrossPlacesIsRefused() {
    // Two shares in Red in single share.
    var twoInRed = SessionBuilder.classroom
    twoInRed.startShare(of: 4)
    twoInRed.startShare(of: 3)
    var snapshot = twoInRed.snapshot
    snapshot.subSessions = Self.board(.started, Self.list, [3: "1-1", 4: "1-1"])
    Self.expectInvalid(snapshot, "two shares in Red")
    snapshot.shareSetting = .multi
    #expect((try? SessionState(snapshot: snapshot)) != nil, "multi share allows them")
    // Two shares in the main session, with members elsewhere.
    snapshot.shareSetting = .single
    snapshot.subSessions = Self.board(.started, Self.list, [5: "1-2"])
    Self.expectInvalid(snapshot, "two shares in main")
    // An annotator in the main session on a share in Red.
    Self.expectInvalid(
      Self.placedSnapshot(Self.board(.started, Self.list, [4: "1-1", 5: "1-2"])),
      "an annotator outside the share's place")
  }

  static func expectInvalid(
    _ snapshot: SessionSnapshot, _ label: String,
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    do {
      let state = try SessionState(snapshot: snapshot)
      Issue.record(
        "\(label): adopted \(state.subSessions)", sourceLocation: sourceLocation)
    } catch {
      #expect(error.code == .invalidSnapshot, "\(label): \(error)", sourceLocation: sourceLocation)
    }
  }

  @Test func aStateWithABoardSurvivesJSON() throws {
    let state = try SessionState(snapshot: Self.placedSnapshot)
    let data = try JSONEncoder().encode(state)
    let decoded = try JSONDecoder().decode(SessionState.self, from: data)
    #expect(decoded == state, "\(difference(decoded, state))")
    #expect(decoded.subSessions == state.subSessions)
    #expect(decoded.orderedUserIDs == state.orderedUserIDs)
    let snapshot = try JSONDecoder().decode(
      SessionSnapshot.self, from: JSONEncoder().encode(Self.placedSnapshot))
    #expect(snapshot == Self.placedSnapshot)
    // A state without subsessions writes no board, as before subsessions existed.
    let plain = try JSONEncoder().encode(Self.classroom(.none))
    #expect(!String(decoding: plain, as: UTF8.self).contains("subSessions"))
    #expect(try JSONDecoder().decode(SessionState.self, from: plain) == Self.classroom(.none))
  }

  @Test func aDecodedStateWithABrokenBoardIsRefused() throws {
    var broken = try SessionState(snapshot: Self.placedSnapshot)
    broken.subSessions.status = .stopped  // members in subsessions that are not started
    #expect(!broken.checkInvariants().isEmpty)
    let data = try JSONEncoder().encode(broken)
    #expect(throws: DecodingError.self) {
      try JSONDecoder().decode(SessionState.self, from: data)
    }
  }
}

// MARK: - 7. Random sequences

extension SubSessionRulesTests {
  static let seeds = 20
  static let eventsPerSeed = 300

  @Test(arguments: 0..<seeds)
  func randomSubSessionAndShareEventsKeepSharesInTheirPlace(seed: Int) {
    let outcome = SubSessionRun.run(seed: UInt64(seed), events: Self.eventsPerSeed)
    guard !outcome.failed else { return }
    #expect(outcome.applied >= 60, "seed \(seed): only \(outcome.applied) applied")
    #expect(outcome.rejected >= 30, "seed \(seed): only \(outcome.rejected) rejected")
  }

  @Test func theRandomRunsReachEveryPlaceRule() {
    var total = SubSessionRun.Outcome()
    for seed in 0..<Self.seeds {
      let outcome = SubSessionRun.run(seed: UInt64(seed), events: Self.eventsPerSeed)
      total.failed = total.failed || outcome.failed
      total.appliedKinds.formUnion(outcome.appliedKinds)
      total.codes.formUnion(outcome.codes)
      total.sharesInTwoPlaces += outcome.sharesInTwoPlaces
      total.annotationsInSubSessions += outcome.annotationsInSubSessions
    }
    guard !total.failed else { return }
    let kinds: Set<String> = [
      "committed", "withdrawn", "started", "stopped", "moved", "returned", "broadcast",
      "helpRequested", "helpResult", "shareStarted", "shareStopped", "annotationStarted",
      "annotationStopped", "usersLeft", "usersJoined", "shareSettingChanged",
    ]
    #expect(kinds.subtracting(total.appliedKinds).isEmpty, "never applied")
    let codes: Set<EventRejection.Code> = [
      .subSessionNotAllowed, .noChange, .unknownUser, .shareNotAllowed, .annotationNotAllowed,
    ]
    #expect(codes.subtracting(total.codes).isEmpty, "never refused with")
    #expect(total.sharesInTwoPlaces > 0, "never two single shares in two places")
    #expect(total.annotationsInSubSessions > 0, "never an annotation inside a subsession")
  }
}

/// Random subsession, share and annotation events on a session of eight: 1 host, 2 manager,
/// 3 (myself) to 8 participants; now and then one leaves and a new one joins.
///
/// After every event: a rejected event changed nothing; the invariants hold; every annotator
/// is in the share owner's place; without multi-share, no two shares are in one place.
struct SubSessionRun {
  var random: SimulationRandom
  var commits = 0
  var nextUserID: UInt32 = 9

  struct Outcome {
    var failed = false
    var applied = 0
    var rejected = 0
    var appliedKinds: Set<String> = []
    var codes: Set<EventRejection.Code> = []
    var sharesInTwoPlaces = 0
    var annotationsInSubSessions = 0
  }

  static func run(seed: UInt64, events count: Int) -> Outcome {
    var run = SubSessionRun(random: SimulationRandom(seed: seed))
    let users = (1...8).map { id in
      participant(UserID(UInt32(id)), role: id == 1 ? .host : id == 2 ? .manager : .participant)
    }
    var builder = SessionBuilder(participants: users)
    builder.shareSetting = seed % 4 == 3 ? .locked : .single
    var state = builder.build()
    var outcome = Outcome()
    for step in 0..<count {
      let (event, kind) = run.next(for: state)
      let before = state
      let rejection = state.apply(event)
      func fail(_ what: String) {
        Issue.record("seed \(seed), step \(step), \(event): \(what)")
        outcome.failed = true
      }
      if let rejection {
        outcome.rejected += 1
        outcome.codes.insert(rejection.code)
        guard state == before, state.orderedUserIDs == before.orderedUserIDs else {
          fail("rejected (\(rejection)) but changed \(difference(state, before))")
          return outcome
        }
      } else {
        outcome.applied += 1
        outcome.appliedKinds.insert(kind)
      }
      let violations = state.checkInvariants()
      guard violations.isEmpty else {
        fail("invariants broken: \(violations)")
        return outcome
      }
      let board = state.subSessions
      for share in state.sharesInStartOrder {
        for annotator in share.annotators.sorted() where !board.together(annotator, share.owner) {
          fail("\(annotator) annotates on \(share.owner)'s share from another place")
          return outcome
        }
        if !share.annotators.isEmpty, board.rooms[share.owner] != nil {
          outcome.annotationsInSubSessions += 1
        }
      }
      let places = state.sharesInStartOrder.map { board.rooms[$0.owner] }
      if state.shareSetting != .multi {
        guard Set(places).count == places.count else {
          fail("two shares in one place without multi-share: \(places)")
          return outcome
        }
        if places.count > 1 { outcome.sharesInTwoPlaces += 1 }
      }
      if !board.isStarted, !board.rooms.isEmpty {
        fail("members in subsessions while \(board.status)")
        return outcome
      }
    }
    return outcome
  }

  /// A present user mostly; now and then one nobody is.
  mutating func user(_ state: SessionState) -> UserID {
    if random.chance(95), let id = random.pick(state.orderedUserIDs) { return id }
    return UserID(99)
  }

  /// The next event and a label for the coverage tally.
  mutating func next(for state: SessionState) -> (SessionEvent, String) {
    let board = state.subSessions
    switch random.below(100) {
    case 0..<6:
      commits += 1
      var list = (0..<(1 + random.below(3))).map {
        SubSession(id: "\(commits)-\($0 + 1)", name: "Group \($0 + 1)")
      }
      if random.chance(10) { list = random.chance(50) ? [] : list + list }
      return (.subSession(.statusChanged(.committed, list)), "committed")
    case 6..<9:
      return (.subSession(.statusChanged(.withdrawn, [])), "withdrawn")
    case 9..<15:
      let list = random.chance(90) ? board.list : [SubSession(id: "0-1", name: "Old")]
      return (.subSession(.statusChanged(.started, list)), "started")
    case 15..<19:
      let status: SubSessionStatus = random.chance(85) ? .stopped : .stopping
      return (.subSession(.statusChanged(status, board.list)), "stopped")
    case 19..<40:
      let destination = random.chance(90) ? (random.pick(board.list)?.id ?? "1-1") : "9-9"
      return (.subSession(.userMoved(user(state), to: destination)), "moved")
    case 40..<48:
      return (.subSession(.userMoved(user(state), to: nil)), "returned")
    case 48..<50:
      return (.subSession(.broadcast(from: user(state), message: "Back in 5")), "broadcast")
    case 50..<52:
      let id = random.chance(90) ? (random.pick(board.list)?.id ?? "1-1") : "9-9"
      return (.subSession(.helpRequested(by: user(state), subSessionID: id)), "helpRequested")
    case 52..<53:
      let result = random.pick(SubSessionHelpResult.allCases) ?? .idle
      return (.subSession(.helpResult(result)), "helpResult")
    case 53..<66:
      return (.shareStatusChanged(user: user(state), status: .started, kind: .view), "shareStarted")
    case 66..<74:
      let owner = random.pick(state.sharesInStartOrder)?.owner ?? user(state)
      let status: ShareStatus = random.chance(25) ? .paused : .stopped
      return (.shareStatusChanged(user: owner, status: status, kind: .view), "shareStopped")
    case 74..<88:
      let owner = random.pick(state.sharesInStartOrder)?.owner ?? user(state)
      return (.annotationStarted(user: user(state), shareOwner: owner), "annotationStarted")
    case 88..<93:
      let share = random.pick(state.sharesInStartOrder)
      let annotator = random.pick(share?.annotators.sorted() ?? []) ?? user(state)
      let owner = share?.owner ?? user(state)
      return (.annotationStopped(user: annotator, shareOwner: owner), "annotationStopped")
    case 93..<95:
      let setting = random.pick([ShareSetting.single, .locked, .multi]) ?? .single
      return (.shareSettingChanged(setting), "shareSettingChanged")
    case 95..<97:
      let others = state.orderedUserIDs.filter { $0 != state.myselfID }
      return (.usersLeft([random.pick(others) ?? 99]), "usersLeft")
    default:
      let id = UserID(nextUserID)
      nextUserID += 1
      return (.usersJoined([participant(id, joinOrder: UInt64(id.rawValue))]), "usersJoined")
    }
  }
}
