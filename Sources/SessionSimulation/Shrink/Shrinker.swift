import VirtualNetwork

/// Reduces a failing deterministic run to a smaller scenario that fails the same way: fewer
/// peers, smaller groups, fewer actions, behaviours, faults and assertions, a shorter
/// duration.
///
/// Greedy, in passes: each pass tries every reduction once and keeps those after which the
/// run still fails with the same check as the original's first failure; passes repeat until
/// one keeps nothing or the budget of runs is spent. The seed stays the same, and since every
/// peer and process draws from its own stream, removing one changes no other's draws.
///
/// > Important: A value; each ``shrink(_:failing:)`` runs on the caller's thread.
public struct Shrinker: Sendable {
  /// The seed of the failing run.
  public var seed: UInt64
  /// Whether the failing run drew swarm rates.
  public var swarm: Bool
  /// The most runs to spend.
  public var budget: Int

  /// What shrinking found.
  public struct Result: Sendable {
    /// The smallest failing scenario found.
    public var scenario: Scenario
    /// Its run's report.
    public var report: RunReport
    /// How many runs were spent.
    public var runs: Int
  }

  /// Makes a shrinker.
  ///
  /// - Parameters:
  ///   - seed: The failing run's seed.
  ///   - swarm: Whether it drew swarm rates.
  ///   - budget: The most runs to spend (default 300).
  public init(seed: UInt64, swarm: Bool = false, budget: Int = 300) {
    self.seed = seed
    self.swarm = swarm
    self.budget = budget
  }

  /// Shrinks a failing scenario.
  ///
  /// - Parameters:
  ///   - scenario: The scenario that failed.
  ///   - report: Its failing report.
  /// - Returns: The smallest scenario that still fails the same check, with its report.
  /// - Throws: What a run throws.
  public func shrink(_ scenario: Scenario, failing report: RunReport) throws -> Result {
    guard let check = report.failures.first?.check else {
      return Result(scenario: scenario, report: report, runs: 0)
    }
    var runs = 0
    var drawsSwarm = swarm
    func stillFails(_ candidate: Scenario) throws -> RunReport? {
      guard runs < budget, (try? ScenarioLoader.validate(candidate)) != nil else { return nil }
      runs += 1
      let outcome = try Simulation.run(
        candidate, mode: .deterministic, options: RunOptions(seed: seed, swarm: drawsSwarm))
      return outcome.report.failures.contains { $0.check == check } ? outcome.report : nil
    }
    var best = scenario
    var bestReport = report
    // Swarm draws and random processes become plain network settings and scripted faults,
    // the same ones the failing run had, so that each can be dropped on its own. If the
    // written-out scenario does not fail the same way, shrink the original as it is.
    let written = Self.materialized(scenario, seed: seed, swarm: swarm)
    if written != scenario {
      drawsSwarm = false
      if let failing = try stillFails(written) {
        best = written
        bestReport = failing
      } else {
        drawsSwarm = swarm
      }
    }
    var progressed = true
    while progressed && runs < budget {
      progressed = false
      for candidate in Self.candidates(of: best) {
        guard runs < budget else { break }
        if let failing = try stillFails(Self.pruned(candidate)) {
          best = Self.pruned(candidate)
          bestReport = failing
          progressed = true
          break
        }
      }
    }
    return Result(scenario: best, report: bestReport, runs: runs)
  }

  /// The scenario with its swarm draws applied and its random fault processes written out as
  /// the scripted faults they inject with `seed`.
  static func materialized(_ scenario: Scenario, seed: UInt64, swarm: Bool) -> Scenario {
    let streams = RandomStreams(seed: seed)
    var result = swarm ? SwarmDraw.apply(to: scenario, streams: streams) : scenario
    result.swarm = nil
    guard !result.randomFaults.isEmpty else { return result }
    result.faults += ScenarioRunner.drawRandomFaults(of: result, streams: streams)
    result.faults.sort { $0.at < $1.at }
    result.randomFaults = []
    return result
  }

  /// Smaller variants of a scenario, the biggest cuts first.
  static func candidates(of scenario: Scenario) -> [Scenario] {
    var result: [Scenario] = []
    func without<Element>(_ keyPath: WritableKeyPath<Scenario, [Element]>) {
      let items = scenario[keyPath: keyPath]
      guard !items.isEmpty else { return }
      if items.count > 1 {
        var half = scenario
        half[keyPath: keyPath] = Array(items.prefix(items.count / 2))
        result.append(half)
        var other = scenario
        other[keyPath: keyPath] = Array(items.suffix(items.count - items.count / 2))
        result.append(other)
      }
      for index in items.indices {
        var fewer = scenario
        fewer[keyPath: keyPath].remove(at: index)
        result.append(fewer)
      }
    }
    without(\.peers)
    for (index, peer) in scenario.peers.enumerated() where peer.count > 1 {
      var halved = scenario
      halved.peers[index].count = peer.count / 2
      result.append(halved)
      var less = scenario
      less.peers[index].count = peer.count - 1
      result.append(less)
    }
    without(\.faults)
    without(\.randomFaults)
    without(\.behaviours)
    without(\.actions)
    without(\.expect.assertions)
    if scenario.duration.milliseconds > 1_000 {
      var shorter = scenario
      shorter.duration = .ms(scenario.duration.milliseconds / 2)
      result.append(shorter)
    }
    if scenario.network != nil {
      var ideal = scenario
      ideal.network = nil
      result.append(ideal)
    }
    return result
  }

  /// The scenario without what refers to peers it no longer has.
  static func pruned(_ scenario: Scenario) -> Scenario {
    var result = scenario
    let names = Set(scenario.peers.flatMap(\.names))
    func matches(_ pattern: String) -> Bool {
      names.contains(pattern) || names.contains { PeerPattern.matches(pattern, $0) }
    }
    func known(_ name: String?) -> Bool { name.map(names.contains) ?? true }
    result.actions.removeAll { !matches($0.peer) || !known($0.target) }
    result.behaviours.removeAll { !matches($0.peers) }
    result.faults.removeAll { fault in
      if let peers = fault.peers, !matches(peers) { return true }
      if let groups = fault.groups {
        return groups.contains { side in !side.contains { $0 == "service" || matches($0) } }
      }
      return false
    }
    result.faults = result.faults.map { fault in
      var fault = fault
      fault.groups = fault.groups?.map { side in side.filter { $0 == "service" || matches($0) } }
      return fault
    }
    result.randomFaults.removeAll { process in process.peers.map { !matches($0) } ?? false }
    result.expect.assertions = result.expect.assertions.compactMap { assertion in
      if let peers = assertion.peers, !matches(peers) { return nil }
      guard known(assertion.host) else { return nil }
      var assertion = assertion
      assertion.managers = assertion.managers?.filter(names.contains)
      assertion.sees = assertion.sees?.filter(names.contains)
      assertion.doesNotSee = assertion.doesNotSee?.filter(names.contains)
      assertion.sharing = assertion.sharing?.filter(names.contains)
      assertion.videoOn = assertion.videoOn?.filter(names.contains)
      return assertion
    }
    return result
  }
}
