import SessionCore

/// Sharing and its settings: `ZoomVideoSDKShareHelper`.
///
/// Outcomes arrive as ``VideoSDKDelegate/onUserShareStatusChanged(_:user:shareAction:)`` and
/// ``VideoSDKDelegate/onShareSettingChanged(_:)``; a share the service refuses also fires
/// ``VideoSDKDelegate/onFailedToStartShare(_:user:)``.
///
/// > Important: Not `Sendable`. Confined to the isolation domain of its ``VideoSDK``. Views
/// > are opaque (`AnyObject`) and held weakly; the engine renders nothing.
public final class ShareHelper {
  /// The instance, until it is gone (see `EngineReference`).
  var reference: EngineReference?
  var sdk: SDKEngine? { reference?.object }

  /// A helper for an instance to point at (``sdk``) once it is made.
  init() {}

  /// Least time between two ``startInAppScreenShare()`` calls, in milliseconds.
  public static let inAppScreenShareInterval: Int64 = 500

  // MARK: Starting and stopping

  /// Shares one view (`startShareWithView:`).
  ///
  /// - Parameter view: The view to share; the engine holds it weakly and renders nothing.
  /// - Returns: `Errors_Invalid_Parameter` for `nil`; `Errors_Session_No_Rights` when share is
  ///   locked (or off) for you; `Errors_Session_Share_Error` when you already share or someone
  ///   else does in single share.
  @discardableResult
  public func startShare(with view: AnyObject?) -> VideoSDKError {
    guard let sdk else { return .uninitialize }
    guard view != nil else { return sdk.isInitialized ? .invalidParameter : .uninitialize }
    return sdk.perform(.startShare(kind: .view), pending: .startShare)
  }

  /// Shares the whole app; at most once per 500 ms of the instance's clock.
  ///
  /// - Returns: `Errors_Call_Too_Frequently` within 500 ms of the previous call; otherwise as
  ///   ``startShare(with:)``.
  @discardableResult
  public func startInAppScreenShare() -> VideoSDKError {
    guard let sdk, sdk.isInitialized else { return .uninitialize }
    let now = sdk.clock.now()
    if let last = sdk.local.lastInAppShareStart, now - last < Self.inAppScreenShareInterval {
      return .callTooFrequently
    }
    sdk.local.lastInAppShareStart = now
    return sdk.perform(.startShare(kind: .inAppScreen), pending: .startShare)
  }

  /// Shares the camera into `view`; the camera must be on.
  ///
  /// - Parameter view: The view that shows the camera; `nil` returns `Errors_Invalid_Parameter`.
  /// - Returns: `Errors_Session_Share_Camera_Video_Not_Start` when your video is off;
  ///   otherwise as ``startShare(with:)``.
  @discardableResult
  public func startShareCamera(_ view: AnyObject?) -> VideoSDKError {
    guard let sdk else { return .uninitialize }
    guard view != nil else { return sdk.isInitialized ? .invalidParameter : .uninitialize }
    return sdk.perform(.startShare(kind: .camera), pending: .startShare)
  }

  /// Pauses your share.
  ///
  /// - Returns: `Errors_Session_Share_You_Are_Not_Sharing`, or `Errors_Wrong_Usage` when
  ///   already paused.
  @discardableResult
  public func pauseShare() -> VideoSDKError {
    sdk?.perform(.pauseShare) ?? .uninitialize
  }

  /// Resumes your paused share.
  ///
  /// - Returns: `Errors_Session_Share_You_Are_Not_Sharing`, or `Errors_Wrong_Usage` when not
  ///   paused.
  @discardableResult
  public func resumeShare() -> VideoSDKError {
    sdk?.perform(.resumeShare) ?? .uninitialize
  }

  /// Stops your share.
  ///
  /// - Returns: `Errors_Session_Share_You_Are_Not_Sharing` when you are not sharing.
  @discardableResult
  public func stopShare() -> VideoSDKError {
    sdk?.perform(.stopShare) ?? .uninitialize
  }

  // MARK: Settings

  /// Locks share to host and managers, or unlocks it (host or manager).
  ///
  /// - Parameter lock: `true` to let only the host and managers share; `false` to let anyone.
  /// - Returns: Success once asked; `Errors_Session_No_Rights` without the role,
  ///   `Errors_Uninitialize` or `Errors_Not_In_Session`.
  @discardableResult
  public func lockShare(_ lock: Bool) -> VideoSDKError {
    sdk?.perform(.lockShare(lock)) ?? .uninitialize
  }

  /// Allows several sharers at once, or one (host or manager); turning it off stops every
  /// share but one.
  ///
  /// - Parameter enable: `true` to let several users share at once; `false` for one at a time.
  /// - Returns: Success once asked; `Errors_Session_No_Rights` without the role,
  ///   `Errors_Uninitialize` or `Errors_Not_In_Session`.
  @discardableResult
  public func enableMultiShare(_ enable: Bool) -> VideoSDKError {
    sdk?.perform(.enableMultiShare(enable)) ?? .uninitialize
  }

  /// Whether share is locked to host and managers.
  ///
  /// - Returns: `true` if only the host and managers may share; `false` otherwise, and outside
  ///   a session.
  public func isShareLocked() -> Bool { sdk?.store.state.isShareLocked ?? false }

  /// Whether several users may share at once.
  ///
  /// - Returns: `true` if several users may share at once; `false` otherwise, and outside a
  ///   session.
  public func isMultiShareEnabled() -> Bool { sdk?.store.state.isMultiShareEnabled ?? false }

  /// Whether you are sharing.
  ///
  /// - Returns: `true` if you have a live share (started, paused or resumed); `false` otherwise.
  public func isSharingOut() -> Bool { sdk?.store.state.isSharingOut ?? false }

  /// Whether someone else is sharing.
  ///
  /// - Returns: `true` if another user has a live share; `false` otherwise.
  public func isOtherSharing() -> Bool { sdk?.store.state.isOtherSharing ?? false }

  /// Whether in-app screen share is available: always, once initialized.
  ///
  /// - Returns: `true` once the SDK is initialized; `false` before.
  public func isSupportInAppScreenShare() -> Bool { sdk?.isInitialized ?? false }

  /// Whether annotation is available: always, once initialized.
  ///
  /// - Returns: `true` once the SDK is initialized; `false` before.
  public func isAnnotationFeatureSupport() -> Bool { sdk?.isInitialized ?? false }

  // MARK: Annotation

  /// Turns viewers' annotation on your share off (`true`) or on (share owner only).
  ///
  /// - Parameter disable: `true` to stop viewers annotating on your share; `false` to let them.
  /// - Returns: `Errors_Session_Share_You_Are_Not_Sharing` when you are not sharing.
  @discardableResult
  public func disableViewerAnnotation(_ disable: Bool) -> VideoSDKError {
    sdk?.perform(.disableViewerAnnotation(disable)) ?? .uninitialize
  }

  /// Whether viewer annotation is off: on your share while you share, else on the share you
  /// view (the one a subscribed view shows, or the oldest other share).
  ///
  /// - Returns: `true` if that share's owner turned viewer annotation off; `false` if not, or
  ///   when there is no such share.
  public func isViewerAnnotationDisabled() -> Bool {
    guard let sdk, let share = sdk.relevantShare() else { return false }
    return share.isViewerAnnotationDisabled
  }

  /// Makes (or returns) the annotation helper for a share: your own when `view` is `nil`, else
  /// the share shown in `view` (a view subscribed with
  /// `shareAction.getShareCanvas()?.subscribe(with:…)`).
  ///
  /// One helper per share: asking again returns the same helper until it is destroyed or
  /// cleaned up.
  ///
  /// - Parameter view: A view subscribed to a share, or `nil` for your own share.
  /// - Returns: `nil` outside a session, when that share is not live, or when `view` shows no
  ///   share.
  public func createAnnotationHelper(_ view: AnyObject?) -> AnnotationHelper? {
    guard let sdk, sdk.isInitialized, let me = sdk.store.state.myselfID else { return nil }
    guard let view else { return sdk.annotationHelper(on: me, view: nil) }
    guard let owner = sdk.local.subscriptions.shareOwner(shownIn: view) else { return nil }
    return sdk.annotationHelper(on: owner, view: view)
  }

  /// Makes (or returns) the annotation helper for `user`'s share, without a view. Not in the
  /// SDK; for headless apps and tests.
  ///
  /// - Parameter user: The share's owner; yourself for your own share.
  /// - Returns: `nil` outside a session or when `user` is not sharing.
  public func createAnnotationHelper(forShareOf user: User?) -> AnnotationHelper? {
    guard let sdk, sdk.isInitialized, let user else { return nil }
    return sdk.annotationHelper(on: user.id, view: nil)
  }

  /// Releases an annotation helper. A started helper must be stopped first.
  ///
  /// - Parameter helper: A helper this share helper made; it stops working.
  /// - Returns: `Errors_Wrong_Usage` while the helper is started; `Errors_Invalid_Parameter`
  ///   for `nil` or a helper already released.
  @discardableResult
  public func destroyAnnotationHelper(_ helper: AnnotationHelper?) -> VideoSDKError {
    guard let sdk, sdk.isInitialized else { return .uninitialize }
    guard let helper, sdk.local.annotationHelpers[helper.shareOwner] === helper else {
      return .invalidParameter
    }
    guard !helper.isStarted else { return .wrongUsage }
    sdk.local.annotationHelpers.removeValue(forKey: helper.shareOwner)
    helper.markReleased()
    return .success
  }

  /// ``destroyAnnotationHelper(_:)`` under the name Swift imports it as (`destroy(_:)`).
  ///
  /// - Parameter helper: A helper this share helper made; it stops working.
  /// - Returns: As ``destroyAnnotationHelper(_:)``: `Errors_Success`, `Errors_Wrong_Usage`
  ///   while the helper is started, `Errors_Invalid_Parameter` for `nil` or a released helper.
  @discardableResult
  public func destroy(_ helper: AnnotationHelper?) -> VideoSDKError {
    destroyAnnotationHelper(helper)
  }

  /// Sets the view annotations are drawn over, for in-app screen share only.
  ///
  /// - Parameter view: The view to draw annotations over; held weakly.
  /// - Returns: `Errors_Invalid_Parameter` for `nil`; `Errors_Wrong_Usage` unless you share
  ///   your app's screen or view someone's.
  @discardableResult
  public func setAnnotationView(_ view: AnyObject?) -> VideoSDKError {
    guard let sdk, sdk.isInitialized else { return .uninitialize }
    guard let view else { return .invalidParameter }
    guard sdk.store.state.isInSession else { return .notInSession }
    guard sdk.relevantShare()?.kind == .inAppScreen else { return .wrongUsage }
    sdk.local.annotationView = view
    return .success
  }
}
