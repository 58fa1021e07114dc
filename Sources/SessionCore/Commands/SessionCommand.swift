/// Something a member asks the service to do: one case per SDK helper call that changes the
/// session. Commands are imperative; the service answers each with events or an error.
public enum SessionCommand: Sendable, Codable, Hashable {
  /// `leaveSession(end)`: leave; the host may end the session for everyone.
  case leave(end: Bool)
  /// `startVideo()`.
  case startVideo
  /// `stopVideo()`.
  case stopVideo
  /// `startAudio()`: connect VoIP.
  case startAudio
  /// `stopAudio()`: disconnect audio.
  case stopAudio
  /// `muteAudio(user)`: self, or others by host or manager.
  case muteAudio(user: UserID)
  /// `unmuteAudio(user)`: self; for others (host or manager) it only asks them.
  case unmuteAudio(user: UserID)
  /// `muteAllAudio(allowUnmute)`: everyone but the caller (host or manager).
  case muteAllAudio(allowUnmute: Bool)
  /// `unmuteAllAudio()`: asks everyone muted to unmute (host or manager).
  case unmuteAllAudio
  /// `allowAudioUnmutedBySelf(allow)` (host or manager).
  case allowAudioUnmutedBySelf(Bool)
  /// `startShare(with:)`, `startInAppScreenShare()`, `startShareCamera(_:)`.
  case startShare(kind: ShareKind)
  /// `pauseShare()`.
  case pauseShare
  /// `resumeShare()`.
  case resumeShare
  /// `stopShare()`.
  case stopShare
  /// `lockShare(lock)` (host or manager).
  case lockShare(Bool)
  /// `enableMultiShare(enable)` (host or manager).
  case enableMultiShare(Bool)
  /// `disableViewerAnnotation(disable)` (share owner).
  case disableViewerAnnotation(Bool)
  /// `startAnnotation()` on a share.
  case startAnnotation(shareOwner: UserID)
  /// `stopAnnotation()` on a share.
  case stopAnnotation(shareOwner: UserID)
  /// `clear(type)` on a share.
  case clearAnnotation(shareOwner: UserID, type: AnnotationClearType)
  /// `makeHost(user)` (host only, not self).
  case makeHost(UserID)
  /// `makeManager(user)` (host only, not self).
  case makeManager(UserID)
  /// `revokeManager(user)` (host only, not self).
  case revokeManager(UserID)
  /// `removeUser(user)` (host only, not self).
  case removeUser(UserID)
  /// `reclaimHost()` (a `role_type` 1 user).
  case reclaimHost
  /// `changeName(name, withUser:)`: self, or others by host or manager.
  case changeName(user: UserID, name: String)
  /// `SendChatToAll(_:)` (receiver `nil`) or `SendChatToUser(_:Content:)`.
  case sendChat(receiver: UserID?, content: String)
  /// `deleteChatMessage(_:)`.
  case deleteChatMessage(messageID: String)
  /// `changeChatPrivilege(_:)` (host or manager).
  case changeChatPrivilege(ChatPrivilege)
  /// The synthetic microphone started or stopped hearing speech.
  case reportTalking(Bool)
  /// The link measured a new network quality for this member.
  case reportNetworkQuality(NetworkQuality)
  /// `sendCommand(_:receiveUser:)` on the command channel: to one user, or (receiver `nil`) to
  /// everyone else in the session.
  case sendCommand(receiver: UserID?, content: String)
  /// `spotLightVideo(user)` (host only).
  case spotlightVideo(UserID)
  /// `unSpotLightVideo(user)` (host only).
  case unspotlightVideo(UserID)
  /// `unSpotlightAllVideos()` (host only).
  case unspotlightAllVideos
  /// A subsession call; see ``SubSessionCommand``.
  case subSession(SubSessionCommand)
  /// A cloud-recording call; see ``RecordingCommand``.
  case recording(RecordingCommand)

  /// The case name, for logs.
  public var name: String {
    switch self {
    case .leave: "leave"
    case .startVideo: "startVideo"
    case .stopVideo: "stopVideo"
    case .startAudio: "startAudio"
    case .stopAudio: "stopAudio"
    case .muteAudio: "muteAudio"
    case .unmuteAudio: "unmuteAudio"
    case .muteAllAudio: "muteAllAudio"
    case .unmuteAllAudio: "unmuteAllAudio"
    case .allowAudioUnmutedBySelf: "allowAudioUnmutedBySelf"
    case .startShare: "startShare"
    case .pauseShare: "pauseShare"
    case .resumeShare: "resumeShare"
    case .stopShare: "stopShare"
    case .lockShare: "lockShare"
    case .enableMultiShare: "enableMultiShare"
    case .disableViewerAnnotation: "disableViewerAnnotation"
    case .startAnnotation: "startAnnotation"
    case .stopAnnotation: "stopAnnotation"
    case .clearAnnotation: "clearAnnotation"
    case .makeHost: "makeHost"
    case .makeManager: "makeManager"
    case .revokeManager: "revokeManager"
    case .removeUser: "removeUser"
    case .reclaimHost: "reclaimHost"
    case .changeName: "changeName"
    case .sendChat: "sendChat"
    case .deleteChatMessage: "deleteChatMessage"
    case .changeChatPrivilege: "changeChatPrivilege"
    case .reportTalking: "reportTalking"
    case .reportNetworkQuality: "reportNetworkQuality"
    case .sendCommand: "sendCommand"
    case .spotlightVideo: "spotlightVideo"
    case .unspotlightVideo: "unspotlightVideo"
    case .unspotlightAllVideos: "unspotlightAllVideos"
    case .subSession: "subSession"
    case .recording: "recording"
    }
  }
}
