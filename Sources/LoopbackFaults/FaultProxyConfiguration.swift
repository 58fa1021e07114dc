import LoopbackTransport

/// The limits of a ``FaultProxy``.
///
/// A value; `Sendable`. Times are milliseconds.
public struct FaultProxyConfiguration: Hashable, Sendable {
  /// The most bytes one way of one proxied connection may hold back (delayed, waiting for a
  /// retransmission, or partitioned), as a retransmitting TCP's send buffer would. A chunk
  /// that would take it past the bound resets the connection, both sides, and is counted in
  /// ``ProxyPeerStatistics/resets``. Default 4 MiB.
  public var maxHeldBytes: Int
  /// The cap on what one loss of a chunk costs as losses in a row double it. Default 3,000.
  public var maxRetransmissionDelay: Int64
  /// The most losses in a row one chunk may suffer; then it goes through (so a loss
  /// probability of 1 slows a connection down but never stops it). Default 6.
  public var maxLossesPerChunk: Int
  /// Limits and options of both sides' TCP connections. Its write-queue bound is the
  /// slow-side policy: a side that doesn't read what the proxy forwards is reset, and the other
  /// side with it.
  public var tcp: TCPConfiguration

  /// Creates a configuration; out-of-range values are clamped (negative to 0, the held bound
  /// to at least 1 byte).
  ///
  /// - Parameters:
  ///   - maxHeldBytes: The bytes one way of one connection may hold back.
  ///   - maxRetransmissionDelay: The cap on one loss's cost.
  ///   - maxLossesPerChunk: The most losses in a row of one chunk.
  ///   - tcp: The TCP limits of both sides.
  public init(
    maxHeldBytes: Int = 4 << 20,
    maxRetransmissionDelay: Int64 = 3_000,
    maxLossesPerChunk: Int = 6,
    tcp: TCPConfiguration = TCPConfiguration()
  ) {
    self.maxHeldBytes = max(1, maxHeldBytes)
    self.maxRetransmissionDelay = min(max(0, maxRetransmissionDelay), FaultProxy.maximumDelay)
    self.maxLossesPerChunk = max(0, maxLossesPerChunk)
    self.tcp = tcp
  }
}

/// Why a ``FaultProxy`` refused a call.
///
/// A value; `Sendable`.
public enum FaultProxyError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The upstream port was 0, which no server listens on.
  case invalidUpstreamPort
  /// A peer's name was empty.
  case emptyPeerName
  /// The proxy was shut down.
  case shutDown

  /// A sentence for logs and test output.
  public var description: String {
    switch self {
    case .invalidUpstreamPort: "the upstream port must not be 0"
    case .emptyPeerName: "a peer needs a non-empty name"
    case .shutDown: "the fault proxy is shut down"
    }
  }
}
