import Foundation
import SessionCore
import SessionService
import VirtualNetwork

/// The two ways to run one scenario file.
public enum SimulationMode: String, Sendable, Hashable, Codable, CaseIterable {
  /// The virtual network and clock: same seed, same trace; much faster than real time.
  case deterministic
  /// libuv, real sockets on 127.0.0.1 and real time, faults applied by a proxy.
  case loopback
}

/// Makes loopback mode's world for one run: its seed, the service's configuration and the
/// scenario. The `LoopbackSimulation` module provides one, `LoopbackWorld.maker`; this module
/// needs no libuv without it.
public typealias LoopbackWorldMaker =
  @Sendable (_ seed: UInt64, _ service: ServiceConfiguration, _ scenario: Scenario) throws ->
  any SimulationWorld

/// Runs scenarios: one seed, a determinism check, and the trace a replay compares against.
public enum Simulation {
  /// A finished run: its report and, when kept, its trace's lines.
  public struct Outcome: Sendable {
    /// The report.
    public var report: RunReport
    /// The trace's lines (empty unless kept).
    public var trace: [String]
    /// The run's timeline, when ``RunOptions/recordsTimeline`` was set.
    package var timeline: RunTimeline?
  }

  /// Runs `scenario` once.
  ///
  /// - Parameters:
  ///   - scenario: A validated scenario.
  ///   - mode: Where to run it.
  ///   - options: The seed and the rest.
  /// - Returns: The report, and the trace when `options.keepsTrace`.
  /// - Throws: ``ScenarioError`` when the scenario asks for what the mode cannot do
  ///   (``ScenarioLoader/validate(_:for:)``); otherwise when the mode cannot start (a loop or a
  ///   port) or stops mid-run.
  public static func run(_ scenario: Scenario, mode: SimulationMode, options: RunOptions) throws
    -> Outcome
  {
    let world = try makeWorld(
      mode, scenario: scenario, seed: options.seed, tracesNetwork: options.keepsTrace,
      loopbackWorld: options.loopbackWorld)
    defer { world.shutdown() }
    let runner = ScenarioRunner(scenario: scenario, world: world, options: options)
    let report = try runner.run()
    return Outcome(report: report, trace: runner.traceLines, timeline: runner.timelineResult)
  }

  /// A fresh world of a mode for a scenario.
  ///
  /// - Parameters:
  ///   - mode: The mode.
  ///   - scenario: The scenario (its service settings).
  ///   - seed: The run's seed.
  ///   - tracesNetwork: Whether the network's events go into the trace.
  ///   - loopbackWorld: What makes loopback mode's world (`LoopbackWorld.maker` from
  ///     `LoopbackSimulation`); `nil` refuses loopback mode.
  /// - Returns: The world.
  /// - Throws: ``ScenarioError`` for loopback mode without a maker, or for a scenario that asks
  ///   for what loopback mode cannot do (``ScenarioLoader/validate(_:for:)``); what the maker
  ///   throws when a loopback world cannot start.
  public static func makeWorld(
    _ mode: SimulationMode, scenario: Scenario, seed: UInt64, tracesNetwork: Bool,
    loopbackWorld: LoopbackWorldMaker? = nil
  ) throws -> any SimulationWorld {
    var serviceRandom = RandomStreams(seed: seed).stream("service")
    let serviceSeed = serviceRandom.next()
    let service = ScenarioLoader.serviceConfiguration(for: scenario, seed: serviceSeed)
    switch mode {
    case .deterministic:
      var network = VirtualNetworkConfiguration()
      if let timeout = scenario.service?.heartbeatTimeout?.milliseconds, timeout > 0 {
        network.heartbeatTimeout = timeout
        network.heartbeatInterval = max(1, timeout / 3)
      }
      return DeterministicWorld(
        seed: seed, service: service, network: network, tracesNetwork: tracesNetwork)
    case .loopback:
      guard let loopbackWorld else {
        throw ScenarioError(
          path: "",
          reason: "loopback mode needs the LoopbackSimulation module: set "
            + "RunOptions.loopbackWorld to LoopbackWorld.maker")
      }
      try ScenarioLoader.checkSupported(scenario, in: .loopback)
      return try loopbackWorld(seed, service, scenario)
    }
  }

  /// The result of running a scenario twice with one seed.
  public struct DeterminismCheck: Sendable {
    /// The first run's report.
    public var report: RunReport
    /// Whether both traces are byte-identical.
    public var identical: Bool
    /// Where they first differ: the line number (1-based) and each run's line.
    public var firstDifference: (line: Int, first: String, second: String)?
  }

  /// Runs the scenario twice in deterministic mode and compares the traces line by line.
  ///
  /// - Parameters:
  ///   - scenario: The scenario.
  ///   - options: The seed and the rest (the trace is kept for both runs).
  /// - Returns: Whether they matched, and where not.
  /// - Throws: What ``run(_:mode:options:)`` throws.
  public static func checkDeterminism(_ scenario: Scenario, options: RunOptions) throws
    -> DeterminismCheck
  {
    var kept = options
    kept.keepsTrace = true
    let first = try run(scenario, mode: .deterministic, options: kept)
    kept.progress = nil
    let second = try run(scenario, mode: .deterministic, options: kept)
    let difference = firstDifference(first.trace, second.trace)
    return DeterminismCheck(
      report: first.report, identical: difference == nil, firstDifference: difference)
  }

  /// The first line where two traces differ, or `nil` when they are the same.
  ///
  /// - Parameters:
  ///   - first: One trace.
  ///   - second: The other.
  /// - Returns: The 1-based line number and both lines (`<end>` past a trace's end).
  public static func firstDifference(_ first: [String], _ second: [String])
    -> (line: Int, first: String, second: String)?
  {
    for index in 0..<max(first.count, second.count) {
      let a = index < first.count ? first[index] : "<end>"
      let b = index < second.count ? second[index] : "<end>"
      if a != b { return (index + 1, a, b) }
    }
    return nil
  }

  // MARK: Trace files

  /// The first line of a trace file: what replays it.
  public struct TraceHeader: Sendable, Codable {
    /// The format's version.
    public var sessionsimTrace = 1
    /// The scenario as run (swarm draws excluded: `swarm` redraws them from the seed).
    public var scenario: Scenario
    /// The seed.
    public var seed: UInt64
    /// The mode.
    public var mode: SimulationMode
    /// Whether swarm draws applied.
    public var swarm: Bool

    /// Makes a header.
    ///
    /// - Parameters:
    ///   - scenario: The scenario as run.
    ///   - seed: The seed.
    ///   - mode: The mode.
    ///   - swarm: Whether swarm draws applied.
    public init(scenario: Scenario, seed: UInt64, mode: SimulationMode, swarm: Bool) {
      self.scenario = scenario
      self.seed = seed
      self.mode = mode
      self.swarm = swarm
    }
  }

  /// A trace file's text: the header as one line of JSON, then one line per trace line.
  ///
  /// - Parameters:
  ///   - header: What replays it.
  ///   - lines: The trace.
  /// - Returns: The file's contents.
  public static func traceFile(header: TraceHeader, lines: [String]) -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    let json = (try? encoder.encode(header)).flatMap { String(data: $0, encoding: .utf8) } ?? "{}"
    return ([json] + lines).joined(separator: "\n") + "\n"
  }

  /// Reads a trace file.
  ///
  /// - Parameter text: The file's contents.
  /// - Returns: The header and the trace's lines.
  /// - Throws: ``ScenarioError`` when the first line is no trace header.
  public static func readTraceFile(_ text: String) throws -> (TraceHeader, [String]) {
    var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    if lines.last == "" { lines.removeLast() }
    guard let first = lines.first,
      let header = try? JSONDecoder().decode(TraceHeader.self, from: Data(first.utf8))
    else {
      throw ScenarioError(path: "", reason: "not a sessionsim trace (no header line)")
    }
    try ScenarioLoader.validate(header.scenario)
    return (header, Array(lines.dropFirst()))
  }
}
