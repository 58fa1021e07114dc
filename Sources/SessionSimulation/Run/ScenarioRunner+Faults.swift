import SessionCore
import SessionSDK
import SessionTransport
import VirtualNetwork

extension ScenarioRunner {
  // MARK: Scripted faults

  /// Injects a scripted fault, and schedules its undoing when it has a `for`.
  func inject(_ fault: FaultSpec) {
    faultCount += 1
    let targets = select(fault.peers ?? "*")
    let directions = Self.directions(fault.direction ?? .both)
    switch fault.kind {
    case .partition:
      let groups = fault.groups ?? [[fault.peers ?? "*"], ["service"]]
      guard groups.count == 2 else { return }
      let sides = groups.map(resolve)
      apply(.partition(sides[0], sides[1], oneWay: fault.oneWay ?? false))
      if let span = fault.duration { schedule(after: span) { $0.apply(.heal) } }
    case .heal:
      apply(.heal)
    case .hold:
      for peer in targets { for direction in directions { apply(.hold(peer.name, direction)) } }
      if let span = fault.duration {
        schedule(after: span) { runner in
          for peer in targets {
            for direction in directions { runner.apply(.release(peer.name, direction)) }
          }
        }
      }
    case .release:
      for peer in targets { for direction in directions { apply(.release(peer.name, direction)) } }
    case .kill:
      for peer in targets { kill(peer) }
      if let span = fault.duration {
        schedule(after: span) { runner in targets.forEach(runner.restart) }
      }
    case .restart:
      targets.forEach(restart)
    case .pause:
      for peer in targets where peer.life == .alive {
        apply(.pause(peer.name))
        peer.life = .paused
      }
      if let span = fault.duration {
        schedule(after: span) { runner in targets.forEach(runner.resume) }
      }
    case .resume:
      targets.forEach(resume)
    case .killService:
      killService()
      if let span = fault.duration { schedule(after: span) { $0.restartService() } }
    case .restartService:
      restartService()
    case .clockSkew:
      for peer in targets {
        let total = (skews[peer.name] ?? 0) &+ (fault.skewMilliseconds ?? 0)
        skews[peer.name] = total
        apply(.clockSkew(peer.name, total))
      }
    case .impair:
      for peer in targets {
        let base = baseLinks[peer.name] ?? NetworkSpec()
        let impaired = base.overridden(by: fault.network)
        for direction in directions {
          apply(.impair(peer.name, direction, impaired.link(uplink: direction == .uplink)))
        }
      }
      if let span = fault.duration {
        schedule(after: span) { runner in
          for peer in targets { runner.restore(peer, directions) }
        }
      }
    case .restore:
      for peer in targets { restore(peer, directions) }
    }
  }

  /// Schedules work `span` after now.
  func schedule(after span: SimDuration, _ work: @escaping @Sendable (ScenarioRunner) -> Void) {
    schedule(at: world.elapsed + span.milliseconds, work)
  }

  func apply(_ fault: WorldFault) {
    if options.keepsTrace { trace.recordNetwork("fault \(fault)") }
    noteOnTimeline(fault)
    if !world.inject(fault) { refuse(Self.kindName(fault)) }
  }

  /// A fault the world could not apply: the run fails, since it did not test what the
  /// scenario says (a mode refuses, when loaded, what it cannot do; this is the backstop).
  func refuse(_ kind: String) {
    fail("fault", peer: nil, "the \(world.modeName) world could not apply a \(kind) fault")
  }

  private func resolve(_ side: [String]) -> [String] {
    var names: [String] = []
    for pattern in side {
      if pattern == "service" {
        names.append("service")
      } else {
        names += select(pattern).map(\.name)
      }
    }
    return names
  }

  func kill(_ peer: SimulatedPeer) {
    guard peer.life != .dead else { return }
    apply(.kill(peer.name))
    peer.life = .dead
  }

  /// A killed peer starts again as a fresh instance and, if it was in the session (or
  /// wanted to be), joins anew.
  func restart(_ peer: SimulatedPeer) {
    guard peer.life == .dead else { return }
    let rejoins = peer.wantsSession
    apply(.revive(peer.name))
    peer.life = .alive
    peer.reincarnate()
    if rejoins { join(peer) }
  }

  func resume(_ peer: SimulatedPeer) {
    guard peer.life == .paused else { return }
    apply(.resume(peer.name))
    peer.life = .alive
  }

  func restore(_ peer: SimulatedPeer, _ directions: [LinkDirections]) {
    let base = baseLinks[peer.name] ?? NetworkSpec()
    for direction in directions {
      apply(.impair(peer.name, direction, base.link(uplink: direction == .uplink)))
    }
  }

  func killService() {
    guard !serviceDown else { return }
    apply(.killService)
    serviceDown = true
  }

  func restartService() {
    guard serviceDown else { return }
    apply(.startService)
    serviceDown = false
  }

  /// The end of the scripted part: every fault undone, every paused peer resumed, a killed
  /// service restarted, every link back to its base.
  func healEverything(at elapsed: Int64) {
    healedAt = elapsed
    apply(.heal)
    restartService()
    for peer in peers {
      resume(peer)
      restore(peer, [.uplink, .downlink])
    }
    // The behaviours stop: a talking peer falls silent, a peer out between a behaviour's
    // leave and its rejoin comes back now.
    for peer in peers where peer.canAct {
      if peer.isTalking { perform(.talk, by: peer, value: false) }
      // The synthetic microphones' talking models fall silent too, or their reports would
      // keep signalling in flight for ever.
      if hasMedia, !peer.isTalking { _ = peer.sdk.getAudioHelper().simulateTalking(false) }
      if peer.rejoinsByBehaviour {
        peer.rejoinsByBehaviour = false
        join(peer)
      }
    }
  }

  static func directions(_ direction: LinkDirections) -> [LinkDirections] {
    direction == .both ? [.uplink, .downlink] : [direction]
  }

  private static func kindName(_ fault: WorldFault) -> String {
    switch fault {
    case .partition: "partition"
    case .heal: "heal"
    case .hold, .release: "hold"
    case .kill, .revive: "kill"
    case .pause, .resume: "pause"
    case .killService, .startService: "service restart"
    case .clockSkew: "clock skew"
    case .impair: "link behaviour"
    }
  }

  // MARK: Random faults

  /// Turns each random fault process into faults at times, drawn from the process's own
  /// stream (so adding a process changes no other's draws).
  func scheduleRandomFaults(_ scenario: Scenario) {
    for fault in Self.drawRandomFaults(of: scenario, streams: streams) {
      schedule(at: fault.at.milliseconds) { $0.inject(fault) }
    }
  }

  /// The faults the scenario's random processes inject, drawn from the seed's streams: the
  /// same list every time for one scenario and seed. The shrinker turns a failing run's
  /// processes into these scripted faults so that it can drop them one by one.
  ///
  /// - Parameters:
  ///   - scenario: The scenario (swarm draws already applied, if any).
  ///   - streams: The run's random streams.
  /// - Returns: The faults, in the processes' order and each process's time order.
  static func drawRandomFaults(of scenario: Scenario, streams: RandomStreams) -> [FaultSpec] {
    let names = scenario.peers.flatMap(\.names)
    var faults: [FaultSpec] = []
    for (number, process) in scenario.randomFaults.enumerated() where process.perMinute > 0 {
      var random = streams.stream("faults/\(number)/\(process.kind.rawValue)")
      let start = process.start?.milliseconds ?? 0
      let end = min(process.end?.milliseconds ?? Int64.max, scenario.duration.milliseconds)
      let mean = 60_000 / process.perMinute
      var time = Double(start)
      let pattern = process.peers ?? "*"
      let candidates = names.filter { $0 == pattern || PeerPattern.matches(pattern, $0) }
      let span = process.duration ?? SimDurationRange(from: .seconds(1), to: .seconds(5))
      while true {
        time += random.exponential(mean: mean)
        guard time < Double(end) else { break }
        let length = draw(span, &random)
        let at = SimDuration.ms(Int64(time))
        switch process.kind {
        case .killService:
          faults.append(FaultSpec(at: at, .killService, for: length))
        default:
          guard !candidates.isEmpty else { continue }
          let peer = candidates[Int(random.next() % UInt64(candidates.count))]
          switch process.kind {
          case .partition:
            faults.append(
              FaultSpec(at: at, .partition, groups: [[peer], ["service"]], for: length))
          case .hold:
            let direction: LinkDirections = random.next() & 1 == 0 ? .uplink : .downlink
            faults.append(FaultSpec(at: at, .hold, peers: peer, direction: direction, for: length))
          case .kill:
            faults.append(FaultSpec(at: at, .kill, peers: peer, for: length))
          case .pause:
            faults.append(FaultSpec(at: at, .pause, peers: peer, for: length))
          case .impair:
            faults.append(
              FaultSpec(at: at, .impair, peers: peer, for: length, network: process.network))
          case .killService:
            continue
          }
        }
      }
    }
    return faults
  }

  /// A span drawn uniformly from a range.
  static func draw(_ range: SimDurationRange, _ random: inout SimulationRandom) -> SimDuration {
    let width = range.to.milliseconds - range.from.milliseconds
    guard width > 0 else { return range.from }
    return .ms(range.from.milliseconds + Int64(random.next() % UInt64(width + 1)))
  }
}
