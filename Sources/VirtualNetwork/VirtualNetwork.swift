import SessionCore
import SessionTransport

/// What the event queue of a ``VirtualNetwork`` holds.
enum PendingEvent {
  /// A reliable message arrives.
  case reliable(ReliableMessage)
  /// One broadcast message arrives at several connections at once, in order: what the
  /// connections' own `reliable` events would be when their downlinks are ideal (see
  /// ``VirtualNetwork/hostOutput(_:incarnation:)``). Counts one in flight per connection.
  case fanOut(FanOut)
  /// A datagram arrives.
  case datagram(Datagram)
  /// The host hears of a close it asked for (it asked from inside its own call).
  case hostClosed(Connection, incarnation: UInt64)
  /// A link's heartbeat timer.
  case linkTimer(VirtualLink)
  /// A media link's tick.
  case mediaTick(VirtualMediaLink)
  /// The host's periodic tick.
  case hostTick(incarnation: UInt64)
  /// A runner's action.
  case action(() -> Void)

  /// Whether it is a message, open or close in flight (what ``VirtualNetwork/runUntilIdle(limit:)``
  /// waits for).
  var isInFlight: Bool {
    switch self {
    case .reliable, .fanOut, .datagram, .hostClosed: true
    case .linkTimer, .mediaTick, .hostTick, .action: false
    }
  }

  /// How many messages it stands for in flight.
  var messageCount: Int {
    switch self {
    case .fanOut(let fanOut): fanOut.connections.count
    case .reliable, .datagram, .hostClosed: 1
    case .linkTimer, .mediaTick, .hostTick, .action: 0
    }
  }
}

/// A broadcast's message on its way to connections whose downlinks are ideal.
struct FanOut {
  let message: ServerMessage
  let connections: [Connection]
  let sentAt: Int64

  /// The message as each connection's own event would carry it.
  func reliable(_ index: Int) -> ReliableMessage {
    ReliableMessage(connection: connections[index], packet: .server(message), sentAt: sentAt)
  }
}

/// A broadcast group resolved to the host's open connections, valid while the group's id and
/// version and the connection table's generation stay the same: a session's broadcasts find
/// their thousand receivers once per change of its roster, not once per message, and a
/// fan-out whose receivers all deliver at once shares the list.
///
/// > Important: A value, owned by its network.
struct ResolvedBroadcast {
  let group: FanOutGroup
  let generation: UInt64
  let connections: [Connection]
}

/// A discrete-event, deterministic network with a virtual clock, on which one service
/// (a ``SessionTransport/SessionHost``) and many SDK instances run in one process.
///
/// Every message, timer and scheduled action goes through one event queue ordered by
/// (time, sequence), so equal seeds and inputs give equal runs. Time is virtual: ``now`` is
/// microseconds since the run started, and moves only through ``step()``, ``run(until:)`` and
/// ``runUntilIdle(limit:countingDatagrams:)``. The host's clock reads ``nowMilliseconds``. Each peer (a node with
/// an SDK instance) reaches the service through its own access link, whose two directions
/// have a ``LinkBehavior`` each; messages of links travel a reliable, ordered channel (loss
/// costs retransmission delay), datagrams a lossy one. See `Docs/VirtualNetwork.md`.
///
/// > Important: Confined to the isolation domain that created it, with the host, every peer,
/// > link and SDK instance on it. Not `Sendable`.
public final class VirtualNetwork {
  /// The name of the service's node.
  public static let serviceNode = "service"

  /// The clocks, timers and default behaviour.
  public let configuration: VirtualNetworkConfiguration
  /// The random streams every draw comes from, by label.
  public let streams: RandomStreams
  /// Virtual time in microseconds since the run started.
  public private(set) var now: Int64 = 0

  /// Gets every send, delivery, drop, hold and fault; `nil` (the default) costs nothing.
  public var observer: ((NetworkTraceEvent) -> Void)?

  var queue = EventQueue()
  /// Events of the queue that are messages, opens or closes.
  var inFlight = 0
  /// How many of ``inFlight`` are datagrams.
  var datagramsInFlight = 0
  var isFinished = false
  private var traceSequence: UInt64 = 0

  // The host.
  var host: (any SessionHost)?
  var hostIncarnation: UInt64 = 0
  /// The connections open at the current host.
  var hostConnections = ConnectionTable()
  /// The open connections of the group broadcast to last (``ResolvedBroadcast``).
  var resolvedBroadcast: ResolvedBroadcast?
  private var nextConnection: UInt64 = 0

  // The peers.
  var peers: [String: VirtualPeer] = [:]
  var peerOrder: [VirtualPeer] = []
  var serviceEndpoint: DatagramEndpoint?

  // The media plane.
  /// The media host attached to the current host incarnation, if any.
  var mediaHost: (any MediaHost)?
  /// Outputs of the media host naming an endpoint no peer has.
  var unknownMediaEndpoints = 0
  /// Microseconds between a media link's ticks.
  let mediaTickInterval: Int64

  // Faults.
  struct Partition {
    var a: Set<String>
    var b: Set<String>
    var oneWay: Bool
  }
  var partitions: [Partition] = []
  var heldLanes: [(peer: VirtualPeer, direction: LinkDirection)] = []
  /// Connections with held messages, in the order they first held one.
  var holdingConnections: [Connection] = []
  /// The datagram FIFO bound per (from, to) node pair.
  var datagramLastArrival: [UInt64: Int64] = [:]

  // Derived timers, in microseconds.
  let tickInterval: Int64
  let heartbeatInterval: Int64
  let heartbeatTimeout: Int64
  let retransmissionTimeout: Int64

  /// Creates a network with no host and no peers at time 0.
  ///
  /// - Parameters:
  ///   - seed: Every random draw derives from it (``streams``).
  ///   - configuration: Clocks, timers and the default behaviour.
  public init(seed: UInt64, configuration: VirtualNetworkConfiguration = .init()) {
    self.configuration = configuration
    self.streams = RandomStreams(seed: seed)
    tickInterval = Micro.multiply(max(1, configuration.hostTickInterval), 1_000)
    heartbeatInterval = Micro.multiply(max(0, configuration.heartbeatInterval), 1_000)
    heartbeatTimeout = Micro.multiply(max(0, configuration.heartbeatTimeout), 1_000)
    retransmissionTimeout = Micro.multiply(max(1, configuration.retransmissionTimeout), 1_000)
    mediaTickInterval = Micro.multiply(max(1, configuration.mediaTickInterval), 1_000)
  }

  /// What the host's clock reads: ``VirtualNetworkConfiguration/epochMilliseconds`` plus
  /// ``now`` in whole milliseconds.
  public var nowMilliseconds: Int64 {
    Micro.add(configuration.epochMilliseconds, now / 1_000)
  }

  // MARK: The host

  /// Starts a host on the service node: it is attached, ticked every
  /// ``VirtualNetworkConfiguration/hostTickInterval`` and gets every open that arrives from
  /// now on. A host already running is killed first (``killHost()``), so this also restarts.
  ///
  /// - Parameter host: The service, fresh (a restarted process keeps no state).
  public func startHost(_ host: any SessionHost) {
    guard !isFinished else { return }
    if self.host != nil { killHost() }
    hostIncarnation &+= 1
    mediaHost = nil
    let incarnation = hostIncarnation
    self.host = host
    host.attach { [weak self] output in
      self?.hostOutput(output, incarnation: incarnation)
    }
    queue.push(.hostTick(incarnation: incarnation), at: Micro.add(now, tickInterval), now: now)
    trace(
      .fault("startHost"), from: Self.serviceNode, to: Self.serviceNode, connection: nil,
      "host started")
  }

  /// Kills the host: it is let go of with its state, and every connection it had is gone.
  /// Each of their links sees `.closed(.failed("service down"))` after its downlink delay, as
  /// a crashed process's kernel resets its sockets. Opens arriving while no host runs are
  /// refused. Harmless when no host runs.
  public func killHost() {
    guard host != nil else { return }
    host = nil
    hostIncarnation &+= 1
    mediaHost = nil
    trace(
      .fault("killHost"), from: Self.serviceNode, to: Self.serviceNode, connection: nil,
      "host killed")
    let open = hostConnections.values.sorted { $0.id.rawValue < $1.id.rawValue }
    hostConnections.removeAll()
    for connection in open {
      connection.hostSide = .closed
      sendReliable(.reset("service down"), on: connection)
    }
  }

  /// Whether a host runs.
  public var isHostRunning: Bool { host != nil }

  // MARK: Peers

  /// The peer of this name, made (with the default behaviour) on first use.
  ///
  /// - Parameter name: Any name; `"service"` is the service's node, so a peer should not
  ///   take it (partitions naming it would then mean both).
  /// - Returns: The peer.
  public func peer(_ name: String) -> VirtualPeer {
    if let peer = peers[name] { return peer }
    let peer = VirtualPeer(
      name: name, index: peerOrder.count + 1, network: self,
      behavior: configuration.defaultBehavior)
    peers[name] = peer
    peerOrder.append(peer)
    refreshPartitionFlags(of: peer)
    return peer
  }

  /// Ends every node's links, reliable and media, as the network goes. A node holds its links
  /// and each link holds its node (and a reliable link its connection, which holds it back),
  /// cycles only `close()` broke; so a network dropped with links open (the end of most runs)
  /// leaked them with their handlers and whatever those held, the network itself included
  /// when a handler kept it `unowned` (found by LeakSanitizer, `scripts/sanitize address`).
  /// A link a caller still holds afterwards is ended: it sends nothing and hears nothing. A
  /// connection's messages held behind a partition or a hold name the connection, another
  /// cycle, so they go too.
  deinit {
    for connection in holdingConnections { connection.held = ([], []) }
    for peer in peerOrder {
      for link in peer.links.values { link.end() }
      peer.links.removeAll()
      for link in peer.mediaLinks { link.end() }
      peer.mediaLinks.removeAll()
      peer.waitingDeliveries.removeAll()
      peer.waitingTimers.removeAll()
      peer.waitingMediaTicks.removeAll()
    }
  }

  /// The names of every peer made so far, in the order they were made.
  public var peerNames: [String] { peerOrder.map(\.name) }

  // MARK: Driving

  /// Schedules an action at an absolute virtual time; a time in the past means now (after
  /// what is due now). Ignored once the run finished.
  ///
  /// - Parameters:
  ///   - time: Microseconds since the run started.
  ///   - action: Runs on this network's domain, from the event loop.
  public func schedule(at time: Int64, _ action: @escaping () -> Void) {
    guard !isFinished else { return }
    queue.push(.action(action), at: max(now, time), now: now)
  }

  /// Schedules an action after a delay; a negative delay means now.
  ///
  /// - Parameters:
  ///   - delay: Microseconds from now.
  ///   - action: Runs on this network's domain, from the event loop.
  public func schedule(after delay: Int64, _ action: @escaping () -> Void) {
    schedule(at: Micro.add(now, max(0, delay)), action)
  }

  /// Runs the next event, moving ``now`` to its time.
  ///
  /// - Returns: Whether there was one.
  @discardableResult
  public func step() -> Bool {
    guard let entry = queue.pop() else { return false }
    if entry.time > now { now = entry.time }
    if entry.payload.isInFlight {
      inFlight -= entry.payload.messageCount
      if case .datagram = entry.payload { datagramsInFlight -= 1 }
    }
    dispatch(entry.payload)
    return true
  }

  /// Runs every event due at or before `time`, then moves ``now`` to `time` (never back).
  ///
  /// - Parameter time: Microseconds since the run started.
  public func run(until time: Int64) {
    while let next = queue.nextTime, next <= time {
      step()
    }
    if time > now { now = time }
  }

  /// Runs until no message, open or close is in flight (timers and scheduled actions due later
  /// don't count; nor do messages held behind a partition or waiting at a paused peer), or
  /// until `limit` microseconds of virtual time passed, whichever comes first.
  ///
  /// - Parameters:
  ///   - limit: The most virtual time to run, in microseconds (negative counts as 0).
  ///   - countingDatagrams: Whether datagrams in flight count; a run with streaming media is
  ///     never free of them, and waits for its reliable messages alone with `false`.
  /// - Returns: Whether nothing (that counts) is in flight.
  @discardableResult
  public func runUntilIdle(limit: Int64 = 60_000_000, countingDatagrams: Bool = true) -> Bool {
    let deadline = Micro.add(now, max(0, limit))
    while inFlight - (countingDatagrams ? 0 : datagramsInFlight) > 0 {
      guard let next = queue.nextTime, next <= deadline else {
        if deadline > now { now = deadline }
        return false
      }
      step()
    }
    return true
  }

  /// How many messages, opens and closes are on their way (not held, not waiting).
  public var messagesInFlight: Int { inFlight }

  /// How many reliable messages are held behind partitions and holds, and deliveries wait at
  /// paused peers.
  public var messagesHeld: Int {
    var count = 0
    for connection in holdingConnections {
      count += connection.held.uplink.count + connection.held.downlink.count
    }
    for peer in peerOrder { count += peer.waitingDeliveries.count }
    return count
  }

  /// Ends the run: returns every message still in flight, held or waiting, by the time it
  /// was sent, and drops every event (timers and ticks included). Nothing moves afterwards:
  /// sends, schedules and starts are ignored.
  ///
  /// - Returns: What never arrived.
  public func finish() -> [InFlightMessage] {
    var found: [(order: Int, message: InFlightMessage)] = []
    func add(_ message: InFlightMessage?) {
      if let message { found.append((found.count, message)) }
    }
    let pending = queue.entries.sorted {
      $0.time != $1.time ? $0.time < $1.time : $0.sequence < $1.sequence
    }
    for entry in pending {
      if case .fanOut(let fanOut) = entry.payload {
        for index in fanOut.connections.indices {
          add(Self.describe(.reliable(fanOut.reliable(index)), state: .inFlight))
        }
      } else {
        add(Self.describe(entry.payload, state: .inFlight))
      }
    }
    for connection in holdingConnections {
      for message in connection.held.uplink + connection.held.downlink {
        add(Self.describe(.reliable(message), state: .held))
      }
    }
    for peer in peerOrder {
      for event in peer.waitingDeliveries { add(Self.describe(event, state: .waiting)) }
    }
    isFinished = true
    queue.removeAll()
    inFlight = 0
    datagramsInFlight = 0
    for connection in holdingConnections {
      connection.held = ([], [])
      connection.isListedAsHolding = false
    }
    holdingConnections.removeAll()
    for peer in peerOrder {
      peer.waitingDeliveries.removeAll()
      peer.waitingTimers.removeAll()
      peer.waitingMediaTicks.removeAll()
    }
    return found.sorted {
      $0.message.sentAt != $1.message.sentAt
        ? $0.message.sentAt < $1.message.sentAt : $0.order < $1.order
    }.map(\.message)
  }

  private static func describe(_ event: PendingEvent, state: InFlightMessage.State)
    -> InFlightMessage?
  {
    switch event {
    case .reliable(let message):
      let peer = message.connection.peer.name
      let up = message.packet.direction == .uplink
      return InFlightMessage(
        from: up ? peer : serviceNode, to: up ? serviceNode : peer, channel: .reliable,
        state: state, connection: message.connection.id, summary: message.packet.summary,
        sentAt: message.sentAt)
    case .datagram(let datagram):
      return InFlightMessage(
        from: datagram.fromName, to: datagram.toName, channel: .datagram, state: state,
        connection: nil, summary: "datagram (\(datagram.bytes.count) bytes)",
        sentAt: datagram.sentAt)
    case .fanOut, .hostClosed, .linkTimer, .mediaTick, .hostTick, .action:
      return nil
    }
  }

  /// The connections the host holds open though their clients closed them, by peer: none once
  /// the network is quiescent, since a close travels after everything sent before it, and a
  /// connection closed before its open arrived never reaches the host (see
  /// `Docs/VirtualNetwork.md`, "Abandoned connections").
  ///
  /// - Returns: The peer's name of each such connection, by connection.
  public func connectionsOpenAfterClientClose() -> [ConnectionID: String] {
    var result: [ConnectionID: String] = [:]
    for connection in hostConnections.values where connection.closedByClient {
      result[connection.id] = connection.peer.name
    }
    return result
  }

  /// Whether the run ended (``finish()``).
  public var hasFinished: Bool { isFinished }

  private func dispatch(_ event: PendingEvent) {
    switch event {
    case .reliable(let message):
      if message.packet.direction == .uplink {
        arriveAtService(message)
      } else {
        arriveAtPeer(message, event: event)
      }
    case .fanOut(let fanOut):
      arrive(fanOut)
    case .datagram(let datagram):
      arrive(datagram, event: event)
    case .hostClosed(let connection, let incarnation):
      guard incarnation == hostIncarnation, let host else { return }
      trace(
        .closed, from: Self.serviceNode, to: Self.serviceNode, connection: connection.id,
        "host told of its close")
      host.connectionClosed(connection.id, now: nowMilliseconds)
    case .linkTimer(let link):
      guard link.state == .open else { return }
      if link.peer.paused {
        link.peer.waitingTimers.append(link)
        return
      }
      linkTimerFired(link)
    case .mediaTick(let link):
      mediaTickFired(link)
    case .hostTick(let incarnation):
      guard incarnation == hostIncarnation, let host else { return }
      host.tick(now: nowMilliseconds)
      if incarnation == hostIncarnation, !isFinished {
        queue.push(.hostTick(incarnation: incarnation), at: Micro.add(now, tickInterval), now: now)
      }
    case .action(let action):
      action()
    }
  }

  // MARK: Statistics

  /// Counters of every peer's link, by peer and direction.
  public var statistics: VirtualNetworkStatistics {
    var result = VirtualNetworkStatistics()
    for peer in peerOrder {
      result.peers[peer.name] = [.uplink: peer.uplink.counters, .downlink: peer.downlink.counters]
    }
    return result
  }

  // MARK: Trace

  func trace(
    _ kind: NetworkTraceEvent.Kind, from: String, to: String, connection: ConnectionID?,
    _ summary: @autoclosure () -> String
  ) {
    guard let observer else { return }
    let event = NetworkTraceEvent(
      time: now, sequence: traceSequence, kind: kind, from: from, to: to,
      connection: connection, summary: summary())
    traceSequence &+= 1
    observer(event)
  }

  // MARK: Connections

  func nextConnectionID() -> ConnectionID {
    nextConnection &+= 1
    return ConnectionID(nextConnection)
  }

  func schedule(_ event: PendingEvent, at time: Int64) {
    if event.isInFlight {
      inFlight += event.messageCount
      if case .datagram = event { datagramsInFlight += 1 }
    }
    queue.push(event, at: max(now, time), now: now)
  }
}
