import Dispatch
import LoopbackTransport
import SessionCore
import SessionSDK
import SessionService
import SessionTestSupport
import SessionTransport
import Synchronization
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// Log records captured in memory, for assertions on close reasons.
final class LogCapture: Sendable {
  private let records = Mutex<[LoopbackLogRecord]>([])

  var handler: LoopbackLogHandler {
    { [self] record in records.withLock { $0.append(record) } }
  }

  var all: [LoopbackLogRecord] { records.withLock { $0 } }

  /// Records about `connection`.
  func about(_ connection: ConnectionID) -> [LoopbackLogRecord] {
    all.filter { $0.connection == connection }
  }

  /// Close records (one per connection closed), in order.
  var closes: [LoopbackLogRecord] { all.filter { $0.message.hasPrefix("closed:") } }
}

/// Polls `condition` until it holds or `timeoutSeconds` pass. The timeout is only an upper
/// bound for a broken build: passing tests never reach it, and the condition alone decides.
@discardableResult
func waitUntil(
  timeoutSeconds: Double = 20, _ condition: () throws -> Bool
) rethrows -> Bool {
  let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(timeoutSeconds * 1e9)
  while true {
    if try condition() { return true }
    if DispatchTime.now().uptimeNanoseconds >= deadline { return false }
    usleep(2_000)
  }
}

/// A `SessionService` served by a `LoopbackServer` on 127.0.0.1:0, and a client loop on which
/// SDK peers live, each over its own `LoopbackLinkFactory`.
final class LoopbackHarness: Sendable {
  static let appKey = SessionFixture.appKey
  static let secret = SessionFixture.secret
  /// The credentials, tokens and join contexts.
  static let fixture = SessionFixture()

  let serverLog = LogCapture()
  let clientLog = LogCapture()
  let client: EventLoop
  var minter: TokenMinter { Self.fixture.minter }
  let serviceConfiguration: ServiceConfiguration
  let serverConfiguration: LoopbackServerConfiguration
  let linkConfiguration: LoopbackLinkConfiguration
  private let serverSlot: Mutex<LoopbackServer<SessionService>?>
  /// The port of a server in another process, when there is no server in this one.
  private let externalPort: UInt16?

  /// Starts a server and a client loop.
  ///
  /// - Parameters:
  ///   - service: Adjusts the service configuration (heartbeat timeout, reconnect grace).
  ///   - server: The server configuration (hello timeout, write-queue bound).
  ///   - link: The links' configuration (heartbeats).
  init(
    service: (inout ServiceConfiguration) -> Void = { _ in },
    server: LoopbackServerConfiguration = LoopbackServerConfiguration(),
    link: LoopbackLinkConfiguration = LoopbackLinkConfiguration()
  ) throws {
    let configuration = Self.fixture.serviceConfiguration(service)
    serviceConfiguration = configuration
    serverConfiguration = server
    linkConfiguration = link
    client = try EventLoop(name: "test-peers")
    let serviceConfiguration = configuration
    externalPort = nil
    serverSlot = Mutex(
      try LoopbackServer(configuration: server, log: serverLog.handler) {
        SessionService(configuration: serviceConfiguration)
      })
  }

  /// A client loop for peers of a server in another process (`sessionsim serve`), whose
  /// credentials are the harness's.
  init(externalPort: UInt16, link: LoopbackLinkConfiguration = LoopbackLinkConfiguration())
    throws
  {
    serviceConfiguration = Self.fixture.serviceConfiguration()
    serverConfiguration = LoopbackServerConfiguration(port: externalPort)
    linkConfiguration = link
    client = try EventLoop(name: "test-peers")
    self.externalPort = externalPort
    serverSlot = Mutex(nil)
  }

  /// The running server.
  var server: LoopbackServer<SessionService> {
    guard let server = serverSlot.withLock({ $0 }) else { preconditionFailure("no server") }
    return server
  }

  var port: UInt16 { externalPort ?? server.port }

  /// Shuts the server down and starts a fresh one (a new service, knowing no sessions) on the
  /// same port.
  func restartServer() throws -> LoopbackServerShutdownReport {
    let old = server
    let report = old.shutdown()
    var configuration = serverConfiguration
    configuration.port = old.port
    let serviceConfiguration = self.serviceConfiguration
    let fresh = try LoopbackServer(configuration: configuration, log: serverLog.handler) {
      SessionService(configuration: serviceConfiguration)
    }
    serverSlot.withLock { $0 = fresh }
    return report
  }

  /// Kills the server as a crashed process dies (``LoopbackServer/kill()``) and starts a fresh
  /// one (a new service) on the same TCP and media ports.
  func killAndRestartServer() throws -> LoopbackServerShutdownReport {
    let old = server
    let report = old.kill()
    var configuration = serverConfiguration
    configuration.port = old.port
    configuration.mediaPort = old.mediaPort ?? 0
    let serviceConfiguration = self.serviceConfiguration
    let fresh = try LoopbackServer(configuration: configuration, log: serverLog.handler) {
      SessionService(configuration: serviceConfiguration)
    }
    serverSlot.withLock { $0 = fresh }
    return report
  }

  /// Runs `body` with the service on the server loop.
  func onService<Result: Sendable>(
    _ body: @escaping @Sendable (SessionService) throws -> Result
  ) throws -> Result {
    let server = self.server
    return try server.loop.sync { try body(server.host) }
  }

  /// The service's shared facts of `session`.
  func serviceFacts(_ session: String = "Room") throws -> SharedSessionFacts? {
    try onService { $0.state(ofSession: session)?.sharedFacts }
  }

  /// A token for `session`.
  func token(session: String = "Room", role: TokenRole = .participant) -> String {
    Self.fixture.token(role: role, sessionName: session, now: wallClockSeconds() * 1_000)
  }

  /// Makes an SDK instance on the client loop, joins `session` and waits for `onSessionJoin`.
  func join(
    _ name: String, role: TokenRole = .participant, session: String = "Room",
    videoOn: Bool = false, muted: Bool = false,
    sourceLocation: SourceLocation = #_sourceLocation
  ) throws -> Peer {
    let peer = try makePeer(name)
    try peer.join(
      session: session, token: token(session: session, role: role), videoOn: videoOn,
      muted: muted)
    #expect(
      peer.waitFor(.onSessionJoin), "\(name) did not join", sourceLocation: sourceLocation)
    return peer
  }

  /// Makes an initialized SDK instance on the client loop, not joined.
  func makePeer(_ name: String) throws -> Peer {
    let (client, port, link, log) = (self.client, self.port, linkConfiguration, clientLog.handler)
    let callbacks = Recorder<VideoSDKCallback>()
    let (sdk, factory, links) = try client.sync {
      let factory = LoopbackLinkFactory(
        loop: client, port: port, configuration: link, log: log)
      let links = TestLinkFactory(wrapping: factory)
      let sdk = VideoSDK()
      sdk.callbackObserver = { callbacks.append($0) }
      sdk.initialize(InitParams(domain: "zoom.us", transport: links, clock: factory.clock.now))
      return (
        LoopBound(sdk, loop: client), LoopBound(factory, loop: client),
        LoopBound(links, loop: client)
      )
    }
    return Peer(name: name, sdk: sdk, factory: factory, links: links, callbacks: callbacks)
  }

  /// Every peer's replica facts, read on the client loop.
  func facts(of peers: [Peer]) throws -> [SharedSessionFacts] {
    try client.sync { peers.map { $0.sdk.value.store.state.sharedFacts } }
  }

  /// Waits until every peer's replica holds the same shared facts (for a server in another
  /// process, whose state this process can't read).
  @discardableResult
  func waitForAgreement(_ peers: [Peer], sourceLocation: SourceLocation = #_sourceLocation)
    throws -> SharedSessionFacts?
  {
    var last: [SharedSessionFacts] = []
    let agreed = try waitUntil {
      last = try facts(of: peers)
      return last.first?.sessionID != nil && Set(last).count == 1
    }
    #expect(agreed, "replicas disagree: \(last)", sourceLocation: sourceLocation)
    return agreed ? last.first : nil
  }

  /// Waits until every peer's replica equals the service's view of `session`.
  @discardableResult
  func waitForConvergence(
    _ peers: [Peer], session: String = "Room", sourceLocation: SourceLocation = #_sourceLocation
  ) throws -> Bool {
    var last: (SharedSessionFacts?, [SharedSessionFacts]) = (nil, [])
    let converged = try waitUntil {
      let service = try serviceFacts(session)
      let replicas = try facts(of: peers)
      last = (service, replicas)
      return service != nil && replicas.allSatisfy { $0 == service }
    }
    #expect(
      converged,
      "replicas did not converge: service \(String(describing: last.0)), replicas \(last.1)",
      sourceLocation: sourceLocation)
    return converged
  }

  /// Shuts the client loop and the server down, expecting both to close cleanly.
  func shutdown(sourceLocation: SourceLocation = #_sourceLocation) {
    let clientReport = client.shutdown()
    #expect(clientReport.isClean, sourceLocation: sourceLocation)
    if let server = serverSlot.withLock({ $0 }) {
      #expect(server.shutdown().isClean, sourceLocation: sourceLocation)
    }
  }
}

/// One SDK instance living on the harness's client loop, and every callback it fired.
struct Peer: Sendable {
  let name: String
  let sdk: LoopBound<VideoSDK>
  let factory: LoopBound<LoopbackLinkFactory>
  /// The test's wrapper around `factory`, which the instance makes its links from.
  let links: LoopBound<TestLinkFactory>
  let callbacks: Recorder<VideoSDKCallback>

  var loop: EventLoop { sdk.loop }

  /// Runs `body` with the SDK on the client loop and returns its result.
  @discardableResult
  func run<Result: Sendable>(_ body: @escaping @Sendable (VideoSDK) throws -> Result) throws
    -> Result
  {
    let sdk = self.sdk
    return try loop.sync { try body(sdk.value) }
  }

  /// Joins a session.
  func join(session: String, token: String, videoOn: Bool = false, muted: Bool = false) throws {
    let name = self.name
    try run { sdk in
      let context = SessionContext(
        token: token, sessionName: session, userName: name,
        audioOption: AudioOptions(connect: true, mute: muted),
        videoOption: VideoOptions(localVideoOn: videoOn))
      _ = sdk.joinSession(context)
    }
  }

  /// The user id this peer has in its session.
  func myID() throws -> UserID? {
    try run { $0.store.state.myselfID }
  }

  /// Waits until the peer fired `callback` (at least `count` times in all).
  func waitFor(_ callback: VideoSDKCallback, count: Int = 1, timeoutSeconds: Double = 20)
    -> Bool
  {
    waitUntil(timeoutSeconds: timeoutSeconds) {
      callbacks.values.filter { $0 == callback }.count >= count
    }
  }

  /// Waits until a fired callback satisfies `predicate`.
  func waitFor(timeoutSeconds: Double = 20, _ predicate: (VideoSDKCallback) -> Bool) -> Bool {
    waitUntil(timeoutSeconds: timeoutSeconds) { callbacks.values.contains(where: predicate) }
  }
}

/// Unix seconds.
func wallClockSeconds() -> Int64 {
  var time = timespec()
  clock_gettime(CLOCK_REALTIME, &time)
  return Int64(time.tv_sec)
}
