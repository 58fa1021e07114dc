import SessionCore

/// Turns the local camera on and off: `ZoomVideoSDKVideoHelper`.
///
/// The outcome arrives as ``VideoSDKDelegate/onUserVideoStatusChanged(_:user:)``; read it with
/// `getMySelf()?.getVideoCanvas()?.videoStatus()?.on`.
///
/// > Important: Not `Sendable`. Confined to the isolation domain of its ``VideoSDK``.
public final class VideoHelper {
  /// The instance, until it is gone (see `EngineReference`).
  var reference: EngineReference?
  var sdk: SDKEngine? { reference?.object }

  /// A helper for an instance to point at (``sdk``) once it is made.
  init() {}

  /// Turns the camera on.
  ///
  /// - Returns: Success once asked; `Errors_Uninitialize` or `Errors_Not_In_Session`.
  @discardableResult
  public func startVideo() -> VideoSDKError {
    sdk?.perform(.startVideo) ?? .uninitialize
  }

  /// Turns the camera off.
  ///
  /// - Returns: Success once asked; `Errors_Uninitialize` or `Errors_Not_In_Session`.
  @discardableResult
  public func stopVideo() -> VideoSDKError {
    sdk?.perform(.stopVideo) ?? .uninitialize
  }
}
