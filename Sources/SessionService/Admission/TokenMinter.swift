import SessionCore

/// Mints HS256 session tokens, as the Zoom samples' `Scripts/JWTGenerator.swift` does.
///
/// For simulations and tests: real apps mint tokens on a backend, never with the secret on the
/// device. ``mint(sessionName:role:issuedAt:expiresIn:userKey:sessionKey:version:tokenID:)`` writes the
/// header `{"alg":"HS256","typ":"JWT"}` and the claims `app_key`, `tpc`, `role_type`, `version`,
/// `iat`, `exp` (plus `user_key` and `session_key` when given).
/// ``mintRaw(headerJSON:payloadJSON:)`` signs any text at all, to build malformed tokens.
///
/// > Important: A `Sendable` value with no mutable state; its methods are pure functions, safe to
/// > call from any thread at once. Time is passed in, never read.
public struct TokenMinter: Sendable, CustomStringConvertible {
  /// The SDK key written as `app_key`.
  public let appKey: String
  private let secret: [UInt8]

  /// Creates a minter for one SDK key/secret pair.
  ///
  /// - Parameters:
  ///   - appKey: The SDK key, written as the `app_key` claim.
  ///   - secret: The SDK secret; its UTF-8 bytes are the HMAC key.
  public init(appKey: String, secret: String) {
    self.appKey = appKey
    self.secret = Array(secret.utf8)
  }

  /// The SDK key; never the secret.
  public var description: String { "TokenMinter(appKey: \(appKey), secret: <redacted>)" }

  /// Mints a signed session token.
  ///
  /// - Parameters:
  ///   - sessionName: The session to admit to (`tpc`).
  ///   - role: The role to grant (`role_type`).
  ///   - issuedAt: Issue time (`iat`), Unix seconds. The Zoom samples pass `now - 30` to allow for
  ///     clock skew.
  ///   - expiresIn: Seconds from `issuedAt` to expiry (`exp = iat + expiresIn`); the samples'
  ///     default of two hours. ``TokenVerifier`` accepts 1,800...172,800.
  ///   - userKey: The app's user identifier (`user_key`), if any.
  ///   - sessionKey: The session key (`session_key`), if any.
  ///   - version: The `version` claim; 1 is the only version verifiers accept.
  ///   - tokenID: A JWT ID (`jti`, RFC 7519 §4.1.7) that makes this token unlike any other with
  ///     the same claims, as an app server minting one token per user does (the service holds
  ///     at most ``ServiceConfiguration/maxMembersPerToken`` members per token); verifiers
  ///     ignore it.
  /// - Returns: The compact token `header.payload.signature`.
  public func mint(
    sessionName: String,
    role: TokenRole,
    issuedAt: Int64,
    expiresIn: Int64 = 7_200,
    userKey: String? = nil,
    sessionKey: String? = nil,
    version: Int = 1,
    tokenID: String? = nil
  ) -> String {
    var claims = [
      "\"app_key\":" + TokenJSONWriter.quoted(appKey),
      "\"tpc\":" + TokenJSONWriter.quoted(sessionName),
      "\"role_type\":\(role.rawValue)",
      "\"version\":\(version)",
      "\"iat\":\(issuedAt)",
      "\"exp\":\(issuedAt &+ expiresIn)",
    ]
    if let userKey { claims.append("\"user_key\":" + TokenJSONWriter.quoted(userKey)) }
    if let sessionKey { claims.append("\"session_key\":" + TokenJSONWriter.quoted(sessionKey)) }
    if let tokenID { claims.append("\"jti\":" + TokenJSONWriter.quoted(tokenID)) }
    return mintRaw(
      headerJSON: #"{"alg":"HS256","typ":"JWT"}"#,
      payloadJSON: "{" + claims.joined(separator: ",") + "}"
    )
  }

  /// Signs arbitrary header and payload text with HS256, whatever it says.
  ///
  /// An escape hatch for tests of malformed tokens: nothing is checked, so the header may claim
  /// `"alg":"none"` and the payload need not be JSON. The signature is always HMAC-SHA256 with
  /// this minter's secret over `base64url(headerJSON) + "." + base64url(payloadJSON)`.
  ///
  /// - Parameters:
  ///   - headerJSON: The header text, encoded as UTF-8.
  ///   - payloadJSON: The payload text, encoded as UTF-8.
  /// - Returns: The compact token `header.payload.signature`.
  public func mintRaw(headerJSON: String, payloadJSON: String) -> String {
    let signingInput = Base64URL.encode(headerJSON.utf8) + "." + Base64URL.encode(payloadJSON.utf8)
    return signingInput + "." + signature(for: signingInput)
  }

  /// The base64url HS256 signature this minter would put on a signing input.
  ///
  /// - Parameter signingInput: The text `header.payload` (both parts already base64url).
  /// - Returns: The unpadded base64url HMAC-SHA256 of `signingInput`'s UTF-8 bytes.
  public func signature(for signingInput: String) -> String {
    Base64URL.encode(HMACSHA256.authenticationCode(for: signingInput.utf8, key: secret))
  }
}
