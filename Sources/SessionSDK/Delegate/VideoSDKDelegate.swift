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
  func onSessionLeave(_ reason: LeaveReason)
  /// Something failed: a join (1500–2017 codes), or a command the service refused (`details`
  /// is then the command's id).
  func onError(_ errorType: VideoSDKError, detail details: Int)
  /// The session needs a password. Call `completion` with the password, or with
  /// `leaveSessionIgnorePassword` true to give up; it returns whether the answer was accepted.
  func onSessionNeedPassword(_ completion: @escaping (String?, Bool) -> VideoSDKError)
  /// The password given was wrong; answer as for ``onSessionNeedPassword(_:)``.
  func onSessionPasswordWrong(_ completion: @escaping (String?, Bool) -> VideoSDKError)
  /// The SDK needs an OS permission. The engine has none and never calls it.
  func onSystemPermissionRequired(_ permissionType: SystemPermissionType)

  // MARK: Users and roles

  /// Users joined. On the local join, everyone present, the local user included.
  func onUserJoin(_ helper: UserHelper?, users: [User]?)
  /// Users left; their ``User`` objects still answer with what was last known.
  func onUserLeave(_ helper: UserHelper?, users: [User]?)
  /// A user became host (one user, though the SDK names the parameter `users`).
  func onUserHostChanged(_ helper: UserHelper?, users user: User?)
  /// A user became or stopped being a manager; ask ``User/isManager()``.
  func onUserManagerChanged(_ user: User?)
  /// A user's name changed.
  func onUserNameChanged(_ user: User?)
  /// The users talking now (the SDK passes a user helper here).
  func onUserActiveAudioChanged(_ helper: UserHelper?, users: [User]?)

  // MARK: Video

  /// Users' cameras turned on or off; read ``VideoCanvas/videoStatus()``.
  func onUserVideoStatusChanged(_ helper: VideoHelper?, user: [User]?)
  /// A user's overall network quality changed.
  func onUserOverallNetworkStatusChanged(_ level: NetworkQuality, user: User?)
  /// The network quality of one kind of a user's media changed, as this instance measures it:
  /// the local user's from what it sends (the media plane's round trips), a remote user's from
  /// what arrives of their stream. Only with a media plane (``InitParams/media``).
  func onUserNetworkStatusChanged(_ type: DataType, level: NetworkQuality, user: User?)
  /// Subscribing `view` to `user`'s video failed, for `failReason`.
  func onVideoCanvasSubscribeFail(_ failReason: SubscribeFailReason, user: User?, view: AnyObject?)

  // MARK: Audio

  /// Users' audio connection or mute state changed; read ``User/audioStatus()``.
  func onUserAudioStatusChanged(_ helper: AudioHelper?, user: [User]?)
  /// The host or a manager asked the local user to unmute.
  func onHostAskUnmute()

  // MARK: Share

  /// A user's share started, paused, resumed or stopped; read
  /// ``ShareAction/getShareStatus()``.
  func onUserShareStatusChanged(_ helper: ShareHelper?, user: User?, shareAction: ShareAction?)
  /// The service refused the local user's share.
  func onFailedToStartShare(_ helper: ShareHelper?, user: User?)
  /// The share setting changed.
  func onShareSettingChanged(_ setting: ShareSetting)
  /// A share's content type changed. Never fired by the engine (a live share keeps its kind).
  func onShareContentChanged(_ helper: ShareHelper?, user: User?, shareAction: ShareAction?)

  // MARK: Annotation

  /// The SDK released an annotation helper (its share stopped, or the session ended); the
  /// helper no longer works.
  func onAnnotationHelperCleanUp(_ helper: AnnotationHelper?)
  /// The share owner turned viewer annotation on (`enable`) or off. Deprecated in the SDK:
  /// fired right after ``onAnnotationPrivilegeChange(with:shareAction:)``.
  func onAnnotationPrivilegeChange(_ enable: Bool, shareOwner: User?)
  /// The owner of a share changed whether viewers may annotate; read
  /// ``ShareAction/isAnnotationPrivilegeEnabled()``.
  func onAnnotationPrivilegeChange(with user: User?, shareAction: ShareAction?)
  /// A local annotation helper's tool changed.
  func onAnnotationToolTypeChanged(
    _ helper: AnnotationHelper?, view: AnyObject?, toolType: AnnotationToolType)

  // MARK: Chat

  /// A chat message arrived, including one the local user sent (it confirms delivery).
  func onChatNewMessageNotify(_ helper: ChatHelper?, message: ChatMessageInfo?)
  /// A chat message was deleted.
  func onChatMsgDeleteNotification(
    _ helper: ChatHelper?, messageID: String?, deleteBy: ChatDeleteBy)
  /// The chat privilege changed.
  func onChatPrivilegeChanged(_ helper: ChatHelper?, privilege: ChatPrivilege)
}

extension VideoSDKDelegate {
  /// Does nothing.
  public func onSessionJoin() {}
  /// Does nothing.
  public func onSessionLeave() {}
  /// Does nothing.
  public func onSessionLeave(_ reason: LeaveReason) {}
  /// Does nothing.
  public func onError(_ errorType: VideoSDKError, detail details: Int) {}
  /// Does nothing: the join waits until it is answered or the link closes.
  public func onSessionNeedPassword(_ completion: @escaping (String?, Bool) -> VideoSDKError) {}
  /// Does nothing: the join waits until it is answered or the link closes.
  public func onSessionPasswordWrong(_ completion: @escaping (String?, Bool) -> VideoSDKError) {}
  /// Does nothing.
  public func onSystemPermissionRequired(_ permissionType: SystemPermissionType) {}
  /// Does nothing.
  public func onUserJoin(_ helper: UserHelper?, users: [User]?) {}
  /// Does nothing.
  public func onUserLeave(_ helper: UserHelper?, users: [User]?) {}
  /// Does nothing.
  public func onUserHostChanged(_ helper: UserHelper?, users user: User?) {}
  /// Does nothing.
  public func onUserManagerChanged(_ user: User?) {}
  /// Does nothing.
  public func onUserNameChanged(_ user: User?) {}
  /// Does nothing.
  public func onUserActiveAudioChanged(_ helper: UserHelper?, users: [User]?) {}
  /// Does nothing.
  public func onUserVideoStatusChanged(_ helper: VideoHelper?, user: [User]?) {}
  /// Does nothing.
  public func onUserOverallNetworkStatusChanged(_ level: NetworkQuality, user: User?) {}
  /// Does nothing.
  public func onUserNetworkStatusChanged(_ type: DataType, level: NetworkQuality, user: User?) {}
  /// Does nothing.
  public func onVideoCanvasSubscribeFail(
    _ failReason: SubscribeFailReason, user: User?, view: AnyObject?
  ) {}
  /// Does nothing.
  public func onUserAudioStatusChanged(_ helper: AudioHelper?, user: [User]?) {}
  /// Does nothing.
  public func onHostAskUnmute() {}
  /// Does nothing.
  public func onUserShareStatusChanged(
    _ helper: ShareHelper?, user: User?, shareAction: ShareAction?
  ) {}
  /// Does nothing.
  public func onFailedToStartShare(_ helper: ShareHelper?, user: User?) {}
  /// Does nothing.
  public func onShareSettingChanged(_ setting: ShareSetting) {}
  /// Does nothing.
  public func onShareContentChanged(
    _ helper: ShareHelper?, user: User?, shareAction: ShareAction?
  ) {}
  /// Does nothing.
  public func onAnnotationHelperCleanUp(_ helper: AnnotationHelper?) {}
  /// Does nothing.
  public func onAnnotationPrivilegeChange(_ enable: Bool, shareOwner: User?) {}
  /// Does nothing.
  public func onAnnotationPrivilegeChange(with user: User?, shareAction: ShareAction?) {}
  /// Does nothing.
  public func onAnnotationToolTypeChanged(
    _ helper: AnnotationHelper?, view: AnyObject?, toolType: AnnotationToolType
  ) {}
  /// Does nothing.
  public func onChatNewMessageNotify(_ helper: ChatHelper?, message: ChatMessageInfo?) {}
  /// Does nothing.
  public func onChatMsgDeleteNotification(
    _ helper: ChatHelper?, messageID: String?, deleteBy: ChatDeleteBy
  ) {}
  /// Does nothing.
  public func onChatPrivilegeChanged(_ helper: ChatHelper?, privilege: ChatPrivilege) {}
}
