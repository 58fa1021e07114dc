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
  ///
  /// - Returns: Success once asked; `Errors_Uninitialize` or `Errors_Not_In_Session`.
  @discardableResult
  public func startAudio() -> VideoSDKError {
    sdk?.perform(.startAudio) ?? .uninitialize
  }

  /// Disconnects the local user's audio.
  ///
  /// - Returns: Success once asked; `Errors_Uninitialize` or `Errors_Not_In_Session`.
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
  /// - Parameter user: The user to mute; yourself from ``Session/getMySelf()``.
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
  /// - Parameter user: The user to unmute (yourself) or to ask to unmute (someone else).
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
  ///
  /// - Parameter allowUnmute: `true` to let them unmute themselves; `false` to leave that to
  ///   the host and managers.
  /// - Returns: Success once asked; `Errors_Session_No_Rights` without the role,
  ///   `Errors_Uninitialize` or `Errors_Not_In_Session`.
  @discardableResult
  public func muteAllAudio(_ allowUnmute: Bool) -> VideoSDKError {
    sdk?.perform(.muteAllAudio(allowUnmute: allowUnmute)) ?? .uninitialize
  }

  /// Asks everyone muted to unmute (host or manager).
  ///
  /// - Returns: Success once asked; `Errors_Session_No_Rights` without the role,
  ///   `Errors_Uninitialize` or `Errors_Not_In_Session`.
  @discardableResult
  public func unmuteAllAudio() -> VideoSDKError {
    sdk?.perform(.unmuteAllAudio) ?? .uninitialize
  }

  /// Allows or forbids participants to unmute themselves (host or manager).
  ///
  /// - Parameter allowUnmute: `true` to let participants unmute themselves; `false` to forbid it.
  /// - Returns: Success once asked; `Errors_Session_No_Rights` without the role,
  ///   `Errors_Uninitialize` or `Errors_Not_In_Session`.
  @discardableResult
  public func allowAudioUnmutedBySelf(_ allowUnmute: Bool) -> VideoSDKError {
    sdk?.perform(.allowAudioUnmutedBySelf(allowUnmute)) ?? .uninitialize
  }
}
