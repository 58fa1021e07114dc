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
  /// Seed of the generators for resume tokens and session ids: the service draws no other
  /// randomness. (The tokens a resume hands out come from a second generator derived from it,
  /// so that resumes do not move the session ids of a deterministic run.)
  ///
  /// > Important: A service that restarts must not start from the seed it had: its session ids
  /// > and resume tokens would come back, and a member of the old incarnation resuming could
  /// > take the place of a member of the new one. The default is a fixed value, for tests;
  /// > a service that runs for real passes a random seed (`sessionsim serve` does), and a
  /// > simulation derives a fresh one per restart (Decision 0016).
  public var seed: UInt64
  /// The largest frame payload its members accept, in bytes (the wire default, 1 MiB). The
  /// service admits no more members than a worst-case snapshot fits in (``SnapshotBudget``),
  /// so that every join and resume gets its snapshot; with the default limits that is more
  /// than ``SessionLimits/maxUsers``.
  public var maxFrameSize = WireProtocol.defaultMaxFrameSize
  /// The media router of each session: subscription limits, downlink estimate bounds,
  /// key-frame request pacing, how many talkers each member hears.
  public var media = MediaRouter.Configuration()

  /// Creates a configuration.
  public init(
    credentials: [String: String],
    limits: SessionLimits = SessionLimits(),
    defaultIdleTimeout: Int64 = 40 * 60_000,
    heartbeatTimeout: Int64 = 15_000,
    reconnectGrace: Int64 = 10_000,
    seed: UInt64 = 0x5E55_10E0
  ) {
    self.credentials = credentials
    self.limits = limits
    self.defaultIdleTimeout = defaultIdleTimeout
    self.heartbeatTimeout = heartbeatTimeout
    self.reconnectGrace = reconnectGrace
    self.seed = seed
  }
}
