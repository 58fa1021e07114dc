import Foundation
import InProcessTransport
import SessionCore
import SessionService
import SessionTransport
import Synchronization

/// The session service an instance reaches when ``InitParams/transport`` is `nil`: one
/// in-process service per domain, so that an app's setup code runs as written
/// (`initParams.domain = "zoom.us"`, then `initialize`), with no network and no cloud.
///
/// It accepts tokens signed with the documented development credentials
/// (``sdkKey``/``sdkSecret``), checked against the wall clock; ``token(sessionName:role:userKey:)``
/// mints one as the seeds' JWT generator script does. Every instance initialized for the same
/// domain meets the others in the same service, as apps on one cloud do.
///
/// It is for development and tests on one machine: nothing leaves the process, and its timers
/// (heartbeats, reconnect grace, idle sessions) only run when ``tick(domain:)`` is called.
///
/// > Important: The instances that share a domain's service must be confined together to one
/// > isolation domain (the main actor, in an app), as the in-process network they meet on is.
/// > The registry of services itself is thread-safe.
public enum DevelopmentService {
  /// The SDK key the development service accepts (`app_key`): the one development key, shared
  /// with `sessionsim` and every scenario's service.
  public static let sdkKey = DevelopmentCredentials.key
  /// The SDK secret that signs development tokens. Public on purpose: the development service
  /// admits anyone who can read this documentation.
  public static let sdkSecret = DevelopmentCredentials.secret

  /// A token for the development service, issued 30 s ago by the wall clock, valid two hours.
  ///
  /// - Parameters:
  ///   - sessionName: The session to admit to (`tpc`).
  ///   - role: `.host` (`role_type` 1) or `.participant` (0).
  ///   - userKey: An optional custom user key (`user_key`).
  /// - Returns: A compact HS256 JWT.
  public static func token(
    sessionName: String, role: TokenRole = .participant, userKey: String? = nil
  ) -> String {
    // Each token its own (a `jti`), as an app server mints one per user: the service holds
    // at most 50 members per token.
    let number = tokensMinted.add(1, ordering: .relaxed).newValue
    return TokenMinter(appKey: sdkKey, secret: sdkSecret).mint(
      sessionName: sessionName, role: role, issuedAt: wallClock() / 1_000 - 30, userKey: userKey,
      tokenID: "development-\(number)")
  }

  /// Tokens minted by ``token(sessionName:role:userKey:)`` in this process.
  private static let tokensMinted = Atomic<UInt64>(0)

  /// The names of the live sessions of a domain's development service, sorted.
  ///
  /// - Parameter domain: The domain instances were initialized with.
  /// - Returns: The session names; empty if the domain has no service yet.
  public static func liveSessionNames(domain: String) -> [String] {
    existing(domain)?.service.liveSessionNames ?? []
  }

  /// The authoritative state of a session on a domain's development service.
  ///
  /// - Parameters:
  ///   - name: The session name (case-insensitive).
  ///   - domain: The domain instances were initialized with.
  /// - Returns: The state, or `nil` if no such session is live.
  public static func state(ofSession name: String, domain: String) -> SessionState? {
    existing(domain)?.service.state(ofSession: name)
  }

  /// Runs the domain's service timers at the wall clock's time.
  ///
  /// - Parameter domain: The domain instances were initialized with.
  public static func tick(domain: String) {
    existing(domain)?.network.tick()
  }

  /// Forgets a domain's service, for tests: instances initialized for the domain from now on
  /// reach a new, empty one (instances initialized before keep the old one).
  ///
  /// - Parameter domain: The domain instances were initialized with.
  public static func reset(domain: String) {
    _ = registry.withLock { $0.removeValue(forKey: domain) }
  }

  // MARK: Internals

  /// One domain's service and the network to reach it.
  ///
  // Unchecked Sendable: the registry hands the same box to every instance of a domain, and
  // those instances are confined together (the documented rule above); the box itself is
  // immutable, and the service and network are only used from that one isolation domain.
  final class Domain: @unchecked Sendable {
    let service: SessionService
    let network: InProcessNetwork

    init() {
      service = SessionService(
        configuration: ServiceConfiguration(credentials: [sdkKey: sdkSecret]))
      network = InProcessNetwork(host: service, now: DevelopmentService.wallClock)
    }
  }

  private static let registry = Mutex<[String: Domain]>([:])

  /// The network of a domain's service, made on first use.
  static func network(forDomain domain: String) -> InProcessNetwork {
    registry.withLock { domains in
      if let existing = domains[domain] { return existing.network }
      let made = Domain()
      domains[domain] = made
      return made.network
    }
  }

  private static func existing(_ domain: String) -> Domain? {
    registry.withLock { $0[domain] }
  }

  @Sendable static func wallClock() -> Int64 {
    Int64((Date().timeIntervalSince1970 * 1_000).rounded(.down))
  }
}
