import SessionCore
import SessionSDK
import Testing

/// A ``SessionSDK/VideoSDKDelegate`` that records every callback it gets as a
/// ``SessionSDK/VideoSDKCallback`` value, and can pass each one on to another delegate.
///
/// Set it as an instance's delegate to test what delegate-driven code sees, or wrap the app's
/// own delegate with ``init(forwardingTo:)`` to record what reaches it:
///
/// ```swift
/// let recorder = RecordingDelegate(forwardingTo: viewModel)
/// sdk.delegate = recorder
/// viewModel.toggleVideo()
/// #expect(recorder.take() == [.onUserVideoStatusChanged([me])])
/// ```
///
/// Each delegate method turns its live objects back into the value the SDK made them from
/// (`User` to its id, `ShareAction` to its status and kind, `AnnotationHelper` to its share
/// owner, `ChatMessageInfo` to its message), so a recording compares equal to the values
/// the SDK derives from each event and that ``SessionSDK/VideoSDK/callbackObserver``
/// sees. ``observe(_:)`` records through that observer instead of the delegate slot; both paths
/// end in ``record(_:)``.
///
/// A callback that arrives without the object its value needs (a `nil` user, say, which the
/// engine never passes) is not recorded; it is listed in ``unrepresentable`` and reported as a
/// test issue.
///
/// > Important: Not `Sendable`. Confined to the isolation domain of the ``SessionSDK/VideoSDK``
/// > it listens to (usually the main actor). The SDK holds its delegate weakly: keep the
/// > recorder alive. The forwarding target is held weakly too.
public final class RecordingDelegate: VideoSDKDelegate {
  /// Every callback recorded so far, oldest first.
  public private(set) var callbacks: [VideoSDKCallback] = []

  /// Callbacks that arrived without the objects their value needs, by method name.
  public private(set) var unrepresentable: [String] = []

  /// The completion of the last password prompt, to answer it as the app would.
  public private(set) var passwordCompletion: ((String?, Bool) -> VideoSDKError)?

  /// Called with each callback right after it is recorded, before it is forwarded.
  public var didRecord: ((VideoSDKCallback) -> Void)?

  /// Where every callback goes after it is recorded; held weakly.
  public weak var forwardee: (any VideoSDKDelegate)?

  /// Whether new callbacks are recorded; forwarding goes on either way.
  public var isRecording = true

  /// Creates a recorder.
  ///
  /// - Parameter forwardee: A delegate to pass every callback on to, held weakly.
  public init(forwardingTo forwardee: (any VideoSDKDelegate)? = nil) {
    self.forwardee = forwardee
  }

  /// Records a callback value: the one path both the delegate methods and ``observe(_:)`` use.
  ///
  /// - Parameter callback: The callback value; dropped while ``isRecording`` is `false`.
  public func record(_ callback: VideoSDKCallback) {
    guard isRecording else { return }
    callbacks.append(callback)
    didRecord?(callback)
  }

  /// Returns the callbacks recorded so far and forgets them.
  ///
  /// - Returns: Every callback recorded since the last take, oldest first; empty when there is
  ///   none.
  public func take() -> [VideoSDKCallback] {
    defer { callbacks.removeAll() }
    return callbacks
  }

  /// Records everything `sdk` reports through its ``SessionSDK/VideoSDK/callbackObserver``
  /// (keeping any observer already installed), without taking the delegate slot.
  ///
  /// The observer sees each callback just before the delegate does, whether or not there is a
  /// delegate. It holds this recorder weakly.
  ///
  /// - Parameter sdk: The instance to listen to; its observer is replaced by one that calls the
  ///   previous observer first, then records.
  public func observe(_ sdk: VideoSDK) {
    let previous = sdk.callbackObserver
    sdk.callbackObserver = { [weak self] callback in
      previous?(callback)
      self?.record(callback)
    }
  }

  private func missing(_ method: String) {
    unrepresentable.append(method)
    Issue.record(
      Comment(rawValue: "RecordingDelegate: \(method) arrived without the object it reports"))
  }

  private func ids(_ users: [User]?) -> [UserID] { (users ?? []).map(\.id) }

  // MARK: Session lifecycle and errors

  /// Records ``SessionSDK/VideoSDKCallback/onSessionJoin``.
  public func onSessionJoin() {
    record(.onSessionJoin)
    forwardee?.onSessionJoin()
  }

  /// Records ``SessionSDK/VideoSDKCallback/onSessionLeaveLegacy``.
  public func onSessionLeave() {
    record(.onSessionLeaveLegacy)
    forwardee?.onSessionLeave()
  }

  /// Records ``SessionSDK/VideoSDKCallback/onSessionLeave(_:)``.
  ///
  /// - Parameter reason: Why the local user left; recorded and forwarded.
  public func onSessionLeave(_ reason: LeaveReason) {
    record(.onSessionLeave(reason))
    forwardee?.onSessionLeave(reason)
  }

  /// Records ``SessionSDK/VideoSDKCallback/onError(_:detail:)``.
  ///
  /// - Parameters:
  ///   - errorType: What failed; recorded and forwarded.
  ///   - details: For a refused command, the command's id; 0 for a failed join.
  public func onError(_ errorType: VideoSDKError, detail details: Int) {
    record(.onError(errorType, detail: details))
    forwardee?.onError(errorType, detail: details)
  }

  /// Records ``SessionSDK/VideoSDKCallback/onSessionNeedPassword`` and keeps the completion in
  /// ``passwordCompletion``.
  ///
  /// - Parameter completion: Answers the prompt; kept in ``passwordCompletion`` and forwarded.
  public func onSessionNeedPassword(_ completion: @escaping (String?, Bool) -> VideoSDKError) {
    passwordCompletion = completion
    record(.onSessionNeedPassword)
    forwardee?.onSessionNeedPassword(completion)
  }

  /// Records ``SessionSDK/VideoSDKCallback/onSessionPasswordWrong`` and keeps the completion in
  /// ``passwordCompletion``.
  ///
  /// - Parameter completion: Answers the prompt again; kept in ``passwordCompletion`` and
  ///   forwarded.
  public func onSessionPasswordWrong(_ completion: @escaping (String?, Bool) -> VideoSDKError) {
    passwordCompletion = completion
    record(.onSessionPasswordWrong)
    forwardee?.onSessionPasswordWrong(completion)
  }

  /// Records ``SessionSDK/VideoSDKCallback/onSystemPermissionRequired(_:)``.
  ///
  /// - Parameter permissionType: The permission needed; recorded and forwarded.
  public func onSystemPermissionRequired(_ permissionType: SystemPermissionType) {
    record(.onSystemPermissionRequired(permissionType))
    forwardee?.onSystemPermissionRequired(permissionType)
  }

  // MARK: Users and roles

  /// Records ``SessionSDK/VideoSDKCallback/onUserJoin(_:)`` with the users' ids.
  ///
  /// - Parameters:
  ///   - helper: The instance's user helper; only forwarded.
  ///   - users: The users who joined; their ids are recorded, none for `nil`.
  public func onUserJoin(_ helper: UserHelper?, users: [User]?) {
    record(.onUserJoin(ids(users)))
    forwardee?.onUserJoin(helper, users: users)
  }

  /// Records ``SessionSDK/VideoSDKCallback/onUserLeave(_:)`` with the users' ids.
  ///
  /// - Parameters:
  ///   - helper: The instance's user helper; only forwarded.
  ///   - users: The users who left; their ids are recorded, none for `nil`.
  public func onUserLeave(_ helper: UserHelper?, users: [User]?) {
    record(.onUserLeave(ids(users)))
    forwardee?.onUserLeave(helper, users: users)
  }

  /// Records ``SessionSDK/VideoSDKCallback/onUserHostChanged(_:)`` with the new host's id.
  ///
  /// - Parameters:
  ///   - helper: The instance's user helper; only forwarded.
  ///   - user: The new host; its id is recorded, and `nil` is listed in ``unrepresentable``.
  public func onUserHostChanged(_ helper: UserHelper?, users user: User?) {
    if let user { record(.onUserHostChanged(user.id)) } else { missing("onUserHostChanged") }
    forwardee?.onUserHostChanged(helper, users: user)
  }

  /// Records ``SessionSDK/VideoSDKCallback/onUserManagerChanged(_:)``.
  ///
  /// - Parameter user: The user whose manager role changed; its id is recorded, and `nil` is
  ///   listed in ``unrepresentable``.
  public func onUserManagerChanged(_ user: User?) {
    if let user { record(.onUserManagerChanged(user.id)) } else { missing("onUserManagerChanged") }
    forwardee?.onUserManagerChanged(user)
  }

  /// Records ``SessionSDK/VideoSDKCallback/onUserNameChanged(_:)``.
  ///
  /// - Parameter user: The renamed user; its id is recorded, and `nil` is listed in
  ///   ``unrepresentable``.
  public func onUserNameChanged(_ user: User?) {
    if let user { record(.onUserNameChanged(user.id)) } else { missing("onUserNameChanged") }
    forwardee?.onUserNameChanged(user)
  }

  /// Records ``SessionSDK/VideoSDKCallback/onUserActiveAudioChanged(_:)``.
  ///
  /// - Parameters:
  ///   - helper: The instance's user helper; only forwarded.
  ///   - users: Everyone talking now; their ids are recorded, none for `nil`.
  public func onUserActiveAudioChanged(_ helper: UserHelper?, users: [User]?) {
    record(.onUserActiveAudioChanged(ids(users)))
    forwardee?.onUserActiveAudioChanged(helper, users: users)
  }

  // MARK: Video

  /// Records ``SessionSDK/VideoSDKCallback/onUserVideoStatusChanged(_:)``.
  ///
  /// - Parameters:
  ///   - helper: The instance's video helper; only forwarded.
  ///   - user: The users whose camera turned on or off; their ids are recorded, none for `nil`.
  public func onUserVideoStatusChanged(_ helper: VideoHelper?, user: [User]?) {
    record(.onUserVideoStatusChanged(ids(user)))
    forwardee?.onUserVideoStatusChanged(helper, user: user)
  }

  /// Records ``SessionSDK/VideoSDKCallback/onUserOverallNetworkStatusChanged(_:user:)``.
  ///
  /// - Parameters:
  ///   - level: The user's new overall network quality; recorded.
  ///   - user: Whose quality changed; its id is recorded, and `nil` is listed in
  ///     ``unrepresentable``.
  public func onUserOverallNetworkStatusChanged(_ level: NetworkQuality, user: User?) {
    if let user {
      record(.onUserOverallNetworkStatusChanged(level, user: user.id))
    } else {
      missing("onUserOverallNetworkStatusChanged")
    }
    forwardee?.onUserOverallNetworkStatusChanged(level, user: user)
  }

  /// Records ``SessionSDK/VideoSDKCallback/onUserNetworkStatusChanged(_:_:user:)``.
  ///
  /// - Parameters:
  ///   - type: Which media the quality is about; recorded.
  ///   - level: The new quality of that media; recorded.
  ///   - user: Whose media it is; its id is recorded, and `nil` is listed in ``unrepresentable``.
  public func onUserNetworkStatusChanged(_ type: DataType, level: NetworkQuality, user: User?) {
    if let user {
      record(.onUserNetworkStatusChanged(type, level, user: user.id))
    } else {
      missing("onUserNetworkStatusChanged")
    }
    forwardee?.onUserNetworkStatusChanged(type, level: level, user: user)
  }

  /// Records ``SessionSDK/VideoSDKCallback/onVideoCanvasSubscribeFail(_:user:)``.
  ///
  /// - Parameters:
  ///   - failReason: Why the subscription failed; recorded.
  ///   - user: The user whose video the view was to show; its id is recorded, and `nil` is
  ///     listed in ``unrepresentable``.
  ///   - view: The view that was to show it; only forwarded.
  public func onVideoCanvasSubscribeFail(
    _ failReason: SubscribeFailReason, user: User?, view: AnyObject?
  ) {
    if let user {
      record(.onVideoCanvasSubscribeFail(failReason, user: user.id))
    } else {
      missing("onVideoCanvasSubscribeFail")
    }
    forwardee?.onVideoCanvasSubscribeFail(failReason, user: user, view: view)
  }

  // MARK: Audio

  /// Records ``SessionSDK/VideoSDKCallback/onUserAudioStatusChanged(_:)``.
  ///
  /// - Parameters:
  ///   - helper: The instance's audio helper; only forwarded.
  ///   - user: The users whose audio changed; their ids are recorded, none for `nil`.
  public func onUserAudioStatusChanged(_ helper: AudioHelper?, user: [User]?) {
    record(.onUserAudioStatusChanged(ids(user)))
    forwardee?.onUserAudioStatusChanged(helper, user: user)
  }

  /// Records ``SessionSDK/VideoSDKCallback/onHostAskUnmute``.
  public func onHostAskUnmute() {
    record(.onHostAskUnmute)
    forwardee?.onHostAskUnmute()
  }

  // MARK: Share

  /// Records ``SessionSDK/VideoSDKCallback/onUserShareStatusChanged(_:_:_:)`` with the status
  /// and kind the share action reports.
  ///
  /// - Parameters:
  ///   - helper: The instance's share helper; only forwarded.
  ///   - user: The share's owner; its id is recorded (the share action's owner's when `nil`).
  ///   - shareAction: The share; its status and kind are recorded, and `nil` is listed in
  ///     ``unrepresentable``.
  public func onUserShareStatusChanged(
    _ helper: ShareHelper?, user: User?, shareAction: ShareAction?
  ) {
    if let shareAction {
      record(
        .onUserShareStatusChanged(
          user?.id ?? shareAction.owner, shareAction.getShareStatus(),
          shareAction.getShareKind()))
    } else {
      missing("onUserShareStatusChanged")
    }
    forwardee?.onUserShareStatusChanged(helper, user: user, shareAction: shareAction)
  }

  /// Records ``SessionSDK/VideoSDKCallback/onFailedToStartShare(_:)``.
  ///
  /// - Parameters:
  ///   - helper: The instance's share helper; only forwarded.
  ///   - user: The local user; its id is recorded, and `nil` is listed in ``unrepresentable``.
  public func onFailedToStartShare(_ helper: ShareHelper?, user: User?) {
    if let user { record(.onFailedToStartShare(user.id)) } else { missing("onFailedToStartShare") }
    forwardee?.onFailedToStartShare(helper, user: user)
  }

  /// Records ``SessionSDK/VideoSDKCallback/onShareSettingChanged(_:)``.
  ///
  /// - Parameter setting: The new share setting; recorded and forwarded.
  public func onShareSettingChanged(_ setting: ShareSetting) {
    record(.onShareSettingChanged(setting))
    forwardee?.onShareSettingChanged(setting)
  }

  /// Records ``SessionSDK/VideoSDKCallback/onShareContentChanged(_:_:)``.
  ///
  /// - Parameters:
  ///   - helper: The instance's share helper; only forwarded.
  ///   - user: The share's owner; its id is recorded (the share action's owner's when `nil`).
  ///   - shareAction: The share; its kind is recorded, and `nil` is listed in
  ///     ``unrepresentable``.
  public func onShareContentChanged(
    _ helper: ShareHelper?, user: User?, shareAction: ShareAction?
  ) {
    if let shareAction {
      record(.onShareContentChanged(user?.id ?? shareAction.owner, shareAction.getShareKind()))
    } else {
      missing("onShareContentChanged")
    }
    forwardee?.onShareContentChanged(helper, user: user, shareAction: shareAction)
  }

  // MARK: Annotation

  /// Records ``SessionSDK/VideoSDKCallback/onAnnotationHelperCleanUp(shareOwner:)`` with the
  /// helper's share owner.
  ///
  /// - Parameter helper: The released helper; its share owner is recorded, and `nil` is listed
  ///   in ``unrepresentable``.
  public func onAnnotationHelperCleanUp(_ helper: AnnotationHelper?) {
    if let helper {
      record(.onAnnotationHelperCleanUp(shareOwner: helper.shareOwner))
    } else {
      missing("onAnnotationHelperCleanUp")
    }
    forwardee?.onAnnotationHelperCleanUp(helper)
  }

  /// Records ``SessionSDK/VideoSDKCallback/onAnnotationPrivilegeChange(enable:shareOwner:)``.
  ///
  /// - Parameters:
  ///   - enable: Whether viewers may annotate now; recorded.
  ///   - shareOwner: The owner of the share; its id is recorded, and `nil` is listed in
  ///     ``unrepresentable``.
  public func onAnnotationPrivilegeChange(_ enable: Bool, shareOwner: User?) {
    if let shareOwner {
      record(.onAnnotationPrivilegeChange(enable: enable, shareOwner: shareOwner.id))
    } else {
      missing("onAnnotationPrivilegeChange(_:shareOwner:)")
    }
    forwardee?.onAnnotationPrivilegeChange(enable, shareOwner: shareOwner)
  }

  /// Records ``SessionSDK/VideoSDKCallback/onAnnotationPrivilegeChangeWithUser(_:isEnabled:)``
  /// with what the share action reports.
  ///
  /// - Parameters:
  ///   - user: The owner of the share; its id is recorded (the share action's owner's when `nil`).
  ///   - shareAction: The share; whether it allows annotation is recorded, and `nil` is listed
  ///     in ``unrepresentable``.
  public func onAnnotationPrivilegeChange(with user: User?, shareAction: ShareAction?) {
    if let shareAction {
      record(
        .onAnnotationPrivilegeChangeWithUser(
          user?.id ?? shareAction.owner, isEnabled: shareAction.isAnnotationPrivilegeEnabled()))
    } else {
      missing("onAnnotationPrivilegeChange(with:shareAction:)")
    }
    forwardee?.onAnnotationPrivilegeChange(with: user, shareAction: shareAction)
  }

  /// Records ``SessionSDK/VideoSDKCallback/onAnnotationToolTypeChanged(shareOwner:_:)`` with
  /// the helper's share owner.
  ///
  /// - Parameters:
  ///   - helper: The annotation helper whose tool changed; its share owner is recorded, and
  ///     `nil` is listed in ``unrepresentable``.
  ///   - view: The view the helper annotates on; only forwarded.
  ///   - toolType: The new tool; recorded.
  public func onAnnotationToolTypeChanged(
    _ helper: AnnotationHelper?, view: AnyObject?, toolType: AnnotationToolType
  ) {
    if let helper {
      record(.onAnnotationToolTypeChanged(shareOwner: helper.shareOwner, toolType))
    } else {
      missing("onAnnotationToolTypeChanged")
    }
    forwardee?.onAnnotationToolTypeChanged(helper, view: view, toolType: toolType)
  }

  // MARK: Chat

  /// Records ``SessionSDK/VideoSDKCallback/onChatNewMessageNotify(_:)`` with the message value.
  ///
  /// - Parameters:
  ///   - helper: The instance's chat helper; only forwarded.
  ///   - message: The message; its value is recorded, and `nil` is listed in
  ///     ``unrepresentable``.
  public func onChatNewMessageNotify(_ helper: ChatHelper?, message: ChatMessageInfo?) {
    if let message {
      record(.onChatNewMessageNotify(message.message))
    } else {
      missing("onChatNewMessageNotify")
    }
    forwardee?.onChatNewMessageNotify(helper, message: message)
  }

  /// Records ``SessionSDK/VideoSDKCallback/onChatMsgDeleteNotification(messageID:deleteBy:)``.
  ///
  /// - Parameters:
  ///   - helper: The instance's chat helper; only forwarded.
  ///   - messageID: The deleted message's id; recorded, and `nil` is listed in
  ///     ``unrepresentable``.
  ///   - deleteBy: Who deleted it; recorded.
  public func onChatMsgDeleteNotification(
    _ helper: ChatHelper?, messageID: String?, deleteBy: ChatDeleteBy
  ) {
    if let messageID {
      record(.onChatMsgDeleteNotification(messageID: messageID, deleteBy: deleteBy))
    } else {
      missing("onChatMsgDeleteNotification")
    }
    forwardee?.onChatMsgDeleteNotification(helper, messageID: messageID, deleteBy: deleteBy)
  }

  /// Records ``SessionSDK/VideoSDKCallback/onChatPrivilegeChanged(_:)``.
  ///
  /// - Parameters:
  ///   - helper: The instance's chat helper; only forwarded.
  ///   - privilege: Who may chat now; recorded.
  public func onChatPrivilegeChanged(_ helper: ChatHelper?, privilege: ChatPrivilege) {
    record(.onChatPrivilegeChanged(privilege))
    forwardee?.onChatPrivilegeChanged(helper, privilege: privilege)
  }

  // MARK: Command channel

  /// Records ``SessionSDK/VideoSDKCallback/onCmdChannelConnectResult(_:)``.
  ///
  /// - Parameter success: Whether the channel is ready; recorded.
  public func onCmdChannelConnectResult(_ success: Bool) {
    record(.onCmdChannelConnectResult(success))
    forwardee?.onCmdChannelConnectResult(success)
  }

  /// Records ``SessionSDK/VideoSDKCallback/onCommandReceived(content:sender:)``.
  ///
  /// - Parameters:
  ///   - commandContent: The command's text; recorded (`nil` as empty).
  ///   - sendUser: Who sent it; its id is recorded, and `nil` is listed in ``unrepresentable``.
  public func onCommandReceived(_ commandContent: String?, sendUser: User?) {
    if let sendUser {
      record(.onCommandReceived(content: commandContent ?? "", sender: sendUser.id))
    } else {
      missing("onCommandReceived")
    }
    forwardee?.onCommandReceived(commandContent, sendUser: sendUser)
  }

  // MARK: Spotlight

  /// Records ``SessionSDK/VideoSDKCallback/onSpotlightVideoChanged(_:)``.
  ///
  /// - Parameters:
  ///   - videoHelper: The instance's video helper; only forwarded.
  ///   - userList: Everyone spotlighted; their ids are recorded (`nil` as empty).
  public func onSpotlightVideoChanged(_ videoHelper: VideoHelper?, userList: [User]?) {
    record(.onSpotlightVideoChanged(ids(userList)))
    forwardee?.onSpotlightVideoChanged(videoHelper, userList: userList)
  }

  // MARK: Subsessions

  /// Records ``SessionSDK/VideoSDKCallback/onSubSessionStatusChanged(_:_:)``.
  ///
  /// - Parameters:
  ///   - status: The new status; recorded.
  ///   - subSession: The committed subsessions; their values are recorded.
  public func onSubSessionStatusChanged(_ status: SubSessionStatus, subSession: [SubSessionKit]) {
    record(.onSubSessionStatusChanged(status, subSession.map(\.subSession)))
    forwardee?.onSubSessionStatusChanged(status, subSession: subSession)
  }

  /// Records ``SessionSDK/VideoSDKCallback/onSubSessionManagerHandle(_:)``.
  ///
  /// - Parameter manager: The handle; whether there is one is recorded.
  public func onSubSessionManagerHandle(_ manager: SubSessionManager?) {
    record(.onSubSessionManagerHandle(manager != nil))
    forwardee?.onSubSessionManagerHandle(manager)
  }

  /// Records ``SessionSDK/VideoSDKCallback/onSubSessionParticipantHandle(_:)``.
  ///
  /// - Parameter participant: The handle; whether there is one is recorded.
  public func onSubSessionParticipantHandle(_ participant: SubSessionParticipant?) {
    record(.onSubSessionParticipantHandle(participant != nil))
    forwardee?.onSubSessionParticipantHandle(participant)
  }

  /// Records ``SessionSDK/VideoSDKCallback/onSubSessionUsersUpdate(_:)``.
  ///
  /// - Parameter subSessionKit: The subsession; its value is recorded.
  public func onSubSessionUsersUpdate(_ subSessionKit: SubSessionKit) {
    record(.onSubSessionUsersUpdate(subSessionKit.subSession))
    forwardee?.onSubSessionUsersUpdate(subSessionKit)
  }

  /// Records ``SessionSDK/VideoSDKCallback/onBroadcastMessageFromMainSession(message:userName:)``.
  ///
  /// - Parameters:
  ///   - message: The message; recorded.
  ///   - userName: The sender's name; recorded.
  public func onBroadcastMessageFromMainSession(_ message: String, userName: String) {
    record(.onBroadcastMessageFromMainSession(message: message, userName: userName))
    forwardee?.onBroadcastMessageFromMainSession(message, userName: userName)
  }

  /// Records ``SessionSDK/VideoSDKCallback/onSubSessionUserHelpRequestHandler(requester:subSessionID:)``.
  ///
  /// - Parameter handler: The request; who asked and from where are recorded.
  public func onSubSessionUserHelpRequestHandler(_ handler: SubSessionUserHelpRequestHandler) {
    record(
      .onSubSessionUserHelpRequestHandler(
        requester: handler.requester, subSessionID: handler.subSessionID))
    forwardee?.onSubSessionUserHelpRequestHandler(handler)
  }

  /// Records ``SessionSDK/VideoSDKCallback/onSubSessionUserHelpRequestResult(_:)``.
  ///
  /// - Parameter result: What became of the request; recorded.
  public func onSubSessionUserHelpRequestResult(_ result: SubSessionHelpResult) {
    record(.onSubSessionUserHelpRequestResult(result))
    forwardee?.onSubSessionUserHelpRequestResult(result)
  }

  // MARK: Cloud recording

  /// Records ``SessionSDK/VideoSDKCallback/onCloudRecordingStatus(_:asksAgreement:)``.
  ///
  /// - Parameters:
  ///   - status: The status; recorded.
  ///   - recordAgreementHandler: The consent prompt; whether there is one is recorded.
  public func onCloudRecordingStatus(
    _ status: RecordingStatus, recordAgreementHandler: RecordAgreementHandler?
  ) {
    record(.onCloudRecordingStatus(status, asksAgreement: recordAgreementHandler != nil))
    forwardee?.onCloudRecordingStatus(status, recordAgreementHandler: recordAgreementHandler)
  }

  /// Records ``SessionSDK/VideoSDKCallback/onUserRecordAgreementNotification(_:)``.
  ///
  /// - Parameter user: Who agreed; its id is recorded, and `nil` is listed in
  ///   ``unrepresentable``.
  public func onUserRecordAgreementNotification(_ user: User?) {
    if let user {
      record(.onUserRecordAgreementNotification(user.id))
    } else {
      missing("onUserRecordAgreementNotification")
    }
    forwardee?.onUserRecordAgreementNotification(user)
  }
}
