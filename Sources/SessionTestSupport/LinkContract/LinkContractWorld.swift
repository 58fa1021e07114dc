import SessionCore
import SessionService
import SessionTransport
import Testing

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// A host and a way to make links to it: what ``LinkContract``'s cases run against.
///
/// Conform a link's test target to it once, then run every case:
///
/// ```swift
/// @Test(arguments: LinkContract.cases)
/// func contract(_ check: LinkContract) throws {
///   try check.run(in: MyLinkWorld())
/// }
/// ```
///
/// A world owns a ``RecordingHost`` (whose ``hostRecord`` the cases read), a clock, and a
/// ``LinkContractDomain`` on the links' isolation domain around a `SessionLinkFactory` for that
/// host. Each case makes a fresh world and shuts it down at the end.
///
/// > Important: A world is used from one test's isolation domain and need not be `Sendable`.
/// > The links live on the links' domain, which may be the test's own (an in-process network
/// > confined to the caller) or another (a client loop's thread); the test reaches them only
/// > through ``perform(_:)``.
public protocol LinkContractWorld: AnyObject {
  /// What the host was told, in order.
  var hostRecord: HostRecord { get }

  /// The world's clock, as given to its host: milliseconds since 1970.
  var now: Int64 { get }

  /// A token the world's service accepts, issued just before ``now``.
  ///
  /// The default mints with ``LinkContract/fixture``, issued 30 s before ``now``, for a
  /// service made with ``LinkContract/serviceConfiguration``.
  ///
  /// - Parameters:
  ///   - sessionName: The session the token admits to.
  ///   - role: The token's role.
  /// - Returns: The signed token.
  func token(sessionName: String, role: TokenRole) -> String

  /// Runs `body` on the links' isolation domain and waits for it.
  ///
  /// - Parameter body: Gets the world's domain; runs there, and nowhere else touches links.
  /// - Returns: What `body` returned.
  /// - Throws: What `body` threw, or the world's own error when it can't reach the domain.
  func perform<Result: Sendable>(
    _ body: @escaping @Sendable (LinkContractDomain) throws -> Result
  ) throws -> Result

  /// Delivers everything in flight, and what that causes, until nothing moves: every message
  /// sent on a link has reached the host, every output of the host has reached its link, and
  /// every close of either side has reached the other.
  ///
  /// - Throws: When the world can't tell that it settled (a real network that stays busy past
  ///   a bound): the case stops there.
  func settle() throws

  /// Moves the world's clock by `milliseconds` and lets the host's timers run.
  ///
  /// A world with a virtual clock moves it, ticks the host and delivers what that caused; a
  /// world on the wall clock may sleep or do nothing, and says which. Cases settle after it.
  ///
  /// - Parameter milliseconds: How far; positive.
  /// - Throws: The world's error when it can't reach its host or its links.
  func advance(by milliseconds: Int64) throws

  /// Ends the world: closes what it opened, stops its threads, and records an issue when
  /// they did not stop cleanly. Nothing is used after it.
  func shutdown()
}

extension LinkContractWorld {
  /// A token from ``LinkContract/fixture``, issued 30 s before ``now``.
  ///
  /// - Parameters:
  ///   - sessionName: The session the token admits to.
  ///   - role: The token's role.
  /// - Returns: The signed token.
  public func token(sessionName: String, role: TokenRole) -> String {
    LinkContract.fixture.token(role: role, sessionName: sessionName, now: now)
  }

  /// The connections the host has seen open, in order.
  public var openedConnections: [ConnectionID] { hostRecord.openedConnections }

  /// The connections the host has seen close, in order.
  public var closedConnections: [ConnectionID] { hostRecord.closedConnections }

  /// Makes and starts a link, settles, and finds the connection the host knows it as.
  ///
  /// - Parameters:
  ///   - handler: Also gets the link's events, after its log.
  ///   - sourceLocation: Where a failure is reported.
  /// - Returns: The link.
  /// - Throws: When the host never saw the link open, or what ``perform(_:)`` or
  ///   ``settle()`` threw.
  public func open(
    handler: LinkContractDomain.Handler? = nil,
    sourceLocation: SourceLocation = #_sourceLocation
  ) throws -> ContractLink {
    try open(sending: nil, handler: handler, sourceLocation: sourceLocation)
  }

  /// Opens a link and joins `session` as `name`, then settles; records an issue unless the
  /// link delivered ``SessionTransport/ServerMessage/joined(_:resumeToken:)``.
  ///
  /// The join goes once the host knows the connection (after a settle); with a `handler`, it
  /// goes right after ``SessionTransport/SessionLink/start(_:)``, in the same turn of the
  /// links' domain, so both orders are covered.
  ///
  /// - Parameters:
  ///   - name: The user name.
  ///   - role: The token's role.
  ///   - session: The session.
  ///   - handler: Also gets the link's events, after its log.
  ///   - sourceLocation: Where a failure is reported.
  /// - Returns: The link.
  /// - Throws: What ``open(handler:sourceLocation:)`` throws.
  public func join(
    _ name: String, role: TokenRole = .participant, session: String = "Room",
    handler: LinkContractDomain.Handler? = nil,
    sourceLocation: SourceLocation = #_sourceLocation
  ) throws -> ContractLink {
    let join = ClientMessage.join(
      JoinRequest(
        sessionName: session, userName: name, token: token(sessionName: session, role: role)))
    let link: ContractLink
    if handler == nil {
      link = try open(sourceLocation: sourceLocation)
      try link.send([join])
      try settle()
    } else {
      link = try open(sending: join, handler: handler, sourceLocation: sourceLocation)
    }
    #expect(link.log.joined != nil, "\(name) was not admitted", sourceLocation: sourceLocation)
    return link
  }

  private func open(
    sending first: ClientMessage?, handler: LinkContractDomain.Handler?,
    sourceLocation: SourceLocation
  ) throws -> ContractLink {
    let before = hostRecord.openedConnections.count
    let (id, log) = try perform { domain in
      let id = domain.open(handler: handler)
      if let first { domain.send(first, on: id) }
      return (id, domain.log(id))
    }
    try settle()
    let opened = hostRecord.openedConnections
    let connection = try #require(
      opened.count > before ? opened[before] : nil, "the host never saw \(id) open",
      sourceLocation: sourceLocation)
    return ContractLink(world: self, id: id, log: log, connection: connection)
  }
}

/// A link a check opened: its id, its log and the connection the host knows it as.
///
/// > Important: Not `Sendable`: it holds its world, and is used on the test's domain like the
/// > world. ``send(_:)`` and ``close(times:)`` reach the link through
/// > ``LinkContractWorld/perform(_:)``.
public struct ContractLink {
  /// The world the link belongs to.
  public let world: any LinkContractWorld
  /// The link in its world's domain.
  public let id: LinkContractDomain.LinkID
  /// What the link delivered.
  public let log: LinkEventLog
  /// The connection the host knows this link as.
  public let connection: ConnectionID

  /// Sends messages, all in one turn of the links' domain.
  ///
  /// - Parameter messages: The messages, in order.
  /// - Throws: What ``LinkContractWorld/perform(_:)`` throws.
  public func send(_ messages: [ClientMessage]) throws {
    let id = self.id
    try world.perform { domain in
      for message in messages { domain.send(message, on: id) }
    }
  }

  /// Closes the link `times` times in one turn of the links' domain.
  ///
  /// - Parameter times: How many calls to `close()`.
  /// - Throws: What ``LinkContractWorld/perform(_:)`` throws.
  public func close(times: Int = 1) throws {
    let id = self.id
    try world.perform { domain in
      for _ in 0..<times { domain.close(id) }
    }
  }

  /// Every event delivered so far.
  public var events: [LinkEvent] { log.events }

  /// The messages delivered so far.
  public var messages: [ServerMessage] { log.messages }

  /// The events of every batch delivered so far, in order, with their sequence numbers.
  public var numberedEvents: [(sequence: UInt64, event: SessionEvent)] { log.numberedEvents }

  /// The user id the `.joined` snapshot gave.
  public var user: UserID? { log.joined?.snapshot.myself }
}

/// A world over a real network could not settle in time.
public struct LinkContractSettleTimeout: Error, CustomStringConvertible {
  /// What was still missing.
  public var description: String
}

extension LinkContractWorld {
  /// Settles a world whose links cross a real network, with heartbeat round trips and a
  /// bounded wall-clock wait: an implementation of ``settle()`` for such worlds.
  ///
  /// Each round sends ``SessionTransport/ClientMessage/heartbeat`` on every open link (in one
  /// turn of the links' domain) and waits until each has answered or closed, and until the host
  /// has as many open connections as the domain has open links (so that every close of either
  /// side has reached the other). A link's answer follows everything the host sent it before,
  /// and the host read everything sent on that link before the heartbeat; so after one round
  /// the host has seen every message, and after the next every member has seen what those
  /// caused. Rounds go on until one changes nothing but heartbeats (two at least).
  ///
  /// - Parameters:
  ///   - timeoutSeconds: The bound for the whole settle; passing tests never come near it.
  ///   - pollMicroseconds: How long to sleep between looks.
  /// - Throws: ``LinkContractSettleTimeout`` past the bound, saying what was missing.
  public func settleByHeartbeats(
    timeoutSeconds: Int = 30, pollMicroseconds: UInt32 = 1_000
  ) throws {
    let clock = ContinuousClock()
    let deadline = clock.now.advanced(by: .seconds(timeoutSeconds))
    var previous: [Int]?
    var rounds = 0
    while true {
      let pinged = try perform { domain in
        let logs = domain.links.map { domain.log($0) }
        let open = domain.openLinks
        let before = open.map { domain.log($0).heartbeats }
        for id in open { domain.send(.heartbeat, on: id) }
        return (logs: logs, open: open.map { domain.log($0) }, before: before)
      }
      var missing = ""
      while true {
        let unanswered = zip(pinged.open, pinged.before).filter { log, before in
          !log.isClosed && log.heartbeats <= before
        }
        let openLinks = pinged.logs.count { !$0.isClosed }
        let hostOpen = hostRecord.openConnectionCount
        if unanswered.isEmpty && openLinks == hostOpen { break }
        missing =
          "\(unanswered.count) links did not answer a heartbeat; the host has \(hostOpen) open "
          + "connections for \(openLinks) open links"
        guard clock.now < deadline else {
          throw LinkContractSettleTimeout(
            description: "not settled after \(timeoutSeconds) s: \(missing)")
        }
        usleep(pollMicroseconds)
      }
      rounds += 1
      // What moved, heartbeats aside: the host's calls, and each link's events.
      let hostEvents = hostRecord.events.count {
        if case .received(_, .heartbeat) = $0 { false } else { true }
      }
      let fingerprint = [hostEvents] + pinged.logs.map { $0.count - $0.heartbeats }
      if rounds >= 2 && fingerprint == previous { return }
      previous = fingerprint
    }
  }
}
