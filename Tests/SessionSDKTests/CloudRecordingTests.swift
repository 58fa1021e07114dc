import SessionCore
import SessionSDK
import SessionService
import SessionTestSupport
import Testing

/// Cloud-recording status with consent (`getRecordingHelper`, `onCloudRecordingStatus` with
/// its agreement handler, `onUserRecordAgreementNotification`, `isIndividualRecordAgreed`)
/// over the in-process network with the real service. No recording is made.
@MainActor
struct CloudRecordingTests {
  let testbed = SessionTestbed(sessionName: "Recorded")

  final class Listener: VideoSDKDelegate {
    var statuses: [RecordingStatus] = []
    var handlers: [RecordAgreementHandler] = []
    var agreements: [UserID] = []
    var left: [LeaveReason] = []

    func onCloudRecordingStatus(
      _ status: RecordingStatus, recordAgreementHandler: RecordAgreementHandler?
    ) {
      statuses.append(status)
      if let recordAgreementHandler { handlers.append(recordAgreementHandler) }
    }
    func onUserRecordAgreementNotification(_ user: User?) {
      if let user { agreements.append(user.id) }
    }
    func onSessionLeave(_ reason: LeaveReason) { left.append(reason) }
  }

  struct Member {
    let sdk: VideoSDK
    let listener: Listener
    var id: UserID { sdk.store.state.myselfID ?? 0 }
  }

  func member(_ name: String, role: TokenRole = .participant) -> Member {
    let listener = Listener()
    let sdk = testbed.makeSDK()
    sdk.delegate = listener
    sdk.joinSession(testbed.context(name, role: role))
    testbed.run()
    return Member(sdk: sdk, listener: listener)
  }

  @Test func theHostRecordsEveryoneIsAskedAndADeclinerLeaves() throws {
    let host = member("Host", role: .host)
    let ada = member("Ada")
    let bob = member("Bob")
    let recording = try #require(host.sdk.getRecordingHelper())
    #expect(recording.canStartRecording() == .success)
    #expect(ada.sdk.getRecordingHelper().canStartRecording() == .sessionNoRights)
    #expect(recording.startCloudRecording() == .success)
    testbed.run()
    for member in [host, ada, bob] {
      #expect(member.listener.statuses == [.start])
      #expect(member.sdk.getRecordingHelper().getCloudRecordingStatus() == .start)
    }
    #expect(host.listener.handlers.isEmpty, "the host is not asked")
    let adaHandler = try #require(ada.listener.handlers.first)
    #expect(adaHandler.agreementType == .traditional)
    #expect(adaHandler.accept())
    testbed.run()
    #expect(!adaHandler.accept(), "agreed already")
    for member in [host, ada, bob] { #expect(member.listener.agreements == [ada.id]) }
    #expect(host.sdk.getSession()?.user(withID: ada.id)?.isIndividualRecordAgreed() == true)
    #expect(host.sdk.getSession()?.user(withID: bob.id)?.isIndividualRecordAgreed() == false)

    // Bob declines: a traditional recording records everyone present, so he leaves.
    #expect(try #require(bob.listener.handlers.first).decline())
    testbed.run()
    #expect(bob.listener.left == [.bySelf])
    #expect(!bob.sdk.isInSession())

    // Pause, resume, stop: everyone hears each; a stop forgets who agreed.
    #expect(recording.pauseCloudRecording() == .success)
    testbed.run()
    #expect(recording.resumeCloudRecording() == .success)
    testbed.run()
    #expect(ada.listener.handlers.count == 1, "a resume asks nobody again")
    #expect(recording.stopCloudRecording() == .success)
    testbed.run()
    #expect(ada.listener.statuses == [.start, .pause, .start, .stop])
    #expect(host.sdk.getSession()?.user(withID: ada.id)?.isIndividualRecordAgreed() == false)
    testbed.assertConverged()
  }

  @Test func aLatecomerIsAskedAndEachRefusalHasItsCode() throws {
    let host = member("Host", role: .host)
    let ada = member("Ada")
    let recording = try #require(host.sdk.getRecordingHelper())
    #expect(recording.stopCloudRecording() == .noRecordingInProcess)
    #expect(recording.pauseCloudRecording() == .noRecordingInProcess)
    #expect(recording.resumeCloudRecording() == .wrongUsage)
    #expect(ada.sdk.getRecordingHelper().startCloudRecording() == .sessionNoRights)
    #expect(recording.startCloudRecording() == .success)
    testbed.run()
    #expect(recording.startCloudRecording() == .wrongUsage, "already recording")
    #expect(recording.resumeCloudRecording() == .wrongUsage, "not paused")
    // A member who joins a recorded session hears the status and is asked.
    let late = member("Late")
    #expect(late.listener.statuses == [.start])
    #expect(late.listener.handlers.count == 1)
    #expect(ada.listener.handlers.count == 1)
    testbed.assertConverged()
    #expect(testbed.serviceState()?.recording.status == .start)
  }
}

/// The two recording callbacks described exhaustively with ``SDKTestStore``.
@MainActor
@Suite("Cloud recording, exhaustively")
struct CloudRecordingStoreTests {
  let testbed = SessionTestbed(sessionName: "Recorded")

  @Test func aStartAndAnAgreementOnBothSides() throws {
    let host = SDKTestStore(testbed.makeSDK(), in: testbed)
    let ada = SDKTestStore(testbed.makeSDK(), in: testbed)
    let keeper = CloudRecordingTests.Listener()
    ada.sdk.delegate = keeper
    let testbed = testbed
    for (store, name, role, id) in [
      (host, "Host", TokenRole.host, UserID(1)), (ada, "Ada", .participant, 2),
    ] {
      store.perform(
        { $0.joinSession(testbed.context(name, role: role)) },
        assert: { expected in
          guard let service = testbed.serviceState() else { return }
          expected = .member(id, of: service)
        })
    }
    let audio = VideoSDKCallback.onUserAudioStatusChanged
    host.receive(.onSessionJoin, .onUserJoin([1]), audio([1]), .onCmdChannelConnectResult(true))
    ada.receive(.onSessionJoin, .onUserJoin([1, 2]), audio([2]), .onCmdChannelConnectResult(true))
    let adaParticipant = try #require(ada.state.myself)
    host.receive(.onUserJoin([2]), audio([2])) { $0.participants[2] = adaParticipant }

    host.perform(
      { $0.getRecordingHelper().startCloudRecording() }, returns: .success,
      assert: { $0.recording = RecordingBoard(status: .start) })
    host.receive(.onCloudRecordingStatus(.start, asksAgreement: false))
    ada.receive(.onCloudRecordingStatus(.start, asksAgreement: true)) {
      $0.recording = RecordingBoard(status: .start)
    }
    ada.perform(
      { _ in keeper.handlers.first?.accept() == true ? .success : .wrongUsage },
      returns: VideoSDKError.success,
      assert: { $0.recording = RecordingBoard(status: .start, agreed: [2]) })
    ada.receive(.onUserRecordAgreementNotification(2))
    host.receive(.onUserRecordAgreementNotification(2)) {
      $0.recording = RecordingBoard(status: .start, agreed: [2])
    }
    host.finish()
    ada.finish()
  }
}
