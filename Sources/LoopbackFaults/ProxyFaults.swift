import LoopbackTransport
import SessionCore
import SessionTransport

/// The faults a ``FaultProxy`` applies to one way of one peer's connections.
///
/// A value; `Sendable`. Times are milliseconds. The proxy keeps every field in range (see
/// ``FaultProxy/setDelay(_:peer:direction:)`` and ``FaultProxy/setLoss(_:retransmissionDelay:peer:direction:)``).
public struct ProxyLaneFaults: Hashable, Sendable, Codable {
  /// Added one-way delay, in `0...FaultProxy.maximumDelay`.
  public var delay: Int64
  /// The probability, in `0...1`, that a chunk (one read's bytes) is "lost" on each try.
  public var lossProbability: Double
  /// What the first loss of a chunk costs, in `0...FaultProxy.maximumDelay`; each further loss
  /// of the same chunk costs twice the one before, up to
  /// ``FaultProxyConfiguration/maxRetransmissionDelay``.
  public var retransmissionDelay: Int64
  /// Whether this way is partitioned: bytes are held until ``FaultProxy/heal()``.
  public var isPartitioned: Bool
  /// A uniform ± jitter added to each chunk's delay (the delay stays at least 0), in
  /// `0...FaultProxy.maximumDelay`. Order is kept: a chunk never goes before the one ahead.
  public var jitter: Int64
  /// The random part of each chunk's delay, drawn per chunk on top of ``delay``.
  public var distribution: ProxyDelayDistribution
  /// A capacity limit: chunks are paced through a queue at its rate, and a queue fuller than
  /// its limit stops the proxy reading from the sending side (back-pressure: TCP loses
  /// nothing), or `nil` for none.
  public var bandwidth: MediaBandwidthCap?

  /// Creates faults; the defaults are none.
  ///
  /// - Parameters:
  ///   - delay: Added one-way delay.
  ///   - lossProbability: The loss probability per try.
  ///   - retransmissionDelay: The cost of a chunk's first loss.
  ///   - isPartitioned: Whether bytes are held.
  ///   - jitter: ± jitter per chunk.
  ///   - distribution: The random part of each chunk's delay.
  ///   - bandwidth: A capacity limit.
  public init(
    delay: Int64 = 0, lossProbability: Double = 0, retransmissionDelay: Int64 = 200,
    isPartitioned: Bool = false, jitter: Int64 = 0,
    distribution: ProxyDelayDistribution = .constant, bandwidth: MediaBandwidthCap? = nil
  ) {
    self.delay = delay
    self.lossProbability = lossProbability
    self.retransmissionDelay = retransmissionDelay
    self.isPartitioned = isPartitioned
    self.jitter = jitter
    self.distribution = distribution
    self.bandwidth = bandwidth
  }

  /// How long the next chunk is held beyond the delay because it was lost: a draw per try,
  /// each loss costing twice the one before (capped at `cap`), at most `maxLosses` in a row.
  /// Draws nothing when the probability is 0, so enabling no loss spends no randomness.
  ///
  /// - Returns: The extra milliseconds and how many losses it stands for.
  func retransmissionPenalty(
    random: inout SimulationRandom, cap: UInt64, maxLosses: Int
  ) -> (milliseconds: UInt64, losses: Int) {
    guard lossProbability > 0 else { return (0, 0) }
    var total: UInt64 = 0
    var wait = UInt64(max(0, retransmissionDelay))
    let cap = max(cap, wait)
    var losses = 0
    while losses < maxLosses, Self.uniform(&random) < lossProbability {
      total = total.addingSaturating(wait)
      wait = min(wait.multipliedSaturating(by: 2), cap)
      losses += 1
    }
    return (total, losses)
  }

  /// A uniform draw in `0..<1` with 53 random bits.
  private static func uniform(_ random: inout SimulationRandom) -> Double {
    Double(random.next() >> 11) * 0x1p-53
  }
}

/// One value for each way of a proxied peer: peer to server, and server to peer. The faults of
/// a peer's connections (``ProxyPeerFaults``) and of its media (``MediaProxyPeerFaults``) are
/// both this shape.
///
/// A value; `Sendable`.
public struct PerDirection<Lane: Hashable & Sendable & Codable>: Hashable, Sendable, Codable {
  /// Peer to server.
  public var uplink: Lane
  /// Server to peer.
  public var downlink: Lane

  /// Creates the pair.
  ///
  /// - Parameters:
  ///   - uplink: The value for the peer's traffic to the server.
  ///   - downlink: The value for the server's traffic to the peer.
  public init(uplink: Lane, downlink: Lane) {
    self.uplink = uplink
    self.downlink = downlink
  }

  /// Applies `change` to every way `direction` includes.
  mutating func update(_ direction: LinkDirections, _ change: (inout Lane) -> Void) {
    for way in LinkDirection.allCases where direction.includes(way) { change(&self[way]) }
  }
}

extension PerDirection: UplinkDownlinkPair {}

/// A value with one part for each way of a proxied peer, `uplink` (peer to server) and
/// `downlink` (server to peer): ``PerDirection`` and ``MediaProxyPeerStatistics``. Gives them
/// one subscript by ``SessionTransport/LinkDirection``.
///
/// A protocol of values; what conforms says who owns it.
protocol UplinkDownlinkPair {
  /// What each way holds.
  associatedtype Way
  /// Peer to server.
  var uplink: Way { get set }
  /// Server to peer.
  var downlink: Way { get set }
}

extension UplinkDownlinkPair {
  /// The value of one way.
  subscript(way: LinkDirection) -> Way {
    get {
      switch way {
      case .uplink: uplink
      case .downlink: downlink
      }
    }
    set {
      switch way {
      case .uplink: uplink = newValue
      case .downlink: downlink = newValue
      }
    }
  }
}

/// The faults a ``FaultProxy`` applies to one peer's connections, each way.
public typealias ProxyPeerFaults = PerDirection<ProxyLaneFaults>

extension PerDirection where Lane == ProxyLaneFaults {
  /// Creates faults; the defaults are none.
  public init() {
    self.init(uplink: ProxyLaneFaults(), downlink: ProxyLaneFaults())
  }
}

extension UInt64 {
  /// `self + other`, or `UInt64.max` when that overflows.
  func addingSaturating(_ other: UInt64) -> UInt64 {
    let (sum, overflow) = addingReportingOverflow(other)
    return overflow ? .max : sum
  }

  /// `self * other`, or `UInt64.max` when that overflows.
  func multipliedSaturating(by other: UInt64) -> UInt64 {
    let (product, overflow) = multipliedReportingOverflow(by: other)
    return overflow ? .max : product
  }
}
