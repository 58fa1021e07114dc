import SessionCore
import SessionSDK
import SessionService
import SessionTestSupport
import Testing

// Seed 000, the SwiftUI quick start, end to end: two users, each with the seed's
// `SessionView.ViewModel` on its own SDK instance, over the real service. The view model is the
// seed's code with `ZoomVideoSDK.shareInstance()?` replaced by the instance it was given, and the
// `Task { await MainActor.run { … } }` hops dropped: the model already runs on the main actor,
// and the hops only make a test wait (see `SharedInstanceTests.settle`).

/// The seed's `SessionView.ViewModel`, on one SDK instance.
@MainActor
final class QuickStartViewModel: @preconcurrency VideoSDKDelegate {
  let sdk: VideoSDK
  let userName: String
  let jwtToken: String
  let sessionName: String
  var joinSessionFailed = false
  var inSession = false
  var leftSession = false
  var videoOn = false
  var audioOn = false
  var remoteUsers: [User] = []

  init(sdk: VideoSDK, userName: String, token: String, sessionName: String) {
    self.sdk = sdk
    self.userName = userName
    self.jwtToken = token
    self.sessionName = sessionName
  }

  /// `setupSDK()` in StartView.
  func setupSDK(_ initParams: InitParams) -> Bool {
    initParams.domain = "zoom.us"
    return sdk.initialize(initParams) == .success
  }

  func joinSession() {
    sdk.delegate = self
    let sessionContext = SessionContext()
    sessionContext.token = jwtToken
    sessionContext.sessionName = sessionName
    sessionContext.userName = userName
    let videoOption = VideoOptions()
    videoOption.localVideoOn = true
    sessionContext.videoOption = videoOption
    let audioOption = AudioOptions()
    audioOption.mute = true
    sessionContext.audioOption = audioOption
    if sdk.joinSession(sessionContext) == nil {
      joinSessionFailed = true
    }
  }

  func onSessionJoin() {
    inSession = true
  }

  func toggleVideo() {
    guard let usersVideoCanvas = sdk.getSession()?.getMySelf()?.getVideoCanvas() else { return }
    let videoHelper: VideoHelper = sdk.getVideoHelper()
    if let myVideoIsOn = usersVideoCanvas.videoStatus()?.on, myVideoIsOn {
      videoHelper.stopVideo()
    } else {
      videoHelper.startVideo()
    }
  }

  func toggleAudio() {
    let myUser = sdk.getSession()?.getMySelf()
    guard let audioStatus = myUser?.audioStatus() else { return }
    let audioHelper: AudioHelper = sdk.getAudioHelper()
    if audioStatus.type == .none {
      audioHelper.startAudio()
      audioOn = true
    } else if audioStatus.isMuted {
      audioHelper.unmuteAudio(myUser)
      audioOn = true
    } else {
      audioHelper.muteAudio(myUser)
      audioOn = false
    }
  }

  func onUserJoin(_ helper: UserHelper?, users: [User]?) {
    if let userArray = users, let myself = sdk.getSession()?.getMySelf() {
      for user in userArray where user.getID() != myself.getID() {
        remoteUsers.append(user)
      }
    }
  }

  func onUserVideoStatusChanged(_ helper: VideoHelper?, user: [User]?) {
    guard let userArray = user, let myself = sdk.getSession()?.getMySelf() else { return }
    for user in userArray {
      if user.getID() == myself.getID() {
        if let myVideoIsOn = myself.getVideoCanvas()?.videoStatus()?.on {
          videoOn = myVideoIsOn
        }
      }
      if user.getID() != myself.getID(),
        let remoteUserIndex = remoteUsers.firstIndex(where: { $0.getID() == user.getID() })
      {
        remoteUsers[remoteUserIndex] = user
      }
    }
  }

  func onUserLeave(_ helper: UserHelper?, users: [User]?) {
    if let userArray = users, let myself = sdk.getSession()?.getMySelf() {
      for user in userArray where user.getID() != myself.getID() {
        remoteUsers.removeAll { $0.getID() == user.getID() }
      }
    }
  }

  func leaveSession() {
    sdk.leaveSession(true)
  }

  func onSessionLeave() {
    leftSession = true
  }
}

@MainActor
@Suite("Seed 000: quick start with two users")
struct Seed000QuickStartTests {
  let testbed = SessionTestbed(sessionName: "QuickStart")

  /// A user with the seed's view model, initialized through it, and a test store on the
  /// instance from before the join.
  func user(_ name: String, role: TokenRole) -> (QuickStartViewModel, SDKTestStore) {
    let model = QuickStartViewModel(
      sdk: VideoSDK(), userName: name, token: testbed.token(role: role),
      sessionName: "QuickStart")
    #expect(model.setupSDK(testbed.initParams()))
    return (model, SDKTestStore(model.sdk, in: testbed))
  }

  /// Joins through the view model and checks the replica equals the service's view.
  func join(_ model: QuickStartViewModel, _ store: SDKTestStore, as id: UserID) {
    let testbed = testbed
    store.perform(
      { _ in model.joinSession() },
      assert: { expected in
        guard let service = testbed.serviceState() else { return }
        expected = .member(id, of: service)
      })
    #expect(model.inSession)
    #expect(!model.joinSessionFailed)
  }

  func converged(
    _ models: QuickStartViewModel..., sourceLocation: SourceLocation = #_sourceLocation
  ) {
    assertConverged(
      models.map(\.sdk), with: testbed.service, session: "QuickStart",
      sourceLocation: sourceLocation)
  }

  @Test func twoUsersJoinToggleAndLeaveWithExactCallbacksOnEachSide() throws {
    let (grace, graceStore) = user("Grace", role: .host)
    join(grace, graceStore, as: 1)
    // The seed joins with the camera on and audio connected: both are reported after the join.
    graceStore.receive(
      .onSessionJoin, .onUserJoin([1]), .onUserVideoStatusChanged([1]),
      .onUserAudioStatusChanged([1]), .onCmdChannelConnectResult(true))
    #expect(grace.remoteUsers.isEmpty, "the seed filters itself out of onUserJoin")
    #expect(grace.videoOn, "the seed's videoOn follows onUserVideoStatusChanged")
    #expect(graceStore.state.myself?.role == .host)

    let (ada, adaStore) = user("Ada", role: .participant)
    join(ada, adaStore, as: 2)
    adaStore.receive(
      .onSessionJoin, .onUserJoin([1, 2]), .onUserVideoStatusChanged([2]),
      .onUserAudioStatusChanged([2]), .onCmdChannelConnectResult(true))
    #expect(ada.videoOn)
    #expect(!ada.audioOn, "audioOption.mute = true")
    let adaAsJoined = try #require(adaStore.state.myself)
    #expect(adaAsJoined.isVideoOn, "videoOption.localVideoOn = true")
    #expect(adaAsJoined.audio == AudioStatus(type: .voip, isMuted: true), "audioOption.mute = true")
    graceStore.receive(
      .onUserJoin([2]), .onUserVideoStatusChanged([2]), .onUserAudioStatusChanged([2])
    ) { $0.participants[2] = adaAsJoined }
    #expect(ada.remoteUsers.map { $0.getName() } == ["Grace"])
    #expect(grace.remoteUsers.map { $0.getName() } == ["Ada"])
    converged(grace, ada)

    // Video: on at join, so the first toggle stops it and the second starts it again.
    adaStore.perform({ _ in ada.toggleVideo() }, assert: { $0.myself?.isVideoOn = false })
    adaStore.receive(.onUserVideoStatusChanged([2]))
    graceStore.receive(.onUserVideoStatusChanged([2])) { $0.participants[2]?.isVideoOn = false }
    #expect(!ada.videoOn)
    #expect(grace.remoteUsers.first?.getVideoCanvas()?.videoStatus()?.on == false)
    adaStore.perform({ _ in ada.toggleVideo() }, assert: { $0.myself?.isVideoOn = true })
    adaStore.receive(.onUserVideoStatusChanged([2]))
    graceStore.receive(.onUserVideoStatusChanged([2])) { $0.participants[2]?.isVideoOn = true }
    #expect(ada.videoOn)
    #expect(grace.remoteUsers.first?.getVideoCanvas()?.videoStatus()?.on == true)

    // Audio: connected and muted at join, so the toggles unmute and mute.
    adaStore.perform({ _ in ada.toggleAudio() }, assert: { $0.myself?.audio.isMuted = false })
    adaStore.receive(.onUserAudioStatusChanged([2]))
    graceStore.receive(.onUserAudioStatusChanged([2])) {
      $0.participants[2]?.audio.isMuted = false
    }
    #expect(ada.audioOn)
    adaStore.perform({ _ in ada.toggleAudio() }, assert: { $0.myself?.audio.isMuted = true })
    adaStore.receive(.onUserAudioStatusChanged([2]))
    graceStore.receive(.onUserAudioStatusChanged([2])) { $0.participants[2]?.audio.isMuted = true }
    #expect(!ada.audioOn)
    graceStore.perform({ _ in grace.toggleAudio() }, assert: { $0.myself?.audio.isMuted = false })
    graceStore.receive(.onUserAudioStatusChanged([1]))
    adaStore.receive(.onUserAudioStatusChanged([1])) { $0.participants[1]?.audio.isMuted = false }
    #expect(grace.audioOn)
    converged(grace, ada)

    // leaveSession(true) by a participant only leaves (engine policy); the session goes on.
    adaStore.perform(
      { _ in ada.leaveSession() },
      assert: {
        $0 = SessionStateFields(SessionState())
        $0.phase = .left(.bySelf)
        $0.sessionName = "QuickStart"
      })
    adaStore.receive(.onSessionLeave(.bySelf), .onSessionLeaveLegacy)
    graceStore.receive(.onUserLeave([2])) { $0.participants[2] = nil }
    #expect(ada.leftSession)
    #expect(ada.sdk.getSession() == nil)
    #expect(grace.remoteUsers.isEmpty)
    #expect(grace.leftSession == false)
    #expect(testbed.serviceState()?.participants.keys.sorted() == [1])
    converged(grace, ada)

    // The host, now alone, leaves with end: the session is over.
    graceStore.perform(
      { _ in grace.leaveSession() },
      assert: {
        $0 = SessionStateFields(SessionState())
        $0.phase = .left(.bySelf)
        $0.sessionName = "QuickStart"
      })
    graceStore.receive(.onSessionLeave(.bySelf), .onSessionLeaveLegacy)
    #expect(grace.leftSession)
    #expect(testbed.serviceState() == nil)
    converged(grace, ada)
  }

  @Test func theHostsLeaveSessionTrueEndsTheSessionForTheOther() throws {
    let (grace, graceStore) = user("Grace", role: .host)
    join(grace, graceStore, as: 1)
    let (ada, adaStore) = user("Ada", role: .participant)
    join(ada, adaStore, as: 2)
    graceStore.skipReceived()
    adaStore.skipReceived()

    graceStore.perform(
      { _ in grace.leaveSession() },
      assert: {
        $0 = SessionStateFields(SessionState())
        $0.phase = .left(.bySelf)
        $0.sessionName = "QuickStart"
      })
    graceStore.receive(.onSessionLeave(.bySelf), .onSessionLeaveLegacy)
    adaStore.receive(.onSessionLeave(.endByHost), .onSessionLeaveLegacy) {
      $0 = SessionStateFields(SessionState())
      $0.phase = .left(.endByHost)
      $0.sessionName = "QuickStart"
    }
    #expect(ada.leftSession)
    #expect(
      ada.remoteUsers.map { $0.getName() } == ["Grace"], "the seed gets no onUserLeave on an end")
    #expect(testbed.serviceState() == nil)
    converged(grace, ada)
  }

  @Test func toggleAudioConnectsAudioWhenItIsNotConnected() throws {
    let (grace, graceStore) = user("Grace", role: .host)
    join(grace, graceStore, as: 1)
    graceStore.skipReceived()
    graceStore.perform(
      { $0.getAudioHelper().stopAudio() }, returns: .success,
      assert: { $0.myself?.audio = .disconnected })
    graceStore.receive(.onUserAudioStatusChanged([1]))
    graceStore.perform(
      { _ in grace.toggleAudio() },
      assert: { $0.myself?.audio = AudioStatus(type: .voip, isMuted: false) })
    graceStore.receive(.onUserAudioStatusChanged([1]))
    #expect(grace.audioOn)
    converged(grace)
  }

  @Test func togglesBeforeTheJoinCompleteDoNothing() throws {
    let (grace, graceStore) = user("Grace", role: .host)
    graceStore.perform({ _ in grace.toggleVideo() })
    graceStore.perform({ _ in grace.toggleAudio() })
    #expect(!grace.videoOn)
    #expect(!grace.audioOn)
    graceStore.finish()
  }
}

@Suite("Instance lifetime")
struct InstanceLifetimeTests {
  /// The network and the service live on. An instance the app lets go of while in a session
  /// must still be freed, engine and replica included (its link's handler holds the engine,
  /// and the engine holds the network as its link factory: letting go closes the link, which
  /// ends that cycle), and the service must see its connection close.
  @Test func anInstanceLetGoOfInASessionIsFreedAndItsConnectionCloses() {
    let testbed = SessionTestbed { $0.reconnectGrace = 10_000 }
    let host = testbed.join("Teacher", role: .host)
    weak var abandoned: VideoSDK?
    weak var replica: SessionStore?
    do {
      let sdk = VideoSDK()
      #expect(sdk.initialize(testbed.initParams()) == .success)
      #expect(sdk.joinSession(testbed.context("Ada")) != nil)
      #expect(sdk.isInSession())
      abandoned = sdk
      replica = sdk.store
    }
    #expect(abandoned == nil)
    #expect(replica == nil)
    // The member keeps its place for the reconnect grace, then leaves; the others carry on.
    #expect(testbed.serviceState()?.participants.count == 2)
    #expect(host.getVideoHelper().startVideo() == .success)
    #expect(host.getSession()?.getMySelf()?.getVideoCanvas()?.videoStatus()?.on == true)
    testbed.advance(by: 10_001)
    #expect(testbed.serviceState()?.participants.count == 1)
    #expect(host.getSession()?.getRemoteUsers()?.isEmpty == true)
  }
}
