import SessionCore
import SessionTransport

/// What travels on the reliable channel of one connection.
enum Packet {
  /// Uplink: the link opened.
  case open
  /// Uplink: a message for the host.
  case client(ClientMessage)
  /// Uplink: the link closed (by its owner, or after its heartbeat timeout).
  case clientClose
  /// Downlink: a message for the link.
  case server(ServerMessage)
  /// Downlink: the host closed the connection.
  case hostClose(HostCloseReason)
  /// Downlink: the connection failed at the service's end (a crashed host's reset, a
  /// refused open); the link sees `.failed(text)`.
  case reset(String)

  var direction: LinkDirection {
    switch self {
    case .open, .client, .clientClose: .uplink
    case .server, .hostClose, .reset: .downlink
    }
  }

  /// The payload whose wire size a bandwidth limit charges; opens and closes cost one
  /// frame header (4 bytes) and one type byte.
  var wireSize: Int {
    switch self {
    case .client(let message): WireEncoder.payload(message).count + 4
    case .server(let message): WireEncoder.payload(message).count + 4
    case .open, .clientClose, .hostClose, .reset: 5
    }
  }

  var summary: String {
    switch self {
    case .open: "open"
    case .client(let message): message.traceSummary
    case .clientClose: "close"
    case .server(let message): message.traceSummary
    case .hostClose(let reason): "close (\(reason))"
    case .reset(let text): "reset (\(text))"
    }
  }
}

/// A message on the reliable channel, from when it is sent until it arrives.
struct ReliableMessage {
  let connection: Connection
  let packet: Packet
  let sentAt: Int64
}

/// A datagram on the lossy channel; a `nil` end is the service's node.
struct Datagram {
  let from: VirtualPeer?
  let to: VirtualPeer?
  let bytes: [UInt8]
  let sentAt: Int64

  /// The sender's name (for traces and reports; the hot path never builds it).
  var fromName: String { from?.name ?? VirtualNetwork.serviceNode }
  /// The receiver's name.
  var toName: String { to?.name ?? VirtualNetwork.serviceNode }
}

/// One connection between a link and the host: both ends' state and its channel's FIFO.
///
/// > Important: Confined to its network's isolation domain.
final class Connection {
  /// The host's view of the connection.
  enum HostSide: Equatable {
    /// The open has not reached a host yet.
    case notOpen
    /// Open at the host of this incarnation.
    case open(UInt64)
    /// Closed at the host (or the host that had it died).
    case closed
  }

  let id: ConnectionID
  let peer: VirtualPeer
  /// The link while it is open at its end.
  var link: VirtualLink?
  var hostSide: HostSide = .notOpen
  /// The client closed the connection before its open reached a host: as a TCP socket closed
  /// before its handshake completed, it never reaches the service (its open and everything
  /// behind it are dropped when they arrive).
  var abandonedBeforeOpen = false
  /// Whether the client closed the connection on purpose (a close or an abandon, not a kill
  /// or a timeout).
  var closedByClient = false
  /// The arrival time of the last message in each direction: the FIFO bound. Written once
  /// per receiver of each broadcast, never within another access to it: its dynamic
  /// exclusivity check (a tenth of a microsecond each) is off, as on the lane's counters.
  @exclusivity(unchecked) var lastArrival: (uplink: Int64, downlink: Int64) = (0, 0)
  /// Messages waiting behind a partition or hold, in order, per direction. Read for every
  /// receiver of a broadcast, never within another access to it: no dynamic exclusivity check.
  @exclusivity(unchecked) var held: (uplink: [ReliableMessage], downlink: [ReliableMessage]) = (
    [], []
  )
  /// Whether the network lists this connection among those with held messages.
  var isListedAsHolding = false

  init(id: ConnectionID, peer: VirtualPeer, link: VirtualLink) {
    self.id = id
    self.peer = peer
    self.link = link
  }

  func hasHeld(_ direction: LinkDirection) -> Bool {
    switch direction {
    case .uplink: !held.uplink.isEmpty
    case .downlink: !held.downlink.isEmpty
    }
  }

  func lastArrival(_ direction: LinkDirection) -> Int64 {
    direction == .uplink ? lastArrival.uplink : lastArrival.downlink
  }

  func setLastArrival(_ time: Int64, _ direction: LinkDirection) {
    if direction == .uplink { lastArrival.uplink = time } else { lastArrival.downlink = time }
  }
}

/// One direction of a peer's access link: its behaviour, random streams, loss state,
/// capacity queue, hold and counters.
///
/// > Important: Confined to its network's isolation domain.
final class Lane {
  var behavior: LinkBehavior
  var random: SimulationRandom
  var datagramRandom: SimulationRandom
  /// Gilbert–Elliott state of each channel: whether it is in the bad state.
  var reliableBad = false
  var datagramBad = false
  /// When the capacity queue is free again (µs).
  var busyUntil: Int64 = 0
  var isHeld = false
  /// Counted once per message and receiver, never within another access to them: their
  /// dynamic exclusivity check is off.
  @exclusivity(unchecked) var counters = LinkCounters()

  init(behavior: LinkBehavior, random: SimulationRandom, datagramRandom: SimulationRandom) {
    self.behavior = behavior
    self.random = random
    self.datagramRandom = datagramRandom
  }

  /// Draws whether one attempt is lost under `model`, moving the burst state.
  static func lose(
    _ model: LossModel, bad: inout Bool, random: inout SimulationRandom
  ) -> Bool {
    switch model.kind {
    case .none:
      return false
    case .bernoulli(let probability):
      guard probability > 0 else { return false }
      return random.chance(probability)
    case .gilbertElliott(let enter, let stay):
      bad = random.chance(bad ? stay : enter)
      return bad
    }
  }

  /// Offers `bytes` to the capacity queue at `time`: the time serialisation ends, or `nil`
  /// when the queue is over its limit (an empty queue always takes the message).
  func enqueue(bytes: Int, at time: Int64, bandwidth: Bandwidth) -> Int64? {
    let backlog = busyUntil - time
    if backlog > 0 {
      let waiting = bandwidth.bytes(inBacklog: backlog)
      if waiting + Double(bytes) > Double(max(0, bandwidth.queueLimitBytes)) { return nil }
    }
    let finish = Micro.add(max(time, busyUntil), bandwidth.serialisation(bytes: bytes))
    busyUntil = finish
    return finish
  }
}

/// The connections the host has open, by id: a table indexed by the id's number, which the
/// network hands out one after the other from 1, so that a broadcast to a thousand finds each
/// without hashing. A slot (8 bytes) stays for every id handed out, open or not.
///
/// > Important: A value, owned by its network.
struct ConnectionTable {
  private var slots: [Connection?] = []
  /// Changes whenever a connection is added or removed: what a list resolved from the table
  /// checks to know it still holds.
  private(set) var generation: UInt64 = 0

  subscript(id: ConnectionID) -> Connection? {
    get {
      let index = Int(truncatingIfNeeded: id.rawValue)
      return index >= 0 && index < slots.count ? slots[index] : nil
    }
    set {
      let index = Int(truncatingIfNeeded: id.rawValue)
      precondition(index >= 0, "a connection id beyond the table")
      generation &+= 1
      if index >= slots.count {
        guard newValue != nil else { return }
        slots.append(contentsOf: repeatElement(nil, count: index + 1 - slots.count))
      }
      slots[index] = newValue
    }
  }

  /// Removes and returns the connection of `id`.
  mutating func removeValue(forKey id: ConnectionID) -> Connection? {
    let connection = self[id]
    self[id] = nil
    return connection
  }

  /// Every open connection, by id.
  var values: [Connection] { slots.compactMap { $0 } }

  /// Removes every connection.
  mutating func removeAll() {
    slots.removeAll()
    generation &+= 1
  }
}
