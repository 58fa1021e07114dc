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

  // MARK: Spotlight

  /// Spotlights a user's video for everyone (host only); up to 9 at once, in order. Every
  /// member hears ``VideoSDKDelegate/onSpotlightVideoChanged(_:userList:)``, and the SFU keeps
  /// spotlighted videos first when a subscriber's downlink cannot carry every video.
  ///
  /// - Parameter user: The user whose video to spotlight; their camera must be on.
  /// - Returns: `Errors_Session_No_Rights` unless you are the host;
  ///   `Errors_Spotlight_UserCannotBeSpotlighted` for a user not present;
  ///   `Errors_Spotlight_NotEnoughUsers` alone in the session;
  ///   `Errors_Spotlight_ToMuchSpotlightedUsers` with 9 spotlighted;
  ///   `Errors_Spotlight_UserWithoutVideo` when their camera is off;
  ///   `Errors_Invalid_Parameter` for `nil`. Spotlighting one already spotlighted succeeds and
  ///   changes nothing.
  @discardableResult
  public func spotLightVideo(_ user: User?) -> VideoSDKError {
    guard let sdk else { return .uninitialize }
    guard let user else { return sdk.isInitialized ? .invalidParameter : .uninitialize }
    return sdk.perform(.spotlightVideo(user.id))
  }

  /// Takes a user's video out of the spotlight (host only).
  ///
  /// - Parameter user: A spotlighted user.
  /// - Returns: `Errors_Session_No_Rights` unless you are the host;
  ///   `Errors_Spotlight_UserNotSpotlighted` for a user not spotlighted;
  ///   `Errors_Invalid_Parameter` for `nil`.
  @discardableResult
  public func unSpotLightVideo(_ user: User?) -> VideoSDKError {
    guard let sdk else { return .uninitialize }
    guard let user else { return sdk.isInitialized ? .invalidParameter : .uninitialize }
    return sdk.perform(.unspotlightVideo(user.id))
  }

  /// Takes every video out of the spotlight (host only); with none spotlighted it succeeds and
  /// changes nothing.
  ///
  /// - Returns: `Errors_Session_No_Rights` unless you are the host.
  @discardableResult
  public func unSpotlightAllVideos() -> VideoSDKError {
    sdk?.perform(.unspotlightAllVideos) ?? .uninitialize
  }

  /// The spotlighted users, in the order the host spotlighted them.
  ///
  /// - Returns: The users; `nil` outside a session.
  public func getSpotlightedVideoUserList() -> [User]? {
    guard let sdk, let session = sdk.currentSession, sdk.store.state.isInSession else {
      return nil
    }
    return sdk.store.state.spotlighted.compactMap { session.user(withID: $0) }
  }
}
