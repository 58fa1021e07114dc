import SessionCore

/// The claims of a session token (JWT) whose signature, session name, role and lifetime have been
/// verified by ``TokenVerifier``.
///
/// A value of this type only comes from ``TokenVerifier/verify(_:sessionName:now:)`` (or from
/// tests); holding one means the checks passed at the time given to `verify`.
///
/// > Important: A plain `Sendable` value; share it freely across threads.
public struct SessionToken: Sendable, Hashable, Codable {
  /// The SDK key the token was signed for (`app_key`).
  public var appKey: String
  /// The session name as the token spells it (`tpc`); it matched the requested name ignoring
  /// case.
  public var sessionName: String
  /// The role granted (`role_type`).
  public var roleType: TokenRole
  /// The token format version (`version`); always 1 today.
  public var version: Int
  /// When the token was issued (`iat`), in Unix seconds.
  public var issuedAt: Int64
  /// When the token expires (`exp`), in Unix seconds; the token is refused from this second on.
  public var expiresAt: Int64
  /// The app's own user identifier (`user_key`, or the legacy `user_identity`), if any; what the
  /// SDK reports as `getCustomUserId`.
  public var userKey: String?
  /// The session key (`session_key`), if any.
  public var sessionKey: String?

  /// Creates a claims value directly, without verification (for tests and fixtures).
  ///
  /// - Parameters:
  ///   - appKey: The SDK key (`app_key`).
  ///   - sessionName: The session name (`tpc`).
  ///   - roleType: The role (`role_type`).
  ///   - version: The format version (`version`).
  ///   - issuedAt: Issue time (`iat`), Unix seconds.
  ///   - expiresAt: Expiry time (`exp`), Unix seconds.
  ///   - userKey: The user key (`user_key`), if any.
  ///   - sessionKey: The session key (`session_key`), if any.
  public init(
    appKey: String,
    sessionName: String,
    roleType: TokenRole,
    version: Int = 1,
    issuedAt: Int64,
    expiresAt: Int64,
    userKey: String? = nil,
    sessionKey: String? = nil
  ) {
    self.appKey = appKey
    self.sessionName = sessionName
    self.roleType = roleType
    self.version = version
    self.issuedAt = issuedAt
    self.expiresAt = expiresAt
    self.userKey = userKey
    self.sessionKey = sessionKey
  }
}
