/// Where a ``SessionService`` draws its secrets: session ids, resume tokens, media credentials
/// and return-path nonces.
///
/// - ``systemRandom``, the default, draws every secret from the system's cryptographically
///   secure generator (`SystemRandomNumberGenerator`: `getrandom(2)` on Linux,
///   `arc4random_buf` on Apple platforms). Two services with the same configuration issue
///   different secrets, and no member can compute another's from its own. `sessionsim serve`
///   and every real deployment use it.
/// - ``derived(seed:)`` (or ``derived(key:)``) makes each secret the HMAC-SHA256, under a
///   32-byte key, of its purpose and its number (`"resume-token" ‖ n`), so a deterministic
///   simulation issues the same secrets in every run of a seed and its traces stay
///   byte-identical. HMAC is a pseudorandom function: outputs reveal nothing of the key or of
///   other outputs, unlike a seeded generator whose output function can be inverted. The key
///   itself comes from the run's seed, so whoever knows the seed knows the secrets: use it for
///   simulations only.
///
/// > Important: A value; `Sendable`.
public struct ServiceSecrets: Sendable, Hashable, CustomStringConvertible {
  enum Source: Sendable, Hashable {
    case system
    case keyed([UInt8])
  }

  let source: Source

  /// Every secret from the system's CSPRNG.
  public static let systemRandom = ServiceSecrets(source: .system)

  /// Every secret from HMAC-SHA256 under `key`.
  ///
  /// - Parameter key: The key; 32 bytes or more is right (any length works).
  /// - Returns: The secrets.
  public static func derived(key: [UInt8]) -> ServiceSecrets {
    ServiceSecrets(source: .keyed(key))
  }

  /// Every secret from HMAC-SHA256 under a key derived from `seed` (itself an HMAC of the
  /// seed's bytes), for deterministic runs.
  ///
  /// - Parameter seed: The run's seed, or a value drawn from it.
  /// - Returns: The secrets.
  public static func derived(seed: UInt64) -> ServiceSecrets {
    let bytes = withUnsafeBytes(of: seed.bigEndian) { Array($0) }
    return derived(
      key: HMACSHA256.authenticationCode(
        for: bytes, key: Array("SessionEngine service secrets".utf8)))
  }

  /// The secrets of a service's `number`th restart: derived ones under a key of their own
  /// (HMAC of this key and the number), so a restarted service never issues the ids and tokens
  /// of an earlier incarnation; system ones unchanged (each draw is fresh anyway).
  ///
  /// - Parameter number: The restart's number, from 1.
  /// - Returns: The secrets for that incarnation.
  public func restarted(_ number: UInt64) -> ServiceSecrets {
    guard case .keyed(let key) = source else { return self }
    var message = Array("restart".utf8)
    withUnsafeBytes(of: number.bigEndian) { message.append(contentsOf: $0) }
    return .derived(key: HMACSHA256.authenticationCode(for: message, key: key))
  }

  /// Whether the secrets come from a key (a deterministic run).
  public var isDerived: Bool {
    if case .keyed = source { true } else { false }
  }

  /// `systemRandom` or `derived` (the key is never shown).
  public var description: String { isDerived ? "derived" : "systemRandom" }
}

/// Draws secrets as a ``ServiceSecrets`` says: from the system's CSPRNG, or as HMAC-SHA256 of
/// a purpose and a per-purpose counter, so that one purpose's draws never move another's.
///
/// > Important: A value owned by one ``SessionService``, in its isolation domain.
struct SecretGenerator {
  /// What a secret is for: each has its own counter in a derived generator.
  enum Purpose: String, CaseIterable {
    case sessionID = "session-id"
    case joinToken = "join-token"
    case resumeToken = "resume-token"
    case mediaCredentialID = "media-credential-id"
    case mediaKey = "media-key"
    case checkNonce = "check-nonce"
  }

  private let source: ServiceSecrets.Source
  private var counters = [UInt64](repeating: 0, count: Purpose.allCases.count)
  private var system = SystemRandomNumberGenerator()

  init(_ secrets: ServiceSecrets) {
    source = secrets.source
  }

  /// 32 secret bytes for `purpose`.
  mutating func bytes(for purpose: Purpose) -> [UInt8] {
    switch source {
    case .system:
      var bytes = [UInt8](repeating: 0, count: 32)
      for index in stride(from: 0, to: 32, by: 8) {
        withUnsafeBytes(of: system.next()) { word in
          for offset in 0..<8 { bytes[index + offset] = word[offset] }
        }
      }
      return bytes
    case .keyed(let key):
      let index = Purpose.allCases.firstIndex(of: purpose) ?? 0
      counters[index] &+= 1
      var message = Array(purpose.rawValue.utf8)
      withUnsafeBytes(of: counters[index].bigEndian) { message.append(contentsOf: $0) }
      return HMACSHA256.authenticationCode(for: message, key: key)
    }
  }

  /// 64 secret bits for `purpose`.
  mutating func next(for purpose: Purpose) -> UInt64 {
    let bytes = bytes(for: purpose)
    return bytes.withUnsafeBytes { UInt64(bigEndian: $0.loadUnaligned(as: UInt64.self)) }
  }
}

/// Compares two secrets in time that does not depend on where they differ.
///
/// - Returns: Whether `lhs == rhs`.
@inline(never)
func secretsEqual(_ lhs: UInt64, _ rhs: UInt64) -> Bool {
  // One XOR and one comparison with zero: no early exit on the first differing byte.
  lhs ^ rhs == 0
}
