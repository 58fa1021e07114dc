/// Limits and keep-alive timers of the links a ``LoopbackLinkFactory`` makes.
///
/// A value; `Sendable`. Times are milliseconds.
public struct LoopbackLinkConfiguration: Sendable, Hashable {
  /// Frame and write-queue limits of each link's TCP connection.
  public var tcp: TCPConfiguration
  /// A link sends a heartbeat when it has sent nothing for this long. Default 5,000.
  public var heartbeatInterval: UInt64
  /// A link that has heard nothing from the server for this long (no frame, no heartbeat
  /// answer; or no handshake answer since it started connecting) closes with
  /// `.failed("heartbeat timeout")`. Default 15,000.
  public var heartbeatTimeout: UInt64
  /// The name each link gives in its hello, for the server's logs.
  public var clientName: String?

  /// Creates a configuration.
  ///
  /// - Parameters:
  ///   - tcp: Frame and write-queue limits.
  ///   - heartbeatInterval: Milliseconds of sending nothing before a heartbeat; positive.
  ///   - heartbeatTimeout: Milliseconds of hearing nothing before the link fails; positive.
  ///   - clientName: The name given in the hello.
  public init(
    tcp: TCPConfiguration = TCPConfiguration(),
    heartbeatInterval: UInt64 = 5_000,
    heartbeatTimeout: UInt64 = 15_000,
    clientName: String? = nil
  ) {
    precondition(heartbeatInterval > 0 && heartbeatTimeout > 0, "heartbeat times must be positive")
    self.tcp = tcp
    self.heartbeatInterval = heartbeatInterval
    self.heartbeatTimeout = heartbeatTimeout
    self.clientName = clientName
  }

  /// How often the factory checks its links' heartbeats: a quarter of the shorter time,
  /// between 5 ms and 1 s.
  var sweepPeriod: UInt64 {
    min(max(min(heartbeatInterval, heartbeatTimeout) / 4, 5), 1_000)
  }
}
