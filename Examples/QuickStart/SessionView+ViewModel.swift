import Observation
import SessionCore
import SessionSDK

/// Seed 000's `SessionView`, without SwiftUI: only its view model lives here.
enum SessionView {}

extension SessionView {
  /// Seed 000's `SessionView.ViewModel`, ported from ZoomVideoSDK to SessionSDK.
  ///
  /// The port is mechanical: `ZoomVideoSDK.shareInstance()?` becomes the instance this model
  /// was given (`sdk`), `ZoomVideoSDKSessionContext` becomes `SessionContext`, and so on (see
  /// Docs/SessionSDK.md). Three things differ from the seed, each marked below:
  /// - `@Observable` replaces `ObservableObject`/`@Published`, and the UIKit video views
  ///   (`localView`, `attachLocalVideo`, …) are left out: nothing is rendered.
  /// - The seed hops to the main actor with `Task { await MainActor.run { … } }` around each
  ///   helper call; this class is already `@MainActor`, so it calls directly.
  /// - Two users share this process, so each model gets its own ``VideoSDK`` instance. A
  ///   one-user app can keep `VideoSDK.shareInstance()?` as the seed writes it.
  @Observable @MainActor
  final class ViewModel: @preconcurrency VideoSDKDelegate {
    // Error popup
    var errorTitle: String = "Error"
    var errorMessage: String = "Message"
    // Local user
    var userInputJWT = ""
    var shouldJoin = false
    var joinSessionFailed: Bool = false
    var inJWTInput: Bool = true
    var inSession: Bool = false
    var leftSession: Bool = false
    var videoOn: Bool = false
    var audioOn: Bool = false
    // Remote users
    var remoteUsers: [User] = []

    // MARK: Session information (the seed's file-level constants, one set per user here)

    @ObservationIgnored let jwtToken: String
    @ObservationIgnored let sessionName: String
    @ObservationIgnored let userName: String
    @ObservationIgnored let sessionPassword: String
    @ObservationIgnored private let sdk: VideoSDK

    init(
      sdk: VideoSDK, jwtToken: String, sessionName: String, userName: String,
      sessionPassword: String = ""
    ) {
      self.sdk = sdk
      self.jwtToken = jwtToken
      self.sessionName = sessionName
      self.userName = userName
      self.sessionPassword = sessionPassword
    }

    // MARK: Joining a session

    func joinSession() async {
      sdk.delegate = self
      let sessionContext = SessionContext()
      sessionContext.token = jwtToken.isEmpty ? userInputJWT : jwtToken
      sessionContext.sessionName = sessionName
      sessionContext.userName = userName
      let videoOption = VideoOptions()
      videoOption.localVideoOn = true
      sessionContext.videoOption = videoOption
      let audioOption = AudioOptions()
      audioOption.mute = true
      sessionContext.audioOption = audioOption
      if !sessionPassword.isEmpty {
        sessionContext.sessionPassword = sessionPassword
      }
      // Join Session
      if sdk.joinSession(sessionContext) == nil {
        joinSessionFailed = true
      }
    }

    // MARK: Video

    /// Local user - toggle video on/off.
    func toggleVideo() {
      if let usersVideoCanvas = sdk.getSession()?.getMySelf()?.getVideoCanvas() {
        // Get VideoHelper to control video
        let videoHelper = sdk.getVideoHelper()
        if let myVideoIsOn = usersVideoCanvas.videoStatus()?.on, myVideoIsOn {
          report("stopVideo()", videoHelper.stopVideo())
        } else {
          report("startVideo()", videoHelper.startVideo())
        }
      }
    }

    // MARK: Audio

    /// Local user - toggle audio mic unmute/mute.
    func toggleAudio() {
      let myUser = sdk.getSession()?.getMySelf()
      // Get the user's audio status
      if let audioStatus = myUser?.audioStatus() {
        // Get AudioHelper to control audio
        let audioHelper = sdk.getAudioHelper()
        // Check if the user's audio type is none - Not connected yet
        if audioStatus.audioType == .none {
          report("startAudio()", audioHelper.startAudio())
          audioOn = true
        } else if audioStatus.isMuted {
          // Audio is connected - Toggle audio based on mute status
          report("unmuteAudio(me)", audioHelper.unmuteAudio(myUser))
          audioOn = true
        } else {
          report("muteAudio(me)", audioHelper.muteAudio(myUser))
          audioOn = false
        }
      }
    }

    // MARK: Leaving a session

    func leaveSession() {
      report("leaveSession(true)", sdk.leaveSession(true))
    }

    // MARK: VideoSDKDelegate

    func onSessionJoin() {
      // Session joined successfully.
      inSession = true
      // Not in the seed: the engine fires no `onUserVideoStatusChanged` for the camera state a
      // user joins with (`localVideoOn`), so read it once here.
      videoOn = sdk.getSession()?.getMySelf()?.getVideoCanvas()?.videoStatus()?.on ?? false
    }

    func onUserJoin(_ helper: UserHelper?, users: [User]?) {
      // Get remote user
      if let userArray = users, let myself = sdk.getSession()?.getMySelf() {
        for user in userArray where user.getID() != myself.getID() {
          remoteUsers.append(user)
        }
      }
    }

    func onUserVideoStatusChanged(_ helper: VideoHelper?, user: [User]?) {
      if let userArray = user, let myself = sdk.getSession()?.getMySelf() {
        for user in userArray {
          // Get local user
          if user.getID() == myself.getID(),
            let myVideoIsOn = myself.getVideoCanvas()?.videoStatus()?.on
          {
            videoOn = myVideoIsOn
          }
          // Get remote user
          if user.getID() != myself.getID(),
            let remoteUserIndex = remoteUsers.firstIndex(where: { $0.getID() == user.getID() })
          {
            remoteUsers[remoteUserIndex] = user
          }
        }
      }
    }

    func onUserLeave(_ helper: UserHelper?, users: [User]?) {
      // Get remote user
      if let userArray = users, let myself = sdk.getSession()?.getMySelf() {
        for user in userArray where user.getID() != myself.getID() {
          remoteUsers.removeAll { $0.getID() == user.getID() }
        }
      }
    }

    func onSessionLeave() {
      leftSession = true
    }

    // Not in the seed's excerpt, but its error alert needs it: a refused join (a bad token, a
    // full session) arrives here rather than as a `nil` from `joinSession`.
    func onError(_ errorType: VideoSDKError, detail details: Int) {
      errorMessage = errorType.sdkName
      if !inSession { joinSessionFailed = true }
    }

    // MARK: Logging

    /// The seed prints each helper's return code; so does this model, under the user's name.
    private func report(_ call: String, _ error: VideoSDKError) {
      print("  \(userName): \(call) → \(error.sdkName)")
    }
  }
}
