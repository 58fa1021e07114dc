import Foundation
import SessionSimulation

#if canImport(Glibc)
  import Glibc
#endif

let simulationUsage = """
  simulation [--json] [--repetitions N] [--only PART]

  The simulation at the scale its users run it, release build, from the repository's root.
  Each part prints the median of N runs (default 3; the 5,000-member join and the demo run
  once per repetition in a fresh child process) beside its baseline from the same run.

    fanout   det_deliveries_per_s: `sessionbench sdk`'s scene (1,000 instances join one
             session, then 2,000 video/audio toggles fan out to all) on the deterministic
             virtual network, against inprocess_deliveries_per_s, the same scene on the
             in-process network (bar: det >= 0.5 x inprocess)
    churn    churn_1k_speedup: Examples/Scenarios/churn-1k-10min.json (1,000 peers for 10
             virtual minutes; each toggles video and audio every 20 s on average, chats every
             60 s, leaves every 300 s and rejoins 5 s later), every check on: virtual seconds
             per wall second (bar >= 20); baseline: the same churn with its checks off
    join5k   join_5k_s and join_5k_rss_mb: Examples/Scenarios/join-5000.json (5,000 peers join
             one session within 20 virtual seconds and converge), in a child process: wall
             seconds and peak RSS (bars <= 30 s, <= 6,144 MB); baseline: the same with 1,000
    demo     demo_speedup: the README's classroom as ./scripts/demo builds it (it runs
             `scripts/demo --json`): virtual seconds per wall second (bar >= 10); baseline: the
             same scenario run inside this release binary
    swarm    swarm_seeds_per_s: 40 seeds of Examples/Scenarios/swarm-classroom.json --swarm,
             `sessionsim run --jobs <cores>` (the sessionsim beside this binary; build it with
             `swift build -c release --product sessionsim`); baseline: one process, --jobs 1
  """

/// `sessionbench simulation`: see ``simulationUsage``.
func runSimulationBenchmark(_ arguments: [String]) throws {
  var only: Set<String> = []
  var rest: [String] = []
  var iterator = arguments.makeIterator()
  var childPeers: Int?
  while let argument = iterator.next() {
    switch argument {
    case "--only":
      guard let part = iterator.next(), SimulationPart.names.contains(part) else {
        throw usageError("--only needs one of \(SimulationPart.names.joined(separator: ", "))")
      }
      only.insert(part)
    case "--join-child":
      guard let value = iterator.next().flatMap(Int.init), value > 1 else {
        throw usageError("--join-child needs a number of peers")
      }
      childPeers = value
    default:
      rest.append(argument)
    }
  }
  if let childPeers {
    try runJoinChild(peers: childPeers)
    return
  }
  var options = try BenchmarkOptions(rest)
  if !rest.contains("--repetitions") { options.repetitions = 3 }
  let parts = only.isEmpty ? Set(SimulationPart.names) : only
  var figures = SimulationFigures()
  let repetitions = options.repetitions
  if parts.contains("fanout") { try figures.measureFanOut(repetitions: repetitions) }
  if parts.contains("churn") { try figures.measureChurn(repetitions: repetitions) }
  if parts.contains("join5k") { try figures.measureJoin(repetitions: repetitions) }
  if parts.contains("demo") { try figures.measureDemo(repetitions: repetitions) }
  if parts.contains("swarm") { try figures.measureSwarm(repetitions: repetitions) }
  if options.json {
    var values = figures.values
    values["bars_met"] = figures.bars.allSatisfy(\.met) ? 1 : 0
    try printJSON(values)
  } else {
    figures.printTable(repetitions: repetitions)
  }
}

private enum SimulationPart {
  static let names = ["fanout", "churn", "join5k", "demo", "swarm"]
}

/// The medians, by key, and the lines that print them.
private struct SimulationFigures {
  var values: [String: Double] = [:]
  var lines: [String] = []
  var bars: [(name: String, met: Bool)] = []

  mutating func measureFanOut(repetitions: Int) throws {
    let members = 1_000
    let commands = 2_000
    func rate(_ kind: SceneNetwork) -> Double {
      let result = runSDKScene(members: members, commands: commands, on: kind)
      return Double(result.deliveries) / result.steady.seconds
    }
    _ = rate(.virtual)  // warm-up
    let (det, inProcess) = interleaved(
      repetitions: repetitions, { rate(.virtual) }, against: { rate(.inProcess) })
    let detRate = median(det)
    let inRate = median(inProcess)
    values["det_deliveries_per_s"] = detRate.rounded()
    values["inprocess_deliveries_per_s"] = inRate.rounded()
    values["ratio_det_to_inprocess"] = detRate / inRate
    lines.append(
      "  det_deliveries_per_s        \(millions(detRate))   ratio \(fixed(detRate / inRate, 2)) "
        + "(bar >= 0.50)")
    lines.append("  inprocess_deliveries_per_s  \(millions(inRate))   baseline")
    bars.append(("det_deliveries_per_s >= 0.5 x inprocess_deliveries_per_s", detRate >= inRate / 2))
  }

  mutating func measureChurn(repetitions: Int) throws {
    let scenario = try ScenarioLoader.load(path: "Examples/Scenarios/churn-1k-10min.json")
    var unchecked = scenario
    unchecked.expect.invariants = false
    unchecked.expect.delivery = false
    let (checked, plain) = try interleaved(
      repetitions: repetitions, { try deterministicSpeedup(scenario) },
      against: { try deterministicSpeedup(unchecked) })
    let value = median(checked)
    let baseline = median(plain)
    values["churn_1k_speedup"] = value
    values["churn_1k_unchecked_speedup"] = baseline
    lines.append(
      "  churn_1k_speedup            \(fixed(value, 1)) x   (runs \(range(checked, 1))); "
        + "bar >= 20")
    lines.append(
      "  churn_1k_unchecked_speedup  \(fixed(baseline, 1)) x   baseline: invariants and delivery "
        + "checks off; ratio \(fixed(value / baseline, 2))")
    bars.append(("churn_1k_speedup >= 20", value >= 20))
  }

  mutating func measureJoin(repetitions: Int) throws {
    var large: [JoinChildResult] = []
    var small: [JoinChildResult] = []
    for _ in 0..<repetitions {
      large.append(try JoinChildResult.measure(peers: 5_000))
      small.append(try JoinChildResult.measure(peers: 1_000))
    }
    let seconds = median(large.map(\.wallSeconds))
    let rss = median(large.map(\.peakMegabytes))
    let smallSeconds = median(small.map(\.wallSeconds))
    let smallRSS = median(small.map(\.peakMegabytes))
    values["join_5k_s"] = seconds
    values["join_5k_rss_mb"] = rss
    values["join_1k_s"] = smallSeconds
    values["join_1k_rss_mb"] = smallRSS
    lines.append(
      "  join_5k_s                   \(fixed(seconds, 2)) s   (runs "
        + "\(range(large.map(\.wallSeconds), 2))); ratio to 1k \(fixed(seconds / smallSeconds, 1)); "
        + "bar <= 30")
    lines.append(
      "  join_5k_rss_mb              \(fixed(rss, 0)) MB   ratio to 1k "
        + "\(fixed(rss / smallRSS, 1)); bar <= 6,144")
    lines.append(
      "  join_1k_s, join_1k_rss_mb   \(fixed(smallSeconds, 2)) s, \(fixed(smallRSS, 0)) MB   "
        + "baseline: the same join with 1,000")
    bars.append(("join_5k_s <= 30", seconds <= 30))
    bars.append(("join_5k_rss_mb <= 6,144", rss <= 6_144))
  }

  mutating func measureDemo(repetitions: Int) throws {
    let scenario = try ScenarioLoader.load(path: "Examples/Scenarios/classroom.json")
    let (demo, inside) = try interleaved(
      repetitions: repetitions, demoSpeedup, against: { try deterministicSpeedup(scenario) })
    let value = median(demo)
    let baseline = median(inside)
    values["demo_speedup"] = value
    values["demo_release_speedup"] = baseline
    lines.append(
      "  demo_speedup                \(fixed(value, 1)) x   (runs \(range(demo, 1))); "
        + "ratio \(fixed(value / baseline, 2)); bar >= 10")
    lines.append(
      "  demo_release_speedup        \(fixed(baseline, 1)) x   baseline: the classroom inside "
        + "this binary")
    bars.append(("demo_speedup >= 10", value >= 10))
  }

  mutating func measureSwarm(repetitions: Int) throws {
    let path = "Examples/Scenarios/swarm-classroom.json"
    let seeds = 40
    let jobs = max(1, ProcessInfo.processInfo.activeProcessorCount)
    let (parallel, single) = try interleaved(
      repetitions: repetitions, { try sweepRate(path, seeds: seeds, jobs: jobs) },
      against: { try sweepRate(path, seeds: seeds, jobs: 1) })
    let value = median(parallel)
    let baseline = median(single)
    values["swarm_seeds_per_s"] = value
    values["swarm_seeds_per_s_one_job"] = baseline
    values["swarm_jobs"] = Double(jobs)
    lines.append(
      "  swarm_seeds_per_s           \(fixed(value, 2)) /s   --jobs \(jobs); ratio "
        + "\(fixed(value / baseline, 2))")
    lines.append("  swarm_seeds_per_s_one_job   \(fixed(baseline, 2)) /s   baseline: --jobs 1")
  }

  func printTable(repetitions: Int) {
    print("sessionbench simulation: median of \(repetitions) runs per figure")
    print("")
    for line in lines { print(line) }
    print("")
    for bar in bars { print("  \(bar.met ? "ok    " : "FAILED") \(bar.name)") }
  }
}

/// What one child process of the 5,000-member join measured.
private struct JoinChildResult {
  var wallSeconds: Double
  var peakMegabytes: Double

  /// Runs `sessionbench simulation --join-child PEERS` and reads its line.
  static func measure(peers: Int) throws -> JoinChildResult {
    let text = try runProcess(ownExecutable, ["simulation", "--join-child", "\(peers)"])
    let fields = text.split(whereSeparator: \.isWhitespace)
    guard let index = fields.firstIndex(of: "join_wall_s"), fields.count >= index + 4,
      let seconds = Double(fields[index + 1]), let rss = Double(fields[index + 3])
    else { throw BenchmarkError("the join child printed no figures: \(text)") }
    return JoinChildResult(wallSeconds: seconds, peakMegabytes: rss)
  }
}

/// The join child's body: runs join-5000.json with `peers` peers, prints
/// `join_wall_s S join_rss_mb M`.
private func runJoinChild(peers: Int) throws {
  var scenario = try ScenarioLoader.load(path: "Examples/Scenarios/join-5000.json")
  if let index = scenario.peers.indices.last {
    scenario.peers[index].count = peers - 1
  }
  scenario.expect.assertions = scenario.expect.assertions.map { assertion in
    var assertion = assertion
    assertion.peers = assertion.peers == "a-4999" ? "a-\(peers - 1)" : assertion.peers
    assertion.sees = assertion.sees?.map { $0 == "a-4999" ? "a-\(peers - 1)" : $0 }
    return assertion
  }
  let outcome = try Simulation.run(
    scenario, mode: .deterministic, options: RunOptions(seed: scenario.seed ?? 1))
  guard outcome.report.passed else {
    throw BenchmarkError(
      "\(scenario.name) with \(peers) failed: "
        + (outcome.report.failures.first.map { "\($0)" } ?? ""))
  }
  var usage = rusage()
  getrusage(RUSAGE_SELF.rawValue, &usage)
  print("join_wall_s \(outcome.report.wallSeconds) join_rss_mb \(Double(usage.ru_maxrss) / 1_024)")
}

/// Runs `scripts/demo --json` (which builds the demo as the README's first command does) and
/// returns its virtual seconds per wall second.
private func demoSpeedup() throws -> Double {
  let text = try runProcess("/bin/bash", ["scripts/demo", "--json"])
  guard let line = text.split(separator: "\n").last(where: { $0.hasPrefix("{") }),
    let record = try? JSONDecoder().decode(SweepRecord.self, from: Data(line.utf8)),
    record.report.passed
  else { throw BenchmarkError("scripts/demo --json gave no passing record: \(text.suffix(400))") }
  return Double(record.report.simulatedMilliseconds) / 1_000 / record.report.wallSeconds
}

/// Runs a sweep with the sessionsim beside this binary; seeds per wall second.
private func sweepRate(_ path: String, seeds: Int, jobs: Int) throws -> Double {
  let binary = URL(fileURLWithPath: ownExecutable).deletingLastPathComponent()
    .appendingPathComponent("sessionsim").path
  guard FileManager.default.isExecutableFile(atPath: binary) else {
    throw BenchmarkError(
      "no \(binary): build it first with `swift build -c release --product sessionsim`")
  }
  let start = ContinuousClock.now
  _ = try runProcess(
    binary, ["run", path, "--seeds", "\(seeds)", "--swarm", "--jobs", "\(jobs)", "--json"])
  return Double(seeds) / (ContinuousClock.now - start).seconds
}

private func range(_ values: [Double], _ digits: Int) -> String {
  "\(fixed(values.min() ?? 0, digits))...\(fixed(values.max() ?? 0, digits))"
}
