import SessionCore

extension SDKEngine {
  /// Turns a callback value into the delegate call with live objects.
  ///
  /// Bookkeeping that must happen whether or not anyone listens (releasing an annotation
  /// helper, recording a share's last status) happens first; then the observer sees the value,
  /// then the delegate gets the call.
  func deliver(_ callback: VideoSDKCallback, view: AnyObject?) {
    var releasedHelper: AnnotationHelper?
    switch callback {
    case .onAnnotationHelperCleanUp(let owner):
      releasedHelper = local.annotationHelpers.removeValue(forKey: owner)
      releasedHelper?.markCleanedUp()
    case .onUserShareStatusChanged(let owner, let status, let kind):
      currentSession?.shareActions[owner]?.record(status: status, kind: kind)
    default:
      break
    }
    callbackObserver?(callback)
    guard let delegate else { return }
    if let scope = sharedInstanceScope {
      // App code in the callback that asks for the shared instance gets this one.
      SharedInstanceScope.$current.withValue(scope) {
        call(delegate, with: callback, view: view, releasedHelper: releasedHelper)
      }
    } else {
      call(delegate, with: callback, view: view, releasedHelper: releasedHelper)
    }
  }

  /// The scope that makes this engine's instance the shared one, made on first use.
  func sharedScope(of instance: VideoSDK) -> SharedInstanceScope {
    if let sharedInstanceScope { return sharedInstanceScope }
    let scope = SharedInstanceScope(instance)
    sharedInstanceScope = scope
    return scope
  }

  /// Makes the delegate call for `callback`.
  private func call(
    _ delegate: any VideoSDKDelegate, with callback: VideoSDKCallback, view: AnyObject?,
    releasedHelper: AnnotationHelper?
  ) {
    switch callback {
    case .onSessionJoin:
      delegate.onSessionJoin()
    case .onSessionLeave(let reason):
      delegate.onSessionLeave(reason)
    case .onSessionLeaveLegacy:
      delegate.onSessionLeave()
    case .onError(let error, let detail):
      delegate.onError(error, detail: detail)
    case .onSessionNeedPassword:
      delegate.onSessionNeedPassword(passwordCompletion())
    case .onSessionPasswordWrong:
      delegate.onSessionPasswordWrong(passwordCompletion())
    case .onSystemPermissionRequired(let type):
      delegate.onSystemPermissionRequired(type)

    case .onUserJoin(let ids):
      delegate.onUserJoin(userHelper, users: users(ids))
    case .onUserLeave(let ids):
      delegate.onUserLeave(userHelper, users: users(ids))
    case .onUserHostChanged(let id):
      delegate.onUserHostChanged(userHelper, users: user(id))
    case .onUserManagerChanged(let id):
      delegate.onUserManagerChanged(user(id))
    case .onUserNameChanged(let id):
      delegate.onUserNameChanged(user(id))
    case .onUserActiveAudioChanged(let ids):
      delegate.onUserActiveAudioChanged(userHelper, users: users(ids))

    case .onUserVideoStatusChanged(let ids):
      delegate.onUserVideoStatusChanged(videoHelper, user: users(ids))
    case .onUserOverallNetworkStatusChanged(let level, let id):
      delegate.onUserOverallNetworkStatusChanged(level, user: user(id))
    case .onVideoCanvasSubscribeFail(let reason, let id):
      delegate.onVideoCanvasSubscribeFail(reason, user: user(id), view: view)
    case .onUserNetworkStatusChanged(let type, let level, let id):
      delegate.onUserNetworkStatusChanged(type, level: level, user: user(id))

    case .onUserAudioStatusChanged(let ids):
      delegate.onUserAudioStatusChanged(audioHelper, user: users(ids))
    case .onHostAskUnmute:
      delegate.onHostAskUnmute()

    case .onUserShareStatusChanged(let owner, let status, let kind):
      let action = shareAction(owner)
      action.record(status: status, kind: kind)
      delegate.onUserShareStatusChanged(shareHelper, user: user(owner), shareAction: action)
    case .onFailedToStartShare(let id):
      delegate.onFailedToStartShare(shareHelper, user: user(id))
    case .onShareSettingChanged(let setting):
      delegate.onShareSettingChanged(setting)
    case .onShareContentChanged(let owner, let kind):
      let action = shareAction(owner)
      action.lastKind = kind
      delegate.onShareContentChanged(shareHelper, user: user(owner), shareAction: action)

    case .onAnnotationHelperCleanUp:
      delegate.onAnnotationHelperCleanUp(releasedHelper)
    case .onAnnotationPrivilegeChangeWithUser(let owner, _):
      delegate.onAnnotationPrivilegeChange(with: user(owner), shareAction: shareAction(owner))
    case .onAnnotationPrivilegeChange(let enable, let owner):
      delegate.onAnnotationPrivilegeChange(enable, shareOwner: user(owner))
    case .onAnnotationToolTypeChanged(let owner, let toolType):
      let helper = local.annotationHelpers[owner]
      delegate.onAnnotationToolTypeChanged(helper, view: view ?? helper?.view, toolType: toolType)

    case .onChatNewMessageNotify(let message):
      let me = currentSession?.myselfID
      let info = ChatMessageInfo(
        message: message,
        senderUser: user(message.sender),
        receiverUser: message.receiver.map { user($0) },
        isSelfSend: message.sender == me)
      delegate.onChatNewMessageNotify(chatHelper, message: info)
    case .onChatMsgDeleteNotification(let messageID, let deleteBy):
      delegate.onChatMsgDeleteNotification(chatHelper, messageID: messageID, deleteBy: deleteBy)
    case .onChatPrivilegeChanged(let privilege):
      delegate.onChatPrivilegeChanged(chatHelper, privilege: privilege)

    case .onCmdChannelConnectResult(let success):
      delegate.onCmdChannelConnectResult(success)
    case .onCommandReceived(let content, let sender):
      delegate.onCommandReceived(content, sendUser: user(sender))
    case .onSpotlightVideoChanged(let ids):
      delegate.onSpotlightVideoChanged(videoHelper, userList: ids.map(user))
    case .onSubSessionStatusChanged(let status, let list):
      delegate.onSubSessionStatusChanged(status, subSession: list.map(subSessionKit))
    case .onSubSessionManagerHandle(let given):
      delegate.onSubSessionManagerHandle(given ? SubSessionManager(reference: reference) : nil)
    case .onSubSessionParticipantHandle(let given):
      delegate.onSubSessionParticipantHandle(
        given ? SubSessionParticipant(reference: reference) : nil)
    case .onSubSessionUsersUpdate(let subSession):
      delegate.onSubSessionUsersUpdate(subSessionKit(subSession))
    case .onBroadcastMessageFromMainSession(let message, let userName):
      delegate.onBroadcastMessageFromMainSession(message, userName: userName)
    case .onSubSessionUserHelpRequestHandler(let requester, let subSessionID):
      delegate.onSubSessionUserHelpRequestHandler(
        SubSessionUserHelpRequestHandler(
          reference: reference, requester: requester, subSessionID: subSessionID))
    case .onSubSessionUserHelpRequestResult(let result):
      delegate.onSubSessionUserHelpRequestResult(result)
    case .onCloudRecordingStatus(let status, let asksAgreement):
      delegate.onCloudRecordingStatus(
        status,
        recordAgreementHandler: asksAgreement ? RecordAgreementHandler(reference: reference) : nil)
    case .onUserRecordAgreementNotification(let id):
      delegate.onUserRecordAgreementNotification(user(id))
    }
  }

  /// A kit for a committed subsession.
  private func subSessionKit(_ subSession: SubSession) -> SubSessionKit {
    SubSessionKit(reference: reference, subSession: subSession)
  }

  /// The handle for a user id: the session's cached one, or a detached one outside a session.
  private func user(_ id: UserID) -> User {
    guard let session = currentSession else { return User(id: id, session: nil) }
    return handle(for: id, in: session)
  }

  private func users(_ ids: [UserID]) -> [User] {
    if ids.count == 1 { return userList(ids[0]) }
    guard let session = currentSession else { return ids.map { User(id: $0, session: nil) } }
    handles.reserve(ids.count)
    return ids.map { handle(for: $0, in: session) }
  }

  /// The one-user list for `id`. Most callbacks name one user: hand out the list the handle
  /// is kept in (see `UserHandles`), rather than build one per callback; outside a session, a
  /// detached user's.
  private func userList(_ id: UserID) -> [User] {
    if let list = handles.list(of: id) { return list }
    guard let session = currentSession else { return [User(id: id, session: nil)] }
    return handles.list(for: id, in: session)
  }

  private func shareAction(_ owner: UserID) -> ShareAction {
    if let session = currentSession { return session.shareAction(for: owner) }
    let detached = Session(sdk: self, name: "", password: nil)
    return detached.shareAction(for: owner)
  }

  private func passwordCompletion() -> (String?, Bool) -> VideoSDKError {
    let prompt = lifecycle.promptsOpened
    let reference = reference
    return { password, leave in
      guard let self = reference.object else { return .uninitialize }
      return self.answerPassword(prompt: prompt, password: password, leave: leave)
    }
  }

  /// Fires a callback that no event causes (a local refusal or a local tool change), in order
  /// with the others.
  func fireLocal(_ callback: VideoSDKCallback, view: AnyObject? = nil) {
    submit(.callback(callback, view: WeakView(view: view)))
  }
}
