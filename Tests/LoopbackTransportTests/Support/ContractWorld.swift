import InProcessTransport
import LoopbackTransport
import SessionCore
import SessionService
import SessionTransport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// The two links the contract suite runs against.
enum LinkKind: String, CaseIterable, Sendable, CustomTestStringConvertible {
  case inProcess = "in-process"
  case loopback

  var testDescription: String { rawValue }
}

/// What a host saw, in order.
enum HostEvent: Sendable, Hashable {
  case opened(ConnectionID)
  case received(ConnectionID, ClientMessage)
  case closed(ConnectionID)
}

/// A `SessionService` that records every call the transport makes before forwarding it.
final class RecordingHost: SessionHost {
  let service: SessionService
  let events: Recorder<HostEvent>

  init(service: SessionService, events: Recorder<HostEvent>) {
    self.service = service
    self.events = events
  }

  func attach(output: @escaping (HostOutput) -> Void) { service.attach(output: output) }

  func connectionOpened(_ connection: ConnectionID, now: Int64) {
    events.append(.opened(connection))
    service.connectionOpened(connection, now: now)
  }

  func receive(_ message: ClientMessage, from connection: ConnectionID, now: Int64) {
    events.append(.received(connection, message))
    service.receive(message, from: connection, now: now)
  }

  func connectionClosed(_ connection: ConnectionID, now: Int64) {
    events.append(.closed(connection))
    service.connectionClosed(connection, now: now)
  }

  func tick(now: Int64) { service.tick(now: now) }
}

/// A service and a way to make links to it, for one kind of link: an `InProcessNetwork` on a
/// loop thread, or a `LoopbackServer` with a `LoopbackLinkFactory` on a client loop. The links
/// and their owner's work run on `loop` either way.
final class ContractWorld: Sendable {
  static let appKey = "contractKey"
  static let secret = "contractSecret-0123456789"

  let kind: LinkKind
  let loop: EventLoop
  let hostEvents = Recorder<HostEvent>()
  let minter = TokenMinter(appKey: appKey, secret: secret)
  private let server: LoopbackServer<RecordingHost>?
  private let factory: LoopBound<any SessionLinkFactory>

  /// The server (loopback only), for its statistics.
  var loopbackServer: LoopbackServer<RecordingHost>? { server }

  init(
    _ kind: LinkKind,
    server serverConfiguration: LoopbackServerConfiguration = LoopbackServerConfiguration()
  ) throws {
    self.kind = kind
    let loop = try EventLoop(name: "contract-\(kind.rawValue)")
    self.loop = loop
    let events = hostEvents
    let configuration = ServiceConfiguration(credentials: [Self.appKey: Self.secret])
    switch kind {
    case .inProcess:
      server = nil
      factory = try loop.sync {
        let host = RecordingHost(
          service: SessionService(configuration: configuration), events: events)
        let network = InProcessNetwork(host: host, now: { wallClockSeconds() * 1_000 })
        return LoopBound(network as any SessionLinkFactory, loop: loop)
      }
    case .loopback:
      let server = try LoopbackServer(configuration: serverConfiguration) {
        RecordingHost(service: SessionService(configuration: configuration), events: events)
      }
      self.server = server
      factory = try loop.sync {
        LoopBound(
          LoopbackLinkFactory(loop: loop, port: server.port) as any SessionLinkFactory,
          loop: loop)
      }
    }
  }

  /// The connections the host has seen open, in order.
  var openedConnections: [ConnectionID] {
    hostEvents.values.compactMap { if case .opened(let id) = $0 { id } else { nil } }
  }

  /// The connections the host has seen close, in order.
  var closedConnections: [ConnectionID] {
    hostEvents.values.compactMap { if case .closed(let id) = $0 { id } else { nil } }
  }

  /// Makes and starts a link; waits until the host knows its connection.
  func open(sourceLocation: SourceLocation = #_sourceLocation) throws -> TestLink {
    let before = openedConnections.count
    let events = Recorder<LinkEvent>()
    let factory = self.factory
    let link = try loop.sync {
      let link = factory.value.makeLink()
      link.start { events.append($0) }
      return LoopBound(link, loop: factory.loop)
    }
    #expect(waitUntil { openedConnections.count > before }, sourceLocation: sourceLocation)
    return TestLink(link: link, events: events, connection: openedConnections[before])
  }

  /// Makes and starts a link whose handler also gets the link itself (to close it from
  /// inside), and sends a join as `name`; waits until the host knows its connection.
  func join(
    _ name: String, session: String = "Room",
    handler: @escaping @Sendable (any SessionLink, LinkEvent) -> Void
  ) throws -> LoopBound<any SessionLink> {
    let before = openedConnections.count
    let factory = self.factory
    let token = minter.mint(
      sessionName: session, role: .participant, issuedAt: wallClockSeconds() - 30)
    let link = try loop.sync {
      let link = factory.value.makeLink()
      // The handler holds the link (a cycle) until the link lets go of the handler.
      link.start { [link] event in handler(link, event) }
      link.send(.join(JoinRequest(sessionName: session, userName: name, token: token)))
      return LoopBound(link, loop: factory.loop)
    }
    #expect(waitUntil { openedConnections.count > before })
    return link
  }

  /// Opens a link and joins `session` as `name`; waits for `.joined`.
  func join(
    _ name: String, role: TokenRole = .participant, session: String = "Room",
    sourceLocation: SourceLocation = #_sourceLocation
  ) throws -> TestLink {
    let link = try open(sourceLocation: sourceLocation)
    let token = minter.mint(
      sessionName: session, role: role, issuedAt: wallClockSeconds() - 30)
    try link.send([.join(JoinRequest(sessionName: session, userName: name, token: token))])
    #expect(
      link.waitForMessage { if case .joined = $0 { true } else { false } } != nil,
      "\(name) was not admitted", sourceLocation: sourceLocation)
    return link
  }

  func shutdown(sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(loop.shutdown().isClean, sourceLocation: sourceLocation)
    if let server { #expect(server.shutdown().isClean, sourceLocation: sourceLocation) }
  }
}

/// A started link and everything it delivered.
struct TestLink: Sendable {
  let link: LoopBound<any SessionLink>
  let events: Recorder<LinkEvent>
  /// The connection the host knows this link as.
  let connection: ConnectionID

  /// Sends messages, all in one loop turn.
  func send(_ messages: [ClientMessage]) throws {
    let link = self.link
    try link.loop.sync { for message in messages { link.value.send(message) } }
  }

  /// Closes the link `times` times in one loop turn.
  func close(times: Int = 1) throws {
    let link = self.link
    try link.loop.sync { for _ in 0..<times { link.value.close() } }
  }

  /// The messages delivered so far.
  var messages: [ServerMessage] {
    events.values.compactMap { if case .message(let message) = $0 { message } else { nil } }
  }

  /// The events of every batch delivered so far, in order, with their sequence numbers.
  var numberedEvents: [(UInt64, SessionEvent)] {
    messages.flatMap { message -> [(UInt64, SessionEvent)] in
      guard case .events(let batch) = message else { return [] }
      return batch.events.enumerated().map { (batch.firstSequence + UInt64($0.offset), $0.element) }
    }
  }

  /// The user id the `.joined` snapshot gave.
  var user: UserID? {
    for message in messages {
      if case .joined(let snapshot, _) = message { return snapshot.myself }
    }
    return nil
  }

  /// Waits for a delivered message matching `predicate` and returns it.
  func waitForMessage(_ predicate: @escaping (ServerMessage) -> Bool) -> ServerMessage? {
    var found: ServerMessage?
    waitUntil {
      found = messages.first(where: predicate)
      return found != nil
    }
    return found
  }
}
