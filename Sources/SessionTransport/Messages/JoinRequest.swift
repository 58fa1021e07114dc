import SessionCore

/// What a member sends to join: the fields of `ZoomVideoSDKSessionContext` that reach the
/// service.
public struct JoinRequest: Sendable, Hashable, Codable {
  /// The session name (the token's `tpc`).
  public var sessionName: String
  /// The display name.
  public var userName: String
  /// The JWT.
  public var token: String
  /// The session password, if any.
  public var password: String?
  /// Whether audio connects on join (`audioOption.connect`).
  public var connectAudio: Bool
  /// Whether audio starts muted (`audioOption.mute`).
  public var muteAudio: Bool
  /// Whether the camera starts on (`videoOption.localVideoOn`).
  public var videoOn: Bool
  /// Minutes a session with one user lives on (`sessionIdleTimeoutMins`); `nil` for the
  /// service's default, negative for never.
  public var idleTimeoutMinutes: Int?

  /// Creates a join request.
  ///
  /// - Parameters:
  ///   - sessionName: The session name (the token's `tpc`).
  ///   - userName: The display name.
  ///   - token: The JWT.
  ///   - password: The session password; `nil` (the default) for none.
  ///   - connectAudio: Whether audio connects on join; `true` by default.
  ///   - muteAudio: Whether audio starts muted; `false` by default.
  ///   - videoOn: Whether the camera starts on; `false` by default.
  ///   - idleTimeoutMinutes: Minutes a session with one user lives on; `nil` (the default) for
  ///     the service's default, negative for never.
  public init(
    sessionName: String,
    userName: String,
    token: String,
    password: String? = nil,
    connectAudio: Bool = true,
    muteAudio: Bool = false,
    videoOn: Bool = false,
    idleTimeoutMinutes: Int? = nil
  ) {
    self.sessionName = sessionName
    self.userName = userName
    self.token = token
    self.password = password
    self.connectAudio = connectAudio
    self.muteAudio = muteAudio
    self.videoOn = videoOn
    self.idleTimeoutMinutes = idleTimeoutMinutes
  }
}

/// What a member sends to take its place back after a reconnect.
public struct ResumeRequest: Sendable, Hashable, Codable {
  /// The session's id, from the snapshot.
  public var sessionID: String
  /// The member's user id.
  public var user: UserID
  /// The secret the service gave in ``ServerMessage/joined(_:resumeToken:)``.
  public var resumeToken: UInt64
  /// The last event sequence the member applied.
  public var lastSequence: UInt64

  /// Creates a resume request.
  ///
  /// - Parameters:
  ///   - sessionID: The session's id, from the snapshot.
  ///   - user: The member's user id.
  ///   - resumeToken: The secret the service gave in ``ServerMessage/joined(_:resumeToken:)``.
  ///   - lastSequence: The last event sequence the member applied.
  public init(sessionID: String, user: UserID, resumeToken: UInt64, lastSequence: UInt64) {
    self.sessionID = sessionID
    self.user = user
    self.resumeToken = resumeToken
    self.lastSequence = lastSequence
  }
}
