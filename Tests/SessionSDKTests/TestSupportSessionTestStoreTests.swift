import SessionCore
import SessionSDK
import SessionTestSupport
import Testing

@Suite("Test support: SessionTestStore")
struct TestSupportSessionTestStoreTests {
  /// Grace (1, host), Ada (2, myself), Alan (3).
  static func classroomState() throws -> SessionState {
    try SessionState(
      snapshot: SessionSnapshot(
        sessionName: "Algebra101", sessionID: "S1", myself: 2,
        participants: [
          Participant(id: 1, name: "Grace", role: .host, joinOrder: 1),
          Participant(id: 2, name: "Ada", joinOrder: 2),
          Participant(id: 3, name: "Alan", joinOrder: 3),
        ]))
  }

  @Test func aSessionFromJoinToLeaveIsDescribedExactly() throws {
    let store = SessionTestStore()
    store.send(.initialized) { $0.phase = .initialized }
    store.send(.joinRequested(sessionName: "Algebra101", userName: "Ada")) {
      $0.phase = .joining
      $0.sessionName = "Algebra101"
    }
    let joined = try Self.classroomState()
    store.send(.sessionJoined(joined.snapshot(for: 2, sequence: 0))) {
      $0 = SessionStateFields(joined)
    }
    store.receive([.onSessionJoin, .onUserJoin([1, 2, 3]), .onCmdChannelConnectResult(true)])
    store.send(.videoStatusChanged(user: 2, isOn: true)) { $0.myself?.isVideoOn = true }
    store.receive(.onUserVideoStatusChanged([2]))
    store.send(.managerChanged(user: 3, isManager: true)) { $0.participants[3]?.role = .manager }
    store.receive(.onUserManagerChanged(3))
    #expect(store.state.orderedUserIDs == [1, 3, 2])
    store.send(.usersLeft([9]), rejectedWith: .unknownUser)
    store.send(.managerChanged(user: 3, isManager: true), rejectedWith: .noChange)
    store.send(.sessionLeft(reason: .endByHost)) {
      $0 = SessionStateFields(SessionState())
      $0.phase = .left(.endByHost)
      $0.sessionName = "Algebra101"
    }
    store.receive([.onSessionLeave(.endByHost), .onSessionLeaveLegacy])
    store.finish()
  }

  @Test func anUndescribedChangeFailsWithAFieldByFieldDiff() throws {
    let store = SessionTestStore(initialState: try Self.classroomState())
    withKnownIssue {
      store.send(.videoStatusChanged(user: 2, isOn: true))
    } matching: {
      $0.mentions(
        "State after videoStatusChanged differs",
        "participants[#2].isVideoOn: expected false, got true")
    }
    store.receive([.onUserVideoStatusChanged([2])])
    withKnownIssue {
      store.send(.nameChanged(user: 3, name: "Alan T.")) { $0.participants[3]?.name = "Alan" }
    } matching: {
      $0.mentions(#"participants[#3].name: expected Alan, got Alan T."#)
    }
    store.skipReceived()
  }

  @Test func callbacksMustBeReceivedInOrderBeforeTheNextSend() throws {
    let store = SessionTestStore(initialState: try Self.classroomState())
    store.send(.videoStatusChanged(user: 1, isOn: true)) { $0.participants[1]?.isVideoOn = true }
    withKnownIssue {
      store.send(.videoStatusChanged(user: 3, isOn: true)) { $0.participants[3]?.isVideoOn = true }
    } matching: {
      $0.mentions(
        "1 callback(s) must be received before sending videoStatusChanged",
        "onUserVideoStatusChanged([#1])")
    }
    withKnownIssue {
      store.receive([.onUserVideoStatusChanged([1])])
    } matching: {
      $0.mentions(
        "Received callbacks differ", "expected onUserVideoStatusChanged([#1])",
        "got      onUserVideoStatusChanged([#3])")
    }
    withKnownIssue {
      store.receive([.onUserJoin([4])])
    } matching: {
      $0.mentions("expected onUserJoin([#4])", "got      nothing")
    }
  }

  @Test func unreceivedCallbacksFailAtFinishAndWhenTheStoreEnds() throws {
    let state = try Self.classroomState()
    withKnownIssue {
      let store = SessionTestStore(initialState: state)
      store.send(.hostChanged(newHost: 2)) {
        $0.participants[1]?.role = .participant
        $0.participants[2]?.role = .host
        $0.hostID = 2
      }
      store.finish()
    } matching: {
      $0.mentions("1 callback(s) were derived but not received", "onUserHostChanged(#2)")
    }
    withKnownIssue {
      let store = SessionTestStore(initialState: state)
      store.send(.chatPrivilegeChanged(.noOne)) { $0.chatPrivilege = .noOne }
    } matching: {
      $0.mentions("onChatPrivilegeChanged(ChatPrivilege.noOne)")
    }
  }

  @Test func aRejectionIsAFailureUnlessExpected() throws {
    let store = SessionTestStore(initialState: try Self.classroomState())
    withKnownIssue {
      store.send(.usersLeft([2]))
    } matching: {
      $0.mentions("usersLeft was rejected", "invalidTarget")
    }
    withKnownIssue {
      store.send(.videoStatusChanged(user: 3, isOn: true), rejectedWith: .unknownUser)
    } matching: {
      $0.mentions(
        "videoStatusChanged applied; expected a rejection (unknownUser)",
        "participants[#3].isVideoOn: expected false, got true")
    }
    #expect(store.state.participants[3]?.isVideoOn == false, "the store keeps the state as it was")
    withKnownIssue {
      store.send(.hostChanged(newHost: 1), rejectedWith: .unknownUser)
    } matching: {
      $0.mentions("rejected with noChange, expected unknownUser")
    }
  }

  @Test func annotationHelperOwnersDriveTheCleanUpCallbacks() throws {
    var state = try Self.classroomState()
    try state.reduce(.shareStatusChanged(user: 1, status: .started, kind: .view))
    let store = SessionTestStore(initialState: state)
    store.annotationHelperOwners = [1]
    store.send(.annotationStarted(user: 2, shareOwner: 1)) { $0.shares[1]?.annotators = [2] }
    store.send(.shareStatusChanged(user: 1, status: .stopped, kind: .view)) {
      $0.shares[1] = nil
      $0.participants[1]?.shareStatus = .stopped
    }
    store.receive(
      .onUserShareStatusChanged(1, .stopped, .view), .onAnnotationHelperCleanUp(shareOwner: 1))
    #expect(store.annotationHelperOwners.isEmpty)
    store.finish()
  }

  @Test func withExhaustivityOffOnlyWhatIsAssertedIsChecked() throws {
    let store = SessionTestStore(initialState: try Self.classroomState())
    store.exhaustivity = .off
    store.send(.videoStatusChanged(user: 1, isOn: true))
    store.send(.audioStatusChanged(user: 3, type: .voip, isMuted: false)) {
      $0.participants[3]?.audio.type = .voip
    }
    store.receive([.onUserAudioStatusChanged([3])])
    withKnownIssue {
      store.send(.videoStatusChanged(user: 3, isOn: true)) { $0.participants[3]?.isVideoOn = false }
    } matching: {
      $0.mentions("participants[#3].isVideoOn: expected false, got true")
    }
    withKnownIssue {
      store.receive([.onUserJoin([3])])
    } matching: {
      $0.mentions("Expected callbacks were not received")
    }
    store.finish()
  }

  @Test func aReplayedTraceIsDescribedAsAWholeAndItsCallbacksReceived() throws {
    let store = SessionTestStore(initialState: try Self.classroomState())
    let trace = Trace(events: [
      AppliedEvent(sequence: 1, timestamp: 0, event: .videoStatusChanged(user: 1, isOn: true)),
      AppliedEvent(sequence: 2, timestamp: 0, event: .managerChanged(user: 3, isManager: true)),
      AppliedEvent(sequence: 3, timestamp: 0, event: .usersLeft([2])),
    ])
    withKnownIssue {
      store.replay(trace) {
        $0.participants[1]?.isVideoOn = true
        $0.participants[3]?.role = .manager
      }
    } matching: {
      $0.mentions("trace line 4", "invalidTarget")
    }
    store.receive(.onUserVideoStatusChanged([1]), .onUserManagerChanged(3))
    store.finish()
  }
}
