import SessionTransport

/// A node of a ``VirtualNetwork`` other than the service: the machine an SDK instance runs on.
///
/// It makes the instance's links (give it as `InitParams.transport`) and media links (give it
/// as `InitParams.media`; see ``VirtualMediaLink``), reads its skewed clock (give ``clock`` as
/// `InitParams.clock`), and can die, pause and come back through the network's faults.
///
/// > Important: Confined to its network's isolation domain. Not `Sendable`.
public final class VirtualPeer: SessionLinkFactory {
  /// The node's name.
  public let name: String
  /// The network, while it exists (held by ``clockSource``, which the clock shares).
  var network: VirtualNetwork? { clockSource.network }
  /// The node's number: 0 is the service, peers count from 1.
  let index: Int
  let uplink: Lane
  let downlink: Lane
  var alive = true
  var paused = false
  /// Counts restarts; links of an older incarnation are dead.
  var incarnation: UInt64 = 0
  /// Milliseconds added to the network's clock in ``clock``.
  var skew: Int64 {
    get { clockSource.skew }
    set { clockSource.skew = newValue }
  }
  /// The network and the skew, apart from the node so that ``clock`` need not reference the
  /// node: a weak reference to the node would give it a side table, and then every retain of
  /// the node (one per delivery) takes the slow path.
  private let clockSource = ClockSource()
  /// The open links, by serial number.
  var links: [Int: VirtualLink] = [:]
  private var nextLinkSerial = 0
  /// What arrived while paused, in order: deliveries (and datagrams) and timers.
  var waitingDeliveries: [PendingEvent] = []
  var waitingTimers: [VirtualLink] = []
  /// The node's datagram endpoint, once asked for.
  var endpoint: DatagramEndpoint?
  /// Whether the partitions cut this node off from the service (its datagrams and uplink
  /// messages), and the service off from it (downlink): kept by the network as partitions
  /// change, so that sends need not look names up.
  var isCutFromService = false
  var isCutToService = false
  /// The arrival time of the last datagram to the service, and from it: the FIFO bound of
  /// the lossy channel between this node and the service.
  var lastDatagramArrival: (toService: Int64, fromService: Int64) = (0, 0)
  /// The started media links, in the order they started.
  var mediaLinks: [VirtualMediaLink] = []
  /// The media links whose tick came due while paused.
  var waitingMediaTicks: [VirtualMediaLink] = []

  init(name: String, index: Int, network: VirtualNetwork, behavior: LinkBehavior) {
    self.name = name
    self.index = index
    clockSource.network = network
    let streams = network.streams
    uplink = Lane(
      behavior: behavior, random: streams.stream("link/\(name)/up"),
      datagramRandom: streams.stream("datagram/\(name)/up"))
    downlink = Lane(
      behavior: behavior, random: streams.stream("link/\(name)/down"),
      datagramRandom: streams.stream("datagram/\(name)/down"))
  }

  func lane(_ direction: LinkDirection) -> Lane {
    direction == .uplink ? uplink : downlink
  }

  /// A new, unstarted link from this node to the service.
  ///
  /// A link made or started while the node is dead never delivers anything.
  ///
  /// - Returns: A ``VirtualLink``.
  public func makeLink() -> any SessionLink {
    nextLinkSerial += 1
    return VirtualLink(peer: self, serial: nextLinkSerial, incarnation: incarnation)
  }

  /// The node's clock in milliseconds: the network's ``VirtualNetwork/nowMilliseconds`` plus
  /// this node's skew (``VirtualNetwork/setClockSkew(peer:milliseconds:)``). Give it to the
  /// SDK instance on this node (`InitParams.clock`). Reads 0 once the network is gone.
  public var clock: () -> Int64 {
    { [clockSource] in
      guard let network = clockSource.network else { return 0 }
      return Micro.add(network.nowMilliseconds, clockSource.skew)
    }
  }

  /// Whether the node runs (not killed, or restarted since).
  public var isAlive: Bool { alive }

  /// Whether the node is paused.
  public var isPaused: Bool { paused }

  /// Brings a killed node back as a fresh incarnation: links made from now on work; the old
  /// ones stay dead. Harmless on a live node (it does nothing).
  public func restart() {
    guard !alive else { return }
    alive = true
    paused = false
    incarnation &+= 1
    network?.trace(.fault("restart"), from: name, to: name, connection: nil, "restart")
  }
}

/// What a node and its clock reach: the network (weakly, so that a clock kept past the network
/// reads 0) and the node's skew.
///
/// > Important: Confined to its network's isolation domain, like its node.
private final class ClockSource {
  weak var network: VirtualNetwork?
  var skew: Int64 = 0
}
