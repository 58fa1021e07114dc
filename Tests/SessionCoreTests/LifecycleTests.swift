import Testing

@testable import SessionCore

@Suite("Lifecycle: initialize, join, leave, fail, clean up")
struct LifecycleTests {
  @Test func initializedMovesIdleToInitialized() {
    var state = SessionState()
    expectApplies(.initialized, to: &state) { $0.phase = .initialized }
  }

  @Test func joinRequestedRecordsTheSessionNameAndStartsJoining() {
    var state = Phase.initialized.state
    expectApplies(.joinRequested(sessionName: "Physics", userName: "Ada"), to: &state) {
      $0.phase = .joining
      $0.sessionName = "Physics"
    }
  }

  @Test func joinRequestedAfterLeavingForgetsTheOldSessionButKeepsTheLastError() {
    var state = Phase.left.state
    applyAll([.errorOccurred(error: .sessionAudioError, detail: 7)], to: &state)
    expectApplies(.joinRequested(sessionName: "Physics", userName: "Ada"), to: &state) {
      $0.phase = .joining
      $0.sessionName = "Physics"
    }
    #expect(state.lastError == .sessionAudioError)
    #expect(state.participants.isEmpty)
  }

  @Test func joinRequestedAfterAFailedJoinStartsJoiningAgain() {
    var state = Phase.failed.state
    expectApplies(.joinRequested(sessionName: "Algebra101", userName: "Ada"), to: &state) {
      $0.phase = .joining
    }
  }

  @Test func sessionJoinedTakesEveryFactFromTheSnapshot() {
    var state = Phase.joining.state
    var builder = SessionBuilder.classroom
    builder.sessionID = "service-42"
    builder.shareSetting = .multi
    builder.chatPrivilege = .everyonePublicly
    builder.activeSpeakers = [1, 4]
    builder.participants[0].audio = AudioStatus(type: .voip, isMuted: false, isTalking: true)
    builder.participants[3].audio = AudioStatus(type: .telephony, isMuted: false, isTalking: true)
    builder.participants[1].isVideoOn = true
    builder.participants[4].customUserKey = "cy-key"
    builder.startShare(of: 1, annotators: [1, 3])
    builder.startShare(of: 2, status: .paused)
    let snapshot = builder.snapshot
    expectApplies(.sessionJoined(snapshot), to: &state) { expected in
      expected.phase = .inSession
      expected.sessionName = "Algebra101"
      expected.sessionID = "service-42"
      expected.myselfID = 3
      expected.participants = UserMap(
        Dictionary(uniqueKeysWithValues: snapshot.participants.map { ($0.id, $0) }))
      expected.hostID = 1
      expected.shareSetting = .multi
      expected.shares = Dictionary(uniqueKeysWithValues: snapshot.shares.map { ($0.owner, $0) })
      expected.chatPrivilege = .everyonePublicly
      expected.activeSpeakers = [1, 4]
    }
    #expect(state.orderedUserIDs == [1, 2, 3, 4, 5])
    #expect(state.chatMessages.isEmpty)
  }

  @Test func sessionJoinedWhileInSessionResynchronisesFromTheSnapshot() {
    var state = SessionBuilder.classroom.build()
    applyAll(
      [
        .chatMessageReceived(
          ChatMessage(id: "m1", sender: 1, receiver: nil, content: "hi", timestamp: 1)),
        .hostAskedUnmute(by: 1),
      ], to: &state)
    var builder = SessionBuilder.classroom
    builder.participants.removeLast()
    let fresh = builder.build()
    expectApplies(.sessionJoined(builder.snapshot), to: &state) { $0 = fresh }
    #expect(state.chatMessages.isEmpty)
    #expect(state.unmuteRequestedBy == nil)
  }

  @Test func joinFailedRecordsTheErrorAndEndsTheJoin() {
    var state = Phase.joining.state
    expectApplies(.joinFailed(error: .joinSessionInvalidPassword), to: &state) {
      $0.phase = .failed(.joinSessionInvalidPassword)
      $0.lastError = .joinSessionInvalidPassword
    }
  }

  @Test func leaveRequestedMovesToLeavingAndKeepsTheSession() {
    var state = Phase.inSession.state
    expectApplies(.leaveRequested, to: &state) { $0.phase = .leaving }
    #expect(state.participants.count == 5)
  }

  @Test(arguments: [Phase.inSession, .leaving])
  func sessionLeftEndsTheSessionKeepingOnlyItsNameAndTheLastError(from phase: Phase) {
    var state = phase.state
    applyAll([.errorOccurred(error: .sessionVideoError, detail: 0)], to: &state)
    expectApplies(.sessionLeft(reason: .endByHost), to: &state) { expected in
      expected = SessionState()
      expected.phase = .left(.endByHost)
      expected.sessionName = "Algebra101"
      expected.lastError = .sessionVideoError
    }
    #expect(state.orderedUserIDs.isEmpty)
    #expect(state.myself == nil)
  }

  @Test(arguments: [Phase.initialized, .left, .failed])
  func cleanedUpReturnsToAFreshState(from phase: Phase) {
    var state = phase.state
    expectApplies(.cleanedUp, to: &state) { $0 = SessionState() }
  }

  @Test(arguments: Phase.allCases)
  func errorOccurredRecordsTheErrorInEveryPhase(phase: Phase) {
    var state = phase.state
    expectApplies(.errorOccurred(error: .sessionShareError, detail: 3), to: &state) {
      $0.lastError = .sessionShareError
    }
  }

  /// For each lifecycle event (and a representative in-session event), the phases in which it
  /// applies; in every other phase it is rejected as `outOfPhase`.
  static let allowedPhases: [(SessionEvent, Set<Phase>)] = [
    (.initialized, [.idle]),
    (.cleanedUp, [.initialized, .left, .failed]),
    (.joinRequested(sessionName: "Algebra101", userName: "Ada"), [.initialized, .left, .failed]),
    (.sessionJoined(SessionBuilder.classroom.snapshot), [.joining, .inSession]),
    (.joinFailed(error: .sessionJoinFailed), [.joining]),
    (.leaveRequested, [.inSession]),
    (.sessionLeft(reason: .bySelf), [.inSession, .leaving]),
    (.errorOccurred(error: .unknown, detail: 0), Set(Phase.allCases)),
    (.videoStatusChanged(user: 4, isOn: true), [.inSession, .leaving]),
    (.chatPrivilegeChanged(.noOne), [.inSession, .leaving]),
    (.shareSettingChanged(.multi), [.inSession, .leaving]),
  ]

  @Test(arguments: Phase.allCases)
  func eventsApplyOnlyInTheirPhases(phase: Phase) {
    for (event, allowed) in Self.allowedPhases {
      if allowed.contains(phase) {
        var state = phase.state
        #expect(state.apply(event) == nil, "\(event.name) in \(phase)")
        expectSound(state)
      } else {
        expectRejects(event, in: phase.state, .outOfPhase)
      }
    }
  }

  @Test func sessionEventsStillApplyWhileLeaving() {
    var state = Phase.leaving.state
    expectApplies(.usersLeft([4]), to: &state) { $0.participants[4] = nil }
  }

  @Test func aSnapshotOutOfJoinOrderAppliesAsTheSameSnapshotInOrder() throws {
    var builder = SessionBuilder.classroom
    let ordered = try SessionState(snapshot: builder.snapshot)
    builder.participants.reverse()
    let reversed = try SessionState(snapshot: builder.snapshot)
    #expect(reversed == ordered)
    #expect(reversed.orderedUserIDs == ordered.orderedUserIDs)
    #expect(reversed.participants.values.map(\.joinOrder).sorted() == [1, 2, 3, 4, 5])
  }

  @Test func stateBuiltFromASnapshotIsInSession() throws {
    let state = try SessionState(snapshot: SessionBuilder.classroom.snapshot)
    #expect(state.phase == .inSession)
    #expect(state.isInSession)
    #expect(state.sessionName == "Algebra101")
    #expect(state.myselfID == 3)
    expectSound(state)
  }

  @Test func phaseHelpersSayWhereEventsAndJoinsApply() {
    #expect(SessionPhase.inSession.acceptsSessionEvents)
    #expect(SessionPhase.leaving.acceptsSessionEvents)
    #expect(!SessionPhase.joining.acceptsSessionEvents)
    #expect(!SessionPhase.left(.bySelf).acceptsSessionEvents)
    #expect(SessionPhase.left(.networkError).canJoin)
    #expect(SessionPhase.failed(.authError).canJoin)
    #expect(SessionPhase.initialized.canJoin)
    #expect(!SessionPhase.idle.canJoin)
    #expect(!SessionPhase.inSession.canJoin)
  }
}

@Suite("Snapshots: every inconsistency is rejected as invalidSnapshot")
struct SnapshotTests {
  /// A named way to spoil the classroom snapshot.
  struct Spoiler: CustomTestStringConvertible, Sendable {
    var name: String
    var spoil: @Sendable (inout SessionBuilder) -> Void
    var testDescription: String { name }
  }

  static let spoilers: [Spoiler] = [
    Spoiler(name: "a user listed twice") { $0.participants.append(participant(4, "Ben again")) },
    Spoiler(name: "a join order listed twice") {
      $0.participants.append(participant(6, joinOrder: 4))
    },
    Spoiler(name: "two hosts") { $0.participants[1].role = .host },
    Spoiler(name: "myself absent") { $0.myself = 9 },
    Spoiler(name: "two shares in single share") {
      $0.startShare(of: 1)
      $0.startShare(of: 2)
    },
    Spoiler(name: "a share while sharing is off") {
      $0.shareSetting = .none
      $0.startShare(of: 1)
    },
    Spoiler(name: "a share whose owner says otherwise") {
      $0.startShare(of: 1)
      $0.participants[0].shareStatus = .paused
    },
    Spoiler(name: "a share whose owner is absent") {
      $0.shares = [ActiveShare(owner: 9)]
    },
    Spoiler(name: "a share that is not live") { $0.startShare(of: 1, status: .stopped) },
    Spoiler(name: "an annotator who is absent") { $0.startShare(of: 1, annotators: [9]) },
    Spoiler(name: "a sharer without a share") { $0.participants[3].shareStatus = .started },
    Spoiler(name: "a speaker who is absent") { $0.activeSpeakers = [9] },
    Spoiler(name: "a speaker listed twice") { $0.activeSpeakers = [4, 4] },
  ]

  @Test(arguments: spoilers)
  func inconsistentSnapshotIsRejected(spoiler: Spoiler) {
    var builder = SessionBuilder.classroom
    spoiler.spoil(&builder)
    expectRejects(.sessionJoined(builder.snapshot), in: Phase.joining.state, .invalidSnapshot)
    #expect(throws: EventRejection.self) { try SessionState(snapshot: builder.snapshot) }
  }

  @Test func snapshotWithSeveralSharesAppliesInMultiShare() {
    var builder = SessionBuilder.classroom
    builder.shareSetting = .multi
    builder.startShare(of: 1)
    builder.startShare(of: 4, status: .resumed)
    let state = builder.build()
    #expect(state.sharesInStartOrder.map(\.owner) == [1, 4])
  }

  @Test func snapshotWithoutAHostApplies() {
    var builder = SessionBuilder.classroom
    builder.participants.removeFirst()
    let state = builder.build()
    #expect(state.hostID == nil)
    #expect(state.orderedUserIDs == [2, 3, 4, 5])
  }
}

@Suite struct SnapshotListTests {
  private func roster(_ count: Int) -> UserMap<Participant> {
    var participants = UserMap<Participant>()
    for id in 0..<count {
      participants[UserID(rawValue: UInt32(id + 1))] = participant(UserID(rawValue: UInt32(id + 1)))
    }
    return participants
  }

  @Test(arguments: [0, 1, 16, 17, 300, 1_000, 1_024, 1_025])
  func aSnapshotListsEveryoneInMapOrder(count: Int) {
    let participants = roster(count)
    let list = SessionState.snapshotList(of: participants)
    #expect(list == Array(participants.values))
    #expect(list.capacity >= count)
  }

  @Test func consecutiveSnapshotsOfAGrowingRosterAskForTheSameRoom() {
    // 513 to 1,024 participants: one size of allocation, so each reuses the last one's memory.
    let capacities = Set(
      [513, 700, 999, 1_000, 1_024].map { SessionState.snapshotList(of: roster($0)).capacity })
    #expect(capacities.count == 1)
    #expect(capacities.first.map { $0 < 2 * 1_024 } == true)
  }
}
