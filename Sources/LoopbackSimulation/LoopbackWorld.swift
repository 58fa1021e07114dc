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
/// ``LoopbackFaults/FaultProxy`` that applies its faults. Real sockets and real time: a run of
/// 60 s takes 60 s.
///
/// Every fault of ``SessionSimulation/WorldFault`` applies:
/// - Links: delay, delay distributions and ± jitter (drawn per chunk on signalling, per
///   datagram on media, order kept), loss (as retransmission delay on TCP, dropped datagrams
///   on media) and bandwidth caps (paced with back-pressure on TCP, tail drop on media).
/// - Partitions between peers and the service, holds, kills (TCP reset), clock skew.
/// - Pause: the peer's TCP and media are held at the proxy both ways, and its
///   process stops: a gate (`PeerGate`) between its links and its SDK instance holds every
///   delivery, tick and heartbeat until the resume (see Docs/Simulation.md for how this
///   differs from the virtual network's pause).
/// - Service kill and restart: the server dies with its state (its connections reset), and
///   a fresh one with a fresh service starts on the same TCP and media ports, so the proxy's
///   upstream ports stay right and peers reconnect through it.
///
/// What no proxy can do — duplicating or reordering (TCP never does; the media proxy keeps
/// order), Gilbert–Elliott loss bursts — is refused when the scenario is loaded for this mode
/// (``SessionSimulation/ScenarioLoader/validate(_:for:)``); ``inject(_:)`` returns false for it
/// only if such a scenario is run anyway, and the run then fails.
///
/// > Important: Made and driven from one thread that is neither loop's; scheduled work,
/// > ``perform(_:)``, ``inject(_:)`` and the queries run on the client loop, which owns every
/// > SDK instance, the gates and the proxy. The server (and its restarts) runs on a loop of
/// > its own; the mutex-guarded state says which server is live.
public final class LoopbackWorld: SimulationWorld, EventSendTimes, @unchecked Sendable {
  /// What ``SessionSimulation/RunOptions/loopbackWorld`` takes to run loopback mode.
  public static let maker: LoopbackWorldMaker = { seed, service, scenario in
    try LoopbackWorld(seed: seed, service: service, scenario: scenario)
  }

  /// The client loop: SDK instances, their links, the proxy.
  public let loop: EventLoop
  private let proxy: LoopBound<FaultProxy>
  /// The peers' gates (their processes), on the client loop.
  private let gates: LoopBound<GateTable>
  private let start = ContinuousClock.now
  private let linkConfiguration: LoopbackLinkConfiguration
  private let serviceConfiguration: ServiceConfiguration
  /// The server's TCP port, kept by every incarnation (the proxy's upstream).
  private let port: UInt16
  /// The server's media port, kept by every incarnation.
  private let mediaPort: UInt16?
  private let state: Mutex<State>

  /// A live server and the tap its service sits behind.
  private struct Incarnation: Sendable {
    let server: LoopbackServer<HostTap>
    let tap: HostTap
  }

  private struct State {
    var skews: [String: Int64] = [:]
    var dead: Set<String> = []
    /// Partitions and holds in force, as the proxy was told them.
    var cuts: [String: LinkDirections] = [:]
    /// Paused peers: held both ways at the proxy whatever the cuts say.
    var paused: Set<String> = []
    /// Whether the run has a media plane.
    var hasMedia = false
    /// The live server; `nil` while the service is killed.
    var service: Incarnation?
    /// The tap of the newest incarnation, live or killed (its records answer
    /// ``expectedChat()`` and ``eventSentAt(sequence:)`` until a restart, as in
    /// deterministic mode).
    var tap: HostTap
    /// How many times the service was restarted.
    var restarts: UInt64 = 0
    /// Whether the service notes when it sends each event (again after a restart).
    var notesSendTimes = false
  }

  /// Starts a server, a client loop and a proxy.
  ///
  /// - Parameters:
  ///   - seed: The proxy's loss and delay draws.
  ///   - service: The service's configuration.
  ///   - scenario: For the links' heartbeat timers.
  /// - Throws: `UVError` when a loop or a port cannot start.
  public init(seed: UInt64, service: ServiceConfiguration, scenario: Scenario) throws {
    let first = try Self.startServer(service, port: 0, mediaPort: 0)
    serviceConfiguration = service
    port = first.server.port
    mediaPort = first.server.mediaPort
    state = Mutex(State(service: first, tap: first.tap))
    let timeout = UInt64(max(300, service.heartbeatTimeout))
    linkConfiguration = LoopbackLinkConfiguration(
      heartbeatInterval: max(100, timeout / 3), heartbeatTimeout: timeout)
    do {
      loop = try EventLoop(name: "sessionsim-peers")
    } catch {
      first.server.shutdown()
      throw error
    }
    let loop = self.loop
    let port = self.port
    let mediaPort = self.mediaPort
    do {
      (proxy, gates) = try loop.runBlocking {
        (
          LoopBound(
            try FaultProxy(
              loop: loop, upstreamPort: port, seed: seed, mediaUpstreamPort: mediaPort),
            loop: loop),
          LoopBound(GateTable(), loop: loop)
        )
      }
    } catch {
      loop.shutdown()
      first.server.shutdown()
      throw error
    }
  }

  /// A server with a fresh service on the ports given (0: the kernel's pick).
  private static func startServer(
    _ configuration: ServiceConfiguration, port: UInt16, mediaPort: UInt16
  ) throws -> Incarnation {
    let made = Mutex<HostTap?>(nil)
    let server = try LoopbackServer(
      configuration: LoopbackServerConfiguration(port: port, mediaPort: mediaPort),
      makeHost: {
        let tap = HostTap(SessionService(configuration: configuration))
        made.withLock { $0 = tap }
        return tap
      })
    guard let tap = made.withLock({ $0 }) else {
      preconditionFailure("the server made no host")
    }
    return Incarnation(server: server, tap: tap)
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
    return GatedMediaLinkFactory(
      LoopbackMediaLinkFactory(loop: loop, port: port), gate: gates.value.gate(of: peer))
  }

  /// Turns the media plane on: the server opened its media socket when it started (its host
  /// is a media host), and the proxy forwards each peer's media.
  ///
  /// - Returns: Whether the server has a media socket.
  public func startMedia() -> Bool {
    guard mediaPort != nil else { return false }
    state.withLock { $0.hasMedia = true }
    return true
  }

  /// The service's media-plane counts.
  ///
  /// - Returns: The counts, if the run has a media plane.
  public func mediaStatistics() -> MediaPlaneStatistics? {
    guard let server = liveServer(media: true) else { return nil }
    return try? server.loop.runBlocking { server.host.service.mediaStatistics }
  }

  /// The live server, if the service is up (and the run has media, when asked).
  private func liveServer(media: Bool = false) -> LoopbackServer<HostTap>? {
    state.withLock { state in
      media && !state.hasMedia ? nil : state.service?.server
    }
  }

  /// How many of a member's subscriptions are below their top layer or paused.
  ///
  /// - Parameters:
  ///   - user: The member.
  ///   - name: The session name.
  /// - Returns: The count, if the run has a media plane.
  public func subscriptionsBelowTop(of user: UserID, inSession name: String) -> Int? {
    guard let server = liveServer(media: true) else { return nil }
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
    // A fresh instance is a fresh process: a gate of its own (a paused peer is never given
    // one: the runner makes instances of live peers only).
    return GatedLinkFactory(
      LoopbackLinkFactory(loop: loop, port: port, configuration: linkConfiguration),
      gate: gates.value.freshGate(of: peer))
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
    guard let server = liveServer() else { return nil }
    return try? server.loop.runBlocking { server.host.service.state(ofSession: name) }
  }

  /// The service's newest sequence number in a session.
  ///
  /// - Parameter name: The session name.
  /// - Returns: The sequence number, if the session lives.
  public func serviceSequence(ofSession name: String) -> UInt64? {
    guard let server = liveServer() else { return nil }
    return (try? server.loop.runBlocking { server.host.service.lastSequence(ofSession: name) })
      ?? nil
  }

  /// Per peer, the chat messages the service sent on its current open connection.
  ///
  /// - Returns: What each peer's callbacks must have delivered.
  public func expectedChat() -> ExpectedChat { state.withLock { $0.tap }.expectedChat() }

  /// Injects a fault.
  ///
  /// - Parameter fault: The fault.
  /// - Returns: Whether this mode could: false only for link behaviour no proxy has
  ///   (duplication, reordering, loss bursts), which loading for this mode refuses.
  public func inject(_ fault: WorldFault) -> Bool {
    let proxy = proxy.value
    switch fault {
    case .partition(let a, let b, let oneWay):
      // The proxy cuts peers from the service; a cut between two peers is no cut at all,
      // here as in deterministic mode, since peers only talk to the service.
      let aHasService = a.contains("service")
      let bHasService = b.contains("service")
      guard aHasService != bHasService else { return true }
      let peers = aHasService ? b : a
      let direction: LinkDirections =
        oneWay ? (aHasService ? .downlink : .uplink) : .both
      for peer in peers { cut(peer, direction) }
      return true
    case .heal:
      let paused = state.withLock { state in
        state.cuts = [:]
        return state.paused
      }
      // Paused peers stay held: heal everyone else.
      proxy.heal(peers: Set(proxy.peers).subtracting(paused))
      return true
    case .hold(let peer, let direction):
      cut(peer, direction)
      return true
    case .release(let peer, _):
      state.withLock { _ = $0.cuts.removeValue(forKey: peer) }
      syncPartition(of: peer)
      return true
    case .kill(let peer):
      state.withLock { state in
        _ = state.dead.insert(peer)
        _ = state.paused.remove(peer)
      }
      gates.value.kill(peer)
      syncPartition(of: peer)
      _ = proxy.kill(peer: peer)
      return true
    case .revive(let peer):
      state.withLock { _ = $0.dead.remove(peer) }
      return true
    case .pause(let peer):
      let alive = state.withLock { state in
        guard !state.dead.contains(peer) else { return false }
        state.paused.insert(peer)
        return true
      }
      guard alive else { return true }
      // The network holds what is in flight both ways; the process stops.
      _ = proxy.partition([peer], direction: .both)
      gates.value.gate(of: peer).pause()
      return true
    case .resume(let peer):
      guard state.withLock({ $0.paused.remove(peer) }) != nil else { return true }
      // What the proxy held goes on first, then the process reads what waited for it.
      syncPartition(of: peer)
      gates.value.gate(of: peer).resume()
      return true
    case .killService:
      killService()
      return true
    case .startService:
      startService()
      return true
    case .clockSkew(let peer, let skew):
      state.withLock { $0.skews[peer] = skew }
      return true
    case .impair(let peer, let direction, let link):
      let lane = direction
      _ = proxy.setDelay(link.delay?.milliseconds ?? 0, peer: peer, direction: lane)
      _ = proxy.setLoss(link.loss ?? 0, peer: peer, direction: lane)
      _ = proxy.setJitter(link.jitter?.milliseconds ?? 0, peer: peer, direction: lane)
      _ = proxy.setDistribution(link.proxyDistribution, peer: peer, direction: lane)
      let cap = link.bandwidth.map {
        MediaBandwidthCap(
          bitsPerSecond: $0.bitsPerSecond, queueLimitBytes: link.queueBytes ?? 65_536)
      }
      _ = proxy.setBandwidth(cap, peer: peer, direction: lane)
      return link.unsupportedFields(in: .loopback).isEmpty
    }
  }

  private func cut(_ peer: String, _ direction: LinkDirections) {
    state.withLock { $0.cuts[peer] = direction }
    _ = proxy.value.partition([peer], direction: direction)
  }

  /// Makes the proxy's partition of `peer` what the state says: both ways while paused,
  /// otherwise its cut, if any.
  private func syncPartition(of peer: String) {
    let (paused, cut) = state.withLock { ($0.paused.contains(peer), $0.cuts[peer]) }
    guard !paused else { return }
    let proxy = proxy.value
    proxy.heal(peers: [peer])
    if let cut { _ = proxy.partition([peer], direction: cut) }
  }

  /// The server dies with its state: its listener, media socket and connections go (reset),
  /// and the peers' proxied connections with them.
  private func killService() {
    let dying = state.withLock { state in
      let service = state.service
      state.service = nil
      return service
    }
    dying?.server.kill()
  }

  /// A fresh server with a fresh service on the same ports, with the secrets of the next
  /// restart (as deterministic mode does), noting send times again if the run does.
  private func startService() {
    let number = state.withLock { state -> UInt64? in
      guard state.service == nil else { return nil }
      state.restarts &+= 1
      return state.restarts
    }
    guard let number else { return }
    var configuration = serviceConfiguration
    configuration.secrets = serviceConfiguration.secrets.restarted(number)
    // The ports were just freed; another socket may hold one for a moment: try a few times.
    var attempts = 0
    while true {
      do {
        let fresh = try Self.startServer(
          configuration, port: port, mediaPort: mediaPort ?? 0)
        let notes = state.withLock { state in
          state.service = fresh
          state.tap = fresh.tap
          return state.notesSendTimes
        }
        if notes { armSendTimes(fresh.tap) }
        return
      } catch {
        attempts += 1
        guard attempts < 50 else { return }
        usleep(20_000)
      }
    }
  }

  /// Sends every network event to `sink` as it happens.
  ///
  /// - Parameter sink: Gets each event's line.
  public func traceNetwork(to sink: @escaping (String) -> Void) {}

  /// Starts noting when the service first sends each event, in milliseconds since the run
  /// started (the server's loop reads the clock), again after each restart.
  package func noteEventSendTimes() {
    let tap = state.withLock { state in
      state.notesSendTimes = true
      return state.tap
    }
    armSendTimes(tap)
  }

  private func armSendTimes(_ tap: HostTap) {
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
  package func eventSentAt(sequence: UInt64) -> Int64? {
    state.withLock { $0.tap }.sentAt(sequence: sequence)
  }

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
    let gates = gates
    try? loop.runBlocking {
      proxy.value.shutdown()
      gates.value.killAll()
    }
    _ = loop.shutdown()
    let server = state.withLock { state in
      let service = state.service
      state.service = nil
      return service
    }
    _ = server?.server.shutdown()
  }
}

/// The peers' gates by name: each peer's newest instance's (see ``PeerGate``).
///
/// > Important: Loop-confined to the client loop.
private final class GateTable {
  private var gates: [String: PeerGate] = [:]

  /// The gate of the peer's newest instance (made if it has none yet).
  func gate(of peer: String) -> PeerGate {
    if let gate = gates[peer], !gate.isDead { return gate }
    let gate = PeerGate()
    gates[peer] = gate
    return gate
  }

  /// A gate for a fresh instance of the peer: the old one's, if it still lives, is killed
  /// (a paused peer's new instance starts paused).
  func freshGate(of peer: String) -> PeerGate {
    let wasPaused = gates[peer].map { $0.isPaused && !$0.isDead } ?? false
    gates[peer]?.kill()
    let gate = PeerGate()
    if wasPaused { gate.pause() }
    gates[peer] = gate
    return gate
  }

  /// The peer's process died.
  func kill(_ peer: String) {
    gates[peer]?.kill()
  }

  /// The run ended: no gate delivers anything more.
  func killAll() {
    for gate in gates.values { gate.kill() }
  }
}

/// Loop-confined.
@available(*, unavailable)
extension GateTable: Sendable {}

extension LinkSpec {
  /// The proxies' delay distribution for this spec, as deterministic mode's
  /// ``SessionSimulation/LinkSpec/behavior`` reads it (milliseconds).
  var proxyDistribution: ProxyDelayDistribution {
    guard let distribution else { return .constant }
    switch distribution.kind {
    case .constant:
      return .constant
    case .uniform:
      return .uniform(max: Double(distribution.max?.milliseconds ?? 0))
    case .normal:
      return .normal(
        mean: Double(distribution.mean?.milliseconds ?? 0),
        standardDeviation: Double(distribution.standardDeviation?.milliseconds ?? 0))
    case .exponential:
      return .exponential(mean: Double(distribution.mean?.milliseconds ?? 0))
    case .pareto:
      return .pareto(
        scale: Double(distribution.scale?.milliseconds ?? 1), shape: distribution.shape ?? 2)
    }
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
