/// The one development SDK key and secret: what `sessionsim token` signs with and
/// `sessionsim serve`, `sessionsim peer`, every scenario's service and the SDK's development
/// service accept unless told otherwise.
///
/// Public on purpose: anyone who reads this can mint a token these services accept, so they
/// are for development on one machine only. The secret is 37 bytes, more than the 32 bytes
/// RFC 7518 (§3.2) asks of an HS256 key. Production services take their credentials from
/// ``ServiceConfiguration/credentials`` and sign tokens on a backend.
///
/// > Important: Constants; safe from any thread.
public enum DevelopmentCredentials {
  /// The SDK key (`app_key`).
  public static let key = "SessionEngineDevKey"
  /// The SDK secret that signs development tokens.
  public static let secret = "SessionEngineDevSecret-local-use-only"

  /// The credential table of a service that accepts development tokens.
  public static var table: [String: String] { [key: secret] }

  /// A minter for development tokens.
  public static var minter: TokenMinter { TokenMinter(appKey: key, secret: secret) }
}
