import SessionCore

/// Where a user's video or share is shown: `ZoomVideoSDKVideoCanvas`.
///
/// The engine renders nothing. Subscriptions are records, beside the replica, of which views
/// show whom: the video subscription limit (``SessionCore/SessionLimits/maxVideoSubscriptions``)
/// counts them, and ``ShareHelper/createAnnotationHelper(_:)`` finds the share a view shows
/// through them. With a media plane (``InitParams/media``) the first live view of a user's
/// video or share subscribes it at the service (at the most lines any of its views asks for)
/// and the last one leaving ends the subscription; a view that is a ``VideoSink`` receives every
/// frame that arrives whole. The local user's own canvas gets the frames it sends (the
/// highest layer), as a self view would.
///
/// > Important: Not `Sendable`. Confined to the isolation domain of the ``VideoSDK`` that made
/// > it. Views are held weakly.
public final class VideoCanvas {
  /// Whose video or share this is.
  public let userID: UserID
  /// Whether this canvas shows a share rather than a camera.
  public let isShareCanvas: Bool
  private weak var user: User?

  init(userID: UserID, isShare: Bool, user: User) {
    self.userID = userID
    self.isShareCanvas = isShare
    self.user = user
  }

  /// Why the service paused what this canvas shows (the stream allocator pauses what the
  /// local downlink cannot carry; `Docs/SessionSDK.md`, "Media"), `nil` while it flows or
  /// nothing is subscribed. Not in the Zoom Video SDK, where such a canvas just freezes.
  ///
  /// - Returns: The reason, or `nil`.
  public func pauseReason() -> StreamPauseReason? {
    guard let user else { return nil }
    return (isShareCanvas ? user.getShareStatisticInfo() : user.getVideoStatisticInfo())
      .pauseReason
  }

  /// Whether the user's camera is on (`videoStatus()?.on`); `nil` if nothing is known.
  ///
  /// - Returns: The user's video status now, as last known after they left; `nil` if nothing is
  ///   known of the user.
  public func videoStatus() -> VideoStatus? {
    guard let participant = user?.participant else { return nil }
    return VideoStatus(on: participant.isVideoOn)
  }

  /// Shows this canvas in `view`; subscribing a view again changes only its aspect and
  /// resolution.
  ///
  /// Over the video subscription limit the call returns `Errors_Session_Video_Error` and
  /// ``VideoSDKDelegate/onVideoCanvasSubscribeFail(_:user:view:)`` reports
  /// ``SubscribeFailReason/hasSubscribeExceededLimit``. One share is rendered at a time: a
  /// share canvas while another view shows another user's share returns
  /// `Errors_Session_Share_Error` and reports ``SubscribeFailReason/hasSubscribeOneShare``
  /// (a view that showed another share switches to this one). A subscription the service
  /// refuses later reports its reason the same way, for each view concerned, and is forgotten.
  ///
  /// - Parameters:
  ///   - view: The view to show the video or share in; held weakly.
  ///   - aspectMode: How the picture fits the view.
  ///   - resolution: The most lines to receive; ``VideoResolution/auto`` lets the engine choose.
  /// - Returns: `Errors_Invalid_Parameter` for a `nil` view or a user who is not present,
  ///   `Errors_Not_In_Session` outside a session.
  @discardableResult
  public func subscribe(
    with view: AnyObject?, aspectMode: VideoAspect, andResolution resolution: VideoResolution
  ) -> VideoSDKError {
    guard let session = user?.session, let sdk = session.sdk else { return .uninitialize }
    return sdk.subscribe(
      self, in: session, view: view, aspect: aspectMode, resolution: resolution)
  }

  /// Stops showing this canvas in `view`.
  ///
  /// - Parameter view: A view passed to ``subscribe(with:aspectMode:andResolution:)``.
  /// - Returns: `Errors_Invalid_Parameter` for a `nil` view; success otherwise, subscribed or
  ///   not.
  @discardableResult
  public func unSubscribe(with view: AnyObject?) -> VideoSDKError {
    guard let session = user?.session, let sdk = session.sdk else { return .uninitialize }
    return sdk.unsubscribe(self, in: session, view: view)
  }
}
