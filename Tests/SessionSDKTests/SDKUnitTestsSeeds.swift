import SessionCore
import SessionSDK
import Testing

// Seed 000 (the SwiftUI quick start), ported mechanically: the SDK's type names become
// typealiases, `.Errors_Success` becomes `.success`, `._Auto` becomes `.auto`, and the init
// parameters gain a transport. Everything else is the seed's code as published.

private typealias ZoomVideoSDK = VideoSDK
private typealias ZoomVideoSDKDelegate = VideoSDKDelegate
private typealias ZoomVideoSDKInitParams = InitParams
private typealias ZoomVideoSDKSessionContext = SessionContext
private typealias ZoomVideoSDKVideoOptions = VideoOptions
private typealias ZoomVideoSDKAudioOptions = AudioOptions
private typealias ZoomVideoSDKUser = User
private typealias ZoomVideoSDKUserHelper = UserHelper
private typealias ZoomVideoSDKVideoHelper = VideoHelper

@MainActor
private final class SeedSessionViewModel: @preconcurrency ZoomVideoSDKDelegate {
  var joinSessionFailed: Bool = false
  var inSession: Bool = false
  var leftSession: Bool = false
  var videoOn: Bool = false
  var audioOn: Bool = false
  var remoteUsers: [ZoomVideoSDKUser] = []
  weak var localView: NSObjectStandIn?

  let jwtToken = "header.payload.signature"
  let sessionName = "Algebra101"
  let userName = "Ada"
  let sessionPassword: String = ""

  func setupSDK(transport: MiniService) -> Bool {
    let initParams = ZoomVideoSDKInitParams()
    initParams.domain = "zoom.us"
    initParams.transport = transport
    let sdkInitReturnStatus = ZoomVideoSDK.shareInstance()?.initialize(initParams)
    switch sdkInitReturnStatus {
    case .success:
      print("SDK initialization succeeded")
      return true
    default:
      if let error = sdkInitReturnStatus {
        print("SDK initialization failed: \(error)")
      }
      return false
    }
  }

  func joinSession() async {
    ZoomVideoSDK.shareInstance()?.delegate = self
    let sessionContext = ZoomVideoSDKSessionContext()
    sessionContext.token = jwtToken
    sessionContext.sessionName = sessionName
    sessionContext.userName = userName
    let videoOption = ZoomVideoSDKVideoOptions()
    videoOption.localVideoOn = true
    sessionContext.videoOption = videoOption
    let audioOtion = ZoomVideoSDKAudioOptions()
    audioOtion.mute = true
    sessionContext.audioOption = audioOtion
    if !sessionPassword.isEmpty {
      sessionContext.sessionPassword = sessionPassword
    }
    // Join Session
    if let session = ZoomVideoSDK.shareInstance()?.joinSession(sessionContext) {
      print("Session object: \(session)")
    } else {
      print("Join session failed")
      self.joinSessionFailed = true
    }
  }

  func onSessionJoin() {
    // Session joined successfully.
    print("Session joined")
    inSession = true
  }

  // Updating the local user's video view
  func updateLocalVideo() {
    guard
      let myUserVideoCanvas = ZoomVideoSDK.shareInstance()?.getSession()?.getMySelf()?
        .getVideoCanvas(), let myVideoIsOn = myUserVideoCanvas.videoStatus()?.on
    else { return }
    if myVideoIsOn {
      myUserVideoCanvas.subscribe(with: localView, aspectMode: .panAndScan, andResolution: .auto)
    } else {
      myUserVideoCanvas.unSubscribe(with: localView)
    }
  }

  // Local user - toggle video on/off
  func toggleVideo() {
    if let usersVideoCanvas = ZoomVideoSDK.shareInstance()?.getSession()?.getMySelf()?
      .getVideoCanvas(),
      // Get ZoomVideoSDKVideoHelper to control video
      let videoHelper = ZoomVideoSDK.shareInstance()?.getVideoHelper()
    {
      if let myVideoIsOn = usersVideoCanvas.videoStatus()?.on,
        myVideoIsOn == true
      {
        Task(priority: .background) {
          await MainActor.run {
            let error = videoHelper.stopVideo()
            print("Stop error: \(error.rawValue)")
          }
        }
      } else {
        Task(priority: .background) {
          await MainActor.run {
            let error = videoHelper.startVideo()
            print("Start error: \(error.rawValue)")
          }
        }
      }
    }
  }

  // Local user - toggle audio mic unmute/mute
  func toggleAudio() {
    let myUser = ZoomVideoSDK.shareInstance()?.getSession()?.getMySelf()
    // Get the user's audio status
    if let audioStatus = myUser?.audioStatus(),
      // Get ZoomVideoSDKAudioHelper to control audio
      let audioHelper = ZoomVideoSDK.shareInstance()?.getAudioHelper()
    {
      // Check if the user's audio type is none - Not connected yet
      if audioStatus.audioType == .none {
        Task(priority: .background) {
          await MainActor.run {
            audioHelper.startAudio()
            audioOn = true
          }
        }
      } else {
        // Audio is connected - Toggle audio based on mute status
        if audioStatus.isMuted {
          Task(priority: .background) {
            await MainActor.run {
              let error = audioHelper.unmuteAudio(myUser)
              print("Unmute error: \(error.rawValue)")
              audioOn = true
            }
          }
        } else {
          Task(priority: .background) {
            await MainActor.run {
              let error = audioHelper.muteAudio(myUser)
              print("Mute error: \(error.rawValue)")
              audioOn = false
            }
          }
        }
      }
    }
  }

  func onUserJoin(_ helper: ZoomVideoSDKUserHelper?, users: [ZoomVideoSDKUser]?) {
    // Get remote user
    if let userArray = users, let myself = ZoomVideoSDK.shareInstance()?.getSession()?.getMySelf() {
      for user in userArray {
        if user.getID() != myself.getID() {
          remoteUsers.append(user)
        }
      }
    }
  }

  func onUserVideoStatusChanged(_ helper: ZoomVideoSDKVideoHelper?, user: [ZoomVideoSDKUser]?) {
    if let userArray = user, let myself = ZoomVideoSDK.shareInstance()?.getSession()?.getMySelf() {
      for user in userArray {
        // Get local user
        if user.getID() == myself.getID() {
          if let myUserVideoCanvas = ZoomVideoSDK.shareInstance()?.getSession()?.getMySelf()?
            .getVideoCanvas(), let myVideoIsOn = myUserVideoCanvas.videoStatus()?.on
          {
            if myVideoIsOn {
              Task(priority: .background) {
                await MainActor.run {
                  self.videoOn = true
                }
              }
            } else {
              Task(priority: .background) {
                await MainActor.run {
                  videoOn = false
                }
              }
            }
          }
        }
        // Get remote user
        if user.getID() != myself.getID(),
          let remoteUserIndex = remoteUsers.firstIndex(where: { currentUser in
            currentUser.getID() == user.getID()
          })
        {
          remoteUsers[remoteUserIndex] = user
        }
      }
    }
  }

  func onUserLeave(_ helper: ZoomVideoSDKUserHelper?, users: [ZoomVideoSDKUser]?) {
    // Get remote user
    if let userArray = users, let myself = ZoomVideoSDK.shareInstance()?.getSession()?.getMySelf() {
      for user in userArray {
        if user.getID() != myself.getID() {
          remoteUsers.removeAll { remoteUser in
            remoteUser.getID() == user.getID()
          }
        }
      }
    }
  }

  func leaveSession() {
    ZoomVideoSDK.shareInstance()?.leaveSession(true)
  }

  func onSessionLeave() {
    leftSession = true
  }
}

extension SharedInstanceTests {
  @Suite("Seed apps on the SDK")
  struct SDKUnitTestsSeeds {
    /// Lets the seed's `Task { await MainActor.run { … } }` hops run.
    ///
    /// It used to yield at most 1,000 times, which a busy machine can exhaust before the
    /// seed's background-priority task gets a thread (a full parallel run failed this way);
    /// `SharedInstanceTests.settle` waits by time instead.
    @MainActor
    func settle(until condition: () -> Bool) async {
      await SharedInstanceTests.settle(until: condition)
    }

    /// Touches `VideoSDK.shared`, so it lives in the serialized `SharedInstanceTests` suite; it
    /// resets the shared instance first and cleans up after itself.
    @MainActor
    @Test func seedQuickStartTogglesVideoAndAudioThroughTheSharedInstance() async throws {
      SharedInstanceTests.resetSharedInstance()
      let service = MiniService()
      let grace = SDKTestRig(transport: service)
      grace.join("Grace")

      let viewModel = SeedSessionViewModel()
      #expect(viewModel.setupSDK(transport: service))
      defer {
        VideoSDK.shared.delegate = nil
        VideoSDK.shared.cleanup()
      }
      await viewModel.joinSession()
      #expect(viewModel.inSession)
      #expect(viewModel.remoteUsers.map { $0.getName() } == ["Grace"])
      let sdk = VideoSDK.shared
      #expect(sdk.store.state.myself?.isVideoOn == true)

      let view = NSObjectStandIn()
      viewModel.localView = view
      viewModel.updateLocalVideo()
      #expect(sdk.videoSubscriptionCount == 1)

      await settle { viewModel.videoOn }
      #expect(viewModel.videoOn, "onUserVideoStatusChanged after the join")
      viewModel.toggleVideo()  // on → off
      await settle { !viewModel.videoOn }
      #expect(sdk.store.state.myself?.isVideoOn == false)
      viewModel.toggleVideo()  // off → on
      await settle { viewModel.videoOn }
      #expect(viewModel.videoOn)
      #expect(grace.sdk.store.state.participants[2]?.isVideoOn == true)

      viewModel.toggleAudio()  // muted → unmuted
      await settle { viewModel.audioOn }
      #expect(sdk.store.state.myself?.audio.isMuted == false)
      viewModel.toggleAudio()  // unmuted → muted
      await settle { !viewModel.audioOn }
      #expect(sdk.store.state.myself?.audio.isMuted == true)

      grace.sdk.leaveSession(false)
      #expect(viewModel.remoteUsers.isEmpty)

      viewModel.leaveSession()
      #expect(viewModel.leftSession)
      #expect(sdk.getSession() == nil)
    }
  }
}
