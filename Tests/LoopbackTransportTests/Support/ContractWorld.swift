import LoopbackTransport
import SessionCore
import SessionService
import SessionTestSupport
import SessionTransport
import Testing

/// A ``RecordingHost`` behind a `LoopbackServer` on 127.0.0.1:0, and a `LoopbackLinkFactory`
/// on a client loop: the loopback link under the link contract suite, over real sockets and
/// real time.
///
/// ``settle()`` is ``LinkContractWorld/settleByHeartbeats(timeoutSeconds:pollMicroseconds:)``:
/// heartbeat round trips on every open link until a round changes nothing, and until the host
/// has as many open connections as the client has open links; bounded at 60 s, which a
/// passing run on a loaded machine never comes near. ``advance(by:)`` does nothing: the server
/// and the links keep the wall clock, which the world can't move, and sleeping through the
/// host's timeouts would make the suite slow.
///
/// `Sendable`: the links and the domain live on `loop`, reached only through
/// ``perform(_:)``; the server and the record are `Sendable`.
final class ContractWorld: LinkContractWorld, Sendable {
  /// The one kind of world there is now: kept so that `ContractWorld(.loopback, server:)`
  /// (`CoalescingTests`) reads as before.
  enum Kind: Sendable {
    case loopback
  }

  let loop: EventLoop
  let hostRecord = HostRecord()
  private let server: LoopbackServer<RecordingHost>
  private let domain: LoopBound<LinkContractDomain>

  /// The server, for its statistics.
  var loopbackServer: LoopbackServer<RecordingHost>? { server }

  init(
    _ kind: Kind = .loopback,
    server serverConfiguration: LoopbackServerConfiguration = LoopbackServerConfiguration()
  ) throws {
    let record = hostRecord
    let server = try LoopbackServer(configuration: serverConfiguration) {
      RecordingHost(record: record)
    }
    self.server = server
    let loop = try EventLoop(name: "contract-loopback")
    self.loop = loop
    domain = try loop.sync {
      LoopBound(
        LinkContractDomain(factory: LoopbackLinkFactory(loop: loop, port: server.port)),
        loop: loop)
    }
  }

  var now: Int64 { wallClockSeconds() * 1_000 }

  func perform<Result: Sendable>(
    _ body: @escaping @Sendable (LinkContractDomain) throws -> Result
  ) throws -> Result {
    let domain = self.domain
    return try loop.sync { try body(domain.value) }
  }

  func settle() throws {
    try settleByHeartbeats(timeoutSeconds: 60)
  }

  func advance(by milliseconds: Int64) {}

  func shutdown() {
    #expect(loop.shutdown().isClean)
    #expect(server.shutdown().isClean)
  }
}

extension ContractWorld {
  /// Opens a link and joins "Room" as `name`; records an issue unless it was admitted.
  ///
  /// For this target's own tests of the loopback link (`CoalescingTests`), which don't import
  /// `SessionTestSupport`.
  func join(
    _ name: String, role: TokenRole = .participant,
    sourceLocation: SourceLocation = #_sourceLocation
  ) throws -> TestLink {
    TestLink(
      link: try join(name, role: role, session: "Room", sourceLocation: sourceLocation))
  }
}

/// A started link of a ``ContractWorld`` and everything it delivered.
struct TestLink {
  let link: ContractLink

  /// Sends messages, all in one loop turn.
  func send(_ messages: [ClientMessage]) throws { try link.send(messages) }

  /// The messages delivered so far.
  var messages: [ServerMessage] { link.messages }

  /// The events of every batch delivered so far, in order, with their sequence numbers.
  var numberedEvents: [(UInt64, SessionEvent)] { link.numberedEvents.map { ($0, $1) } }

  /// The user id the `.joined` snapshot gave.
  var user: UserID? { link.user }
}
