import Foundation
import SessionCore
import SessionSDK
import SessionService
import SessionTransport
import VirtualNetwork

/// How a run goes, beyond what the scenario says.
///
/// > Important: A value; `Sendable`.
public struct RunOptions: Sendable {
  /// The seed; every random draw of the run comes from it.
  public var seed: UInt64
  /// Draw network and fault rates from the scenario's swarm ranges.
  public var swarm: Bool
  /// Record the trace: its lines (for `--trace`, replays and determinism checks) and its
  /// digest. Off, a run records nothing per callback, which a 1,000-peer run feels.
  public var keepsTrace: Bool
  /// Called with a short progress line now and then (a terminal's live line).
  public var progress: (@Sendable (String) -> Void)?
  /// The replay command's arguments besides the scenario and seed (`--mode loopback`, …).
  public var replayArguments: [String]
  /// A peer whose roster to narrate: each time it changes as that peer sees it, ``narrate``
  /// gets a line (role order; ★ host, ☆ manager, ⧉ sharing).
  public var watch: String?
  /// Gets the watched peer's roster lines, on the world's domain.
  public var narrate: (@Sendable (String) -> Void)?
  /// Up to this many participants every replica checks its invariants after every event;
  /// above it, each replica checks a staggered sample of its events, so that the checks cost
  /// O(n) per event across the session (one full check costs O(n log n), so checking every
  /// replica would cost O(n² log n) per event), and this many evenly spaced replicas check at
  /// each liveness checkpoint and at the end.
  public var invariantsOnEveryReplicaUpTo = 100
  /// What makes loopback mode's world: `LoopbackWorld.maker` from `LoopbackSimulation`;
  /// `nil` (the default) runs deterministic mode only.
  public var loopbackWorld: LoopbackWorldMaker?
  /// App code for each peer (its view model, say), as many copies as there are peers: called
  /// with each peer's name whenever the peer's instance is made (again after a kill). The
  /// delegate it returns is the instance's delegate, kept alive by the run, and the instance is
  /// the shared one in every callback it delivers, so unchanged app code that calls
  /// `ZoomVideoSDK.shareInstance()` finds its own peer's instance. Callbacks arrive where the
  /// run runs: run from the main actor for main-actor app code.
  public var appDelegate: (@Sendable (_ peer: String) -> (any VideoSDKDelegate)?)?
  /// Record the run's timeline for its HTML report (``Simulation/Outcome/timeline``): every
  /// peer's state sampled over time, the faults, rosters, media and callback latency. Reading
  /// only: the run's trace is the same with it as without.
  package var recordsTimeline = false

  /// Makes options.
  ///
  /// - Parameters:
  ///   - seed: The seed every random draw of the run comes from.
  ///   - swarm: Whether to draw network and fault rates from the scenario's swarm ranges;
  ///     `false` by default.
  ///   - keepsTrace: Whether to record the trace's lines and digest; `false` by default.
  ///   - progress: Gets a short progress line now and then; `nil` (the default) for none.
  ///   - replayArguments: The replay command's arguments besides the scenario and seed; none by
  ///     default.
  ///   - watch: The peer whose roster to narrate; `nil` (the default) for none.
  ///   - narrate: Gets the watched peer's roster lines, on the world's domain.
  public init(
    seed: UInt64, swarm: Bool = false, keepsTrace: Bool = false,
    progress: (@Sendable (String) -> Void)? = nil, replayArguments: [String] = [],
    watch: String? = nil, narrate: (@Sendable (String) -> Void)? = nil
  ) {
    self.watch = watch
    self.narrate = narrate
    self.seed = seed
    self.swarm = swarm
    self.keepsTrace = keepsTrace
    self.progress = progress
    self.replayArguments = replayArguments
  }
}

/// Runs one scenario with one seed in one world: schedules the joins, actions, behaviours and
/// faults, watches every replica, heals, checks convergence and liveness, and reports.
///
/// > Important: Confined to the world's domain (see ``SimulationWorld``): everything but
/// > ``run()`` runs inside work the world runs. `@unchecked Sendable` only so that the
/// > world's scheduled work can carry it there.
public final class ScenarioRunner: @unchecked Sendable {
  let scenario: Scenario
  let options: RunOptions
  let world: any SimulationWorld
  let streams: RandomStreams
  let minter = DevelopmentCredentials.minter
  var peers: [SimulatedPeer] = []
  var peersByName: [String: SimulatedPeer] = [:]
  /// How many peers the run has, all told (``peers`` fills up while the run is set up).
  var peerTotal = 0
  /// What the peers' delivery monitors saw, one column per peer (made when the run is set up,
  /// once the peers are counted).
  private(set) var deliveryLedger = DeliveryLedger(columns: 1, chatNumbers: ChatNumbers())
  var failures: [RunReport.Failure] = []
  var trace = RunTrace()
  var actionCount = 0
  var refusedCount = 0
  var skippedCount = 0
  var refusedOperations: [String: Int] = [:]
  /// Joins the service refused, by the SDK error name.
  var refusedJoins: [String: Int] = [:]
  var faultCount = 0
  var unsupported: [String] = []
  var healedAt: Int64?
  /// Whether the scripted part is over: behaviours and their follow-ups have stopped.
  var isHealed: Bool { healedAt != nil }
  var convergedAt: Int64?
  /// Whether the replicas were found converged with nothing run since: the final checks then
  /// need not compare every replica's facts again.
  var confirmedConvergence = false
  /// The network each peer has when not impaired, per direction.
  var baseLinks: [String: NetworkSpec] = [:]
  /// Total skew per peer.
  var skews: [String: Int64] = [:]
  var serviceDown = false
  /// The failures' cap: past it the run stops recording (the first ones matter).
  let failureLimit = 50
  var chatCounter = 0
  var watchedRoster = ""
  /// Whether the run has a media plane.
  var hasMedia = false
  /// When ``run()`` started.
  var wallStart = ContinuousClock.now
  /// The timeline's recorder, when ``RunOptions/recordsTimeline`` is set.
  var timeline: TimelineRecorder?
  /// The world as one that notes when the service sent each event, if it does (the
  /// timeline's callback latency).
  var eventSendTimes: (any EventSendTimes)?
  /// Whether the timeline stopped sampling (the run ended).
  var timelineFinished = false
  /// The finished timeline, once the run ended.
  private(set) var timelineResult: RunTimeline?
  /// How long after the heal a media run's final checks wait, at least.
  static let mediaSettleTime: Int64 = 12_000

  /// Makes a runner.
  ///
  /// - Parameters:
  ///   - scenario: A validated scenario (see ``ScenarioLoader``).
  ///   - world: Where to run it; fresh.
  ///   - options: The seed and the rest.
  public init(scenario: Scenario, world: any SimulationWorld, options: RunOptions) {
    self.scenario = scenario
    self.world = world
    self.options = options
    self.streams = RandomStreams(seed: options.seed)
    trace.keepsLines = options.keepsTrace
  }

  /// Runs the scenario to its end and reports.
  ///
  /// - Returns: The report.
  /// - Throws: What the world throws when it cannot run (a loop that stopped).
  public func run() throws -> RunReport {
    wallStart = ContinuousClock.now
    let effective = options.swarm ? SwarmDraw.apply(to: scenario, streams: streams) : scenario
    try world.perform { self.setUp(effective) }
    let end = effective.duration.milliseconds
    let livenessEnd = end + effective.expect.liveness.milliseconds
    // The scripted part, then the heal and the liveness phase, checked every 250 ms.
    try runReporting(until: end)
    try world.perform { self.healEverything(at: end) }
    var checkpoint = end
    var finalTime = livenessEnd
    while checkpoint < livenessEnd {
      checkpoint = min(livenessEnd, checkpoint + 250)
      try runReporting(until: checkpoint)
      // A cheap look first (who is in, roster sizes, the host): the full comparison of every
      // replica's facts costs O(n) per replica, and runs once the look passes.
      guard
        try world.perform({
          self.checkEveryReplica()
          return self.looksConverged()
        })
      else { continue }
      // Converged: it counts if it still holds once what was in flight (a chat, a last talk
      // spurt, an app's rejoin) has landed and a second passed.
      try world.run(until: checkpoint + 1_000)
      _ = try world.settle(limit: 10_000)
      let settled = try world.perform { self.world.elapsed }
      if try world.perform({ self.divergence() == nil }) {
        convergedAt = checkpoint - end
        finalTime = settled
        confirmedConvergence = true
        break
      }
      checkpoint = settled
    }
    if convergedAt == nil { try world.run(until: finalTime) }
    if hasMedia {
      // The media's own signalling settles only once the links have been stable for a
      // while: network quality reads the last ten pings, one a second, and changes after two
      // evaluations. So the final checks wait twelve seconds after the heal, then for what is
      // in flight; streams have had their two seconds to recover, and the table reads the
      // last two.
      finalTime = max(finalTime, end + Self.mediaSettleTime)
      confirmedConvergence = false
      try world.run(until: finalTime)
      _ = try world.settle(limit: 10_000)
      finalTime = try world.perform { self.world.elapsed }
    }
    let endTime = finalTime
    try world.perform { self.finalChecks(at: endTime) }
    let media = try world.perform { () -> MediaSummary? in
      guard let summary = self.mediaSummary() else { return nil }
      self.checkMedia(summary)
      return summary
    }
    let inFlight = try world.perform { self.world.finish() }
    let seconds = wallStart.duration(to: .now)
    let wallSeconds =
      Double(seconds.components.seconds) + Double(seconds.components.attoseconds) / 1e18
    let callbacks = try world.perform { self.peers.reduce(0) { $0 + $1.callbackCount } }
    let report = RunReport(
      scenario: effective.name, mode: world.modeName, seed: options.seed,
      failures: Self.namingRefusals(failures.sorted { $0.at < $1.at }, refusedJoins),
      peers: peers.count,
      simulatedMilliseconds: finalTime, wallSeconds: wallSeconds,
      callbacks: callbacks, actions: actionCount, refusedActions: refusedCount,
      refusedByOperation: refusedOperations, refusedJoins: refusedJoins,
      skippedActions: skippedCount, faults: faultCount, unsupportedFaults: unsupported,
      convergedAfterHeal: convergedAt, inFlight: inFlight,
      traceDigest: options.keepsTrace ? trace.digestText : "",
      replayCommand: replayCommand(), media: media)
    if options.recordsTimeline {
      timelineResult = try world.perform { self.finishTimeline(report, scriptedEnd: end) }
    }
    return report
  }

  /// The failures, the first assertion among them (or the first that finds a peer out of the
  /// session) saying how many joins failed before, and why: a full session reads as such, not
  /// as a missing peer alone.
  static func namingRefusals(
    _ failures: [RunReport.Failure], _ refusedJoins: [String: Int]
  ) -> [RunReport.Failure] {
    let total = refusedJoins.values.reduce(0, +)
    guard total > 0,
      let index = failures.firstIndex(where: {
        $0.check == "assertion" || $0.detail.contains("not in the session")
      })
    else { return failures }
    var named = failures
    let reasons = refusedJoins.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }
    named[index].detail +=
      " (\(total) joins failed during the run: \(reasons.joined(separator: ", ")))"
    return named
  }

  /// The trace's lines, when the options kept them.
  public var traceLines: [String] { trace.lines }

  private func runReporting(until elapsed: Int64) throws {
    guard let progress = options.progress else {
      try world.run(until: elapsed)
      return
    }
    var now = (try? world.perform { self.world.elapsed }) ?? 0
    while now < elapsed {
      now = min(elapsed, now + 1_000)
      try world.run(until: now)
      let reached = now
      let wall = wallStart.duration(to: .now)
      let seconds =
        Double(wall.components.seconds) + Double(wall.components.attoseconds) / 1e18
      let line = try world.perform {
        let inSession = self.peers.count { $0.canAct && $0.isInSession }
        let callbacks = self.peers.reduce(0) { $0 + $1.callbackCount }
        return Self.progressLine(
          scenario: self.scenario.name, seed: self.options.seed, virtual: reached,
          wallSeconds: seconds, callbacks: callbacks, inSession: inSession,
          peers: self.peers.count, failures: self.failures.count)
      }
      progress(line)
    }
  }

  /// The live progress line: `classroom seed 1 · 12s virtual · 0.4s wall · 31,000
  /// callbacks/s · 30/31 peers in the session · 0 failures`.
  static func progressLine(
    scenario: String, seed: UInt64, virtual: Int64, wallSeconds: Double, callbacks: Int,
    inSession: Int, peers: Int, failures: Int
  ) -> String {
    let rate: Int = wallSeconds > 0 ? Int((Double(callbacks) / wallSeconds).rounded()) : 0
    let wall: String = String(format: "%.1f", wallSeconds)
    var digits = Array(String(rate))
    var index = digits.count - 3
    while index > 0 {
      digits.insert(",", at: index)
      index -= 3
    }
    let perSecond = String(digits)
    let plural: String = failures == 1 ? "" : "s"
    var parts: [String] = ["\(scenario) seed \(seed)", "\(SimDuration.ms(virtual)) virtual"]
    parts.append("\(wall)s wall")
    parts.append("\(perSecond) callbacks/s")
    parts.append("\(inSession)/\(peers) peers in the session")
    parts.append("\(failures) failure\(plural)")
    return parts.joined(separator: " · ")
  }

  func replayCommand() -> String {
    var parts = ["sessionsim", "run", "<scenario>", "--seed", "\(options.seed)"]
    if options.swarm { parts.append("--swarm") }
    parts += options.replayArguments
    return parts.joined(separator: " ")
  }

  // MARK: Setting up

  private func setUp(_ scenario: Scenario) {
    peerTotal = scenario.peers.reduce(0) { $0 + $1.names.count }
    deliveryLedger = DeliveryLedger(columns: peerTotal, chatNumbers: ChatNumbers())
    if options.keepsTrace {
      world.traceNetwork { [unowned self] line in self.trace.recordNetwork(line) }
    }
    if Self.wantsMedia(scenario) {
      hasMedia = world.startMedia()
      if !hasMedia { noteUnsupported("media") }
    }
    var index = 0
    for spec in scenario.peers {
      for (place, name) in spec.names.enumerated() {
        let peer = SimulatedPeer(
          name: name, spec: spec, index: index, ledger: deliveryLedger
        ) { [unowned self] peer in
          self.makeInstance(for: peer)
        }
        index += 1
        peers.append(peer)
        peersByName[name] = peer
        let base = (scenario.network ?? NetworkSpec()).overridden(by: spec.network)
        baseLinks[name] = base
        applyLinks(base, to: name)
        if let skew = spec.clockSkewMilliseconds, skew != 0 {
          skews[name] = skew
          if !world.inject(.clockSkew(name, skew)) { refuse("clock skew") }
        }
        if let time = spec.joinTime(of: place) {
          schedule(at: time) { $0.join(peer) }
        }
      }
    }
    for action in scenario.actions {
      schedule(at: action.at.milliseconds) { $0.perform(action) }
    }
    for fault in scenario.faults {
      schedule(at: fault.at.milliseconds) { $0.inject(fault) }
    }
    startTimeline(scenario)
    scheduleBehaviours(scenario)
    scheduleRandomFaults(scenario)
    for assertion in scenario.expect.assertions {
      schedule(at: assertion.at.milliseconds) { $0.check(assertion) }
    }
    if let within = scenario.expect.media?.recoverWithin {
      let ends = scenario.faults.compactMap { fault in
        fault.duration.map { fault.at.milliseconds &+ $0.milliseconds }
      }
      if let last = ends.max() {
        schedule(at: last &+ within.milliseconds) { $0.checkRecovery(within: within) }
      }
    }
  }

  /// Schedules work for this runner at `elapsed` milliseconds.
  func schedule(at elapsed: Int64, _ work: @escaping @Sendable (ScenarioRunner) -> Void) {
    world.schedule(at: elapsed) { [self] in work(self) }
  }

  func applyLinks(_ network: NetworkSpec, to peer: String) {
    let up = network.link(uplink: true)
    let down = network.link(uplink: false)
    if up != LinkSpec() || down != LinkSpec() || baseLinks[peer] != network {
      if !world.inject(.impair(peer, .uplink, up)) { refuse("link behaviour") }
      if !world.inject(.impair(peer, .downlink, down)) { refuse("link behaviour") }
    }
  }

  func noteUnsupported(_ what: String) {
    if !unsupported.contains(what) { unsupported.append(what) }
  }

  private func makeInstance(for peer: SimulatedPeer) -> VideoSDK {
    let sdk = VideoSDK()
    if let makeDelegate = options.appDelegate, let delegate = makeDelegate(peer.name) {
      peer.appDelegate = delegate
      sdk.delegate = delegate
      sdk.becomeSharedInstanceInCallbacks()
    }
    let clock = world.clock(for: peer.name)
    let params = InitParams(
      domain: "sim.sessionengine", transport: world.transport(for: peer.name), clock: clock)
    params.reconnectAttempts = 3
    configureMedia(params, for: peer)
    _ = sdk.initialize(params)
    sdk.store.checksInvariants = false
    let checksDelivery = scenario.expect.delivery
    let incarnation = peer.incarnation
    // Read once: `options` holds closures and arrays, which each read from it would retain.
    let keepsTrace = options.keepsTrace
    let isWatched = peer.name == options.watch
    let recordsTimeline = options.recordsTimeline
    let hasMedia = hasMedia
    let limit = max(1, options.invariantsOnEveryReplicaUpTo)
    // Unowned(unsafe): the runner owns its peers, each peer its instance, each instance these
    // closures; no callback comes after the run ends (the world finishes first). Checked
    // unowned references cost two atomic operations each per call, a tenth of a 1,000-peer run.
    // Borrowed, not retained: even an unowned(unsafe) reference is retained around each call
    // made through it, and these two (the runner and the peer, each on its own cache line)
    // were retained and released about five times per callback.
    let runner = Unmanaged.passUnretained(self)
    let observed = Unmanaged.passUnretained(peer)
    sdk.callbackObserver = { callback in
      runner._withUnsafeGuaranteedRef { runner in
        observed._withUnsafeGuaranteedRef { peer in
          guard peer.incarnation == incarnation else { return }
          peer.observe(callback, checksDelivery: checksDelivery)
          if keepsTrace {
            runner.trace.record(peer: peer.index, at: runner.world.elapsed, callback)
          }
          if recordsTimeline { runner.noteOnTimeline(callback, of: peer) }
          runner.afterCallback(callback, of: peer)
          if hasMedia { runner.updateCanvases(after: callback, of: peer) }
          if isWatched { runner.narrateRoster(of: peer) }
        }
      }
    }
    if scenario.expect.invariants {
      // The store samples its own events (no call out per event: a closure and a peer read
      // for each cost a thousand-peer run a tenth of its time) and calls out on a failure.
      sdk.store.invariantSampling = InvariantSampling(
        everyEventUpTo: limit, spread: peerTotal, place: UInt64(peer.index))
      sdk.store.onInvariantViolation = {
        [unowned(unsafe) self, unowned(unsafe) peer] sequence, event, violations in
        guard peer.incarnation == incarnation else { return }
        self.fail(
          "invariants", peer: peer.name,
          "after \(event.name) (applied #\(sequence)): "
            + violations.map(\.description).joined(separator: "; "))
      }
    }
    return sdk
  }

  /// Tells ``RunOptions/narrate`` the watched peer's roster when it changed.
  private func narrateRoster(of peer: SimulatedPeer) {
    guard let narrate = options.narrate else { return }
    let state = peer.sdk.store.current
    let line = peer.isInSession ? state.rosterLine() : "(not in the session)"
    guard line != watchedRoster else { return }
    watchedRoster = line
    let count = peer.isInSession ? state.participants.count : 0
    narrate("\(SimDuration.ms(world.elapsed)) \(peer.name) sees \(count): \(line)")
  }

  /// Live replicas' invariants, now (the sweep that complements sampling): every one in a
  /// session of up to ``RunOptions/invariantsOnEveryReplicaUpTo`` participants; above it, that
  /// many evenly spaced ones.
  func checkEveryReplica() {
    guard scenario.expect.invariants else { return }
    let live = peers.filter { $0.life != .dead }
    let limit = max(1, options.invariantsOnEveryReplicaUpTo)
    let stride = max(1, live.count / limit)
    for peer in live.enumerated().filter({ $0.offset % stride == 0 }).map(\.element) {
      let violations = peer.sdk.store.current.checkInvariants()
      guard !violations.isEmpty else { continue }
      fail(
        "invariants", peer: peer.name,
        "at a checkpoint: " + violations.map(\.description).joined(separator: "; "))
    }
  }

  func fail(_ check: String, peer: String?, _ detail: String) {
    guard failures.count < failureLimit else { return }
    let sequence = peer.flatMap { peersByName[$0] }.map { $0.sdk.lastServiceSequence }
    failures.append(
      RunReport.Failure(
        check: check, peer: peer, at: world.elapsed, sequence: sequence, detail: detail))
  }
}
