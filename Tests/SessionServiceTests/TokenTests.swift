import SessionCore
import SessionService
import Testing

// MARK: - Fixtures

private let appKey = "sdkKeyA"
private let secret = "sdkSecretA-0123456789"
private let otherAppKey = "sdkKeyB"
private let otherSecret = "sdkSecretB-9876543210"
private let now: Int64 = 1_700_000_000
private let session = "Algebra101"
private let standardHeader = #"{"alg":"HS256","typ":"JWT"}"#

private let minter = TokenMinter(appKey: appKey, secret: secret)
private let verifier = TokenVerifier(credentials: [appKey: secret, otherAppKey: otherSecret])

/// The claims of a valid host token, in order, as raw JSON values.
private let validClaims: [(String, String)] = [
  ("app_key", #""sdkKeyA""#),
  ("tpc", #""Algebra101""#),
  ("role_type", "1"),
  ("version", "1"),
  ("iat", "\(now)"),
  ("exp", "\(now + 7_200)"),
]

/// A payload JSON text: the valid claims with some replaced (raw JSON values), some removed, and
/// any replacement for an absent claim appended.
private func payload(set replacements: [String: String] = [:], remove: Set<String> = []) -> String {
  var members: [String] = []
  var used: Set<String> = []
  for (key, value) in validClaims where !remove.contains(key) {
    members.append("\"\(key)\":\(replacements[key] ?? value)")
    used.insert(key)
  }
  for key in replacements.keys.sorted() where !used.contains(key) {
    members.append("\"\(key)\":\(replacements[key] ?? "null")")
  }
  return "{" + members.joined(separator: ",") + "}"
}

/// The error code of a refused token, or nil if it verified.
private func code(_ result: Result<SessionToken, TokenRejection>) -> VideoSDKError? {
  switch result {
  case .success: nil
  case .failure(let rejection): rejection.code
  }
}

private func verify(_ token: String, sessionName: String = session, at time: Int64 = now)
  -> Result<SessionToken, TokenRejection>
{
  verifier.verify(token, sessionName: sessionName, now: time)
}

/// The rejection of a refused token, or nil if it verified.
private func rejection(_ result: Result<SessionToken, TokenRejection>) -> TokenRejection? {
  if case .failure(let rejection) = result { rejection } else { nil }
}

/// Signs raw bytes as header and payload, for inputs that are not valid UTF-8 text.
private func signedToken(header: [UInt8], payload: [UInt8], secret: String = secret) -> String {
  let input = Base64URL.encode(header) + "." + Base64URL.encode(payload)
  let mac = HMACSHA256.authenticationCode(for: Array(input.utf8), key: Array(secret.utf8))
  return input + "." + Base64URL.encode(mac)
}

private func bytes(hex: String) -> [UInt8] {
  var result: [UInt8] = []
  var high: UInt8?
  for character in hex {
    guard let nibble = character.hexDigitValue else { continue }
    if let first = high {
      result.append(first << 4 | UInt8(nibble))
      high = nil
    } else {
      high = UInt8(nibble)
    }
  }
  return result
}

// MARK: - Cases

private let invalid = VideoSDKError.joinSessionInvalidSessionToken

// MARK: - Tests

@Suite struct TokenTests {
  struct HMACVector: Sendable, CustomTestStringConvertible {
    var name: String
    var key: [UInt8]
    var data: [UInt8]
    var expectedHex: String
    var testDescription: String { name }
  }

  struct BadClaims: Sendable, CustomTestStringConvertible {
    var name: String
    var header = standardHeader
    var set: [String: String] = [:]
    var remove: Set<String> = []
    var sessionName = session
    var expected: VideoSDKError
    var testDescription: String { name }
  }

  struct MalformedToken: Sendable, CustomTestStringConvertible {
    var name: String
    var token: String
    var testDescription: String { name }
  }

  // MARK: The documented vector (Docs/WireProtocol.md §12)

  @Test func theDocumentedTokenVector() throws {
    let vector =
      "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJhcHBfa2V5IjoiaGFybmVzc0tleSIsInRwYyI6IkFsZ2Vi"
      + "cmExMDEiLCJyb2xlX3R5cGUiOjEsInZlcnNpb24iOjEsImlhdCI6MTcwMDAwMDAwMCwiZXhwIjoxNzAwMDA3MjAw"
      + "fQ.6-rYkAaNrGofb4ovwMd3vufGtuc_EqgkOMzgPlPJIUs"
    let minter = TokenMinter(appKey: "harnessKey", secret: "harnessSecret-0123456789")
    #expect(
      minter.mint(sessionName: "Algebra101", role: .host, issuedAt: 1_700_000_000) == vector)
    let verifier = TokenVerifier(credentials: ["harnessKey": "harnessSecret-0123456789"])
    let token = try verifier.verify(vector, sessionName: "algebra101", now: 1_699_999_940).get()
    #expect(token.roleType == .host)
    #expect(verifier.verify(vector, sessionName: "Algebra101", now: 1_700_007_199).isSuccess)
    #expect(!verifier.verify(vector, sessionName: "Algebra101", now: 1_699_999_939).isSuccess)
    #expect(!verifier.verify(vector, sessionName: "Algebra101", now: 1_700_007_200).isSuccess)
  }

  // MARK: HMAC-SHA256

  @Test(arguments: [
    HMACVector(
      name: "RFC 4231 case 1",
      key: [UInt8](repeating: 0x0B, count: 20),
      data: Array("Hi There".utf8),
      expectedHex: "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7"
    ),
    HMACVector(
      name: "RFC 4231 case 2",
      key: Array("Jefe".utf8),
      data: Array("what do ya want for nothing?".utf8),
      expectedHex: "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"
    ),
    HMACVector(
      name: "RFC 4231 case 3",
      key: [UInt8](repeating: 0xAA, count: 20),
      data: [UInt8](repeating: 0xDD, count: 50),
      expectedHex: "773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe"
    ),
    HMACVector(
      name: "RFC 4231 case 4",
      key: Array(1...25),
      data: [UInt8](repeating: 0xCD, count: 50),
      expectedHex: "82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b"
    ),
    HMACVector(
      name: "RFC 4231 case 6 (key longer than the block)",
      key: [UInt8](repeating: 0xAA, count: 131),
      data: Array("Test Using Larger Than Block-Size Key - Hash Key First".utf8),
      expectedHex: "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54"
    ),
    HMACVector(
      name: "RFC 4231 case 7 (key and data longer than the block)",
      key: [UInt8](repeating: 0xAA, count: 131),
      data: Array(
        ("This is a test using a larger than block-size key and a larger than block-size data. "
          + "The key needs to be hashed before being used by the HMAC algorithm.").utf8),
      expectedHex: "9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2"
    ),
  ])
  func hmacMatchesRFC4231(_ vector: HMACVector) {
    let code = HMACSHA256.authenticationCode(for: vector.data, key: vector.key)
    #expect(code == bytes(hex: vector.expectedHex))
    #expect(code.count == HMACSHA256.byteCount)
  }

  @Test func hmacMatchesRFC4231TruncatedCase5() {
    let code = HMACSHA256.authenticationCode(
      for: Array("Test With Truncation".utf8),
      key: [UInt8](repeating: 0x0C, count: 20)
    )
    #expect(Array(code.prefix(16)) == bytes(hex: "a3b6167473100ee06e0c796c2955552b"))
  }

  @Test func hmacAcceptsEmptyKeyAndEmptyMessage() {
    // Reference value from `openssl dgst -sha256 -mac HMAC -macopt hexkey:` on empty input.
    let code = HMACSHA256.authenticationCode(for: [UInt8](), key: [UInt8]())
    #expect(code == bytes(hex: "b613679a0814d9ec772f95d778c35fc5ff1697c493715653c6c712144292c5ad"))
  }

  @Test func constantTimeComparisonComparesBytesAndLengths() {
    #expect(HMACSHA256.isEqualInConstantTime([1, 2, 3], [1, 2, 3]))
    #expect(HMACSHA256.isEqualInConstantTime([UInt8](), [UInt8]()))
    #expect(!HMACSHA256.isEqualInConstantTime([1, 2, 3], [1, 2, 4]))
    #expect(!HMACSHA256.isEqualInConstantTime([0, 2, 3], [1, 2, 3]))
    #expect(!HMACSHA256.isEqualInConstantTime([1, 2, 3], [1, 2]))
    #expect(!HMACSHA256.isEqualInConstantTime([UInt8](), [0]))
  }

  // MARK: Base64url

  @Test(arguments: [
    ("", ""), ("f", "Zg"), ("fo", "Zm8"), ("foo", "Zm9v"), ("foob", "Zm9vYg"),
    ("fooba", "Zm9vYmE"), ("foobar", "Zm9vYmFy"),
  ])
  func base64URLMatchesRFC4648Vectors(_ plain: String, _ encoded: String) {
    #expect(Base64URL.encode(plain.utf8) == encoded)
    #expect(Base64URL.decode(encoded) == Array(plain.utf8))
  }

  @Test func base64URLUsesTheURLAlphabet() {
    #expect(Base64URL.encode([0xFB, 0xFF]) == "-_8")
    #expect(Base64URL.decode("-_8") == [0xFB, 0xFF])
    let all = (0...255).map { UInt8($0) }
    #expect(Base64URL.decode(Base64URL.encode(all)) == all)
  }

  @Test(arguments: [
    "Zg==", "Zm8=", "+_8", "-/8", "Zm9v YmFy", "Zm9v\nYmFy", "Z", "Zm9vY", "Zh", "Zm9", "é",
    "Zm9v.",
  ])
  func base64URLRefusesPaddingForeignCharactersAndNonCanonicalText(_ text: String) {
    #expect(Base64URL.decode(text) == nil)
  }

  // MARK: Minting and round trip

  @Test func mintRawReproducesTheWellKnownJWTExample() {
    let example = TokenMinter(appKey: "unused", secret: "your-256-bit-secret")
    let token = example.mintRaw(
      headerJSON: standardHeader,
      payloadJSON: #"{"sub":"1234567890","name":"John Doe","iat":1516239022}"#
    )
    #expect(
      token
        == "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9"
        + ".eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ"
        + ".SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c"
    )
  }

  @Test func mintWritesTheSampleGeneratorsHeaderAndClaims() throws {
    let token = minter.mint(sessionName: session, role: .host, issuedAt: now)
    let parts = token.split(separator: ".", omittingEmptySubsequences: false)
    try #require(parts.count == 3)
    let header = try #require(Base64URL.decode(parts[0]))
    let claims = try #require(Base64URL.decode(parts[1]))
    #expect(String(decoding: header, as: UTF8.self) == standardHeader)
    #expect(String(decoding: claims, as: UTF8.self) == payload())
  }

  @Test(arguments: TokenRole.allCases)
  func mintedTokenVerifiesToItsClaims(_ role: TokenRole) throws {
    let token = minter.mint(
      sessionName: session,
      role: role,
      issuedAt: now - 30,
      userKey: "user-42",
      sessionKey: "room-7"
    )
    let expected = SessionToken(
      appKey: appKey,
      sessionName: session,
      roleType: role,
      version: 1,
      issuedAt: now - 30,
      expiresAt: now - 30 + 7_200,
      userKey: "user-42",
      sessionKey: "room-7"
    )
    #expect(try verify(token).get() == expected)
  }

  @Test func tokenForEitherConfiguredKeyVerifies() throws {
    let other = TokenMinter(appKey: otherAppKey, secret: otherSecret)
    let claims = try verify(other.mint(sessionName: session, role: .participant, issuedAt: now))
      .get()
    #expect(claims.appKey == otherAppKey)
    #expect(claims.roleType == .participant)
    #expect(claims.userKey == nil)
    #expect(claims.sessionKey == nil)
  }

  @Test(arguments: [
    "Quote\"Back\\slash", "Tab\tNew\nline", "Ünïcödé 会议 🎓", "\u{1}\u{1F}", "a/b",
  ])
  func mintEscapesAwkwardSessionNames(_ name: String) throws {
    let token = minter.mint(sessionName: name, role: .host, issuedAt: now, userKey: name)
    let claims = try verifier.verify(token, sessionName: name, now: now).get()
    #expect(claims.sessionName == name)
    #expect(claims.userKey == name)
  }

  @Test func descriptionsNeverShowSecrets() {
    #expect(!String(describing: minter).contains(secret))
    #expect(!String(describing: verifier).contains(secret))
    #expect(!String(describing: verifier).contains(otherSecret))
    #expect(String(describing: verifier).contains(appKey))
  }

  // MARK: Accepted variations

  @Test func sessionNameMatchesIgnoringCase() throws {
    let token = minter.mint(sessionName: "Algebra101", role: .host, issuedAt: now)
    for name in ["ALGEBRA101", "algebra101", "aLgEbRa101"] {
      let claims = try verify(token, sessionName: name).get()
      #expect(claims.sessionName == "Algebra101")
    }
  }

  @Test func headerWithoutTypeIsAccepted() {
    let token = minter.mintRaw(headerJSON: #"{"alg":"HS256"}"#, payloadJSON: payload())
    #expect(code(verify(token)) == nil)
  }

  @Test func unknownHeaderFieldsAndClaimsAreIgnored() {
    let nested = String(repeating: "[", count: 20) + String(repeating: "]", count: 20)
    let token = minter.mintRaw(
      headerJSON: #"{"alg":"HS256","typ":"JWT","kid":"k1"}"#,
      payloadJSON: payload(set: [
        "geo_regions": #""US,EU""#, "cloud_recording_option": "1", "extra": nested,
        "ratio": "0.5e-3", "flag": "true", "nothing": "null",
      ])
    )
    #expect(code(verify(token)) == nil)
  }

  @Test func jsonWhitespaceAndEscapesAreAccepted() throws {
    let token = minter.mintRaw(
      headerJSON: " {\n\t\"alg\" : \"HS256\" ,\r\n \"typ\":\"JWT\"} ",
      payloadJSON: payload(set: ["tpc": #""\u0041lgebra\u00310\u0031""#])
    )
    #expect(try verify(token).get().sessionName == "Algebra101")
  }

  @Test func legacyUserIdentityIsTheUserKey() throws {
    let token = minter.mintRaw(
      headerJSON: standardHeader,
      payloadJSON: payload(set: ["user_identity": #""legacy-id""#])
    )
    #expect(try verify(token).get().userKey == "legacy-id")
  }

  @Test func nullOptionalClaimsAreAbsent() throws {
    let token = minter.mintRaw(
      headerJSON: standardHeader,
      payloadJSON: payload(set: ["user_key": "null", "session_key": "null"])
    )
    let claims = try verify(token).get()
    #expect(claims.userKey == nil)
    #expect(claims.sessionKey == nil)
  }

  // MARK: Rejections, one rule at a time

  @Test func emptyTokenIsNoSessionToken() {
    #expect(code(verify("")) == .joinSessionNoSessionToken)
  }

  @Test(arguments: [
    MalformedToken(name: "one part", token: "abc"),
    MalformedToken(name: "two parts", token: "eyJhbGciOiJIUzI1NiJ9.e30"),
    MalformedToken(name: "four parts", token: "e30.e30.e30.e30"),
    MalformedToken(name: "only dots", token: ".."),
    MalformedToken(name: "whitespace", token: " "),
    MalformedToken(name: "standard base64 alphabet", token: "e30+.e30.AAAA"),
    MalformedToken(name: "padded header", token: "e30=.e30.AAAA"),
    MalformedToken(name: "impossible length", token: "e30.e3012.AAAA"),
    MalformedToken(name: "non-ASCII", token: "é.e30.AAAA"),
    MalformedToken(
      name: "header is an array",
      token: Base64URL.encode("[]".utf8) + ".e30.AAAA"
    ),
    MalformedToken(
      name: "payload is a string",
      token: Base64URL.encode(standardHeader.utf8) + "." + Base64URL.encode("\"x\"".utf8)
        + ".AAAA"
    ),
    MalformedToken(
      name: "payload not JSON",
      token: minter.mintRaw(headerJSON: standardHeader, payloadJSON: "app_key=sdkKeyA")
    ),
    MalformedToken(
      name: "payload with trailing data",
      token: minter.mintRaw(headerJSON: standardHeader, payloadJSON: payload() + "{}")
    ),
    MalformedToken(
      name: "payload with trailing comma",
      token: minter.mintRaw(
        headerJSON: standardHeader, payloadJSON: String(payload().dropLast()) + ",}")
    ),
    MalformedToken(
      name: "signature not base64url",
      token: minter.mintRaw(headerJSON: standardHeader, payloadJSON: payload()) + "="
    ),
    MalformedToken(
      name: "payload not UTF-8",
      token: signedToken(header: Array(standardHeader.utf8), payload: [0x7B, 0xFF, 0x7D])
    ),
    MalformedToken(
      name: "duplicate claim",
      token: minter.mintRaw(
        headerJSON: standardHeader,
        payloadJSON: #"{"tpc":"Other","# + String(payload().dropFirst())
      )
    ),
    MalformedToken(
      name: "lone surrogate escape",
      token: minter.mintRaw(
        headerJSON: standardHeader, payloadJSON: payload(set: ["user_key": #""\ud800""#]))
    ),
    MalformedToken(
      name: "raw control character in a string",
      token: minter.mintRaw(
        headerJSON: standardHeader, payloadJSON: payload(set: ["user_key": "\"a\u{1}b\""]))
    ),
    MalformedToken(
      name: "nesting deeper than 32",
      token: minter.mintRaw(
        headerJSON: standardHeader,
        payloadJSON: payload(set: [
          "deep": String(repeating: "[", count: 40) + String(repeating: "]", count: 40)
        ])
      )
    ),
    MalformedToken(
      name: "longer than 8 KiB",
      token: minter.mintRaw(
        headerJSON: standardHeader,
        payloadJSON: payload(set: ["padding": "\"" + String(repeating: "x", count: 8_192) + "\""])
      )
    ),
  ])
  func malformedTokenIsInvalid(_ malformed: MalformedToken) throws {
    let refused = try #require(rejection(verify(malformed.token)))
    #expect(refused.code == invalid, "\(refused.reason)")
  }

  @Test(arguments: [
    // Header.
    BadClaims(name: "alg none", header: #"{"alg":"none","typ":"JWT"}"#, expected: invalid),
    BadClaims(name: "alg HS512", header: #"{"alg":"HS512","typ":"JWT"}"#, expected: invalid),
    BadClaims(name: "alg RS256", header: #"{"alg":"RS256","typ":"JWT"}"#, expected: invalid),
    BadClaims(name: "alg lower case", header: #"{"alg":"hs256","typ":"JWT"}"#, expected: invalid),
    BadClaims(name: "alg missing", header: #"{"typ":"JWT"}"#, expected: invalid),
    BadClaims(name: "alg not a string", header: #"{"alg":256,"typ":"JWT"}"#, expected: invalid),
    BadClaims(name: "alg null", header: #"{"alg":null}"#, expected: invalid),
    BadClaims(name: "typ JWS", header: #"{"alg":"HS256","typ":"JWS"}"#, expected: invalid),
    BadClaims(name: "typ not a string", header: #"{"alg":"HS256","typ":1}"#, expected: invalid),
    // Key.
    BadClaims(name: "app_key missing", remove: ["app_key"], expected: invalid),
    BadClaims(name: "app_key unknown", set: ["app_key": #""sdkKeyZ""#], expected: invalid),
    BadClaims(name: "app_key not a string", set: ["app_key": "7"], expected: invalid),
    // Session name.
    BadClaims(name: "tpc missing", remove: ["tpc"], expected: .joinSessionTokenNoSessionName),
    BadClaims(name: "tpc empty", set: ["tpc": #""""#], expected: .joinSessionTokenNoSessionName),
    BadClaims(name: "tpc a number", set: ["tpc": "101"], expected: .joinSessionTokenNoSessionName),
    BadClaims(name: "tpc null", set: ["tpc": "null"], expected: .joinSessionTokenNoSessionName),
    BadClaims(
      name: "tpc another session", set: ["tpc": #""Algebra102""#],
      expected: .joinSessionTokenMismatchedSessionName),
    BadClaims(
      name: "tpc with a trailing space", set: ["tpc": #""Algebra101 ""#],
      expected: .joinSessionTokenMismatchedSessionName),
    // Role.
    BadClaims(
      name: "role_type missing", remove: ["role_type"],
      expected: .joinSessionTokenRoleTypeEmptyOrWrong),
    BadClaims(
      name: "role_type 2", set: ["role_type": "2"],
      expected: .joinSessionTokenRoleTypeEmptyOrWrong),
    BadClaims(
      name: "role_type -1", set: ["role_type": "-1"],
      expected: .joinSessionTokenRoleTypeEmptyOrWrong),
    BadClaims(
      name: "role_type string", set: ["role_type": #""1""#],
      expected: .joinSessionTokenRoleTypeEmptyOrWrong),
    BadClaims(
      name: "role_type fraction", set: ["role_type": "1.0"],
      expected: .joinSessionTokenRoleTypeEmptyOrWrong),
    BadClaims(
      name: "role_type exponent", set: ["role_type": "1e0"],
      expected: .joinSessionTokenRoleTypeEmptyOrWrong),
    BadClaims(
      name: "role_type bool", set: ["role_type": "true"],
      expected: .joinSessionTokenRoleTypeEmptyOrWrong),
    BadClaims(
      name: "role_type null", set: ["role_type": "null"],
      expected: .joinSessionTokenRoleTypeEmptyOrWrong),
    BadClaims(
      name: "role_type huge", set: ["role_type": "18446744073709551617"],
      expected: .joinSessionTokenRoleTypeEmptyOrWrong),
    // Version.
    BadClaims(name: "version missing", remove: ["version"], expected: invalid),
    BadClaims(name: "version 2", set: ["version": "2"], expected: invalid),
    BadClaims(name: "version 0", set: ["version": "0"], expected: invalid),
    BadClaims(name: "version string", set: ["version": #""1""#], expected: invalid),
    BadClaims(name: "version fraction", set: ["version": "1.0"], expected: invalid),
    // Times.
    BadClaims(name: "iat missing", remove: ["iat"], expected: invalid),
    BadClaims(name: "exp missing", remove: ["exp"], expected: invalid),
    BadClaims(name: "iat string", set: ["iat": "\"\(now)\""], expected: invalid),
    BadClaims(name: "exp fraction", set: ["exp": "\(now + 7_200).5"], expected: invalid),
    BadClaims(name: "iat huge", set: ["iat": "99999999999999999999999"], expected: invalid),
    BadClaims(
      name: "lifetime overflows Int64",
      set: ["iat": "-9223372036854775808", "exp": "9223372036854775807"], expected: invalid),
    BadClaims(name: "exp before iat", set: ["exp": "\(now - 1)"], expected: invalid),
    BadClaims(
      name: "not yet valid",
      set: ["iat": "\(now + 61)", "exp": "\(now + 61 + 7_200)"], expected: invalid),
    BadClaims(
      name: "expired", set: ["iat": "\(now - 7_200)", "exp": "\(now)"], expected: invalid),
    BadClaims(
      name: "expired long ago",
      set: ["iat": "-9223372036854775808", "exp": "-9223372036854769608"], expected: invalid),
    // Keys and lengths.
    BadClaims(
      name: "user_key 37", set: ["user_key": "\"" + String(repeating: "u", count: 37) + "\""],
      expected: .joinSessionTokenUserIdentityTooLong),
    BadClaims(
      name: "user_identity 37",
      set: ["user_identity": "\"" + String(repeating: "u", count: 37) + "\""],
      expected: .joinSessionTokenUserIdentityTooLong),
    BadClaims(name: "user_key a number", set: ["user_key": "42"], expected: invalid),
    BadClaims(
      name: "session_key 37",
      set: ["session_key": "\"" + String(repeating: "s", count: 37) + "\""], expected: invalid),
    BadClaims(name: "session_key an object", set: ["session_key": "{}"], expected: invalid),
    BadClaims(
      name: "tpc 201",
      set: ["tpc": "\"" + String(repeating: "t", count: 201) + "\""],
      sessionName: String(repeating: "T", count: 201), expected: invalid),
  ])
  func claimBreakingARuleIsRefusedWithItsCode(_ bad: BadClaims) throws {
    let token = minter.mintRaw(
      headerJSON: bad.header,
      payloadJSON: payload(set: bad.set, remove: bad.remove)
    )
    let refused = try #require(rejection(verify(token, sessionName: bad.sessionName)))
    #expect(refused.code == bad.expected, "\(refused.reason)")
  }

  @Test func checksRunInTheDocumentedOrder() {
    // Each token breaks two rules; the earlier rule's code wins.
    let cases: [(String, VideoSDKError)] = [
      // Bad signature beats a missing tpc.
      (
        minter.mintRaw(headerJSON: standardHeader, payloadJSON: payload(remove: ["tpc"]))
          .dropLast(2) + "AA", invalid
      ),
      // Missing tpc beats a bad role.
      (
        minter.mintRaw(
          headerJSON: standardHeader,
          payloadJSON: payload(set: ["role_type": "9"], remove: ["tpc"])),
        .joinSessionTokenNoSessionName
      ),
      // Mismatched tpc beats a bad role.
      (
        minter.mintRaw(
          headerJSON: standardHeader,
          payloadJSON: payload(set: ["tpc": #""Other""#, "role_type": "9"])),
        .joinSessionTokenMismatchedSessionName
      ),
      // Bad role beats a bad version.
      (
        minter.mintRaw(
          headerJSON: standardHeader,
          payloadJSON: payload(set: ["role_type": "9", "version": "2"])),
        .joinSessionTokenRoleTypeEmptyOrWrong
      ),
      // Bad version beats a long user key... which would be 1510.
      (
        minter.mintRaw(
          headerJSON: standardHeader,
          payloadJSON: payload(set: [
            "version": "2", "user_key": "\"" + String(repeating: "u", count: 37) + "\"",
          ])),
        invalid
      ),
      // Expiry beats a long user key.
      (
        minter.mintRaw(
          headerJSON: standardHeader,
          payloadJSON: payload(set: [
            "iat": "\(now - 7_200)", "exp": "\(now)",
            "user_key": "\"" + String(repeating: "u", count: 37) + "\"",
          ])),
        invalid
      ),
    ]
    for (token, expected) in cases {
      #expect(code(verify(token)) == expected)
    }
  }

  // MARK: Signatures

  @Test func algNoneWithEmptySignatureIsRefused() {
    let input =
      Base64URL.encode(#"{"alg":"none","typ":"JWT"}"#.utf8) + "." + Base64URL.encode(payload().utf8)
    #expect(code(verify(input + ".")) == invalid)
    // And HS256 with the signature simply left off.
    let unsigned =
      Base64URL.encode(standardHeader.utf8) + "." + Base64URL.encode(payload().utf8) + "."
    #expect(code(verify(unsigned)) == invalid)
  }

  @Test func tokenSignedWithAnotherKeysSecretIsRefused() {
    let swapped = TokenMinter(appKey: appKey, secret: otherSecret)
    #expect(code(verify(swapped.mint(sessionName: session, role: .host, issuedAt: now))) == invalid)
    let unknown = TokenMinter(appKey: appKey, secret: "")
    #expect(code(verify(unknown.mint(sessionName: session, role: .host, issuedAt: now))) == invalid)
  }

  @Test func tamperedPayloadWithOriginalSignatureIsRefused() throws {
    let participant = minter.mint(sessionName: session, role: .participant, issuedAt: now)
    let host = minter.mint(sessionName: session, role: .host, issuedAt: now)
    let original = participant.split(separator: ".")
    let forged = host.split(separator: ".")
    try #require(original.count == 3 && forged.count == 3)
    let tampered = [original[0], forged[1], original[2]].joined(separator: ".")
    #expect(code(verify(tampered)) == invalid)
    // The header is signed too.
    let header = Base64URL.encode(#"{"typ":"JWT","alg":"HS256"}"#.utf8)
    let reheadered = [Substring(header), original[1], original[2]].joined(separator: ".")
    #expect(code(verify(reheadered)) == invalid)
  }

  @Test func signatureWithNonCanonicalTrailingBitsIsRefused() throws {
    let token = minter.mint(sessionName: session, role: .host, issuedAt: now)
    // A 32-byte signature is 43 characters; the last carries 4 bits and 2 unused ones.
    let last = try #require(token.last)
    let sextets = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
    let value = try #require(sextets.firstIndex(of: last))
    let sameBitsDifferentText = sextets[value ^ 1]
    let altered = String(token.dropLast()) + String(sameBitsDifferentText)
    #expect(code(verify(altered)) == invalid)
  }

  // MARK: Boundaries

  @Test(arguments: [
    (Int64(1_800), true), (172_800, true), (1_799, false), (172_801, false),
  ])
  func lifetimeMustBeHalfAnHourToTwoDays(_ lifetime: Int64, _ accepted: Bool) {
    let token = minter.mint(sessionName: session, role: .host, issuedAt: now, expiresIn: lifetime)
    #expect(code(verify(token)) == (accepted ? nil : invalid))
  }

  @Test(arguments: [
    (now - 60, true), (now - 61, false), (now + 7_199, true), (now + 7_200, false),
  ])
  func validFromSixtySecondsBeforeIssueUntilExpiry(_ time: Int64, _ accepted: Bool) {
    let token = minter.mint(sessionName: session, role: .host, issuedAt: now, expiresIn: 7_200)
    #expect(code(verify(token, at: time)) == (accepted ? nil : invalid))
  }

  @Test(arguments: [(36, true), (37, false)])
  func userKeyMayHaveThirtySixCharacters(_ length: Int, _ accepted: Bool) {
    let userKey = String(repeating: "k", count: length)
    let token = minter.mint(sessionName: session, role: .host, issuedAt: now, userKey: userKey)
    #expect(code(verify(token)) == (accepted ? nil : .joinSessionTokenUserIdentityTooLong))
  }

  @Test func userKeyLengthCountsCharactersNotBytes() {
    let userKey = String(repeating: "é", count: 36)
    let token = minter.mint(sessionName: session, role: .host, issuedAt: now, userKey: userKey)
    #expect(code(verify(token)) == nil)
  }

  @Test(arguments: [(36, true), (37, false)])
  func sessionKeyMayHaveThirtySixCharacters(_ length: Int, _ accepted: Bool) {
    let sessionKey = String(repeating: "s", count: length)
    let token = minter.mint(
      sessionName: session, role: .host, issuedAt: now, sessionKey: sessionKey)
    #expect(code(verify(token)) == (accepted ? nil : invalid))
  }

  @Test(arguments: [(200, true), (201, false)])
  func tokenSessionNameMayHaveTwoHundredCharacters(_ length: Int, _ accepted: Bool) {
    let name = String(repeating: "n", count: length)
    let token = minter.mint(sessionName: name, role: .host, issuedAt: now)
    #expect(code(verify(token, sessionName: name)) == (accepted ? nil : invalid))
  }

  @Test func limitsAreConfigurable() {
    var limits = TokenLimits()
    limits.clockSkew = 0
    limits.maxLifetime = 3_600
    let strict = TokenVerifier(credentials: [appKey: secret], limits: limits)
    let early = minter.mint(sessionName: session, role: .host, issuedAt: now + 1, expiresIn: 1_800)
    #expect(code(strict.verify(early, sessionName: session, now: now)) == invalid)
    let long = minter.mint(sessionName: session, role: .host, issuedAt: now, expiresIn: 3_601)
    #expect(code(strict.verify(long, sessionName: session, now: now)) == invalid)
    let fine = minter.mint(sessionName: session, role: .host, issuedAt: now, expiresIn: 3_600)
    #expect(code(strict.verify(fine, sessionName: session, now: now)) == nil)
  }

  // MARK: Hostile input

  @Test func deepNestingIsRefusedWithoutExhaustingTheStack() {
    var limits = TokenLimits()
    limits.maxTokenBytes = 16_000_000
    let roomy = TokenVerifier(credentials: [appKey: secret], limits: limits)
    for opener in ["[", "{\"a\":"] {
      let deep = String(repeating: opener, count: 200_000)
      let token = minter.mintRaw(headerJSON: standardHeader, payloadJSON: deep)
      #expect(code(roomy.verify(token, sessionName: session, now: now)) == invalid)
    }
  }

  @Test func randomMutationsOfAValidTokenNeverVerify() {
    let token = minter.mint(
      sessionName: session, role: .participant, issuedAt: now, userKey: "fuzz-user")
    #expect(code(verify(token)) == nil)
    let original = Array(token.unicodeScalars)
    let pool = Array(
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.=+/ \u{0}é\u{FFFD}🎓"
        .unicodeScalars)
    var generator = SimulationRandom(seed: 0x5EED_0F_70_4E_45)
    var mutated = 0
    for _ in 0..<2_000 {
      var scalars = original
      for _ in 0...Int.random(in: 0...2, using: &generator) {
        let position = Int.random(in: 0..<max(scalars.count, 1), using: &generator)
        let scalar = pool.randomElement(using: &generator) ?? "A"
        switch Int.random(in: 0..<6, using: &generator) {
        case 0 where !scalars.isEmpty: scalars[position] = scalar
        case 1: scalars.insert(scalar, at: min(position, scalars.count))
        case 2 where !scalars.isEmpty: scalars.remove(at: position)
        case 3 where scalars.count > 1:
          let other = Int.random(in: 0..<scalars.count, using: &generator)
          scalars.swapAt(position, other)
        case 4: scalars.removeLast(Int.random(in: 0...min(8, scalars.count), using: &generator))
        default:
          let length = Int.random(in: 1...8, using: &generator)
          let end = min(position + length, scalars.count)
          scalars.insert(contentsOf: scalars[position..<end], at: end)
        }
      }
      var text = ""
      text.unicodeScalars.append(contentsOf: scalars)
      guard text != token else { continue }
      mutated += 1
      let result = verify(text)
      #expect(code(result) != nil, "mutation verified: \(text)")
    }
    #expect(mutated > 1_900)
  }

  @Test func randomlyEditedSignedPayloadsNeverCrash() throws {
    let json = Array(payload(set: ["user_key": #""u\u00e9\n""#, "list": "[1,-2.5e3,{}]"]).utf8)
    let pool = Array(#"{}[]:,"\\/ -+.eE0123456789truefalsnul"#.utf8) + [0x00, 0x80, 0xC3, 0xFF]
    var generator = SimulationRandom(seed: 42)
    var accepted = 0
    for _ in 0..<2_000 {
      var bytes = json
      for _ in 0...Int.random(in: 0...3, using: &generator) {
        let position = Int.random(in: 0..<bytes.count, using: &generator)
        let byte = pool.randomElement(using: &generator) ?? 0
        switch Int.random(in: 0..<3, using: &generator) {
        case 0: bytes[position] = byte
        case 1: bytes.insert(byte, at: position)
        default: if bytes.count > 1 { bytes.remove(at: position) }
        }
      }
      // Correctly signed, so the parser and every claim rule see the damage.
      let result = verify(signedToken(header: Array(standardHeader.utf8), payload: bytes))
      if case .success(let claims) = result {
        accepted += 1
        #expect(claims.sessionName.lowercased() == session.lowercased())
        #expect(claims.appKey == appKey)
      }
    }
    #expect(accepted < 2_000)
  }
}

extension Result {
  fileprivate var isSuccess: Bool {
    if case .success = self { true } else { false }
  }
}
