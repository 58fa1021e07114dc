import SessionCore
import SessionService
import SessionTransport
import VirtualNetwork

/// The deterministic mode: the service and every SDK instance on one ``VirtualNetwork/VirtualNetwork``, in
/// the caller's thread, on a virtual clock that moves only when the run moves it. The same
/// scenario and seed give the same trace, byte for byte.
///
/// > Important: Confined to the thread that made it, with everything on its network.
public final class DeterministicWorld: SimulationWorld, EventSendTimes {
  /// The network everything runs on.
  public let network: VirtualNetwork
  private let serviceConfiguration: ServiceConfiguration
  private var tap: HostTap
  private let tracesNetwork: Bool
  private var restarts: UInt64 = 0
  private var hasMedia = false
  private var notesSendTimes = false

  /// Makes a world.
  ///
  /// - Parameters:
  ///   - seed: The run's seed; the network and the service draw from their own streams of it.
  ///   - service: The service's configuration.
  ///   - network: The network's timeouts and defaults.
  ///   - tracesNetwork: Whether every network event goes into the run's trace.
  public init(
    seed: UInt64, service: ServiceConfiguration,
    network: VirtualNetworkConfiguration = VirtualNetworkConfiguration(),
    tracesNetwork: Bool = false
  ) {
    self.network = VirtualNetwork(seed: seed, configuration: network)
    self.serviceConfiguration = service
    self.tracesNetwork = tracesNetwork
    tap = HostTap(SessionService(configuration: service))
    self.network.startHost(tap)
  }

  /// The mode's name for reports.
  public var modeName: String { "deterministic" }
  /// Milliseconds since the run started.
  public var elapsed: Int64 { network.now / 1_000 }
  /// The wall time the run's start stands for, in milliseconds since 1970.
  public var epochMilliseconds: Int64 { network.configuration.epochMilliseconds }

  /// Runs `work` at `elapsed` milliseconds after the start (at once when past).
  ///
  /// - Parameters:
  ///   - elapsed: When.
  ///   - work: The work.
  public func schedule(at elapsed: Int64, _ work: @escaping @Sendable () -> Void) {
    network.schedule(at: max(network.now, Self.micro(elapsed)), work)
  }

  /// Runs everything due until the clock reads `elapsed`.
  ///
  /// - Parameter elapsed: Milliseconds after the start.
  /// - Throws: When the world cannot run.
  public func run(until elapsed: Int64) throws {
    network.run(until: max(network.now, Self.micro(elapsed)))
  }

  /// Runs until no message is in flight, for at most `limit` milliseconds.
  ///
  /// - Parameter limit: Milliseconds.
  /// - Returns: Whether nothing is in flight.
  public func settle(limit: Int64) throws -> Bool {
    // Streaming media keeps datagrams in flight for ever: with media, settle on signalling.
    network.runUntilIdle(limit: Self.micro(max(0, limit)), countingDatagrams: !hasMedia)
  }

  /// Runs `body` on the world's domain and returns what it returned.
  ///
  /// - Parameter body: The work.
  /// - Returns: What `body` returned.
  /// - Throws: When the world cannot reach its domain.
  public func perform<Result: Sendable>(_ body: @escaping @Sendable () -> Result) throws -> Result {
    body()
  }

  /// The links the peer's SDK instance uses.
  ///
  /// - Parameter peer: The peer's name.
  /// - Returns: A link factory.
  public func transport(for peer: String) -> any SessionLinkFactory { network.peer(peer) }

  /// The peer's media links: the node's end of the lossy channel, once ``startMedia()`` ran.
  ///
  /// - Parameter peer: The peer's name.
  /// - Returns: A media link factory, or `nil` before ``startMedia()``.
  public func mediaTransport(for peer: String) -> (any MediaLinkFactory)? {
    hasMedia ? network.peer(peer) : nil
  }

  /// Attaches the service as the media host of the service node (and each restarted
  /// service after it).
  ///
  /// - Returns: Always true.
  public func startMedia() -> Bool {
    hasMedia = true
    if network.isHostRunning { network.attachMediaHost(tap) }
    return true
  }

  /// The service's media-plane counts, if it lives.
  ///
  /// - Returns: The counts.
  public func mediaStatistics() -> MediaPlaneStatistics? {
    hasMedia && network.isHostRunning ? tap.service.mediaStatistics : nil
  }

  /// How many of a member's subscriptions are below their top layer or paused.
  ///
  /// - Parameters:
  ///   - user: The member.
  ///   - name: The session name.
  /// - Returns: The count, if the service lives with a media plane.
  public func subscriptionsBelowTop(of user: UserID, inSession name: String) -> Int? {
    guard hasMedia, network.isHostRunning else { return nil }
    return tap.service.mediaRouter(ofSession: name)?.subscriptionsBelowTop(of: user)
  }

  /// The peer's clock, in milliseconds since 1970.
  ///
  /// - Parameter peer: The peer's name.
  /// - Returns: The clock.
  public func clock(for peer: String) -> () -> Int64 { network.peer(peer).clock }

  /// Members of the service's roster whose connection the peer closed while the service
  /// still holds it.
  ///
  /// - Parameter name: The session name.
  /// - Returns: Each ghost's user id and peer, by id.
  public func ghostMembers(ofSession name: String) -> [(user: UserID, peer: String)] {
    guard network.isHostRunning else { return [] }
    let closed = network.connectionsOpenAfterClientClose()
    guard !closed.isEmpty else { return [] }
    return tap.service.memberConnections(ofSession: name)
      .compactMap { user, connection in closed[connection].map { (user, $0) } }
      .sorted { $0.user < $1.user }
  }

  /// The service's state of a session, if the service and the session live.
  ///
  /// - Parameter name: The session name.
  /// - Returns: The state.
  public func serviceState(ofSession name: String) -> SessionState? {
    network.isHostRunning ? tap.service.state(ofSession: name) : nil
  }

  /// The service's newest sequence number in a session.
  ///
  /// - Parameter name: The session name.
  /// - Returns: The sequence number, if the session lives.
  public func serviceSequence(ofSession name: String) -> UInt64? {
    network.isHostRunning ? tap.service.lastSequence(ofSession: name) : nil
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
    switch fault {
    case .partition(let a, let b, let oneWay):
      network.partition(Set(a), Set(b), oneWay: oneWay)
    case .heal:
      network.heal()
    case .hold(let peer, let direction):
      for side in direction.directions { network.hold(peer: peer, direction: side) }
    case .release(let peer, let direction):
      for side in direction.directions { network.release(peer: peer, direction: side) }
    case .kill(let peer):
      network.kill(peer: peer)
    case .revive(let peer):
      network.peer(peer).restart()
    case .pause(let peer):
      network.pause(peer: peer)
    case .resume(let peer):
      network.resume(peer: peer)
    case .killService:
      network.killHost()
    case .startService:
      // A restarted process draws fresh randomness: session ids and resume tokens of the
      // old incarnation must not come back (a resume would find someone else's place).
      restarts &+= 1
      var configuration = serviceConfiguration
      configuration.secrets = serviceConfiguration.secrets.restarted(restarts)
      tap = HostTap(SessionService(configuration: configuration))
      if notesSendTimes { noteEventSendTimes() }
      network.startHost(tap)
      if hasMedia { network.attachMediaHost(tap) }
    case .clockSkew(let peer, let skew):
      network.setClockSkew(peer: peer, milliseconds: skew)
    case .impair(let peer, let direction, let link):
      for side in direction.directions {
        network.setBehavior(link.behavior, peer: peer, direction: side)
      }
    }
    return true
  }

  /// Sends every network event to `sink` as it happens.
  ///
  /// - Parameter sink: Gets each event's line.
  public func traceNetwork(to sink: @escaping (String) -> Void) {
    guard tracesNetwork else { return }
    network.observer = { event in sink(event.description) }
  }

  /// Ends the run.
  ///
  /// - Returns: What was still in flight, a line each.
  public func finish() -> [String] { network.finish().map(\.description) }

  /// Starts noting when the service first sends each event (again after a restart).
  package func noteEventSendTimes() {
    notesSendTimes = true
    // The tap reads the clock on the service's domain, which is this world's one thread.
    let clock = UncheckedClock(network: network)
    tap.noteSendTimes { clock.elapsed }
  }

  /// When the service first sent an event, once noted.
  ///
  /// - Parameter sequence: The event's sequence number.
  /// - Returns: Milliseconds since the run started; `nil` when not noted.
  package func eventSentAt(sequence: UInt64) -> Int64? { tap.sentAt(sequence: sequence) }

  private static func micro(_ milliseconds: Int64) -> Int64 {
    milliseconds.multipliedReportingOverflow(by: 1_000).overflow
      ? Int64.max / 2 : milliseconds * 1_000
  }
}

/// The virtual clock, for the service's tap: read only on the world's one thread, where the
/// tap runs (hence `@unchecked Sendable`).
private struct UncheckedClock: @unchecked Sendable {
  unowned(unsafe) let network: VirtualNetwork
  var elapsed: Int64 { network.now / 1_000 }
}

extension LinkSpec {
  /// The virtual network's behaviour for this spec (milliseconds as the network takes them).
  public var behavior: LinkBehavior {
    let minimum = Double(delay?.milliseconds ?? 0)
    let spread: DelayDistribution
    if let distribution {
      switch distribution.kind {
      case .constant:
        spread = .constant
      case .uniform:
        spread = .uniform(max: Double(distribution.max?.milliseconds ?? 0))
      case .normal:
        spread = .normal(
          mean: Double(distribution.mean?.milliseconds ?? 0),
          standardDeviation: Double(distribution.standardDeviation?.milliseconds ?? 0))
      case .exponential:
        spread = .exponential(mean: Double(distribution.mean?.milliseconds ?? 0))
      case .pareto:
        spread = .pareto(
          scale: Double(distribution.scale?.milliseconds ?? 1), shape: distribution.shape ?? 2)
      }
    } else {
      spread = .constant
    }
    let lossModel: LossModel
    if let loss, loss > 0 {
      if let burst = burstLength, burst > 1 {
        lossModel = .gilbertElliott(lossRate: loss, meanBurstLength: burst)
      } else {
        lossModel = .bernoulli(loss)
      }
    } else {
      lossModel = .none
    }
    return LinkBehavior(
      minimumDelay: minimum, distribution: spread, jitter: Double(jitter?.milliseconds ?? 0),
      loss: lossModel,
      bandwidth: bandwidth.map {
        Bandwidth(bitsPerSecond: $0.bitsPerSecond, queueLimitBytes: queueBytes ?? 65_536)
      },
      duplicateProbability: duplicate ?? 0, allowsReordering: reorder ?? false)
  }
}
