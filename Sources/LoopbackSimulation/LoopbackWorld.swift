import LoopbackFaults
import LoopbackTransport
import SessionCore
import SessionService
import SessionSimulation
import SessionTransport
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The loopback mode: the service in a ``LoopbackTransport/LoopbackServer`` on 127.0.0.1, the
/// SDK instances on a client loop, each peer's TCP connection through a
/// ``LoopbackFaults/FaultProxy`` that applies its delay, loss (as retransmission delay),
/// partitions and kills. Real sockets and real time: a run of 60 s takes 60 s.
///
/// With a media plane each peer's media goes over UDP through the proxy's media half, which
/// applies delay, loss, jitter, bandwidth caps and partitions to it. What the proxy cannot do
/// is refused (``inject(_:)`` returns false and the report lists it): pausing a peer, killing
/// the service, delay distributions, duplication, and jitter or bandwidth without media.
///
/// > Important: Made and driven from one thread that is neither loop's; scheduled work and
/// > ``perform(_:)`` run on the client loop, which owns every SDK instance and the proxy.
public final class LoopbackWorld: SimulationWorld, EventSendTimes, @unchecked Sendable {
  /// What ``SessionSimulation/RunOptions/loopbackWorld`` takes to run loopback mode.
  public static let maker: LoopbackWorldMaker = { seed, service, scenario in
    try LoopbackWorld(seed: seed, service: service, scenario: scenario)
  }

  private let server: LoopbackServer<HostTap>
  private let tap: HostTap
  /// The client loop: SDK instances, their links, the proxy.
  public let loop: EventLoop
  private let proxy: LoopBound<FaultProxy>
  private let start = ContinuousClock.now
  private let linkConfiguration: LoopbackLinkConfiguration
  private let state = Mutex(State())

  private struct State {
    var skews: [String: Int64] = [:]
    var dead: Set<String> = []
    /// Partitions and holds in force, as the proxy was told them.
    var cuts: [String: LinkDirections] = [:]
    /// Whether the run has a media plane.
    var hasMedia = false
  }

  /// Starts a server, a client loop and a proxy.
  ///
  /// - Parameters:
  ///   - seed: The proxy's loss draws.
  ///   - service: The service's configuration.
  ///   - scenario: For the links' heartbeat timers.
  /// - Throws: `UVError` when a loop or a port cannot start.
  public init(seed: UInt64, service: ServiceConfiguration, scenario: Scenario) throws {
    let made = Mutex<HostTap?>(nil)
    server = try LoopbackServer(makeHost: {
      let tap = HostTap(SessionService(configuration: service))
      made.withLock { $0 = tap }
      return tap
    })
    guard let tap = made.withLock({ $0 }) else {
      preconditionFailure("the server made no host")
    }
    self.tap = tap
    let timeout = UInt64(max(300, service.heartbeatTimeout))
    linkConfiguration = LoopbackLinkConfiguration(
      heartbeatInterval: max(100, timeout / 3), heartbeatTimeout: timeout)
    loop = try EventLoop(name: "sessionsim-peers")
    let loop = self.loop
    let port = server.port
    let mediaPort = server.mediaPort
    proxy = try loop.runBlocking {
      LoopBound(
        try FaultProxy(
          loop: loop, upstreamPort: port, seed: seed, mediaUpstreamPort: mediaPort),
        loop: loop)
    }
  }

  /// The peer's media links: UDP through the peer's media port on the proxy, once
  /// ``startMedia()`` ran (on the client loop).
  ///
  /// - Parameter peer: The peer's name.
  /// - Returns: A media link factory, or `nil` before ``startMedia()`` or for a dead peer.
  public func mediaTransport(for peer: String) -> (any MediaLinkFactory)? {
    let (media, dead) = state.withLock { ($0.hasMedia, $0.dead.contains(peer)) }
    guard media, !dead else { return nil }
    let proxy = proxy.value
    guard (try? proxy.listen(peer: peer)) != nil, let port = proxy.mediaPort(of: peer) else {
      return nil
    }
    return LoopbackMediaLinkFactory(loop: loop, port: port)
  }

  /// Turns the media plane on: the server opened its media socket when it started (its host
  /// is a media host), and the proxy forwards each peer's media.
  ///
  /// - Returns: Whether the server has a media socket.
  public func startMedia() -> Bool {
    guard server.mediaPort != nil else { return false }
    state.withLock { $0.hasMedia = true }
    return true
  }

  /// The service's media-plane counts.
  ///
  /// - Returns: The counts, if the run has a media plane.
  public func mediaStatistics() -> MediaPlaneStatistics? {
    guard state.withLock({ $0.hasMedia }) else { return nil }
    let server = server
    return try? server.loop.runBlocking { server.host.service.mediaStatistics }
  }

  /// How many of a member's subscriptions are below their top layer or paused.
  ///
  /// - Parameters:
  ///   - user: The member.
  ///   - name: The session name.
  /// - Returns: The count, if the run has a media plane.
  public func subscriptionsBelowTop(of user: UserID, inSession name: String) -> Int? {
    guard state.withLock({ $0.hasMedia }) else { return nil }
    let server = server
    return try? server.loop.runBlocking {
      server.host.service.mediaRouter(ofSession: name)?.subscriptionsBelowTop(of: user)
    }
  }

  /// The mode's name for reports.
  public var modeName: String { "loopback" }

  /// Milliseconds since the run started.
  public var elapsed: Int64 {
    let span = start.duration(to: .now)
    return span.components.seconds * 1_000 + span.components.attoseconds / 1_000_000_000_000_000
  }

  /// The wall time the run's start stands for, in milliseconds since 1970.
  public let epochMilliseconds: Int64 = 0

  /// Runs `work` at `elapsed` milliseconds after the start (at once when past).
  ///
  /// - Parameters:
  ///   - elapsed: When.
  ///   - work: The work.
  public func schedule(at elapsed: Int64, _ work: @escaping @Sendable () -> Void) {
    let delay = max(0, elapsed - self.elapsed)
    loop.schedule(afterMilliseconds: UInt64(delay), work)
  }

  /// Runs everything due until the clock reads `elapsed`.
  ///
  /// - Parameter elapsed: Milliseconds after the start.
  /// - Throws: When the world cannot run.
  public func run(until elapsed: Int64) throws {
    while true {
      let left = elapsed - self.elapsed
      guard left > 0 else { break }
      usleep(UInt32(min(left, 100)) * 1_000)
    }
    try loop.runBlocking {}
  }

  /// Waits half a second (or `limit`, if shorter) of real time: what a real network has in
  /// flight cannot be seen from here.
  ///
  /// - Parameter limit: Milliseconds.
  /// - Returns: Always true.
  public func settle(limit: Int64) throws -> Bool {
    try run(until: elapsed + min(500, max(0, limit)))
    return true
  }

  /// Runs `body` on the world's domain and returns what it returned.
  ///
  /// - Parameter body: The work.
  /// - Returns: What `body` returned.
  /// - Throws: When the world cannot reach its domain.
  public func perform<Result: Sendable>(_ body: @escaping @Sendable () -> Result) throws -> Result {
    try loop.runBlocking { body() }
  }

  /// The links the peer's SDK instance uses.
  ///
  /// - Parameter peer: The peer's name.
  /// - Returns: A link factory.
  public func transport(for peer: String) -> any SessionLinkFactory {
    let alive = !state.withLock { $0.dead.contains(peer) }
    guard alive, let port = try? proxy.value.listen(peer: peer) else { return DeadFactory() }
    return LoopbackLinkFactory(loop: loop, port: port, configuration: linkConfiguration)
  }

  /// The peer's clock, in milliseconds since 1970.
  ///
  /// - Parameter peer: The peer's name.
  /// - Returns: The clock.
  public func clock(for peer: String) -> () -> Int64 {
    let wall = LoopWallClock(loop: loop)
    return { [unowned self] in wall.now() + self.state.withLock { $0.skews[peer] ?? 0 } }
  }

  /// The service's state of a session.
  ///
  /// - Parameter name: The session name.
  /// - Returns: The state, if the session lives.
  public func serviceState(ofSession name: String) -> SessionState? {
    let server = server
    return try? server.loop.runBlocking { server.host.service.state(ofSession: name) }
  }

  /// The service's newest sequence number in a session.
  ///
  /// - Parameter name: The session name.
  /// - Returns: The sequence number, if the session lives.
  public func serviceSequence(ofSession name: String) -> UInt64? {
    let server = server
    return (try? server.loop.runBlocking { server.host.service.lastSequence(ofSession: name) })
      ?? nil
  }

  /// Per peer, the chat messages the service sent on its current open connection.
  ///
  /// - Returns: What each peer's callbacks must have delivered.
  public func expectedChat() -> ExpectedChat { tap.expectedChat() }

  /// Injects a fault.
  ///
  /// - Parameter fault: The fault.
  /// - Returns: Whether this mode can.
  public func inject(_ fault: WorldFault) -> Bool {
    let proxy = proxy.value
    switch fault {
    case .partition(let a, let b, let oneWay):
      // The proxy cuts peers from the service; a cut between two peers is no cut at all
      // here, since peers only talk to the service.
      let aHasService = a.contains("service")
      let bHasService = b.contains("service")
      guard aHasService != bHasService else { return a.isEmpty || b.isEmpty }
      let peers = aHasService ? b : a
      let direction: LinkDirections =
        oneWay ? (aHasService ? .downlink : .uplink) : .both
      for peer in peers { cut(peer, direction) }
      return true
    case .heal:
      state.withLock { $0.cuts = [:] }
      proxy.heal()
      return true
    case .hold(let peer, let direction):
      cut(peer, direction)
      return true
    case .release(let peer, _):
      let remaining = state.withLock { state in
        state.cuts[peer] = nil
        return state.cuts
      }
      proxy.heal()
      for (name, direction) in remaining { _ = proxy.partition([name], direction: direction) }
      return true
    case .kill(let peer):
      state.withLock { _ = $0.dead.insert(peer) }
      _ = proxy.kill(peer: peer)
      return true
    case .revive(let peer):
      state.withLock { _ = $0.dead.remove(peer) }
      return true
    case .clockSkew(let peer, let skew):
      state.withLock { $0.skews[peer] = skew }
      return true
    case .impair(let peer, let direction, let link):
      let lane = direction
      _ = proxy.setDelay(link.delay?.milliseconds ?? 0, peer: peer, direction: lane)
      _ = proxy.setLoss(link.loss ?? 0, peer: peer, direction: lane)
      // Jitter and a bandwidth cap act on media only (TCP keeps its order and its rate).
      let media = state.withLock { $0.hasMedia }
      let jitter = proxy.setJitter(link.jitter?.milliseconds ?? 0, peer: peer, direction: lane)
      let cap = link.bandwidth.map {
        MediaBandwidthCap(
          bitsPerSecond: $0.bitsPerSecond, queueLimitBytes: link.queueBytes ?? 65_536)
      }
      let capped = proxy.setBandwidth(cap, peer: peer, direction: lane)
      return link.distribution == nil && link.duplicate == nil
        && (link.jitter == nil || (media && jitter)) && (link.bandwidth == nil || (media && capped))
    case .pause, .resume, .killService, .startService:
      return false
    }
  }

  private func cut(_ peer: String, _ direction: LinkDirections) {
    state.withLock { $0.cuts[peer] = direction }
    _ = proxy.value.partition([peer], direction: direction)
  }

  /// Sends every network event to `sink` as it happens.
  ///
  /// - Parameter sink: Gets each event's line.
  public func traceNetwork(to sink: @escaping (String) -> Void) {}

  /// Starts noting when the service first sends each event, in milliseconds since the run
  /// started (the server's loop reads the clock).
  package func noteEventSendTimes() {
    let start = self.start
    tap.noteSendTimes {
      let span = start.duration(to: .now)
      return span.components.seconds * 1_000
        + span.components.attoseconds / 1_000_000_000_000_000
    }
  }

  /// When the service first sent an event, once noted.
  ///
  /// - Parameter sequence: The event's sequence number.
  /// - Returns: Milliseconds since the run started; `nil` when not noted.
  package func eventSentAt(sequence: UInt64) -> Int64? { tap.sentAt(sequence: sequence) }

  /// Ends the run.
  ///
  /// - Returns: What was still in flight, a line each.
  public func finish() -> [String] {
    proxy.value.statistics.sorted { $0.key < $1.key }.compactMap { name, statistics in
      statistics.bytesHeld > 0 ? "\(name): the proxy holds \(statistics.bytesHeld) bytes" : nil
    }
  }

  /// Stops the proxy and both loops; harmless twice.
  public func shutdown() {
    let proxy = proxy
    try? loop.runBlocking { proxy.value.shutdown() }
    _ = loop.shutdown()
    _ = server.shutdown()
  }
}

/// The links of a killed peer's old instance: they never connect and never report, as a
/// dead process's sockets would not.
private final class DeadFactory: SessionLinkFactory {
  func makeLink() -> any SessionLink { DeadLink() }
}

private final class DeadLink: SessionLink {
  func start(_ handler: @escaping (LinkEvent) -> Void) {}
  func send(_ message: ClientMessage) {}
  func close() {}
}
