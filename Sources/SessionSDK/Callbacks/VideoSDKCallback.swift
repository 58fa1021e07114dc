import SessionCore

/// One delegate callback, as a value: the method's name and the ids and values it carries,
/// without live objects.
///
/// Each case is named after the ``VideoSDKDelegate`` method it stands for, one case per
/// method, so that a callback stream recorded from a delegate and one derived from events by
/// the SDK's mapping of events to callbacks (`CallbackMapping`) compare equal. ``VideoSDK`` turns each into the delegate call with live
/// ``User``, ``ShareAction`` and helper objects, and hands it first to
/// ``VideoSDK/callbackObserver``.
public enum VideoSDKCallback: Sendable, Codable, Hashable {
  // MARK: Session lifecycle and errors

  /// `onSessionJoin()`.
  case onSessionJoin
  /// `onSessionLeave(_:)`, with the reason.
  case onSessionLeave(LeaveReason)
  /// The deprecated `onSessionLeave()` without a reason, fired right after
  /// ``onSessionLeave(_:)``.
  case onSessionLeaveLegacy
  /// `onError(_:detail:)`.
  case onError(VideoSDKError, detail: Int)
  /// `onSessionNeedPassword(_:)`.
  case onSessionNeedPassword
  /// `onSessionPasswordWrong(_:)`.
  case onSessionPasswordWrong
  /// `onSystemPermissionRequired(_:)`. The engine has no OS permissions and never fires it.
  case onSystemPermissionRequired(SystemPermissionType)

  // MARK: Users and roles

  /// `onUserJoin(_:users:)`.
  case onUserJoin([UserID])
  /// `onUserLeave(_:users:)`.
  case onUserLeave([UserID])
  /// `onUserHostChanged(_:users:)`: the one new host.
  case onUserHostChanged(UserID)
  /// `onUserManagerChanged(_:)`.
  case onUserManagerChanged(UserID)
  /// `onUserNameChanged(_:)`.
  case onUserNameChanged(UserID)
  /// `onUserActiveAudioChanged(_:users:)`: who is talking now.
  case onUserActiveAudioChanged([UserID])

  // MARK: Video

  /// `onUserVideoStatusChanged(_:user:)`.
  case onUserVideoStatusChanged([UserID])
  /// `onUserOverallNetworkStatusChanged(_:user:)`.
  case onUserOverallNetworkStatusChanged(NetworkQuality, user: UserID)
  /// `onVideoCanvasSubscribeFail(_:user:view:)`.
  case onVideoCanvasSubscribeFail(SubscribeFailReason, user: UserID)
  /// `onUserNetworkStatusChanged(_:level:user:)`: the network quality of one kind of a user's
  /// media, measured locally (the local user's from what it sends, a remote user's from what
  /// arrives of theirs).
  case onUserNetworkStatusChanged(DataType, NetworkQuality, user: UserID)

  // MARK: Audio

  /// `onUserAudioStatusChanged(_:user:)`.
  case onUserAudioStatusChanged([UserID])
  /// `onHostAskUnmute()`.
  case onHostAskUnmute

  // MARK: Share

  /// `onUserShareStatusChanged(_:user:shareAction:)`, with the share's kind.
  case onUserShareStatusChanged(UserID, ShareStatus, ShareKind)
  /// `onFailedToStartShare(_:user:)`: the service refused the local user's share.
  case onFailedToStartShare(UserID)
  /// `onShareSettingChanged(_:)`.
  case onShareSettingChanged(ShareSetting)
  /// `onShareContentChanged(_:user:shareAction:)`. A live share's kind never changes in the
  /// engine, so it is never fired.
  case onShareContentChanged(UserID, ShareKind)

  // MARK: Annotation

  /// `onAnnotationHelperCleanUp(_:)`: the local helper on this owner's share is released.
  case onAnnotationHelperCleanUp(shareOwner: UserID)
  /// `onAnnotationPrivilegeChange(with:shareAction:)`: viewer annotation on this owner's share
  /// was turned on (`true`) or off.
  case onAnnotationPrivilegeChangeWithUser(UserID, isEnabled: Bool)
  /// The deprecated `onAnnotationPrivilegeChange(_:shareOwner:)`, fired right after
  /// ``onAnnotationPrivilegeChangeWithUser(_:isEnabled:)``.
  case onAnnotationPrivilegeChange(enable: Bool, shareOwner: UserID)
  /// `onAnnotationToolTypeChanged(_:view:toolType:)` for the local helper on this owner's share.
  case onAnnotationToolTypeChanged(shareOwner: UserID, AnnotationToolType)

  // MARK: Chat

  /// `onChatNewMessageNotify(_:message:)`.
  case onChatNewMessageNotify(ChatMessage)
  /// `onChatMsgDeleteNotification(_:messageID:deleteBy:)`.
  case onChatMsgDeleteNotification(messageID: String, deleteBy: ChatDeleteBy)
  /// `onChatPrivilegeChanged(_:privilege:)`.
  case onChatPrivilegeChanged(ChatPrivilege)

  // MARK: Command channel

  /// `onCmdChannelConnectResult(_:)`: the command channel is ready (after each join).
  case onCmdChannelConnectResult(Bool)
  /// `onCommandReceived(_:sendUser:)`.
  case onCommandReceived(content: String, sender: UserID)

  // MARK: Spotlight

  /// `onSpotlightVideoChanged(_:userList:)`: the whole new list, in order.
  case onSpotlightVideoChanged([UserID])

  // MARK: Subsessions

  /// `onSubSessionStatusChanged(_:subSession:)`, with the committed list.
  case onSubSessionStatusChanged(SubSessionStatus, [SubSession])
  /// `onSubSessionManagerHandle(_:)`: a manager handle given (`true`) or taken back.
  case onSubSessionManagerHandle(Bool)
  /// `onSubSessionParticipantHandle(_:)`: a participant handle given (`true`) or taken back.
  case onSubSessionParticipantHandle(Bool)
  /// `onSubSessionUsersUpdate(_:)`: a subsession's members changed.
  case onSubSessionUsersUpdate(SubSession)
  /// `onBroadcastMessageFromMainSession(_:userName:)`, with the sender's name as the SDK gives
  /// it.
  case onBroadcastMessageFromMainSession(message: String, userName: String)
  /// `onSubSessionUserHelpRequestHandler(_:)`: a member asks the host for help.
  case onSubSessionUserHelpRequestHandler(requester: UserID, subSessionID: String)
  /// `onSubSessionUserHelpRequestResult(_:)`.
  case onSubSessionUserHelpRequestResult(SubSessionHelpResult)

  // MARK: Cloud recording

  /// `onCloudRecordingStatus(_:recordAgreementHandler:)`: the status, and whether the local
  /// user is asked to agree (a handler given).
  case onCloudRecordingStatus(RecordingStatus, asksAgreement: Bool)
  /// `onUserRecordAgreementNotification(_:)`: a member agreed to be recorded.
  case onUserRecordAgreementNotification(UserID)
}

extension VideoSDKCallback {
  /// The delegate method's name, for logs and diffs.
  public var name: String {
    switch self {
    case .onSessionJoin: "onSessionJoin"
    case .onSessionLeave: "onSessionLeave(_:)"
    case .onSessionLeaveLegacy: "onSessionLeave()"
    case .onError: "onError"
    case .onSessionNeedPassword: "onSessionNeedPassword"
    case .onSessionPasswordWrong: "onSessionPasswordWrong"
    case .onSystemPermissionRequired: "onSystemPermissionRequired"
    case .onUserJoin: "onUserJoin"
    case .onUserLeave: "onUserLeave"
    case .onUserHostChanged: "onUserHostChanged"
    case .onUserManagerChanged: "onUserManagerChanged"
    case .onUserNameChanged: "onUserNameChanged"
    case .onUserActiveAudioChanged: "onUserActiveAudioChanged"
    case .onUserVideoStatusChanged: "onUserVideoStatusChanged"
    case .onUserOverallNetworkStatusChanged: "onUserOverallNetworkStatusChanged"
    case .onVideoCanvasSubscribeFail: "onVideoCanvasSubscribeFail"
    case .onUserNetworkStatusChanged: "onUserNetworkStatusChanged"
    case .onUserAudioStatusChanged: "onUserAudioStatusChanged"
    case .onHostAskUnmute: "onHostAskUnmute"
    case .onUserShareStatusChanged: "onUserShareStatusChanged"
    case .onFailedToStartShare: "onFailedToStartShare"
    case .onShareSettingChanged: "onShareSettingChanged"
    case .onShareContentChanged: "onShareContentChanged"
    case .onAnnotationHelperCleanUp: "onAnnotationHelperCleanUp"
    case .onAnnotationPrivilegeChangeWithUser: "onAnnotationPrivilegeChange(with:shareAction:)"
    case .onAnnotationPrivilegeChange: "onAnnotationPrivilegeChange(_:shareOwner:)"
    case .onAnnotationToolTypeChanged: "onAnnotationToolTypeChanged"
    case .onChatNewMessageNotify: "onChatNewMessageNotify"
    case .onChatMsgDeleteNotification: "onChatMsgDeleteNotification"
    case .onChatPrivilegeChanged: "onChatPrivilegeChanged"
    case .onCmdChannelConnectResult: "onCmdChannelConnectResult"
    case .onCommandReceived: "onCommandReceived"
    case .onSpotlightVideoChanged: "onSpotlightVideoChanged"
    case .onSubSessionStatusChanged: "onSubSessionStatusChanged"
    case .onSubSessionManagerHandle: "onSubSessionManagerHandle"
    case .onSubSessionParticipantHandle: "onSubSessionParticipantHandle"
    case .onSubSessionUsersUpdate: "onSubSessionUsersUpdate"
    case .onBroadcastMessageFromMainSession: "onBroadcastMessageFromMainSession"
    case .onSubSessionUserHelpRequestHandler: "onSubSessionUserHelpRequestHandler"
    case .onSubSessionUserHelpRequestResult: "onSubSessionUserHelpRequestResult"
    case .onCloudRecordingStatus: "onCloudRecordingStatus"
    case .onUserRecordAgreementNotification: "onUserRecordAgreementNotification"
    }
  }
}
