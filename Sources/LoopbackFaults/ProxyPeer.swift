import LoopbackTransport
import SessionCore
import SessionTransport

/// One named peer of a ``FaultProxy``: its listener, its faults, its randomness (one generator
/// each way) and its counters, and the connections open through it.
///
/// > Important: Loop-confined to the proxy's loop.
final class ProxyPeer {
  let name: String
  /// The listener every connection of the peer arrives on; set once it listens, `nil` again
  /// after shutdown.
  var listener: TCPListener?
  /// The listener's port.
  var port: UInt16 = 0
  var faults = ProxyPeerFaults()
  var statistics = ProxyPeerStatistics()
  /// Loss draws of the peer's bytes to the server, and of the server's bytes to the peer: two
  /// generators split from the proxy's seed and the peer's name, so one peer's draws never
  /// depend on another's traffic, nor one way's on the other's.
  var uplinkRandom: SimulationRandom
  var downlinkRandom: SimulationRandom
  /// Delay draws (distribution and jitter), each way: split after the loss generators, so
  /// enabling jitter changes no loss draw.
  var uplinkDelayRandom: SimulationRandom
  var downlinkDelayRandom: SimulationRandom
  /// Open connections, in accept order.
  var connections: [ProxyConnection] = []

  init(name: String, seed: UInt64) {
    self.name = name
    var split = SimulationRandom(seed: seed ^ Self.nameHash(name))
    uplinkRandom = SimulationRandom(seed: split.next())
    downlinkRandom = SimulationRandom(seed: split.next())
    uplinkDelayRandom = SimulationRandom(seed: split.next())
    downlinkDelayRandom = SimulationRandom(seed: split.next())
  }

  /// The delay a chunk going `way` gets: the fixed delay, plus the distribution's draw, ±
  /// jitter, in ms (no draw when nothing is random).
  func drawDelay(_ way: LinkDirection) -> UInt64 {
    let lane = faults[way]
    let milliseconds =
      switch way {
      case .uplink:
        lane.distribution.sample(
          fixed: lane.delay, jitter: lane.jitter, random: &uplinkDelayRandom)
      case .downlink:
        lane.distribution.sample(
          fixed: lane.delay, jitter: lane.jitter, random: &downlinkDelayRandom)
      }
    return UInt64(max(0, milliseconds))
  }

  /// The penalty a chunk going `way` draws for losses, counted in the statistics.
  func drawPenalty(_ way: LinkDirection, configuration: FaultProxyConfiguration) -> UInt64 {
    let cap = UInt64(configuration.maxRetransmissionDelay)
    let maxLosses = configuration.maxLossesPerChunk
    let penalty =
      switch way {
      case .uplink:
        faults.uplink.retransmissionPenalty(
          random: &uplinkRandom, cap: cap, maxLosses: maxLosses)
      case .downlink:
        faults.downlink.retransmissionPenalty(
          random: &downlinkRandom, cap: cap, maxLosses: maxLosses)
      }
    statistics.losses += penalty.losses
    return penalty.milliseconds
  }

  /// Counts bytes forwarded `way`.
  func countForwarded(_ count: Int, _ way: LinkDirection) {
    switch way {
    case .uplink: statistics.bytesUplink += count
    case .downlink: statistics.bytesDownlink += count
    }
  }

  /// A connection closed on both sides.
  func remove(_ connection: ProxyConnection) {
    connections.removeAll { $0 === connection }
    statistics.connectionsOpen = connections.count
  }

  /// The counters, with the bytes held now.
  var currentStatistics: ProxyPeerStatistics {
    var current = statistics
    current.connectionsOpen = connections.count
    current.bytesHeld = connections.reduce(0) { $0 + $1.heldBytes }
    return current
  }

  /// FNV-1a over the name's UTF-8: the same on every platform and in every process (unlike
  /// `Hasher`), so a seed means the same draws everywhere.
  static func nameHash(_ name: String) -> UInt64 {
    var hash: UInt64 = 0xCBF2_9CE4_8422_2325
    for byte in name.utf8 {
      hash ^= UInt64(byte)
      hash = hash &* 0x0000_0100_0000_01B3
    }
    return hash
  }
}

extension ProxyPeer: ProxyPeerRecord {}
