import SessionCore
import SessionSDK
import SessionTestSupport
import Testing

/// Subsessions described exhaustively on both sides with ``SDKTestStore``: every call's
/// result, every callback in order, every change to the replica.
@MainActor
@Suite("Subsessions, exhaustively")
struct SubSessionStoreTests {
  let testbed = SessionTestbed(sessionName: "Breakout")
  let teacher: SDKTestStore
  let ada: SDKTestStore
  let bob: SDKTestStore
  let group = SubSession(id: "1-1", name: "Group 1")
  /// The handles each member's callbacks give (the stores listen through the observer, so the
  /// delegate slot keeps them).
  let handles = [Handles(), Handles(), Handles()]

  final class Handles: VideoSDKDelegate {
    var manager: SubSessionManager?
    var participant: SubSessionParticipant?
    var kits: [SubSessionKit] = []
    var help: SubSessionUserHelpRequestHandler?

    func onSubSessionStatusChanged(_ status: SubSessionStatus, subSession: [SubSessionKit]) {
      kits = subSession
    }
    func onSubSessionManagerHandle(_ manager: SubSessionManager?) { self.manager = manager }
    func onSubSessionParticipantHandle(_ participant: SubSessionParticipant?) {
      self.participant = participant
    }
    func onSubSessionUserHelpRequestHandler(_ handler: SubSessionUserHelpRequestHandler) {
      help = handler
    }
  }

  /// The teacher (host, 1), Ada (2) and Bob (3), joined and described.
  init() throws {
    teacher = SDKTestStore(testbed.makeSDK(), in: testbed)
    ada = SDKTestStore(testbed.makeSDK(), in: testbed)
    bob = SDKTestStore(testbed.makeSDK(), in: testbed)
    let testbed = testbed
    for (store, keeper) in zip([teacher, ada, bob], handles) { store.sdk.delegate = keeper }
    for (store, name, role, id) in [
      (teacher, "Teacher", TokenRole.host, UserID(1)), (ada, "Ada", .participant, 2),
      (bob, "Bob", .participant, 3),
    ] {
      store.perform(
        { $0.joinSession(testbed.context(name, role: role)) },
        assert: { expected in
          guard let service = testbed.serviceState() else { return }
          expected = .member(id, of: service)
        })
    }
    let audio = VideoSDKCallback.onUserAudioStatusChanged
    teacher.receive(.onSessionJoin, .onUserJoin([1]), audio([1]), .onCmdChannelConnectResult(true))
    ada.receive(
      .onSessionJoin, .onUserJoin([1, 2]), audio([2]), .onCmdChannelConnectResult(true))
    bob.receive(
      .onSessionJoin, .onUserJoin([1, 2, 3]), audio([3]), .onCmdChannelConnectResult(true))
    let adaParticipant = try #require(ada.state.myself)
    let bobParticipant = try #require(bob.state.myself)
    teacher.receive(.onUserJoin([2]), audio([2])) { $0.participants[2] = adaParticipant }
    teacher.receive(.onUserJoin([3]), audio([3])) { $0.participants[3] = bobParticipant }
    ada.receive(.onUserJoin([3]), audio([3])) { $0.participants[3] = bobParticipant }
  }

  @Test func aGroupOpensAdaMovesInAndEveryoneComesBack() throws {
    let list = [group]
    teacher.perform(
      { sdk -> VideoSDKError in
        sdk.getsubSessionHelper().addSubSession(toPreList: ["Group 1"])
        return sdk.getsubSessionHelper().commitSubSessionList()
      }, returns: VideoSDKError.success,
      assert: { $0.subSessions = SubSessionBoard(status: .committed, list: list) })
    teacher.receive(.onSubSessionStatusChanged(.committed, list), .onSubSessionManagerHandle(true))
    for store in [ada, bob] {
      store.receive(.onSubSessionStatusChanged(.committed, list)) {
        $0.subSessions = SubSessionBoard(status: .committed, list: list)
      }
    }
    let (teacherHandles, adaHandles) = (handles[0], handles[1])
    ada.perform(
      { _ in adaHandles.kits[0].joinSubSession() }, returns: .wrongUsage, assert: { _ in })

    #expect(teacher.sdk.getsubSessionHelper().getCommittedSubSessionList()?.count == 1)
    let started = SubSessionBoard(status: .started, list: list)
    teacher.perform(
      { _ in teacherHandles.manager?.startSubSession() ?? .wrongUsage }, returns: .success,
      assert: { $0.subSessions = started })
    teacher.receive(
      .onSubSessionStatusChanged(.started, list), .onSubSessionParticipantHandle(true))
    for store in [ada, bob] {
      store.receive(
        .onSubSessionStatusChanged(.started, list), .onSubSessionParticipantHandle(true)
      ) { $0.subSessions = started }
    }

    // Ada moves in: the others leave her view, she leaves theirs; everyone hears the update.
    let inGroup = SubSessionBoard(status: .started, list: list, rooms: [2: group.id])
    ada.perform(
      { _ in adaHandles.kits[0].joinSubSession() }, returns: .success,
      assert: { $0.subSessions = inGroup })
    ada.receive(.onUserLeave([1, 3]), .onSubSessionUsersUpdate(group))
    for store in [teacher, bob] {
      store.receive(.onUserLeave([2]), .onSubSessionUsersUpdate(group)) { $0.subSessions = inGroup }
    }

    // The broadcast reaches Ada alone: she is the only one in a subsession.
    teacher.perform(
      { _ in teacherHandles.manager?.broadcastMessage("Back in 5") ?? .wrongUsage },
      returns: .success,
      assert: { _ in })
    ada.receive(.onBroadcastMessageFromMainSession(message: "Back in 5", userName: "Teacher"))

    // Help: Ada asks, the teacher hears, ignores; Ada hears both answers.
    ada.perform(
      { _ in adaHandles.participant?.requestForHelp() ?? .wrongUsage }, returns: .success,
      assert: { _ in })
    teacher.receive(.onSubSessionUserHelpRequestHandler(requester: 2, subSessionID: group.id))
    ada.receive(.onSubSessionUserHelpRequestResult(.idle))
    teacher.perform(
      { _ in teacherHandles.help?.ignore() ?? .wrongUsage },
      returns: .success, assert: { _ in })
    ada.receive(.onSubSessionUserHelpRequestResult(.ignore))

    // The teacher stops: Ada comes back and meets everyone again.
    let stopped = SubSessionBoard(status: .stopped, list: list)
    teacher.perform(
      { _ in teacherHandles.manager?.stopSubSession() ?? .wrongUsage }, returns: .success,
      assert: { $0.subSessions = stopped })
    teacher.receive(
      .onUserJoin([2]), .onUserAudioStatusChanged([2]), .onSubSessionStatusChanged(.stopped, list),
      .onSubSessionParticipantHandle(false))
    bob.receive(
      .onUserJoin([2]), .onUserAudioStatusChanged([2]), .onSubSessionStatusChanged(.stopped, list),
      .onSubSessionParticipantHandle(false)
    ) { $0.subSessions = stopped }
    ada.receive(
      .onUserJoin([1, 3]), .onUserAudioStatusChanged([1, 3]),
      .onSubSessionStatusChanged(.stopped, list), .onSubSessionParticipantHandle(false)
    ) { $0.subSessions = stopped }
    teacher.finish()
    ada.finish()
    bob.finish()
  }
}
