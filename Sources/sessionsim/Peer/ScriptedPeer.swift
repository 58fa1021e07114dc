import SessionCore
import SessionSDK
import SessionService

/// A view stand-in for share and annotation calls that want one.
final class PeerView {}

/// One SDK instance of `sessionsim peer`, with what it saw.
///
/// > Important: Loop-confined, with its SDK instance, on the peers' client loop.
final class ScriptedPeer {
  let index: Int
  let name: String
  let role: TokenRole
  let sdk = VideoSDK()
  let view = PeerView()
  /// Callbacks fired, by delegate method name.
  var callbackCounts: [String: Int] = [:]
  /// Errors reported through `onError`, by SDK error name.
  var errors: [String: Int] = [:]
  var joinedCount = 0
  var leftCount = 0
  var lastLeaveReason: LeaveReason?
  var annotation: AnnotationHelper?

  init(index: Int, name: String, role: TokenRole) {
    self.index = index
    self.name = name
    self.role = role
    sdk.callbackObserver = { [unowned self] callback in record(callback) }
  }

  private func record(_ callback: VideoSDKCallback) {
    callbackCounts[callback.name, default: 0] += 1
    switch callback {
    case .onSessionJoin: joinedCount += 1
    case .onSessionLeave(let reason):
      leftCount += 1
      lastLeaveReason = reason
    case .onError(let error, _): errors[error.sdkName, default: 0] += 1
    default: break
    }
  }

  var isInSession: Bool { sdk.isInSession() }

  var state: SessionState { sdk.store.state }

  func join(session: String, token: String) {
    sdk.joinSession(SessionContext(token: token, sessionName: session, userName: name))
  }

  /// The user with this id in the current session.
  func user(_ id: UserID) -> User? { sdk.getSession()?.user(withID: id) }

  var myself: User? { sdk.getSession()?.getMySelf() }

  // MARK: Actions the scripts use; each tolerates being refused.

  func toggleVideo() {
    if state.myself?.isVideoOn == true {
      sdk.getVideoHelper().stopVideo()
    } else {
      sdk.getVideoHelper().startVideo()
    }
  }

  func toggleMute() {
    guard let me = myself, let audio = state.myself?.audio else { return }
    if audio.type == .none {
      sdk.getAudioHelper().startAudio()
    } else if audio.isMuted {
      sdk.getAudioHelper().unmuteAudio(me)
    } else {
      sdk.getAudioHelper().muteAudio(me)
    }
  }

  func chat(_ text: String) {
    sdk.getChatHelper().SendChatToAll(text)
  }
}
