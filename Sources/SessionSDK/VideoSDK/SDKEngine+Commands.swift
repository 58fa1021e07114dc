import SessionCore
import SessionTransport

extension SDKEngine {
  /// Checks a command against the shared rules and sends it.
  ///
  /// Nothing changes locally: the replica follows when the service's events arrive.
  ///
  /// - Parameters:
  ///   - command: What to ask the service.
  ///   - pending: What to undo or report if the service refuses it.
  ///   - willSend: Local-only bookkeeping that must precede the send (a synchronous link may
  ///     deliver the answer before `send` returns).
  /// - Returns: `Errors_Uninitialize`, `Errors_Not_In_Session`, the rule's error, or success
  ///   once sent.
  func perform(
    _ command: SessionCommand, pending: PendingCommand? = nil, willSend: () -> Void = {}
  ) -> VideoSDKError {
    guard let configuration else { return .uninitialize }
    guard let link, let me = store.state.myselfID else { return .notInSession }
    // Texts are cut as the service cuts them, before the rules see them (`""` is refused).
    let command = configuration.limits.normalized(command)
    let verdict = store.state.authorize(command, by: me)
    guard verdict == .success else { return verdict }
    local.lastCommandID &+= 1
    let id = local.lastCommandID
    if let pending { local.pendingCommands[id] = pending }
    willSend()
    link.send(.command(id, command))
    return .success
  }

  /// The limits in force, or the defaults before `initialize`.
  var limits: SessionLimits { configuration?.limits ?? SessionLimits() }

  // MARK: Canvas subscriptions

  func subscribe(
    _ canvas: VideoCanvas, in session: Session, view: AnyObject?, aspect: VideoAspect,
    resolution: VideoResolution
  ) -> VideoSDKError {
    guard configuration != nil else { return .uninitialize }
    guard currentSession === session, store.state.isInSession else { return .notInSession }
    guard let view, store.state.participants[canvas.userID] != nil else {
      return .invalidParameter
    }
    if canvas.isShareCanvas {
      let key = StreamKey(user: canvas.userID, kind: .share)
      switch local.subscriptions.subscribeShare(
        of: canvas.userID, to: view, aspect: aspect, resolution: resolution)
      {
      case .otherShareShown(let shown):
        log(.info, "share subscription to \(canvas.userID) while \(shown)'s share is shown")
        fireLocal(
          .onVideoCanvasSubscribeFail(.hasSubscribeOneShare, user: canvas.userID), view: view)
        return .sessionShareError
      case .replaced(let previous):
        syncMediaSubscription(StreamKey(user: previous, kind: .share))
      case .subscribed, .alreadySubscribed:
        break
      }
      syncMediaSubscription(key)
      return .success
    }
    let outcome = local.subscriptions.subscribeVideo(
      of: canvas.userID, to: view, aspect: aspect, resolution: resolution,
      limit: limits.maxVideoSubscriptions)
    guard outcome != .overLimit else {
      log(.info, "video subscription to \(canvas.userID) over the limit")
      fireLocal(
        .onVideoCanvasSubscribeFail(.hasSubscribeExceededLimit, user: canvas.userID), view: view)
      return .sessionVideoError
    }
    syncMediaSubscription(StreamKey(user: canvas.userID, kind: .video))
    return .success
  }

  func unsubscribe(_ canvas: VideoCanvas, in session: Session, view: AnyObject?) -> VideoSDKError {
    guard configuration != nil else { return .uninitialize }
    guard let view else { return .invalidParameter }
    guard currentSession === session else { return .success }
    let removed =
      canvas.isShareCanvas
      ? local.subscriptions.unsubscribeShare(of: canvas.userID, from: view)
      : local.subscriptions.unsubscribeVideo(of: canvas.userID, from: view)
    if removed {
      syncMediaSubscription(
        StreamKey(user: canvas.userID, kind: canvas.isShareCanvas ? .share : .video))
    }
    return .success
  }

  /// How many views show video now (local-only).
  var videoSubscriptionCount: Int { local.subscriptions.videoSubscriptionCount }
}
