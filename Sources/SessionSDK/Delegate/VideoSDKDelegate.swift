import SessionCore

/// Receives what happens in a session: `ZoomVideoSDKDelegate`, with the callbacks a session
/// engine models and the SDK's names and Swift-imported parameter shapes.
///
/// Every method has an empty default, as every SDK delegate method is optional: implement the
/// ones you need. Callbacks fire after the event they report has applied to
/// ``VideoSDK/store``, so getters called inside a callback see the new state, and in the
/// service's order. A call into the SDK from inside a callback is handled after the callback
/// returns; its own callbacks follow the current ones, never nested inside them.
///
/// > Important: Callbacks arrive on the isolation domain that owns the ``VideoSDK`` (usually
/// > the main actor). A `@MainActor` class can conform with `@preconcurrency VideoSDKDelegate`,
/// > as seed apps conform to `ZoomVideoSDKDelegate`. The SDK holds its delegate weakly.
public protocol VideoSDKDelegate: AnyObject {
  // MARK: Session lifecycle and errors

  /// The local user joined the session.
  func onSessionJoin()
  /// The local user left the session. Deprecated in the SDK: fired right after
  /// ``onSessionLeave(_:)``.
  func onSessionLeave()
  /// The local user left the session, for `reason`.
  ///
  /// - Parameter reason: Why the local user left: by themselves, removed by the host, the
  ///   session ended, or the connection was lost.
  func onSessionLeave(_ reason: LeaveReason)
  /// Something failed: a join (1500–2017 codes), or a command the service refused (`details`
  /// is then the command's id).
  ///
  /// - Parameters:
  ///   - errorType: What failed: the join error (1500–2017), or the error a command was
  ///     refused with.
  ///   - details: For a refused command, the command's id; 0 for a failed join.
  func onError(_ errorType: VideoSDKError, detail details: Int)
  /// The session needs a password. Call `completion` with the password, or with
  /// `leaveSessionIgnorePassword` true to give up; it returns whether the answer was accepted.
  ///
  /// - Parameter completion: Answers the prompt: call it with the password and `false`, or
  ///   with `true` (`leaveSessionIgnorePassword`) to give up and leave. It returns
  ///   `Errors_Success` when the answer is accepted, or why not (for example
  ///   `Errors_JoinSession_Invalid_Password`).
  func onSessionNeedPassword(_ completion: @escaping (String?, Bool) -> VideoSDKError)
  /// The password given was wrong; answer as for ``onSessionNeedPassword(_:)``.
  ///
  /// - Parameter completion: Answers the prompt again, as for ``onSessionNeedPassword(_:)``:
  ///   the password and `false`, or `true` to give up and leave.
  func onSessionPasswordWrong(_ completion: @escaping (String?, Bool) -> VideoSDKError)
  /// The SDK needs an OS permission. The engine has none and never calls it.
  ///
  /// - Parameter permissionType: The permission needed: camera or microphone.
  func onSystemPermissionRequired(_ permissionType: SystemPermissionType)

  // MARK: Users and roles

  /// Users joined. On the local join, everyone present, the local user included.
  ///
  /// - Parameters:
  ///   - helper: The instance's user helper (``VideoSDK/getUserHelper()``).
  ///   - users: The users who joined, in join order.
  func onUserJoin(_ helper: UserHelper?, users: [User]?)
  /// Users left; their ``User`` objects still answer with what was last known.
  ///
  /// - Parameters:
  ///   - helper: The instance's user helper (``VideoSDK/getUserHelper()``).
  ///   - users: The users who left.
  func onUserLeave(_ helper: UserHelper?, users: [User]?)
  /// A user became host (one user, though the SDK names the parameter `users`).
  ///
  /// - Parameters:
  ///   - helper: The instance's user helper (``VideoSDK/getUserHelper()``).
  ///   - user: The new host.
  func onUserHostChanged(_ helper: UserHelper?, users user: User?)
  /// A user became or stopped being a manager; ask ``User/isManager()``.
  ///
  /// - Parameter user: The user whose manager role changed.
  func onUserManagerChanged(_ user: User?)
  /// A user's name changed.
  ///
  /// - Parameter user: The renamed user; ``User/getUserName()`` gives the new name.
  func onUserNameChanged(_ user: User?)
  /// The users talking now (the SDK passes a user helper here).
  ///
  /// - Parameters:
  ///   - helper: The instance's user helper (``VideoSDK/getUserHelper()``).
  ///   - users: Everyone talking now; empty when nobody is.
  func onUserActiveAudioChanged(_ helper: UserHelper?, users: [User]?)

  // MARK: Video

  /// Users' cameras turned on or off; read ``VideoCanvas/videoStatus()``.
  ///
  /// - Parameters:
  ///   - helper: The instance's video helper (``VideoSDK/getVideoHelper()``).
  ///   - user: The users whose camera turned on or off.
  func onUserVideoStatusChanged(_ helper: VideoHelper?, user: [User]?)
  /// A user's overall network quality changed.
  ///
  /// - Parameters:
  ///   - level: The user's new overall network quality; `.none` when unknown.
  ///   - user: Whose network quality changed.
  func onUserOverallNetworkStatusChanged(_ level: NetworkQuality, user: User?)
  /// The network quality of one kind of a user's media changed, as this instance measures it:
  /// the local user's from what it sends (the media plane's round trips), a remote user's from
  /// what arrives of their stream. Only with a media plane (``InitParams/media``).
  ///
  /// - Parameters:
  ///   - type: Which media the quality is about: audio, video or share.
  ///   - level: The new quality of that media; `.none` when unknown.
  ///   - user: Whose media it is.
  func onUserNetworkStatusChanged(_ type: DataType, level: NetworkQuality, user: User?)
  /// Subscribing `view` to `user`'s video failed, for `failReason`.
  ///
  /// - Parameters:
  ///   - failReason: Why the subscription failed, for example too many subscriptions.
  ///   - user: The user whose video `view` was to show.
  ///   - view: The view passed to ``VideoCanvas/subscribe(with:aspectMode:andResolution:)``;
  ///     `nil` if it is gone.
  func onVideoCanvasSubscribeFail(_ failReason: SubscribeFailReason, user: User?, view: AnyObject?)

  // MARK: Audio

  /// Users' audio connection or mute state changed; read ``User/audioStatus()``.
  ///
  /// - Parameters:
  ///   - helper: The instance's audio helper (``VideoSDK/getAudioHelper()``).
  ///   - user: The users whose audio connection or mute state changed.
  func onUserAudioStatusChanged(_ helper: AudioHelper?, user: [User]?)
  /// The host or a manager asked the local user to unmute.
  func onHostAskUnmute()

  // MARK: Share

  /// A user's share started, paused, resumed or stopped; read
  /// ``ShareAction/getShareStatus()``.
  ///
  /// - Parameters:
  ///   - helper: The instance's share helper (``VideoSDK/getShareHelper()``).
  ///   - user: The share's owner.
  ///   - shareAction: The share; its status is the new one.
  func onUserShareStatusChanged(_ helper: ShareHelper?, user: User?, shareAction: ShareAction?)
  /// The service refused the local user's share.
  ///
  /// - Parameters:
  ///   - helper: The instance's share helper (``VideoSDK/getShareHelper()``).
  ///   - user: The local user.
  func onFailedToStartShare(_ helper: ShareHelper?, user: User?)
  /// The share setting changed.
  ///
  /// - Parameter setting: The new setting: off, locked to host and managers, one share at a
  ///   time, or several at once.
  func onShareSettingChanged(_ setting: ShareSetting)
  /// A share's content type changed. Never fired by the engine (a live share keeps its kind).
  ///
  /// - Parameters:
  ///   - helper: The instance's share helper (``VideoSDK/getShareHelper()``).
  ///   - user: The share's owner.
  ///   - shareAction: The share; its type is the new one.
  func onShareContentChanged(_ helper: ShareHelper?, user: User?, shareAction: ShareAction?)

  // MARK: Annotation

  /// The SDK released an annotation helper (its share stopped, or the session ended); the
  /// helper no longer works.
  ///
  /// - Parameter helper: The released helper; drop your references to it.
  func onAnnotationHelperCleanUp(_ helper: AnnotationHelper?)
  /// The share owner turned viewer annotation on (`enable`) or off. Deprecated in the SDK:
  /// fired right after ``onAnnotationPrivilegeChange(with:shareAction:)``.
  ///
  /// - Parameters:
  ///   - enable: `true` if viewers may now annotate; `false` if the owner turned it off.
  ///   - shareOwner: The owner of the share.
  func onAnnotationPrivilegeChange(_ enable: Bool, shareOwner: User?)
  /// The owner of a share changed whether viewers may annotate; read
  /// ``ShareAction/isAnnotationPrivilegeEnabled()``.
  ///
  /// - Parameters:
  ///   - user: The owner of the share.
  ///   - shareAction: The share whose viewer annotation changed.
  func onAnnotationPrivilegeChange(with user: User?, shareAction: ShareAction?)
  /// A local annotation helper's tool changed.
  ///
  /// - Parameters:
  ///   - helper: The local annotation helper whose tool changed.
  ///   - view: The view the helper annotates on; `nil` if it is gone.
  ///   - toolType: The new tool.
  func onAnnotationToolTypeChanged(
    _ helper: AnnotationHelper?, view: AnyObject?, toolType: AnnotationToolType)

  // MARK: Chat

  /// A chat message arrived, including one the local user sent (it confirms delivery).
  ///
  /// - Parameters:
  ///   - helper: The instance's chat helper (``VideoSDK/getChatHelper()``).
  ///   - message: The message, with its sender and receiver.
  func onChatNewMessageNotify(_ helper: ChatHelper?, message: ChatMessageInfo?)
  /// A chat message was deleted.
  ///
  /// - Parameters:
  ///   - helper: The instance's chat helper (``VideoSDK/getChatHelper()``).
  ///   - messageID: The deleted message's id.
  ///   - deleteBy: Who deleted it: the sender, the host or a manager, or data-loss prevention.
  func onChatMsgDeleteNotification(
    _ helper: ChatHelper?, messageID: String?, deleteBy: ChatDeleteBy)
  /// The chat privilege changed.
  ///
  /// - Parameters:
  ///   - helper: The instance's chat helper (``VideoSDK/getChatHelper()``).
  ///   - privilege: Who may chat now.
  func onChatPrivilegeChanged(_ helper: ChatHelper?, privilege: ChatPrivilege)

  // MARK: Command channel

  /// The command channel connected (or failed to): it fires once after each join, after the
  /// join's other callbacks; commands can be sent once it said `true`.
  ///
  /// - Parameter success: Whether the channel is ready (always `true` here).
  func onCmdChannelConnectResult(_ success: Bool)
  /// A command from another member reached the local user, sent to it alone or to everyone.
  ///
  /// - Parameters:
  ///   - commandContent: The command's text, as sent.
  ///   - sendUser: Who sent it.
  func onCommandReceived(_ commandContent: String?, sendUser: User?)

  // MARK: Spotlight

  /// The spotlighted videos changed.
  ///
  /// - Parameters:
  ///   - videoHelper: The instance's video helper (``VideoSDK/getVideoHelper()``).
  ///   - userList: Everyone spotlighted now, in the host's order; empty when nobody is.
  func onSpotlightVideoChanged(_ videoHelper: VideoHelper?, userList: [User]?)

  // MARK: Subsessions

  /// The subsessions' status changed.
  ///
  /// - Parameters:
  ///   - status: The new status.
  ///   - subSession: The committed subsessions (empty once withdrawn).
  func onSubSessionStatusChanged(_ status: SubSessionStatus, subSession: [SubSessionKit])
  /// The local user got (or, `nil`, lost) the subsession manager's calls: start, stop,
  /// broadcast. The host and managers get one with the first committed list.
  ///
  /// - Parameter manager: The manager handle, or `nil`.
  func onSubSessionManagerHandle(_ manager: SubSessionManager?)
  /// The local user got (or, `nil`, lost) the subsession participant's calls: return to the
  /// main session, ask for help. Everyone gets one when the subsessions start.
  ///
  /// - Parameter participant: The participant handle, or `nil`.
  func onSubSessionParticipantHandle(_ participant: SubSessionParticipant?)
  /// A subsession's members changed.
  ///
  /// - Parameter subSessionKit: The subsession, with its members now.
  func onSubSessionUsersUpdate(_ subSessionKit: SubSessionKit)
  /// The host or a manager broadcast a message to the subsessions (heard in a subsession).
  ///
  /// - Parameters:
  ///   - message: The message.
  ///   - userName: The sender's name.
  func onBroadcastMessageFromMainSession(_ message: String, userName: String)
  /// A member in a subsession asks the host for help (heard by the host).
  ///
  /// - Parameter handler: Answer with `joinSubSessionByUserRequest()` or `ignore()`.
  func onSubSessionUserHelpRequestHandler(_ handler: SubSessionUserHelpRequestHandler)
  /// The answer to the local user's help request.
  ///
  /// - Parameter result: What became of the request.
  func onSubSessionUserHelpRequestResult(_ result: SubSessionHelpResult)

  // MARK: Cloud recording

  /// The cloud recording's status changed, or the local user joined a session being recorded.
  ///
  /// - Parameters:
  ///   - status: The status.
  ///   - recordAgreementHandler: When a recording starts (or is in progress at a join), the
  ///     consent prompt for each member but the host who has not agreed yet; `nil` otherwise.
  func onCloudRecordingStatus(
    _ status: RecordingStatus, recordAgreementHandler: RecordAgreementHandler?)
  /// A member agreed to be recorded.
  ///
  /// - Parameter user: Who agreed.
  func onUserRecordAgreementNotification(_ user: User?)
}

extension VideoSDKDelegate {
  /// Does nothing.
  public func onSessionJoin() {}
  /// Does nothing.
  public func onSessionLeave() {}
  /// Does nothing.
  ///
  /// - Parameter reason: Why the local user left: by themselves, removed by the host, the
  ///   session ended, or the connection was lost.
  public func onSessionLeave(_ reason: LeaveReason) {}
  /// Does nothing.
  ///
  /// - Parameters:
  ///   - errorType: What failed: the join error (1500–2017), or the error a command was
  ///     refused with.
  ///   - details: For a refused command, the command's id; 0 for a failed join.
  public func onError(_ errorType: VideoSDKError, detail details: Int) {}
  /// Does nothing: the join waits until it is answered or the link closes.
  ///
  /// - Parameter completion: Answers the prompt: call it with the password and `false`, or
  ///   with `true` (`leaveSessionIgnorePassword`) to give up and leave. It returns
  ///   `Errors_Success` when the answer is accepted, or why not (for example
  ///   `Errors_JoinSession_Invalid_Password`).
  public func onSessionNeedPassword(_ completion: @escaping (String?, Bool) -> VideoSDKError) {}
  /// Does nothing: the join waits until it is answered or the link closes.
  ///
  /// - Parameter completion: Answers the prompt again, as for ``onSessionNeedPassword(_:)``:
  ///   the password and `false`, or `true` to give up and leave.
  public func onSessionPasswordWrong(_ completion: @escaping (String?, Bool) -> VideoSDKError) {}
  /// Does nothing.
  ///
  /// - Parameter permissionType: The permission needed: camera or microphone.
  public func onSystemPermissionRequired(_ permissionType: SystemPermissionType) {}
  /// Does nothing.
  ///
  /// - Parameters:
  ///   - helper: The instance's user helper (``VideoSDK/getUserHelper()``).
  ///   - users: The users who joined, in join order.
  public func onUserJoin(_ helper: UserHelper?, users: [User]?) {}
  /// Does nothing.
  ///
  /// - Parameters:
  ///   - helper: The instance's user helper (``VideoSDK/getUserHelper()``).
  ///   - users: The users who left.
  public func onUserLeave(_ helper: UserHelper?, users: [User]?) {}
  /// Does nothing.
  ///
  /// - Parameters:
  ///   - helper: The instance's user helper (``VideoSDK/getUserHelper()``).
  ///   - user: The new host.
  public func onUserHostChanged(_ helper: UserHelper?, users user: User?) {}
  /// Does nothing.
  ///
  /// - Parameter user: The user whose manager role changed.
  public func onUserManagerChanged(_ user: User?) {}
  /// Does nothing.
  ///
  /// - Parameter user: The renamed user; ``User/getUserName()`` gives the new name.
  public func onUserNameChanged(_ user: User?) {}
  /// Does nothing.
  ///
  /// - Parameters:
  ///   - helper: The instance's user helper (``VideoSDK/getUserHelper()``).
  ///   - users: Everyone talking now; empty when nobody is.
  public func onUserActiveAudioChanged(_ helper: UserHelper?, users: [User]?) {}
  /// Does nothing.
  ///
  /// - Parameters:
  ///   - helper: The instance's video helper (``VideoSDK/getVideoHelper()``).
  ///   - user: The users whose camera turned on or off.
  public func onUserVideoStatusChanged(_ helper: VideoHelper?, user: [User]?) {}
  /// Does nothing.
  ///
  /// - Parameters:
  ///   - level: The user's new overall network quality; `.none` when unknown.
  ///   - user: Whose network quality changed.
  public func onUserOverallNetworkStatusChanged(_ level: NetworkQuality, user: User?) {}
  /// Does nothing.
  ///
  /// - Parameters:
  ///   - type: Which media the quality is about: audio, video or share.
  ///   - level: The new quality of that media; `.none` when unknown.
  ///   - user: Whose media it is.
  public func onUserNetworkStatusChanged(_ type: DataType, level: NetworkQuality, user: User?) {}
  /// Does nothing.
  ///
  /// - Parameters:
  ///   - failReason: Why the subscription failed, for example too many subscriptions.
  ///   - user: The user whose video `view` was to show.
  ///   - view: The view passed to ``VideoCanvas/subscribe(with:aspectMode:andResolution:)``;
  ///     `nil` if it is gone.
  public func onVideoCanvasSubscribeFail(
    _ failReason: SubscribeFailReason, user: User?, view: AnyObject?
  ) {}
  /// Does nothing.
  ///
  /// - Parameters:
  ///   - helper: The instance's audio helper (``VideoSDK/getAudioHelper()``).
  ///   - user: The users whose audio connection or mute state changed.
  public func onUserAudioStatusChanged(_ helper: AudioHelper?, user: [User]?) {}
  /// Does nothing.
  public func onHostAskUnmute() {}
  /// Does nothing.
  ///
  /// - Parameters:
  ///   - helper: The instance's share helper (``VideoSDK/getShareHelper()``).
  ///   - user: The share's owner.
  ///   - shareAction: The share; its status is the new one.
  public func onUserShareStatusChanged(
    _ helper: ShareHelper?, user: User?, shareAction: ShareAction?
  ) {}
  /// Does nothing.
  ///
  /// - Parameters:
  ///   - helper: The instance's share helper (``VideoSDK/getShareHelper()``).
  ///   - user: The local user.
  public func onFailedToStartShare(_ helper: ShareHelper?, user: User?) {}
  /// Does nothing.
  ///
  /// - Parameter setting: The new setting: off, locked to host and managers, one share at a
  ///   time, or several at once.
  public func onShareSettingChanged(_ setting: ShareSetting) {}
  /// Does nothing.
  ///
  /// - Parameters:
  ///   - helper: The instance's share helper (``VideoSDK/getShareHelper()``).
  ///   - user: The share's owner.
  ///   - shareAction: The share; its type is the new one.
  public func onShareContentChanged(
    _ helper: ShareHelper?, user: User?, shareAction: ShareAction?
  ) {}
  /// Does nothing.
  ///
  /// - Parameter helper: The released helper; drop your references to it.
  public func onAnnotationHelperCleanUp(_ helper: AnnotationHelper?) {}
  /// Does nothing.
  ///
  /// - Parameters:
  ///   - enable: `true` if viewers may now annotate; `false` if the owner turned it off.
  ///   - shareOwner: The owner of the share.
  public func onAnnotationPrivilegeChange(_ enable: Bool, shareOwner: User?) {}
  /// Does nothing.
  ///
  /// - Parameters:
  ///   - user: The owner of the share.
  ///   - shareAction: The share whose viewer annotation changed.
  public func onAnnotationPrivilegeChange(with user: User?, shareAction: ShareAction?) {}
  /// Does nothing.
  ///
  /// - Parameters:
  ///   - helper: The local annotation helper whose tool changed.
  ///   - view: The view the helper annotates on; `nil` if it is gone.
  ///   - toolType: The new tool.
  public func onAnnotationToolTypeChanged(
    _ helper: AnnotationHelper?, view: AnyObject?, toolType: AnnotationToolType
  ) {}
  /// Does nothing.
  ///
  /// - Parameters:
  ///   - helper: The instance's chat helper (``VideoSDK/getChatHelper()``).
  ///   - message: The message, with its sender and receiver.
  public func onChatNewMessageNotify(_ helper: ChatHelper?, message: ChatMessageInfo?) {}
  /// Does nothing.
  ///
  /// - Parameters:
  ///   - helper: The instance's chat helper (``VideoSDK/getChatHelper()``).
  ///   - messageID: The deleted message's id.
  ///   - deleteBy: Who deleted it: the sender, the host or a manager, or data-loss prevention.
  public func onChatMsgDeleteNotification(
    _ helper: ChatHelper?, messageID: String?, deleteBy: ChatDeleteBy
  ) {}
  /// Does nothing.
  ///
  /// - Parameters:
  ///   - helper: The instance's chat helper (``VideoSDK/getChatHelper()``).
  ///   - privilege: Who may chat now.
  public func onChatPrivilegeChanged(_ helper: ChatHelper?, privilege: ChatPrivilege) {}
  /// Does nothing.
  ///
  /// - Parameter success: Whether the command channel is ready.
  public func onCmdChannelConnectResult(_ success: Bool) {}
  /// Does nothing.
  ///
  /// - Parameters:
  ///   - commandContent: The command's text.
  ///   - sendUser: Who sent it.
  public func onCommandReceived(_ commandContent: String?, sendUser: User?) {}
  /// Does nothing.
  ///
  /// - Parameters:
  ///   - videoHelper: The instance's video helper.
  ///   - userList: Everyone spotlighted now.
  public func onSpotlightVideoChanged(_ videoHelper: VideoHelper?, userList: [User]?) {}

  /// Does nothing.
  ///
  /// - Parameters:
  ///   - status: The new status.
  ///   - subSession: The committed subsessions.
  public func onSubSessionStatusChanged(_ status: SubSessionStatus, subSession: [SubSessionKit]) {}
  /// Does nothing.
  ///
  /// - Parameter manager: The manager handle, or `nil`.
  public func onSubSessionManagerHandle(_ manager: SubSessionManager?) {}
  /// Does nothing.
  ///
  /// - Parameter participant: The participant handle, or `nil`.
  public func onSubSessionParticipantHandle(_ participant: SubSessionParticipant?) {}
  /// Does nothing.
  ///
  /// - Parameter subSessionKit: The subsession.
  public func onSubSessionUsersUpdate(_ subSessionKit: SubSessionKit) {}
  /// Does nothing.
  ///
  /// - Parameters:
  ///   - message: The message.
  ///   - userName: The sender's name.
  public func onBroadcastMessageFromMainSession(_ message: String, userName: String) {}
  /// Does nothing.
  ///
  /// - Parameter handler: The request.
  public func onSubSessionUserHelpRequestHandler(_ handler: SubSessionUserHelpRequestHandler) {}
  /// Does nothing.
  ///
  /// - Parameter result: What became of the request.
  public func onSubSessionUserHelpRequestResult(_ result: SubSessionHelpResult) {}
  /// Does nothing.
  ///
  /// - Parameters:
  ///   - status: The status.
  ///   - recordAgreementHandler: The consent prompt, or `nil`.
  public func onCloudRecordingStatus(
    _ status: RecordingStatus, recordAgreementHandler: RecordAgreementHandler?
  ) {}
  /// Does nothing.
  ///
  /// - Parameter user: Who agreed.
  public func onUserRecordAgreementNotification(_ user: User?) {}
}
