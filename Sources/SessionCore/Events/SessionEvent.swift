/// A fact about a session, as the SDK reports it: one case per kind of callback.
///
/// Events are past-tense facts. The service numbers them and every replica applies the same
/// numbered events with ``SessionState/reduce(_:)``. Each case carries only what changed, so
/// applying one costs O(1) in the number of participants (batches cost O(batch)).
public enum SessionEvent: Sendable, Codable, Hashable {
  /// `initialize` succeeded.
  case initialized
  /// `cleanup` ran: back to before `initialize`.
  case cleanedUp
  /// `joinSession` was called for this session and user name.
  indirect case joinRequested(sessionName: String, userName: String)
  /// The local user joined (`onSessionJoin`); the snapshot holds everyone present.
  ///
  /// Large payloads are `indirect`, so that every event stays small to copy.
  indirect case sessionJoined(SessionSnapshot)
  /// Joining failed (`onError` with a join error).
  case joinFailed(error: VideoSDKError)
  /// `leaveSession` was called.
  case leaveRequested
  /// The local user left the session (`onSessionLeave`).
  case sessionLeft(reason: LeaveReason)
  /// Users joined (`onUserJoin`).
  case usersJoined([Participant])
  /// Users left (`onUserLeave`).
  case usersLeft([UserID])
  /// A user's camera turned on or off (`onUserVideoStatusChanged`).
  case videoStatusChanged(user: UserID, isOn: Bool)
  /// A user's audio connection or mute state changed (`onUserAudioStatusChanged`).
  case audioStatusChanged(user: UserID, type: AudioType, isMuted: Bool)
  /// The set of users talking changed (`onUserActiveAudioChanged`).
  case activeSpeakersChanged([UserID])
  /// The host or a manager asked the local user to unmute (`onHostAskUnmute`).
  case hostAskedUnmute(by: UserID)
  /// A user's share started, paused, resumed or stopped (`onUserShareStatusChanged`).
  case shareStatusChanged(user: UserID, status: ShareStatus, kind: ShareKind)
  /// The share setting changed (`onShareSettingChanged`).
  case shareSettingChanged(ShareSetting)
  /// A user became host (`onUserHostChanged`); the previous host becomes a participant.
  case hostChanged(newHost: UserID)
  /// A user became or stopped being a manager (`onUserManagerChanged`).
  case managerChanged(user: UserID, isManager: Bool)
  /// A user's name changed (`onUserNameChanged`).
  case nameChanged(user: UserID, name: String)
  /// A user started annotating on a share.
  case annotationStarted(user: UserID, shareOwner: UserID)
  /// A user stopped annotating on a share (`onAnnotationHelperCleanUp` for that user).
  case annotationStopped(user: UserID, shareOwner: UserID)
  /// Annotations on a share were cleared.
  case annotationCleared(user: UserID, shareOwner: UserID, type: AnnotationClearType)
  /// The share owner turned viewer annotation on or off (`onAnnotationPrivilegeChange`).
  case annotationPrivilegeChanged(shareOwner: UserID, isViewerAnnotationDisabled: Bool)
  /// A chat message arrived, including one the local user sent (`onChatNewMessageNotify`).
  indirect case chatMessageReceived(ChatMessage)
  /// A chat message was deleted (`onChatMsgDeleteNotification`).
  case chatMessageDeleted(messageID: String, deletedBy: ChatDeleteBy)
  /// The chat privilege changed (`onChatPrivilegeChanged`).
  case chatPrivilegeChanged(ChatPrivilege)
  /// A user's network quality changed (`onUserOverallNetworkStatusChanged`).
  case networkStatusChanged(user: UserID, quality: NetworkQuality)
  /// The spotlighted videos changed (`onSpotlightVideoChanged(_:userList:)`): the whole new
  /// list, in order.
  case spotlightChanged([UserID])
  /// A command-channel command reached the local user (`onCommandReceived(_:sendUser:)`): it
  /// changes no state, and only its recipients hear of it.
  case commandReceived(sender: UserID, content: String)
  /// A subsession fact: the status and list, a member's move, or a notice (a broadcast from
  /// the main session, a help request, its answer); see ``SubSessionEvent``.
  indirect case subSession(SubSessionEvent)
  /// A cloud-recording fact: the status, or a member's agreement; see ``RecordingEvent``.
  case recording(RecordingEvent)
  /// The SDK reported an error (`onError`).
  case errorOccurred(error: VideoSDKError, detail: Int)
}

extension SessionEvent {
  /// The user whose status a one-user status event changes (video, audio, network quality),
  /// the commonest events of a session in progress; `nil` for every other event.
  ///
  /// Public only as SPI (`@_spi(Package) import SessionCore`) and inlinable, as ``FIFO`` is: the
  /// SDK reads it for every message a fan-out delivers (Decision 0009), and the body of a
  /// `package` declaration is not available to other modules, so it was a call and a copy of
  /// the event each time.
  @_spi(Package) @inlinable public var statusSubject: UserID? {
    switch self {
    case .videoStatusChanged(let user, _), .audioStatusChanged(let user, _, _),
      .networkStatusChanged(let user, _):
      user
    default:
      nil
    }
  }

  /// The case name, for logs, metrics and trace diagnostics.
  public var name: String {
    switch self {
    case .initialized: "initialized"
    case .cleanedUp: "cleanedUp"
    case .joinRequested: "joinRequested"
    case .sessionJoined: "sessionJoined"
    case .joinFailed: "joinFailed"
    case .leaveRequested: "leaveRequested"
    case .sessionLeft: "sessionLeft"
    case .usersJoined: "usersJoined"
    case .usersLeft: "usersLeft"
    case .videoStatusChanged: "videoStatusChanged"
    case .audioStatusChanged: "audioStatusChanged"
    case .activeSpeakersChanged: "activeSpeakersChanged"
    case .hostAskedUnmute: "hostAskedUnmute"
    case .shareStatusChanged: "shareStatusChanged"
    case .shareSettingChanged: "shareSettingChanged"
    case .hostChanged: "hostChanged"
    case .managerChanged: "managerChanged"
    case .nameChanged: "nameChanged"
    case .annotationStarted: "annotationStarted"
    case .annotationStopped: "annotationStopped"
    case .annotationCleared: "annotationCleared"
    case .annotationPrivilegeChanged: "annotationPrivilegeChanged"
    case .chatMessageReceived: "chatMessageReceived"
    case .chatMessageDeleted: "chatMessageDeleted"
    case .chatPrivilegeChanged: "chatPrivilegeChanged"
    case .networkStatusChanged: "networkStatusChanged"
    case .commandReceived: "commandReceived"
    case .spotlightChanged: "spotlightChanged"
    case .subSession: "subSession"
    case .recording: "recording"
    case .errorOccurred: "errorOccurred"
    }
  }

  /// Whether the event is about the local instance (lifecycle) rather than the shared session.
  ///
  /// The service never sends local events; each SDK instance produces them itself.
  public var isLocal: Bool {
    switch self {
    case .initialized, .cleanedUp, .joinRequested, .joinFailed, .leaveRequested, .sessionLeft,
      .sessionJoined, .errorOccurred, .hostAskedUnmute:
      true
    default:
      false
    }
  }
}
