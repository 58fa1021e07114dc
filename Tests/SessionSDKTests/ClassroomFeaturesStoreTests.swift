import SessionCore
import SessionSDK
import SessionTestSupport
import Testing

/// The command channel and spotlight described exhaustively on both sides with
/// ``SDKTestStore``: every call's result, every callback in order, every change to the replica.
@MainActor
@Suite("Command channel and spotlight, exhaustively")
struct ClassroomFeaturesStoreTests {
  let testbed = SessionTestbed(sessionName: "Classroom")
  let teacher: SDKTestStore
  let ada: SDKTestStore

  /// The teacher (host, 1, camera on) and Ada (2, camera on), joined and described.
  init() throws {
    teacher = SDKTestStore(testbed.makeSDK(), in: testbed)
    ada = SDKTestStore(testbed.makeSDK(), in: testbed)
    let testbed = testbed
    for (store, name, role, id) in [
      (teacher, "Teacher", TokenRole.host, UserID(1)), (ada, "Ada", .participant, 2),
    ] {
      store.perform(
        { sdk in
          let context = testbed.context(name, role: role)
          context.videoOption.localVideoOn = true
          return sdk.joinSession(context)
        },
        assert: { expected in
          guard let service = testbed.serviceState() else { return }
          expected = .member(id, of: service)
        })
    }
    teacher.receive(
      .onSessionJoin, .onUserJoin([1]), .onUserVideoStatusChanged([1]),
      .onUserAudioStatusChanged([1]), .onCmdChannelConnectResult(true))
    ada.receive(
      .onSessionJoin, .onUserJoin([1, 2]), .onUserVideoStatusChanged([2]),
      .onUserAudioStatusChanged([2]), .onCmdChannelConnectResult(true))
    let adaParticipant = try #require(ada.state.myself)
    teacher.receive(
      .onUserJoin([2]), .onUserVideoStatusChanged([2]), .onUserAudioStatusChanged([2])
    ) { $0.participants[2] = adaParticipant }
  }

  @Test func aRaisedHandReachesTheTeacherAndChangesNoState() {
    let teacherUser = ada.sdk.getSession()?.user(withID: 1)
    ada.perform(
      { $0.getCmdChannel().sendCommand("raise-hand", receiveUser: teacherUser) },
      returns: .success, assert: { _ in })
    teacher.receive(.onCommandReceived(content: "raise-hand", sender: 2))
    ada.perform(
      { $0.getCmdChannel().sendCommand("", receiveUser: nil) }, returns: .invalidParameter,
      assert: { _ in })
    teacher.finish()
    ada.finish()
  }

  @Test func theSpotlightChangesTheListOnBothSides() {
    let adaUser = teacher.sdk.getSession()?.user(withID: 2)
    teacher.perform(
      { $0.getVideoHelper().spotLightVideo(adaUser) }, returns: .success,
      assert: { $0.spotlighted = [2] })
    teacher.receive(.onSpotlightVideoChanged([2]))
    ada.receive(.onSpotlightVideoChanged([2])) { $0.spotlighted = [2] }
    ada.perform(
      { $0.getVideoHelper().unSpotlightAllVideos() }, returns: .sessionNoRights,
      assert: { _ in })
    teacher.perform(
      { $0.getVideoHelper().unSpotlightAllVideos() }, returns: .success,
      assert: { $0.spotlighted = [] })
    teacher.receive(.onSpotlightVideoChanged([]))
    ada.receive(.onSpotlightVideoChanged([])) { $0.spotlighted = [] }
    teacher.finish()
    ada.finish()
  }
}
