@_spi(Package) import SessionCore
import SessionTransport

/// Connects SDK instances to a service in one process, with no sockets and no threads.
///
/// Every message goes through one FIFO queue, so the service's total order reaches every
/// member unchanged. Delivery is synchronous: in ``Delivery/immediate`` mode a send drains the
/// queue before it returns (unless a delivery is already running, in which case it is queued
/// behind it, never recursed); in ``Delivery/manual`` mode nothing moves until ``run()``.
///
/// > Important: Confined to the isolation domain that created it, with the host and every SDK
/// > instance on it. Not `Sendable`.
public final class InProcessNetwork: SessionLinkFactory {
  /// When queued messages move.
  public enum Delivery: Sendable {
    /// Each send delivers everything queued before it returns.
    case immediate
    /// Messages wait for ``InProcessNetwork/run()``.
    case manual
  }

  private enum Item {
    case open(ConnectionID)
    case toHost(ConnectionID, ClientMessage)
    case clientClosed(ConnectionID)
    case toClient(ConnectionID, ServerMessage)
    case broadcast([ConnectionID], ServerMessage)
    case hostClosed(ConnectionID)
  }

  private let host: any SessionHost
  private let now: () -> Int64
  private let delivery: Delivery
  // Unchecked exclusivity: the network is confined to one isolation domain and each of these
  // is read or written in one step, never held across a delivery, so no two accesses overlap;
  // the dynamic checks cost more than a delivery's own work here.
  @exclusivity(unchecked) private var queue = FIFO<Item>()
  @exclusivity(unchecked) private var running = false
  @exclusivity(unchecked) private var links = LinkTable()
  private var nextConnection: UInt64 = 0

  /// The number of messages delivered to members so far.
  @exclusivity(unchecked) public private(set) var deliveredToClients = 0

  /// Creates a network around a service.
  ///
  /// - Parameters:
  ///   - host: The service.
  ///   - delivery: When messages move (default: immediately).
  ///   - now: The clock given to the host, in milliseconds.
  public init(
    host: any SessionHost, delivery: Delivery = .immediate, now: @escaping () -> Int64 = { 0 }
  ) {
    self.host = host
    self.delivery = delivery
    self.now = now
    host.attach { [unowned self] output in
      switch output {
      case .send(let message, let connection): self.queue.append(.toClient(connection, message))
      case .broadcast(let message, let group):
        self.queue.append(.broadcast(group.connections, message))
      case .close(let connection, _): self.queue.append(.hostClosed(connection))
      }
    }
  }

  /// Ends every link as the network goes: each is closed and lets go of its handler and its
  /// lookahead. A link holds its lookahead until it closes, so an owner that holds its link
  /// and looks ahead on it formed a cycle that outlived a network dropped with the link open
  /// (found by LeakSanitizer, `scripts/sanitize address`). A link ended so sends nothing.
  deinit {
    links.endAll()
  }

  /// A new link; it connects when started.
  ///
  /// - Returns: An unstarted ``InProcessLink`` with the next connection number (1, 2, 3 …).
  public func makeLink() -> any SessionLink {
    nextConnection += 1
    let link = InProcessLink(network: self, connection: ConnectionID(nextConnection))
    return link
  }

  /// Whether messages are waiting.
  public var hasPendingMessages: Bool { !queue.isEmpty }

  /// Delivers queued messages, and those they cause, until none are left.
  ///
  /// - Returns: How many items moved.
  @discardableResult
  public func run() -> Int {
    guard !running else { return 0 }
    running = true
    defer { running = false }
    var moved = 0
    while let item = queue.popFirst() {
      moved += 1
      deliver(item)
    }
    return moved
  }

  /// Tells the host that time passed, then delivers what that caused.
  public func tick() {
    host.tick(now: now())
    if delivery == .immediate { run() }
  }

  private func deliver(_ item: Item) {
    switch item {
    case .open(let connection):
      host.connectionOpened(connection, now: now())
    case .toHost(let connection, let message):
      guard links[connection] != nil else { return }
      host.receive(message, from: connection, now: now())
    case .clientClosed(let connection):
      guard links.remove(connection) != nil else { return }
      host.connectionClosed(connection, now: now())
    case .toClient(let connection, let message):
      guard let link = links[connection] else { return }
      deliveredToClients += 1
      link.handler?(.message(message))
    case .broadcast(let connections, let message):
      // Each link's lookahead hears of the message before the link ahead of it gets it, so
      // that its owner's memory loads overlap that delivery (Decision 0009). Links close only
      // through queued items, so the next one found stays in the table meanwhile.
      var position = connections.startIndex
      var next = nextLink(in: connections, from: &position)
      while let link = next {
        next = nextLink(in: connections, from: &position)
        next?.lookahead?.linkWillDeliver(message)
        deliveredToClients += 1
        link.handler?(.message(message))
      }
    case .hostClosed(let connection):
      guard let link = links.remove(connection) else { return }
      host.connectionClosed(connection, now: now())
      link.handler?(.closed(.closedByPeer))
      link.handler = nil
      link.lookahead = nil
    }
  }

  /// The first link open for a connection at or after `position`, moving `position` past it.
  private func nextLink(
    in connections: [ConnectionID], from position: inout Int
  ) -> InProcessLink? {
    while position < connections.endIndex {
      let link = links[connections[position]]
      position += 1
      if let link { return link }
    }
    return nil
  }

  fileprivate func opened(_ link: InProcessLink) {
    links.insert(link)
    enqueue(.open(link.connection))
  }

  private func enqueue(_ item: Item) {
    queue.append(item)
    if delivery == .immediate { run() }
  }

  fileprivate func clientSend(_ message: ClientMessage, on connection: ConnectionID) {
    enqueue(.toHost(connection, message))
  }

  fileprivate func clientClose(_ connection: ConnectionID) {
    enqueue(.clientClosed(connection))
  }

  /// Drops a member's connection as if its network failed: the member sees
  /// ``SessionTransport/LinkCloseReason/failed(_:)`` and the host a close.
  ///
  /// - Parameter link: The member's link; one that is not an open link of this network is left
  ///   alone.
  public func sever(_ link: any SessionLink) {
    guard let link = link as? InProcessLink, links[link.connection] != nil else { return }
    enqueue(.clientClosed(link.connection))
    let handler = link.handler
    link.handler = nil
    link.lookahead = nil
    handler?(.closed(.failed("severed")))
  }
}

/// The open links of an ``InProcessNetwork``, by connection.
///
/// The network numbers its connections 1, 2, 3 … itself, so a slot per number ever handed out
/// finds a link without hashing (a delivery looks one up per member). It costs one pointer per
/// link ever made, open or not.
private struct LinkTable {
  private var slots: [InProcessLink?] = []

  subscript(connection: ConnectionID) -> InProcessLink? {
    let index = Int(truncatingIfNeeded: connection.rawValue &- 1)
    guard index >= 0, index < slots.count else { return nil }
    return slots[index]
  }

  mutating func insert(_ link: InProcessLink) {
    let index = Int(truncatingIfNeeded: link.connection.rawValue &- 1)
    precondition(index >= 0, "in-process connections are numbered from 1")
    if index >= slots.count {
      slots.append(contentsOf: repeatElement(nil, count: index + 1 - slots.count))
    }
    slots[index] = link
  }

  /// Ends every link in the table (the network is going).
  func endAll() {
    for case let link? in slots { link.end() }
  }

  mutating func remove(_ connection: ConnectionID) -> InProcessLink? {
    let index = Int(truncatingIfNeeded: connection.rawValue &- 1)
    guard index >= 0, index < slots.count, let link = slots[index] else { return nil }
    slots[index] = nil
    return link
  }
}

/// A link of an ``InProcessNetwork``.
///
/// > Important: Confined to its network's isolation domain.
public final class InProcessLink: LookaheadLink {
  // Weak: a link may outlive its network (an owner that keeps a link it never started), and a
  // link started, used or closed after that must not trap; it is closed instead.
  fileprivate weak var network: InProcessNetwork?
  /// The connection this link is, as the host sees it.
  public let connection: ConnectionID
  fileprivate var handler: ((LinkEvent) -> Void)?
  fileprivate var lookahead: (any LinkLookahead)?
  private var started = false
  private var closed = false

  fileprivate init(network: InProcessNetwork, connection: ConnectionID) {
    self.network = network
    self.connection = connection
  }

  /// Connects and starts delivering to `handler`.
  ///
  /// - Parameter handler: Called with each message from the host, then with
  ///   ``SessionTransport/LinkEvent/closed(_:)`` if the host or ``InProcessNetwork/sever(_:)``
  ///   ends the link; a second start is ignored. A link whose network is gone closes at once:
  ///   `handler` gets `.closed(.failed(…))` before `start` returns.
  public func start(_ handler: @escaping (LinkEvent) -> Void) {
    guard !started else { return }
    started = true
    guard let network else {
      closed = true
      handler(.closed(.failed("the in-process network is gone")))
      return
    }
    self.handler = handler
    network.opened(self)
  }

  /// Sends a message to the host.
  ///
  /// - Parameter message: The message for the host; dropped when the link is not started or is
  ///   closed.
  public func send(_ message: ClientMessage) {
    guard started, !closed else { return }
    network?.clientSend(message, on: connection)
  }

  /// Closes the link; harmless twice.
  public func close() {
    guard started, !closed else { return }
    closed = true
    handler = nil
    lookahead = nil
    network?.clientClose(connection)
  }

  /// Ends the link as its network goes: closed, with no handler and no lookahead, and
  /// nothing sent to the network.
  fileprivate func end() {
    closed = true
    handler = nil
    lookahead = nil
  }

  /// Tells `lookahead` of each broadcast message just before the link ahead gets it.
  package func setLookahead(_ lookahead: (any LinkLookahead)?) {
    guard !closed else { return }
    self.lookahead = lookahead
  }
}
