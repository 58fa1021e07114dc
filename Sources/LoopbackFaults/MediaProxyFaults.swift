import LoopbackTransport
import SessionTransport

/// A capacity limit on one way of a peer's traffic through a proxy. On media
/// (``MediaFaultProxy``) datagrams are serialised at a rate behind a queue that drops at its
/// tail, as a bottleneck link does; on signalling (``FaultProxy``) chunks are paced at the rate
/// and a full queue stops the proxy reading from the sender (back-pressure, never a drop).
///
/// A value; `Sendable`. Bad values never trap: the rate is clamped to `1...10¹²` bit/s (NaN
/// counts as 1) and a negative queue limit counts as 0 (an empty queue still takes one
/// datagram).
public struct MediaBandwidthCap: Hashable, Sendable, Codable {
  /// The rate, in bits per second.
  public var bitsPerSecond: Double
  /// The most bytes waiting to be serialised, the datagram being serialised included; a
  /// datagram that would go beyond it is dropped (media), or the proxy stops reading until
  /// the queue is back within it (signalling).
  public var queueLimitBytes: Int

  /// Creates a cap.
  ///
  /// - Parameters:
  ///   - bitsPerSecond: The rate.
  ///   - queueLimitBytes: The queue's size in bytes; default 64 KiB.
  public init(bitsPerSecond: Double, queueLimitBytes: Int = 64 * 1024) {
    self.bitsPerSecond = bitsPerSecond
    self.queueLimitBytes = queueLimitBytes
  }

  /// The rate as used.
  var effectiveBitsPerSecond: Double {
    bitsPerSecond.isNaN ? 1 : min(1e12, max(1, bitsPerSecond))
  }

  /// Microseconds to serialise `bytes`, at most an hour.
  func serialisation(bytes: Int) -> Int64 {
    let micros = Double(max(0, bytes)) * 8 / effectiveBitsPerSecond * 1_000_000
    return micros < 3.6e9 ? Int64(micros.rounded(.up)) : 3_600_000_000
  }

  /// The bytes a backlog of `micros` stands for.
  func bytes(inBacklog micros: Int64) -> Double {
    Double(max(0, micros)) * effectiveBitsPerSecond / 8_000_000
  }
}

/// The faults a ``MediaFaultProxy`` applies to one way of one peer's media datagrams.
///
/// A value; `Sendable`. Times are milliseconds. The proxy keeps every field in range.
public struct MediaLaneFaults: Hashable, Sendable, Codable {
  /// Added one-way delay, in `0...FaultProxy.maximumDelay`.
  public var delay: Int64
  /// A uniform ± jitter added to each datagram's delay (the delay stays at least 0), in
  /// `0...FaultProxy.maximumDelay`. Order is kept: a datagram never overtakes the one before.
  public var jitter: Int64
  /// The probability, in `0...1`, that a datagram is dropped.
  public var lossProbability: Double
  /// A capacity limit, or `nil` for none.
  public var bandwidth: MediaBandwidthCap?
  /// Whether this way is partitioned: datagrams are dropped until ``MediaFaultProxy/heal()``.
  public var isPartitioned: Bool
  /// The random part of each datagram's delay, drawn per datagram on top of ``delay``
  /// (before the jitter). Order is kept, as with jitter.
  public var distribution: ProxyDelayDistribution

  /// Creates faults; the defaults are none.
  ///
  /// - Parameters:
  ///   - delay: Added one-way delay.
  ///   - jitter: ± jitter.
  ///   - lossProbability: The drop probability.
  ///   - bandwidth: A capacity limit.
  ///   - isPartitioned: Whether datagrams are dropped.
  ///   - distribution: The random part of each datagram's delay.
  public init(
    delay: Int64 = 0, jitter: Int64 = 0, lossProbability: Double = 0,
    bandwidth: MediaBandwidthCap? = nil, isPartitioned: Bool = false,
    distribution: ProxyDelayDistribution = .constant
  ) {
    self.delay = delay
    self.jitter = jitter
    self.lossProbability = lossProbability
    self.bandwidth = bandwidth
    self.isPartitioned = isPartitioned
    self.distribution = distribution
  }
}

/// The faults a ``MediaFaultProxy`` applies to one peer's media, each way.
public typealias MediaProxyPeerFaults = PerDirection<MediaLaneFaults>

extension PerDirection where Lane == MediaLaneFaults {
  /// Creates faults; the defaults are none.
  public init() {
    self.init(uplink: MediaLaneFaults(), downlink: MediaLaneFaults())
  }
}

/// What a ``MediaFaultProxy`` did with one way of one peer's datagrams.
///
/// A value; `Sendable`.
public struct MediaProxyLaneStatistics: Hashable, Sendable, Codable {
  /// Datagrams that arrived to go this way.
  public var arrived: Int
  /// Datagrams written on (the kernel took them).
  public var forwarded: Int
  /// Bytes of those datagrams.
  public var bytes: Int
  /// Datagrams held back (delay, jitter, serialisation) before they went on or were dropped.
  public var delayed: Int
  /// Datagrams dropped by the loss draw.
  public var lost: Int
  /// Datagrams dropped at the tail of the bandwidth queue.
  public var queueDropped: Int
  /// Datagrams dropped by a partition.
  public var partitionDropped: Int
  /// Datagrams dropped because holding them would pass
  /// ``MediaFaultProxyConfiguration/maxHeldBytes``.
  public var overflowDropped: Int
  /// Datagrams dropped on the way out: the kernel refused them, or (downlink) the proxy knew
  /// no port of the peer's to send to.
  public var sendDropped: Int
  /// Datagrams held when the peer was killed, dropped.
  public var killDropped: Int

  /// Creates statistics; every count defaults to 0.
  ///
  /// - Parameters:
  ///   - arrived: Datagrams that arrived.
  ///   - forwarded: Datagrams written on.
  ///   - bytes: Their bytes.
  ///   - delayed: Datagrams held back.
  ///   - lost: Loss drops.
  ///   - queueDropped: Tail drops.
  ///   - partitionDropped: Partition drops.
  ///   - overflowDropped: Drops over the held bound.
  ///   - sendDropped: Drops on the way out.
  ///   - killDropped: Drops by a kill.
  public init(
    arrived: Int = 0, forwarded: Int = 0, bytes: Int = 0, delayed: Int = 0, lost: Int = 0,
    queueDropped: Int = 0, partitionDropped: Int = 0, overflowDropped: Int = 0,
    sendDropped: Int = 0, killDropped: Int = 0
  ) {
    self.arrived = arrived
    self.forwarded = forwarded
    self.bytes = bytes
    self.delayed = delayed
    self.lost = lost
    self.queueDropped = queueDropped
    self.partitionDropped = partitionDropped
    self.overflowDropped = overflowDropped
    self.sendDropped = sendDropped
    self.killDropped = killDropped
  }
}

/// What a ``MediaFaultProxy`` did for one peer's media so far.
///
/// A value; `Sendable`.
public struct MediaProxyPeerStatistics: Hashable, Sendable, Codable {
  /// Peer to server.
  public var uplink: MediaProxyLaneStatistics
  /// Server to peer.
  public var downlink: MediaProxyLaneStatistics
  /// Times ``MediaFaultProxy/kill(peer:)`` ended the peer's media.
  public var kills: Int
  /// Datagrams held now, both ways.
  public var datagramsHeld: Int

  /// Creates statistics.
  ///
  /// - Parameters:
  ///   - uplink: Peer to server.
  ///   - downlink: Server to peer.
  ///   - kills: Kills.
  ///   - datagramsHeld: Datagrams held now.
  public init(
    uplink: MediaProxyLaneStatistics = MediaProxyLaneStatistics(),
    downlink: MediaProxyLaneStatistics = MediaProxyLaneStatistics(), kills: Int = 0,
    datagramsHeld: Int = 0
  ) {
    self.uplink = uplink
    self.downlink = downlink
    self.kills = kills
    self.datagramsHeld = datagramsHeld
  }
}

extension MediaProxyPeerStatistics: UplinkDownlinkPair {}

/// The limits of a ``MediaFaultProxy``.
///
/// A value; `Sendable`.
public struct MediaFaultProxyConfiguration: Hashable, Sendable {
  /// The most datagram bytes one way of one peer may hold back (delayed or serialising); a
  /// datagram beyond it is dropped and counted. Default 4 MiB; at least 1.
  public var maxHeldBytes: Int
  /// The kernel buffers of each peer's socket.
  public var socket: UDPConfiguration

  /// Creates a configuration.
  ///
  /// - Parameters:
  ///   - maxHeldBytes: The bound on bytes held one way; clamped to at least 1.
  ///   - socket: Each peer socket's kernel buffers.
  public init(maxHeldBytes: Int = 4 << 20, socket: UDPConfiguration = UDPConfiguration()) {
    self.maxHeldBytes = max(1, maxHeldBytes)
    self.socket = socket
  }
}
