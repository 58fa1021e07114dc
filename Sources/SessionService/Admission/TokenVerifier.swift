import SessionCore

/// Verifies session tokens (HS256 JSON Web Tokens) against configured SDK key/secret pairs.
///
/// ``verify(_:sessionName:now:)`` runs these checks in order and stops at the first failure:
///
/// | Check | Error |
/// | --- | --- |
/// | token empty | 1501 `joinSessionNoSessionToken` |
/// | longer than ``TokenLimits/maxTokenBytes`` | 1505 `joinSessionInvalidSessionToken` |
/// | not `header.payload.signature`, bad base64url, header or payload not a JSON object | 1505 |
/// | header `alg` not exactly `HS256`; `typ` present and not `JWT` | 1505 |
/// | `app_key` missing or unknown; signature wrong for that key's secret | 1505 |
/// | `tpc` missing, not a string or empty | 1508 `joinSessionTokenNoSessionName` |
/// | `tpc` differs from the session name ignoring case | 1507 `joinSessionTokenMismatchedSessionName` |
/// | `role_type` missing, not an integer, or not 0 or 1 | 1509 `joinSessionTokenRoleTypeEmptyOrWrong` |
/// | `version` missing or not the integer 1 | 1505 |
/// | `iat` or `exp` missing or not integers | 1505 |
/// | `exp - iat` outside ``TokenLimits/minLifetime``...``TokenLimits/maxLifetime`` | 1505 |
/// | not yet valid: `now < iat - clockSkew` | 1505 |
/// | expired: `now >= exp` | 1505 |
/// | `user_key` or `user_identity` longer than ``TokenLimits/maxUserKeyLength`` characters or ``TokenLimits/maxUserKeyBytes`` bytes | 1510 `joinSessionTokenUserIdentityTooLong` |
/// | `session_key` longer than ``TokenLimits/maxSessionKeyLength`` characters or ``TokenLimits/maxSessionKeyBytes`` bytes | 1505 |
/// | `tpc` longer than ``TokenLimits/maxSessionNameLength`` | 1505 |
///
/// The signature is checked, in constant time, before any claim but `app_key` is interpreted.
/// Numeric claims must be JSON integers: `1.0`, `1e0`, `"1"` and `true` are refused. Optional
/// string claims (`user_key`, `user_identity`, `session_key`) may be absent or `null`; any other
/// type is 1505. JSON with duplicate keys, invalid UTF-8 or nesting deeper than 32 levels is 1505.
/// Unknown header fields and claims (`kid`, `geo_regions`, …) are ignored.
///
/// > Important: A `Sendable` value with no mutable state; ``verify(_:sessionName:now:)`` is a pure
/// > function of its arguments and the configuration, safe to call from any thread at once. The
/// > clock is injected (`now`), never read.
public struct TokenVerifier: Sendable, CustomStringConvertible {
  /// The limits in force.
  public let limits: TokenLimits
  private let secrets: [String: [UInt8]]

  /// Creates a verifier that accepts tokens signed with any of the given SDK credentials.
  ///
  /// - Parameters:
  ///   - credentials: SDK key (`app_key`) to SDK secret, the HMAC key as UTF-8 text.
  ///   - limits: Lifetime, skew and length limits; the engine policy's by default.
  public init(credentials: [String: String], limits: TokenLimits = TokenLimits()) {
    self.secrets = credentials.mapValues { Array($0.utf8) }
    self.limits = limits
  }

  /// The configured SDK keys, sorted; never the secrets.
  public var description: String {
    "TokenVerifier(appKeys: \(secrets.keys.sorted()), secrets: <redacted>)"
  }

  /// Verifies a session token for joining `sessionName` at time `now`.
  ///
  /// - Parameters:
  ///   - token: The compact JWT the joiner presented (`ZoomVideoSDKSessionContext.token`).
  ///   - sessionName: The session name the joiner asked for.
  ///   - now: The current time in Unix seconds, from the caller's (possibly virtual) clock.
  /// - Returns: The verified claims, or the first rule broken with its SDK error code (see the
  ///   table on ``TokenVerifier``).
  /// - Complexity: O(n) in the token's length, which is bounded by ``TokenLimits/maxTokenBytes``.
  public func verify(
    _ token: String,
    sessionName: String,
    now: Int64
  ) -> Result<SessionToken, TokenRejection> {
    do {
      return .success(try check(token, sessionName: sessionName, now: now))
    } catch {
      return .failure(error)
    }
  }

  private func check(
    _ token: String,
    sessionName: String,
    now: Int64
  ) throws(TokenRejection) -> SessionToken {
    guard !token.isEmpty else {
      throw TokenRejection(code: .joinSessionNoSessionToken, reason: "no session token")
    }
    let bytes = Array(token.utf8)
    guard bytes.count <= limits.maxTokenBytes else {
      throw .invalid("token is \(bytes.count) bytes; at most \(limits.maxTokenBytes) accepted")
    }

    // Structure: header.payload.signature, each base64url; header and payload JSON objects.
    let parts = bytes.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
    guard parts.count == 3 else {
      throw .invalid("token has \(parts.count) parts; expected header.payload.signature")
    }
    let header = try Self.jsonObject(parts[0], name: "header")
    let payload = try Self.jsonObject(parts[1], name: "payload")
    guard let signature = Base64URL.decode(utf8: parts[2]) else {
      throw .invalid("signature is not valid base64url")
    }

    // Algorithm: HS256 only, so "none" and algorithm confusion are impossible.
    guard case .string(let algorithm)? = header["alg"] else {
      throw .invalid("header has no \"alg\" string")
    }
    guard algorithm == "HS256" else {
      throw .invalid("header alg \"\(algorithm)\" is not HS256")
    }
    if let type = header["typ"], type != .string("JWT") {
      throw .invalid("header typ is not \"JWT\"")
    }

    // Key and signature, before any other claim means anything.
    guard case .string(let appKey)? = payload["app_key"] else {
      throw .invalid("payload has no \"app_key\" string")
    }
    guard let secret = secrets[appKey] else {
      throw .invalid("app_key is not a configured SDK key")
    }
    let signingInput = bytes[..<parts[1].endIndex]
    let expected = HMACSHA256.authenticationCode(for: signingInput, key: secret)
    guard HMACSHA256.isEqualInConstantTime(expected, signature) else {
      throw .invalid("signature does not match")
    }

    // Session name.
    guard case .string(let topic)? = payload["tpc"], !topic.isEmpty else {
      throw TokenRejection(
        code: .joinSessionTokenNoSessionName,
        reason: "payload has no non-empty \"tpc\" string"
      )
    }
    guard topic.lowercased() == sessionName.lowercased() else {
      throw TokenRejection(
        code: .joinSessionTokenMismatchedSessionName,
        reason: "tpc does not match the session name (compared ignoring case)"
      )
    }

    // Role.
    let roleType: TokenRole
    switch payload["role_type"] {
    case .integer(0)?: roleType = .participant
    case .integer(1)?: roleType = .host
    default:
      throw TokenRejection(
        code: .joinSessionTokenRoleTypeEmptyOrWrong,
        reason: "role_type is missing or not the integer 0 or 1"
      )
    }

    // Version.
    guard payload["version"] == .integer(1) else {
      throw .invalid("version is missing or not the integer 1")
    }

    // Lifetime.
    let (issuedAt, expiresAt) = try lifetime(payload, now: now)

    // Optional keys and lengths.
    let userKey = try optionalString(payload, "user_key")
    let userIdentity = try optionalString(payload, "user_identity")
    for (claim, value) in [("user_key", userKey), ("user_identity", userIdentity)] {
      if let value, !Self.fits(value, limits.maxUserKeyLength, limits.maxUserKeyBytes) {
        throw TokenRejection(
          code: .joinSessionTokenUserIdentityTooLong,
          reason:
            "\(claim) is longer than \(limits.maxUserKeyLength) characters"
            + " or \(limits.maxUserKeyBytes) bytes"
        )
      }
    }
    let sessionKey = try optionalString(payload, "session_key")
    if let sessionKey,
      !Self.fits(sessionKey, limits.maxSessionKeyLength, limits.maxSessionKeyBytes)
    {
      throw .invalid(
        "session_key is longer than \(limits.maxSessionKeyLength) characters"
          + " or \(limits.maxSessionKeyBytes) bytes")
    }
    guard topic.count <= limits.maxSessionNameLength else {
      throw .invalid("tpc is longer than \(limits.maxSessionNameLength) characters")
    }

    return SessionToken(
      appKey: appKey,
      sessionName: topic,
      roleType: roleType,
      version: 1,
      issuedAt: issuedAt,
      expiresAt: expiresAt,
      userKey: userKey ?? userIdentity,
      sessionKey: sessionKey
    )
  }

  /// Checks `iat` and `exp` and returns them.
  /// Whether a claim is within both its character and its byte limit (bytes first: counting
  /// characters is linear in the bytes).
  private static func fits(_ value: String, _ characters: Int, _ bytes: Int) -> Bool {
    value.utf8.count <= bytes && value.count <= characters
  }

  private func lifetime(
    _ payload: [String: TokenJSON],
    now: Int64
  ) throws(TokenRejection) -> (issuedAt: Int64, expiresAt: Int64) {
    guard case .integer(let issuedAt)? = payload["iat"] else {
      throw .invalid("iat is missing or not an integer")
    }
    guard case .integer(let expiresAt)? = payload["exp"] else {
      throw .invalid("exp is missing or not an integer")
    }
    let (duration, overflow) = expiresAt.subtractingReportingOverflow(issuedAt)
    guard !overflow, duration >= limits.minLifetime, duration <= limits.maxLifetime else {
      throw .invalid(
        "lifetime exp - iat must be \(limits.minLifetime)...\(limits.maxLifetime) seconds"
      )
    }
    // If iat - skew overflows, iat is so far in the past that the token is valid from any `now`.
    let (notBefore, underflow) = issuedAt.subtractingReportingOverflow(limits.clockSkew)
    if !underflow, now < notBefore {
      throw .invalid("token is not valid yet (iat is more than \(limits.clockSkew) s ahead)")
    }
    guard now < expiresAt else {
      throw .invalid("token has expired")
    }
    return (issuedAt, expiresAt)
  }

  /// A claim that may be absent or `null`, or else must be a string.
  private func optionalString(
    _ payload: [String: TokenJSON],
    _ claim: String
  ) throws(TokenRejection) -> String? {
    switch payload[claim] {
    case nil, .null?: return nil
    case .string(let value)?: return value
    default: throw .invalid("\(claim) is not a string")
    }
  }

  /// Decodes one base64url part and parses it as a JSON object.
  private static func jsonObject(
    _ part: ArraySlice<UInt8>,
    name: String
  ) throws(TokenRejection) -> [String: TokenJSON] {
    guard let decoded = Base64URL.decode(utf8: part) else {
      throw .invalid("\(name) is not valid base64url")
    }
    let value: TokenJSON
    do {
      value = try TokenJSON.parse(decoded)
    } catch {
      throw .invalid("\(name) is not valid JSON: \(error)")
    }
    guard case .object(let members) = value else {
      throw .invalid("\(name) is not a JSON object")
    }
    return members
  }
}
