import SessionCore
import SessionTransport

/// How a ``SessionService`` admits members and keeps time.
public struct ServiceConfiguration: Sendable {
  /// SDK key → SDK secret pairs whose tokens the service accepts.
  public var credentials: [String: String]
  /// Limits on names, users, chat.
  public var limits: SessionLimits
  /// Token rules: lifetime bounds, clock skew, claim lengths.
  public var tokenLimits = TokenLimits()
  /// How long a session with a single user lives on, in milliseconds, unless the joiner's
  /// context says otherwise; negative means forever. Default 40 minutes.
  public var defaultIdleTimeout: Int64
  /// A connection silent this long (milliseconds) is closed as dead. Default 15 s.
  public var heartbeatTimeout: Int64
  /// How long (milliseconds) a member whose connection dropped keeps their place, waiting for
  /// a resume. Default 10 s; 0 removes them at once.
  public var reconnectGrace: Int64
  /// Where session ids, resume tokens, media credentials and return-path nonces come from:
  /// the system's CSPRNG by default (``ServiceSecrets/systemRandom``), or HMAC-SHA256 under a
  /// key for a deterministic run (``ServiceSecrets/derived(seed:)``).
  ///
  /// > Important: A service that restarts with derived secrets must not start from the key it
  /// > had: its session ids and resume tokens would come back, and a member of the old
  /// > incarnation resuming could take the place of a member of the new one. A simulation
  /// > derives a fresh key per restart (Decision 0016).
  public var secrets: ServiceSecrets
  /// The most members one join token may hold in a session at once; a join over it is refused
  /// with ``SessionCore/VideoSDKError/sessionJoinFailed`` and a log line naming the policy, so
  /// one leaked or shared token cannot fill a session. Tokens are told apart by their
  /// signature. Default 50; 0 or less means no limit.
  public var maxMembersPerToken: Int = 50
  /// How many wrong resumes a connection may send before it is closed (each is answered
  /// `left(networkError)`; the one over the limit closes the connection). Default 3.
  public var maxFailedResumes: Int = 3
  /// How long a bound media endpoint keeps its binding with nothing authentic heard from it,
  /// in microseconds (RFC 7675's consent freshness: the service stops sending to an address
  /// that stopped answering). The SDK pings every second. Default 10 s.
  public var mediaConsentTimeout: Int64 = 10_000_000
  /// The largest message its members accept, in bytes (the wire default, 16 MiB: a message
  /// longer than a frame travels as fragments). The service admits no more members than a
  /// worst-case snapshot fits in (``SessionTransport/SnapshotBudget``), so that every join and resume gets its
  /// snapshot: 16,577 members with the default limits, more than ``SessionCore/SessionLimits/maxUsers``
  /// allows (1,000 by default; the SDK's largest sessions hold 5,000).
  public var maxMessageSize = WireProtocol.defaultMaxMessageSize
  /// The media router of each session: subscription limits, downlink estimate bounds,
  /// key-frame request pacing, how many talkers each member hears.
  public var media = MediaRouter.Configuration()

  /// Creates a configuration.
  ///
  /// - Parameters:
  ///   - credentials: SDK key → SDK secret pairs whose tokens the service accepts.
  ///   - limits: Limits on names, users, chat; the SDK's defaults by default.
  ///   - defaultIdleTimeout: How long a session with a single user lives on, in milliseconds;
  ///     negative for forever. Default 40 minutes.
  ///   - heartbeatTimeout: How long a connection may stay silent before it is closed as dead, in
  ///     milliseconds. Default 15 s.
  ///   - reconnectGrace: How long a member whose connection dropped keeps their place, in
  ///     milliseconds. Default 10 s; 0 removes them at once.
  ///   - secrets: Where session ids, resume tokens, media credentials and nonces come from; the
  ///     system's CSPRNG by default.
  public init(
    credentials: [String: String],
    limits: SessionLimits = SessionLimits(),
    defaultIdleTimeout: Int64 = 40 * 60_000,
    heartbeatTimeout: Int64 = 15_000,
    reconnectGrace: Int64 = 10_000,
    secrets: ServiceSecrets = .systemRandom
  ) {
    self.credentials = credentials
    self.limits = limits
    self.defaultIdleTimeout = defaultIdleTimeout
    self.heartbeatTimeout = heartbeatTimeout
    self.reconnectGrace = reconnectGrace
    self.secrets = secrets
  }
}
