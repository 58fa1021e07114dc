/// The clocks and timers of a ``VirtualNetwork``, and the behaviour every peer starts with.
///
/// Times are milliseconds of virtual time. Bad values never trap: a host tick interval below
/// 1 counts as 1; a heartbeat interval at or below 0 turns the links' heartbeats off, and a
/// heartbeat timeout at or below 0 turns their silence check off; a retransmission timeout
/// and a media tick interval below 1 count as 1.
///
/// A value; `Sendable`.
public struct VirtualNetworkConfiguration: Sendable, Hashable {
  /// What the host's clock reads at virtual time 0, in milliseconds since 1970 (default
  /// 2026-01-01T00:00:00Z), so that tokens' `iat` and `exp` work.
  public var epochMilliseconds: Int64 = 1_767_225_600_000
  /// How often the host is ticked while it runs, in milliseconds.
  public var hostTickInterval: Int64 = 100
  /// A client link that has sent nothing for this long sends a heartbeat (milliseconds).
  public var heartbeatInterval: Int64 = 5_000
  /// A client link that has heard nothing for this long fails with
  /// `.failed("heartbeat timeout")` (milliseconds).
  public var heartbeatTimeout: Int64 = 15_000
  /// The least retransmission timeout of the reliable channel (milliseconds).
  public var retransmissionTimeout: Int64 = 200
  /// The behaviour of both directions of every peer, until ``VirtualNetwork/setBehavior(_:peer:direction:)``.
  public var defaultBehavior: LinkBehavior = .ideal
  /// Whether every reliable message is encoded to count its bytes in the statistics. Off by
  /// default: sizes are then computed only where a bandwidth limit needs them (and counted
  /// there). Datagrams always count their bytes.
  public var countsMessageBytes: Bool = false
  /// How often a started media link (``VirtualMediaLink``) ticks, in milliseconds. Default 10.
  public var mediaTickInterval: Int64 = 10

  /// Creates a configuration.
  ///
  /// - Parameters:
  ///   - epochMilliseconds: The host's clock at virtual time 0.
  ///   - hostTickInterval: Milliseconds between host ticks.
  ///   - heartbeatInterval: Milliseconds of sending nothing before a heartbeat.
  ///   - heartbeatTimeout: Milliseconds of hearing nothing before a link fails.
  ///   - retransmissionTimeout: The least retransmission timeout, in milliseconds.
  ///   - defaultBehavior: Every peer's behaviour in both directions.
  ///   - countsMessageBytes: Whether reliable messages are always sized for the statistics.
  ///   - mediaTickInterval: Milliseconds between a media link's ticks; below 1 counts as 1.
  public init(
    epochMilliseconds: Int64 = 1_767_225_600_000,
    hostTickInterval: Int64 = 100,
    heartbeatInterval: Int64 = 5_000,
    heartbeatTimeout: Int64 = 15_000,
    retransmissionTimeout: Int64 = 200,
    defaultBehavior: LinkBehavior = .ideal,
    countsMessageBytes: Bool = false,
    mediaTickInterval: Int64 = 10
  ) {
    self.epochMilliseconds = epochMilliseconds
    self.hostTickInterval = hostTickInterval
    self.heartbeatInterval = heartbeatInterval
    self.heartbeatTimeout = heartbeatTimeout
    self.retransmissionTimeout = retransmissionTimeout
    self.defaultBehavior = defaultBehavior
    self.countsMessageBytes = countsMessageBytes
    self.mediaTickInterval = mediaTickInterval
  }
}
