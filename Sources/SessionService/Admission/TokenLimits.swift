/// Limits ``TokenVerifier`` enforces on session tokens; the defaults are the engine policy's.
///
/// Lengths of claims are counted in `Character`s, as ``SessionCore/SessionLimits`` counts session
/// names; the whole token is bounded in bytes first, so no claim can be large however it counts.
///
/// > Important: A plain `Sendable` value.
public struct TokenLimits: Sendable, Hashable, Codable {
  /// Shortest lifetime `exp - iat` accepted, in seconds: 30 minutes.
  public var minLifetime: Int64 = 1_800
  /// Longest lifetime `exp - iat` accepted, in seconds: 48 hours.
  public var maxLifetime: Int64 = 172_800
  /// How far the verifier's clock may lag the issuer's, in seconds: a token is accepted from
  /// `iat - clockSkew` on. The default of 60 s tolerates small clock differences; the Zoom samples
  /// instead back-date `iat` by 30 s when minting.
  public var clockSkew: Int64 = 60
  /// Longest `tpc` (session name) in a token: 200 characters. The 150-character limit of the join
  /// context is checked where the join is admitted, not here.
  public var maxSessionNameLength: Int = 200
  /// Longest `user_key` (or `user_identity`): 36 characters; longer is
  /// `Errors_JoinSession_Token_UserIdentity_TooLong`.
  public var maxUserKeyLength: Int = 36
  /// Longest `user_key` (or `user_identity`) in UTF-8 bytes: 144 (four per character), so that
  /// a key of combining marks cannot be kilobytes long.
  public var maxUserKeyBytes: Int = 144
  /// Longest `session_key`: 36 characters.
  public var maxSessionKeyLength: Int = 36
  /// Longest `session_key` in UTF-8 bytes: 144.
  public var maxSessionKeyBytes: Int = 144
  /// Longest token accepted, in bytes, checked before any decoding: 8 KiB.
  public var maxTokenBytes: Int = 8_192

  /// The default limits.
  public init() {}
}
