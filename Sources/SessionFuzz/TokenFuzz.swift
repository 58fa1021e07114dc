import SessionCore
import SessionService

/// The session-token (JWT) verifier's harness. The first byte picks how the rest is read:
///
/// - **raw**: the rest is the token's text;
/// - **signed JSON**: the rest, split at its first zero byte, is the header's and the
///   payload's bytes, base64url-encoded and signed with the development secret, so that the
///   verifier's JSON parser and claim checks see arbitrary JSON behind a good signature;
/// - **claims**: a token built field by field from the bytes, each field a good or a bad
///   variant (algorithm, type, key, signature, session name, role, version, lifetime, clock,
///   the lengths of the optional claims, duplicate keys, extra claims): a token with only
///   good fields must verify to exactly those claims, and one with any bad field must be
///   refused.
///
/// Whatever verifies keeps every rule of the verifier's table (``SessionService/TokenVerifier``):
/// a configured key, the asked session name ignoring case, a lifetime within the limits, valid
/// at `now`, optional claims within their lengths. Base64url encoding round-trips any bytes.
///
/// > Important: Stateless; each call works on the calling thread.
enum TokenFuzz {
  static let otherKey = "OtherFuzzKey"
  static let otherSecret = "other-fuzz-secret"
  static let verifier = TokenVerifier(
    credentials: DevelopmentCredentials.table.merging([otherKey: otherSecret]) { $1 })
  static let now: Int64 = 1_700_000_000

  static func run(_ bytes: UnsafeRawBufferPointer) throws(FuzzFailure) {
    var input = FuzzInput([UInt8](bytes))
    switch input.byte() % 3 {
    case 0:
      let token = String(decoding: input.rest(), as: UTF8.self)
      try verify(token, sessionName: "Room", now: now)
    case 1:
      let rest = input.rest()
      let split = rest.firstIndex(of: 0) ?? rest.endIndex
      let header = Array(rest[..<split])
      let payload = split < rest.endIndex ? Array(rest[(split + 1)...]) : []
      try require(Base64URL.decode(Base64URL.encode(header)) == header, "base64url round trip")
      let signingInput = Base64URL.encode(header) + "." + Base64URL.encode(payload)
      let token =
        signingInput + "." + DevelopmentCredentials.minter.signature(for: signingInput)
      try verify(token, sessionName: "Room", now: now)
    default:
      try claims(&input)
    }
  }

  /// Verifies a token and checks that an accepted one keeps the verifier's rules.
  @discardableResult
  private static func verify(
    _ token: String, sessionName: String, now: Int64
  ) throws(FuzzFailure) -> Result<SessionToken, TokenRejection> {
    let result = verifier.verify(token, sessionName: sessionName, now: now)
    let limits = verifier.limits
    switch result {
    case .failure(let rejection):
      try require(!rejection.reason.isEmpty, "a rejection without a reason")
    case .success(let claims):
      try require(
        claims.appKey == DevelopmentCredentials.key || claims.appKey == otherKey,
        "accepted app key \(claims.appKey)")
      try require(
        !claims.sessionName.isEmpty
          && claims.sessionName.lowercased() == sessionName.lowercased()
          && claims.sessionName.count <= limits.maxSessionNameLength,
        "accepted tpc \(claims.sessionName) for \(sessionName)")
      try require(claims.version == 1, "accepted version \(claims.version)")
      let (lifetime, overflow) = claims.expiresAt.subtractingReportingOverflow(claims.issuedAt)
      try require(
        !overflow && lifetime >= limits.minLifetime && lifetime <= limits.maxLifetime,
        "accepted lifetime \(claims.issuedAt)...\(claims.expiresAt)")
      try require(now < claims.expiresAt, "accepted an expired token")
      let (notBefore, underflow) = claims.issuedAt.subtractingReportingOverflow(limits.clockSkew)
      try require(underflow || now >= notBefore, "accepted a token not valid yet")
      for value in [claims.userKey, claims.sessionKey] {
        guard let value else { continue }
        try require(
          value.count <= limits.maxUserKeyLength && value.utf8.count <= limits.maxUserKeyBytes,
          "accepted a key of \(value.count) characters")
      }
    }
    return result
  }

  // MARK: Claims

  /// A JSON value written as text, and whether the verifier must accept it there.
  private struct Field {
    var json: String?
    var good: Bool
  }

  private static func claims(_ input: inout FuzzInput) throws(FuzzFailure) {
    let limits = verifier.limits
    var good = true
    func take(_ field: Field, _ members: inout [String], _ name: String) {
      if !field.good { good = false }
      if let json = field.json { members.append(quoted(name) + ":" + json) }
    }
    let sessionName = input.pick([
      "Room", "Algebra101", "r", String(repeating: "x", count: 200),
      String(repeating: "y", count: 201), "Straße", "İstanbul", "ROOM",
    ])
    let now = input.pick([Self.now, 0, -1, .min, .max, 4_102_444_800])

    // Header.
    var header: [String] = []
    take(
      input.pick([
        Field(json: quoted("HS256"), good: true), Field(json: quoted("none"), good: false),
        Field(json: quoted("hs256"), good: false), Field(json: quoted("HS512"), good: false),
        Field(json: nil, good: false), Field(json: "256", good: false),
      ]), &header, "alg")
    take(
      input.pick([
        Field(json: nil, good: true), Field(json: quoted("JWT"), good: true),
        Field(json: quoted("jwt"), good: false), Field(json: "1", good: false),
        Field(json: "null", good: false),
      ]), &header, "typ")
    if input.bool() { header.append(quoted("kid") + ":" + quoted(input.string())) }

    // Key and signature.
    var payload: [String] = []
    let appKey = input.pick([DevelopmentCredentials.key, otherKey, "UnknownKey"])
    let keyField = input.pick([
      Field(json: quoted(appKey), good: appKey != "UnknownKey"), Field(json: nil, good: false),
      Field(json: "7", good: false),
    ])
    take(keyField, &payload, "app_key")
    let signing = input.int(in: 0...3)  // 0 right secret, 1 wrong secret, 2 damaged, 3 empty
    if signing != 0 { good = false }

    // Session name.
    let topic = input.pick([
      sessionName, sessionName.uppercased(), sessionName.lowercased(), "", "Other",
      sessionName + " ",
    ])
    let topicGood =
      !topic.isEmpty && topic.lowercased() == sessionName.lowercased()
      && topic.count <= limits.maxSessionNameLength
    take(
      input.pick([
        Field(json: quoted(topic), good: topicGood), Field(json: nil, good: false),
        Field(json: "1", good: false),
      ]), &payload, "tpc")

    // Role and version.
    let roleField = input.pick([
      Field(json: "0", good: true), Field(json: "1", good: true), Field(json: "2", good: false),
      Field(json: "-1", good: false), Field(json: quoted("1"), good: false),
      Field(json: "true", good: false), Field(json: "1.0", good: false),
      Field(json: nil, good: false),
    ])
    take(roleField, &payload, "role_type")
    take(
      input.pick([
        Field(json: "1", good: true), Field(json: "2", good: false),
        Field(json: quoted("1"), good: false), Field(json: "1e0", good: false),
        Field(json: nil, good: false),
      ]), &payload, "version")

    // Lifetime.
    let issuedAt: Int64 =
      input.bool()
      ? now &+ input.pick([-30, 0, 59, 60, 61, -172_800, -200_000, 1 << 40])
      : input.pick([.min, .max, 0, -1, 1_700_000_000])
    let lifetime: Int64 = input.pick([
      1_799, 1_800, 7_200, 172_800, 172_801, 0, -1, .max, .min,
    ])
    let expiresAt = issuedAt &+ lifetime
    let (span, overflow) = expiresAt.subtractingReportingOverflow(issuedAt)
    let (notBefore, underflow) = issuedAt.subtractingReportingOverflow(limits.clockSkew)
    let lifetimeGood =
      !overflow && span >= limits.minLifetime && span <= limits.maxLifetime
      && (underflow || now >= notBefore) && now < expiresAt
    let asFloat = input.chance(10)
    take(
      Field(json: asFloat ? "\(issuedAt).0" : "\(issuedAt)", good: lifetimeGood && !asFloat),
      &payload, "iat")
    take(Field(json: "\(expiresAt)", good: true), &payload, "exp")

    // Optional claims.
    var strings: [String: String] = [:]
    for name in ["user_key", "user_identity", "session_key"] {
      let value = input.pick([
        "", "u1", String(repeating: "k", count: 36), String(repeating: "k", count: 37),
        String(repeating: "é", count: 36), String(repeating: "👩‍👩‍👧‍👦", count: 6),
        String(repeating: "👩‍👩‍👧‍👦", count: 36),
      ])
      let fits =
        value.count <= limits.maxUserKeyLength && value.utf8.count <= limits.maxUserKeyBytes
      let field = input.pick([
        Field(json: nil, good: true), Field(json: "null", good: true),
        Field(json: quoted(value), good: fits), Field(json: "5", good: false),
      ])
      if field.json == quoted(value) { strings[name] = value }
      take(field, &payload, name)
    }
    if input.bool() {
      payload.append(quoted("jti") + ":" + quoted(input.string()))
      payload.append(quoted("geo_regions") + ":[\"US\",\"EU\"]")
    }
    if input.chance(8), let first = payload.first {
      payload.append(first)  // a duplicate key
      good = false
    }
    if input.chance(10) {
      var order = SimulationRandom(seed: input.uint64())
      payload.shuffle(using: &order)
    }

    // The token.
    let headerJSON = "{" + header.joined(separator: ",") + "}"
    let payloadJSON = "{" + payload.joined(separator: ",") + "}"
    let signingInput = Base64URL.encode(headerJSON.utf8) + "." + Base64URL.encode(payloadJSON.utf8)
    let secret =
      switch signing {
      case 1: "wrong-secret"
      default: appKey == otherKey ? otherSecret : DevelopmentCredentials.secret
      }
    var signature = TokenMinter(appKey: appKey, secret: secret).signature(for: signingInput)
    if signing == 2 { signature = String(signature.reversed()) }
    if signing == 3 { signature = "" }
    let token = signingInput + "." + signature
    if token.utf8.count > limits.maxTokenBytes { good = false }

    let result = try verify(token, sessionName: sessionName, now: now)
    switch (good, result) {
    case (true, .failure(let rejection)):
      throw FuzzFailure("a good token was refused: \(rejection)\n\(headerJSON)\n\(payloadJSON)")
    case (false, .success(let claims)):
      throw FuzzFailure("a bad token was accepted: \(claims)\n\(headerJSON)\n\(payloadJSON)")
    case (true, .success(let claims)):
      let expected = SessionToken(
        appKey: appKey, sessionName: topic, roleType: roleField.json == "1" ? .host : .participant,
        version: 1, issuedAt: issuedAt, expiresAt: expiresAt,
        userKey: strings["user_key"] ?? strings["user_identity"],
        sessionKey: strings["session_key"])
      try require(claims == expected, "verified \(claims), not \(expected)")
    case (false, .failure):
      break
    }
  }

  /// A JSON string literal.
  static func quoted(_ text: String) -> String {
    var result = "\""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": result += "\\\""
      case "\\": result += "\\\\"
      case "\n": result += "\\n"
      case _ where scalar.value < 0x20:
        let hex = String(scalar.value, radix: 16)
        result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
      default: result.unicodeScalars.append(scalar)
      }
    }
    return result + "\""
  }
}
