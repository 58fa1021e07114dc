import SessionCore
import SessionSDK
import SessionTransport
import Testing

@Suite("SDK lifecycle")
struct SDKUnitTestsLifecycle {
  @Test func everyEntryPointBeforeInitializeIsUninitialize() {
    let sdk = VideoSDK()
    let log = CallbackLog()
    sdk.callbackObserver = { log.callbacks.append($0) }
    let someone: User? = nil

    #expect(sdk.cleanup() == .uninitialize)
    #expect(sdk.joinSession(SessionContext(token: "t", sessionName: "s", userName: "u")) == nil)
    #expect(sdk.leaveSession(false) == .uninitialize)
    #expect(sdk.leaveSession(true) == .uninitialize)
    #expect(sdk.getSession() == nil)
    #expect(!sdk.isInSession())

    let video: VideoHelper = sdk.getVideoHelper()
    #expect(video.startVideo() == .uninitialize)
    #expect(video.stopVideo() == .uninitialize)

    let audio: AudioHelper = sdk.getAudioHelper()
    #expect(audio.startAudio() == .uninitialize)
    #expect(audio.stopAudio() == .uninitialize)
    #expect(audio.muteAudio(someone) == .uninitialize)
    #expect(audio.unmuteAudio(someone) == .uninitialize)
    #expect(audio.muteAllAudio(true) == .uninitialize)
    #expect(audio.unmuteAllAudio() == .uninitialize)
    #expect(audio.allowAudioUnmutedBySelf(true) == .uninitialize)

    let share: ShareHelper = sdk.getShareHelper()
    let view = NSObjectStandIn()
    #expect(share.startShare(with: view) == .uninitialize)
    #expect(share.startShare(with: nil) == .uninitialize)
    #expect(share.startInAppScreenShare() == .uninitialize)
    #expect(share.startShareCamera(view) == .uninitialize)
    #expect(share.pauseShare() == .uninitialize)
    #expect(share.resumeShare() == .uninitialize)
    #expect(share.stopShare() == .uninitialize)
    #expect(share.lockShare(true) == .uninitialize)
    #expect(share.enableMultiShare(true) == .uninitialize)
    #expect(share.disableViewerAnnotation(true) == .uninitialize)
    #expect(share.destroyAnnotationHelper(nil) == .uninitialize)
    #expect(share.setAnnotationView(view) == .uninitialize)
    #expect(share.createAnnotationHelper(nil) == nil)
    #expect(!share.isSharingOut() && !share.isOtherSharing() && !share.isShareLocked())
    #expect(!share.isSupportInAppScreenShare() && !share.isAnnotationFeatureSupport())

    let users: UserHelper = sdk.getUserHelper()
    #expect(!users.changeName("x", withUser: someone))
    #expect(!users.makeHost(someone))
    #expect(!users.makeManager(someone))
    #expect(users.revokeManager(someone) == .uninitialize)
    #expect(!users.removeUser(someone))
    #expect(!users.reclaimHost())

    let chat: ChatHelper = sdk.getChatHelper()
    #expect(chat.SendChatToAll("hi") == .uninitialize)
    #expect(chat.SendChatToUser(someone, Content: "hi") == .uninitialize)
    #expect(chat.deleteChatMessage("m1") == .uninitialize)
    #expect(chat.changeChatPrivilege(.noOne) == .uninitialize)
    #expect(!chat.canChatMessageBeDeleted("m1"))

    #expect(log.callbacks.isEmpty)
    #expect(sdk.store.state.phase == .idle)
  }

  @Test func initializeNeedsADomainAndRunsOnce() {
    let sdk = VideoSDK()
    #expect(sdk.initialize(InitParams(transport: FakeLinkFactory())) == .invalidParameter)
    #expect(!sdk.isInitialized)
    #expect(sdk.initialize(InitParams(domain: "zoom.us", transport: FakeLinkFactory())) == .success)
    #expect(sdk.store.state.phase == .initialized)
    #expect(
      sdk.initialize(InitParams(domain: "zoom.us", transport: FakeLinkFactory())) == .wrongUsage)
    #expect(sdk.cleanup() == .success)
    #expect(sdk.store.state.phase == .idle)
    #expect(sdk.getVideoHelper().startVideo() == .uninitialize)
  }

  static let validationCases: [(String, String, String, String?, VideoSDKError)] = [
    ("", "tok", "Ada", nil, .joinSessionNoSessionName),
    ("Algebra101", "", "Ada", nil, .joinSessionNoSessionToken),
    ("Algebra101", "tok", "", nil, .joinSessionNoUserName),
    ("Algebra/101", "tok", "Ada", nil, .joinSessionInvalidSessionName),
    ("Algebra101", "tok", "Ada", "elevenchars", .joinSessionInvalidPassword),
    ("Algebra101", "tok", "Ada", "caf\u{E9}", .joinSessionInvalidPassword),
    ("Algebra101", "tok", "Ada", "tab\there", .joinSessionInvalidPassword),
    (String(repeating: "a", count: 151), "tok", "Ada", nil, .joinSessionSessionNameTooLong),
  ]

  @Test(arguments: validationCases)
  func joinContextIsValidatedBeforeAnythingIsSent(
    _ testCase: (String, String, String, String?, VideoSDKError)
  ) {
    let (name, token, user, password, expected) = testCase
    let links = FakeLinkFactory()
    let rig = SDKTestRig(transport: links)
    let session = rig.sdk.joinSession(
      SessionContext(token: token, sessionName: name, userName: user, sessionPassword: password))
    #expect(session == nil)
    #expect(links.links.isEmpty)
    #expect(rig.log.take() == [.onError(expected, detail: 0)])
    #expect(rig.sdk.store.state.phase == .failed(expected))
    #expect(rig.sdk.getSession() == nil)
  }

  @Test func boundaryContextsAreAccepted() {
    let links = FakeLinkFactory()
    let rig = SDKTestRig(transport: links)
    let name = String(repeating: "a", count: 150)
    let session = rig.sdk.joinSession(
      SessionContext(
        token: "tok", sessionName: name, userName: "Ada", sessionPassword: "~ !ten_chr"))
    #expect(session != nil)
    #expect(links.last?.joinRequest?.password == "~ !ten_chr")
    #expect(rig.log.take().isEmpty)
  }

  @Test func longUserNamesAreTruncatedSilently() {
    let links = FakeLinkFactory()
    let rig = SDKTestRig(transport: links)
    rig.join(String(repeating: "n", count: 250))
    #expect(links.last?.joinRequest?.userName.count == 200)
    #expect(rig.log.take().isEmpty)
  }

  @Test func joinRequestCarriesTheContext() throws {
    let links = FakeLinkFactory()
    let rig = SDKTestRig(transport: links)
    rig.join(password: "", videoOn: true, connectAudio: false, muted: true)
    let request = try #require(links.last?.joinRequest)
    #expect(request.sessionName == "Algebra101")
    #expect(request.password == nil)
    #expect(request.videoOn && !request.connectAudio && request.muteAudio)
    #expect(rig.sdk.store.state.phase == .joining)
  }

  @Test func joiningTwiceReportsAlreadyInProgressAndChangesNothingElse() throws {
    let links = FakeLinkFactory()
    let rig = SDKTestRig(transport: links)
    let first = try #require(rig.join())
    #expect(rig.join() == nil)
    #expect(rig.log.take() == [.onError(.sessionAlreadyInProgress, detail: 0)])
    #expect(rig.sdk.store.state.phase == .joining)
    #expect(links.links.count == 1)
    #expect(rig.sdk.getSession() === first)

    links.last?.deliver(.joined(snapshot(myself: 2, users: classroom), resumeToken: 1))
    _ = rig.log.take()
    #expect(rig.join() == nil)
    #expect(rig.log.take() == [.onError(.sessionAlreadyInProgress, detail: 0)])
    #expect(rig.sdk.isInSession())
  }

  @Test func joinedSnapshotFiresSessionJoinThenEveryoneInJoinOrder() throws {
    let links = FakeLinkFactory()
    let rig = SDKTestRig(transport: links)
    let delegate = RecordingDelegate(sdk: rig.sdk)
    rig.sdk.delegate = delegate
    let session = try #require(rig.join())
    let shuffled = [classroom[2], classroom[0], classroom[1]]
    links.last?.deliver(.joined(snapshot(myself: 2, users: shuffled, sequence: 5), resumeToken: 1))

    #expect(
      rig.log.take() == [.onSessionJoin, .onUserJoin([1, 2, 3]), .onCmdChannelConnectResult(true)])
    #expect(delegate.lines == ["onSessionJoin in session as Ada", "onUserJoin Grace,Ada,Alan"])
    #expect(rig.sdk.isInSession())
    #expect(rig.sdk.lastServiceSequence == 5)
    #expect(session.getMySelf()?.getName() == "Ada")
    #expect(session.getRemoteUsers()?.map { $0.getID() } == [1, 3])
    #expect(session.getSessionHost()?.getUserName() == "Grace")
    #expect(session.getSessionHostName() == "Grace")
    #expect(session.getSessionName() == "Algebra101")
  }

  @Test func userObjectsAreCachedPerID() throws {
    let links = FakeLinkFactory()
    let rig = SDKTestRig(transport: links)
    let session = try #require(rig.join())
    links.last?.deliver(.joined(snapshot(myself: 2, users: classroom), resumeToken: 1))
    let me = try #require(session.getMySelf())
    #expect(session.getMySelf() === me)
    #expect(session.getRemoteUsers()?.first === session.getSessionHost())
    #expect(session.user(withID: 2) === me)
    #expect(session.user(withID: 9) == nil)
  }

  @Test func joinRefusedReportsTheErrorAndClosesTheLink() throws {
    let links = FakeLinkFactory()
    let rig = SDKTestRig(transport: links)
    rig.join()
    let link = try #require(links.last)
    link.deliver(.joinRefused(.joinSessionTokenMismatchedSessionName))
    #expect(rig.log.take() == [.onError(.joinSessionTokenMismatchedSessionName, detail: 0)])
    #expect(link.isClosed)
    #expect(rig.sdk.getSession() == nil)
    #expect(rig.sdk.store.state.phase == .failed(.joinSessionTokenMismatchedSessionName))
    // A new join may start.
    #expect(rig.join() != nil)
  }

  @Test func sessionNameGetterComesFromTheService() throws {
    let links = FakeLinkFactory()
    let rig = SDKTestRig(transport: links)
    let session = try #require(rig.join(session: "algebra101"))
    #expect(session.getSessionName() == "algebra101")
    links.last?.deliver(.joined(snapshot(myself: 2, users: classroom), resumeToken: 1))
    #expect(session.getSessionName() == "Algebra101")
  }

  @Test func serviceLeftFiresSessionLeaveWithReasonThenLegacy() throws {
    let links = FakeLinkFactory()
    let rig = SDKTestRig(transport: links)
    let delegate = RecordingDelegate(sdk: rig.sdk)
    rig.sdk.delegate = delegate
    let session = try #require(rig.join())
    let link = try #require(links.last)
    link.deliver(.joined(snapshot(myself: 2, users: classroom), resumeToken: 1))
    _ = rig.log.take()
    delegate.lines.removeAll()

    link.deliver(.left(.kickByHost))
    #expect(rig.log.take() == [.onSessionLeave(.kickByHost), .onSessionLeaveLegacy])
    #expect(delegate.lines == ["onSessionLeave(kickByHost)", "onSessionLeave()"])
    #expect(link.isClosed)
    #expect(rig.sdk.getSession() == nil)
    #expect(!rig.sdk.isInSession())
    #expect(rig.sdk.store.state.phase == .left(.kickByHost))
    // The session object still answers with what was last known.
    #expect(session.getMySelf()?.getName() == "Ada")
    #expect(session.getRemoteUsers() == nil)
  }

  @Test func linkClosedInSessionIsANetworkErrorLeave() throws {
    let links = FakeLinkFactory()
    let rig = SDKTestRig(transport: links)
    rig.join()
    let link = try #require(links.last)
    link.deliver(.joined(snapshot(myself: 2, users: classroom), resumeToken: 1))
    _ = rig.log.take()
    link.fail()
    // The SDK first tries to take its place back on a fresh link (Decision 0004)…
    var attempts = 0
    while let resumeLink = links.last, resumeLink !== link, !resumeLink.isClosed {
      attempts += 1
      #expect(resumeLink.sent.contains { if case .resume = $0 { true } else { false } })
      #expect(rig.log.take().isEmpty, "no callbacks while resuming")
      resumeLink.fail()
      if attempts > 10 { break }
    }
    #expect(attempts == 3)
    // …and reports the loss once every attempt failed.
    #expect(rig.log.take() == [.onSessionLeave(.networkError), .onSessionLeaveLegacy])
    #expect(rig.sdk.store.state.phase == .left(.networkError))
  }

  @Test func linkClosedWhileJoiningIsAJoinFailure() throws {
    let links = FakeLinkFactory()
    let rig = SDKTestRig(transport: links)
    rig.join()
    try #require(links.last).fail(.closedByPeer)
    #expect(rig.log.take() == [.onError(.sessionJoinFailed, detail: 0)])
    #expect(rig.sdk.store.state.phase == .failed(.sessionJoinFailed))
  }

  @Test func leavingSendsLeaveAndWaitsForTheService() throws {
    let links = FakeLinkFactory()
    let rig = SDKTestRig(transport: links)
    rig.join()
    let link = try #require(links.last)
    link.deliver(.joined(snapshot(myself: 1, users: classroom), resumeToken: 1))
    _ = rig.log.take()

    #expect(rig.sdk.leaveSession(true) == .success)
    #expect(link.commands.last == .leave(end: true))
    #expect(rig.sdk.store.state.phase == .leaving)
    #expect(rig.sdk.leaveSession(true) == .sessionDisconnecting)
    #expect(rig.log.take().isEmpty)

    link.deliver(.left(.bySelf))
    #expect(rig.log.take() == [.onSessionLeave(.bySelf), .onSessionLeaveLegacy])
    #expect(rig.sdk.leaveSession(false) == .notInSession)
    #expect(rig.sdk.cleanup() == .success)
  }

  @Test func linkClosingWhileLeavingCompletesTheLeave() throws {
    let links = FakeLinkFactory()
    let rig = SDKTestRig(transport: links)
    rig.join()
    let link = try #require(links.last)
    link.deliver(.joined(snapshot(myself: 2, users: classroom), resumeToken: 1))
    _ = rig.log.take()
    rig.sdk.leaveSession(false)
    link.fail(.closedByPeer)
    #expect(rig.log.take() == [.onSessionLeave(.bySelf), .onSessionLeaveLegacy])
  }

  @Test func cleanupIsRefusedWhileASessionIsActive() throws {
    let links = FakeLinkFactory()
    let rig = SDKTestRig(transport: links)
    rig.join()
    #expect(rig.sdk.cleanup() == .wrongUsage)
    try #require(links.last).deliver(.joined(snapshot(myself: 2, users: classroom), resumeToken: 1))
    #expect(rig.sdk.cleanup() == .wrongUsage)
    #expect(rig.sdk.isInSession())
  }

  @Test func passwordPromptsAnswerThroughTheCompletion() throws {
    let service = MiniService()
    service.password = "secret"
    let rig = SDKTestRig(transport: service)
    let delegate = RecordingDelegate(sdk: rig.sdk)
    rig.sdk.delegate = delegate
    rig.join()
    #expect(rig.log.take() == [.onSessionNeedPassword])
    let completion = try #require(delegate.passwordCompletion)
    #expect(completion("nope", false) == .success)
    #expect(rig.log.take() == [.onSessionPasswordWrong])
    #expect(completion("again", false) == .wrongUsage)  // that prompt was answered
    let retry = try #require(delegate.passwordCompletion)
    #expect(retry(nil, false) == .invalidParameter)
    #expect(retry("much too long", false) == .joinSessionInvalidPassword)
    #expect(retry("secret", false) == .success)
    #expect(
      rig.log.take() == [
        .onSessionJoin, .onUserJoin([1]), .onUserAudioStatusChanged([1]),
        .onCmdChannelConnectResult(true),
      ])
    #expect(rig.sdk.getSession()?.getSessionPassword() == "secret")
  }

  @Test func givingUpOnThePasswordEndsTheJoin() throws {
    let service = MiniService()
    service.password = "secret"
    let rig = SDKTestRig(transport: service)
    let delegate = RecordingDelegate(sdk: rig.sdk)
    rig.sdk.delegate = delegate
    rig.join()
    _ = rig.log.take()
    let completion = try #require(delegate.passwordCompletion)
    #expect(completion(nil, true) == .success)
    #expect(service.links.last?.sent.last == .password(nil))
    #expect(rig.log.take() == [.onError(.sessionNeedPassword, detail: 0)])
    #expect(rig.sdk.store.state.phase == .failed(.sessionNeedPassword))
  }

  @Test func twoInstancesShareOneSession() throws {
    let service = MiniService()
    let grace = SDKTestRig(transport: service)
    let ada = SDKTestRig(transport: service)
    grace.join("Grace")
    ada.join("Ada")
    // Both connect audio at the join; each member hears of it after the join.
    #expect(
      grace.log.take() == [
        .onSessionJoin, .onUserJoin([1]), .onUserAudioStatusChanged([1]),
        .onCmdChannelConnectResult(true), .onUserJoin([2]), .onUserAudioStatusChanged([2]),
      ])
    #expect(
      ada.log.take() == [
        .onSessionJoin, .onUserJoin([1, 2]), .onUserAudioStatusChanged([2]),
        .onCmdChannelConnectResult(true),
      ])
    #expect(ada.sdk.getVideoHelper().startVideo() == .success)
    #expect(grace.log.take() == [.onUserVideoStatusChanged([2])])
    #expect(ada.log.take() == [.onUserVideoStatusChanged([2])])
    #expect(grace.sdk.store.state.participants == ada.sdk.store.state.participants)
    #expect(ada.sdk.leaveSession(false) == .success)
    #expect(ada.log.take() == [.onSessionLeave(.bySelf), .onSessionLeaveLegacy])
    #expect(grace.log.take() == [.onUserLeave([2])])
  }
}

/// A stand-in for a `UIView`: any object.
final class NSObjectStandIn {}

/// A delegate that writes one line per callback, reading live objects as an app would.
final class RecordingDelegate: VideoSDKDelegate {
  weak var sdk: VideoSDK?
  var lines: [String] = []
  var passwordCompletion: ((String?, Bool) -> VideoSDKError)?
  var cleanedUpHelpers: [AnnotationHelper?] = []
  var leftUsers: [User] = []
  var shareActions: [ShareAction] = []
  var onUserJoinHook: (() -> Void)?

  init(sdk: VideoSDK) {
    self.sdk = sdk
  }

  func onSessionJoin() {
    let name = sdk?.getSession()?.getMySelf()?.getName() ?? "?"
    lines.append("onSessionJoin \(sdk?.isInSession() == true ? "in session" : "out") as \(name)")
  }

  func onSessionLeave() { lines.append("onSessionLeave()") }
  func onSessionLeave(_ reason: LeaveReason) { lines.append("onSessionLeave(\(reason))") }

  func onError(_ errorType: VideoSDKError, detail details: Int) {
    lines.append("onError \(errorType.sdkName) \(details)")
  }

  func onSessionNeedPassword(_ completion: @escaping (String?, Bool) -> VideoSDKError) {
    passwordCompletion = completion
  }

  func onSessionPasswordWrong(_ completion: @escaping (String?, Bool) -> VideoSDKError) {
    passwordCompletion = completion
  }

  func onUserJoin(_ helper: UserHelper?, users: [User]?) {
    lines.append("onUserJoin " + (users ?? []).map { $0.getName() ?? "?" }.joined(separator: ","))
    onUserJoinHook?()
  }

  func onUserLeave(_ helper: UserHelper?, users: [User]?) {
    leftUsers += users ?? []
    lines.append("onUserLeave " + (users ?? []).map { $0.getName() ?? "?" }.joined(separator: ","))
  }

  func onUserVideoStatusChanged(_ helper: VideoHelper?, user: [User]?) {
    for user in user ?? [] {
      let on = user.getVideoCanvas()?.videoStatus()?.on == true
      lines.append("video \(user.getName() ?? "?") \(on ? "on" : "off")")
    }
  }

  func onUserAudioStatusChanged(_ helper: AudioHelper?, user: [User]?) {
    for user in user ?? [] {
      let muted = user.audioStatus()?.isMuted == true
      lines.append("audio \(user.getName() ?? "?") \(muted ? "muted" : "unmuted")")
    }
  }

  func onUserHostChanged(_ helper: UserHelper?, users user: User?) {
    lines.append("host \(user?.getName() ?? "?") isHost=\(user?.isHost() == true)")
  }

  func onUserManagerChanged(_ user: User?) {
    lines.append("manager \(user?.getName() ?? "?") \(user?.isManager() == true)")
  }

  func onUserNameChanged(_ user: User?) { lines.append("name \(user?.getName() ?? "?")") }

  func onUserShareStatusChanged(_ helper: ShareHelper?, user: User?, shareAction: ShareAction?) {
    if let shareAction { shareActions.append(shareAction) }
    lines.append(
      "share \(user?.getName() ?? "?") \(shareAction?.getShareStatus() ?? .none)")
  }

  func onFailedToStartShare(_ helper: ShareHelper?, user: User?) {
    lines.append("failedToStartShare \(user?.getName() ?? "?")")
  }

  func onAnnotationHelperCleanUp(_ helper: AnnotationHelper?) {
    cleanedUpHelpers.append(helper)
    lines.append("annotationHelperCleanUp")
  }

  func onAnnotationPrivilegeChange(_ enable: Bool, shareOwner: User?) {
    lines.append("annotationPrivilege \(enable) \(shareOwner?.getName() ?? "?")")
  }

  func onAnnotationPrivilegeChange(with user: User?, shareAction: ShareAction?) {
    lines.append(
      "annotationPrivilegeWithUser \(shareAction?.isAnnotationPrivilegeEnabled() == true) \(user?.getName() ?? "?")"
    )
  }

  func onChatNewMessageNotify(_ helper: ChatHelper?, message: ChatMessageInfo?) {
    lines.append(
      "chat \(message?.senderUser?.getName() ?? "?"): \(message?.content ?? "") self=\(message?.isSelfSend == true)"
    )
  }

  func onHostAskUnmute() { lines.append("hostAskUnmute") }

  func onVideoCanvasSubscribeFail(_ failReason: SubscribeFailReason, user: User?, view: AnyObject?)
  {
    lines.append("subscribeFail \(failReason) \(user?.getName() ?? "?") view=\(view != nil)")
  }
}
