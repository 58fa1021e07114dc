/// Audio settings for a join: `ZoomVideoSDKAudioOptions`.
///
/// > Important: Not `Sendable`; a mutable object, like the SDK's.
public final class AudioOptions {
  /// Whether audio connects (VoIP) when the join completes.
  public var connect: Bool
  /// Whether the microphone starts muted.
  public var mute: Bool

  /// Creates options: connect, unmuted, as the SDK defaults.
  ///
  /// - Parameters:
  ///   - connect: Whether audio connects (VoIP) when the join completes.
  ///   - mute: Whether the microphone starts muted.
  public init(connect: Bool = true, mute: Bool = false) {
    self.connect = connect
    self.mute = mute
  }
}

/// Video settings for a join: `ZoomVideoSDKVideoOptions`.
///
/// > Important: Not `Sendable`; a mutable object, like the SDK's.
public final class VideoOptions {
  /// Whether the camera is on when the join completes.
  public var localVideoOn: Bool

  /// Creates options: camera off by default.
  ///
  /// - Parameter localVideoOn: Whether the camera is on when the join completes.
  public init(localVideoOn: Bool = false) {
    self.localVideoOn = localVideoOn
  }
}

/// What ``VideoSDK/joinSession(_:)`` needs: `ZoomVideoSDKSessionContext`.
///
/// A class, like the SDK's, so that seed code that fills in a `let` ports unchanged.
/// `joinSession` validates and copies it; later changes have no effect.
///
/// > Important: Not `Sendable`. Build it in the isolation domain of the ``VideoSDK`` that joins.
public final class SessionContext {
  /// The JWT; required (`Errors_JoinSession_NoSessionToken`).
  public var token: String
  /// The session name, which must equal the token's `tpc`; required
  /// (`Errors_JoinSession_NoSessionName`), at most 150 characters of the documented set.
  public var sessionName: String
  /// The display name; required (`Errors_JoinSession_NoUserName`). Longer than 200 characters
  /// is silently truncated.
  public var userName: String
  /// The session password, if any: at most 10 printable ASCII characters. Empty means none.
  public var sessionPassword: String?
  /// Audio settings.
  public var audioOption: AudioOptions
  /// Video settings.
  public var videoOption: VideoOptions
  /// Minutes a session with one user lives on; `nil` for the service default (40), negative
  /// for never.
  public var sessionIdleTimeoutMins: Int?

  /// Creates a context.
  ///
  /// - Parameters:
  ///   - token: The JWT; required.
  ///   - sessionName: The session name, which must equal the token's `tpc`; required, at most
  ///     150 characters of the documented set.
  ///   - userName: The display name; required. Longer than 200 characters is truncated.
  ///   - sessionPassword: The session password: at most 10 printable ASCII characters; `nil` or
  ///     empty for none.
  ///   - audioOption: Audio settings; by default audio connects unmuted.
  ///   - videoOption: Video settings; by default the camera is off.
  ///   - sessionIdleTimeoutMins: Minutes a session with one user lives on; `nil` for the service
  ///     default (40), negative for never.
  public init(
    token: String = "",
    sessionName: String = "",
    userName: String = "",
    sessionPassword: String? = nil,
    audioOption: AudioOptions = AudioOptions(),
    videoOption: VideoOptions = VideoOptions(),
    sessionIdleTimeoutMins: Int? = nil
  ) {
    self.token = token
    self.sessionName = sessionName
    self.userName = userName
    self.sessionPassword = sessionPassword
    self.audioOption = audioOption
    self.videoOption = videoOption
    self.sessionIdleTimeoutMins = sessionIdleTimeoutMins
  }
}
