import SessionCore

/// Connects, mutes and unmutes audio: `ZoomVideoSDKAudioHelper`.
///
/// Outcomes arrive as ``VideoSDKDelegate/onUserAudioStatusChanged(_:user:)`` (and
/// ``VideoSDKDelegate/onHostAskUnmute()`` on users asked to unmute).
///
/// > Important: Not `Sendable`. Confined to the isolation domain of its ``VideoSDK``.
public final class AudioHelper {
  /// The instance, until it is gone (see `EngineReference`).
  var reference: EngineReference?
  var sdk: SDKEngine? { reference?.object }

  /// A helper for an instance to point at (``sdk``) once it is made.
  init() {}

  /// Connects the local user's audio (VoIP).
  @discardableResult
  public func startAudio() -> VideoSDKError {
    sdk?.perform(.startAudio) ?? .uninitialize
  }

  /// Disconnects the local user's audio.
  @discardableResult
  public func stopAudio() -> VideoSDKError {
    sdk?.perform(.stopAudio) ?? .uninitialize
  }

  /// What the synthetic microphone hears: speech (`true`) or silence. A simulation's stand-in
  /// for a real microphone's voice detection; an app never calls it on a device. The service
  /// counts only an unmuted, connected microphone as talking, and reports the talkers through
  /// ``VideoSDKDelegate/onUserActiveAudioChanged(_:users:)``.
  ///
  /// Without a media plane the state is reported at once. With one (``InitParams/media``) it
  /// sets the synthetic microphone's talking state from now on, instead of its talking model:
  /// the packets carry talking levels, and the change is reported when the microphone next
  /// sends (within a tick, while audio is connected and unmuted).
  ///
  /// - Parameter talking: Whether the local user is talking now.
  /// - Returns: `Errors_Not_In_Session` outside a session.
  @discardableResult
  public func simulateTalking(_ talking: Bool) -> VideoSDKError {
    sdk?.simulateTalking(talking) ?? .uninitialize
  }

  /// Mutes a user: yourself, or anyone if you are host or manager.
  ///
  /// - Returns: `Errors_Session_No_Rights` for someone else without the role;
  ///   `Errors_Invalid_Parameter` for `nil` or a user not present.
  @discardableResult
  public func muteAudio(_ user: User?) -> VideoSDKError {
    guard let sdk else { return .uninitialize }
    guard let user else { return sdk.isInitialized ? .invalidParameter : .uninitialize }
    return sdk.perform(.muteAudio(user: user.id))
  }

  /// Unmutes yourself; for someone else (host or manager) it only asks them
  /// (``VideoSDKDelegate/onHostAskUnmute()``).
  ///
  /// - Returns: `Errors_Session_No_Rights` for someone else without the role;
  ///   `Errors_Invalid_Parameter` for `nil` or a user not present.
  @discardableResult
  public func unmuteAudio(_ user: User?) -> VideoSDKError {
    guard let sdk else { return .uninitialize }
    guard let user else { return sdk.isInitialized ? .invalidParameter : .uninitialize }
    return sdk.perform(.unmuteAudio(user: user.id))
  }

  /// Mutes everyone but yourself (host or manager); `allowUnmute` says whether they may
  /// unmute themselves afterwards.
  @discardableResult
  public func muteAllAudio(_ allowUnmute: Bool) -> VideoSDKError {
    sdk?.perform(.muteAllAudio(allowUnmute: allowUnmute)) ?? .uninitialize
  }

  /// Asks everyone muted to unmute (host or manager).
  @discardableResult
  public func unmuteAllAudio() -> VideoSDKError {
    sdk?.perform(.unmuteAllAudio) ?? .uninitialize
  }

  /// Allows or forbids participants to unmute themselves (host or manager).
  @discardableResult
  public func allowAudioUnmutedBySelf(_ allowUnmute: Bool) -> VideoSDKError {
    sdk?.perform(.allowAudioUnmutedBySelf(allowUnmute)) ?? .uninitialize
  }
}
