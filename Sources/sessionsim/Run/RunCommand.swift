import Foundation
import LoopbackSimulation
import SessionSimulation
import Synchronization

/// `sessionsim run SCENARIO`: runs a scenario file and prints its verdict.
let runUsage = """
  run SCENARIO [--mode deterministic|loopback] [--seed N] [--seeds N] [--swarm]
             [--shard I/K] [--jobs J] [--peers N] [--duration T] [--trace FILE] [--json]
             [--check-determinism] [--shrink [--shrink-out FILE]] [--watch PEER]
             [--report FILE.html]

    SCENARIO             a scenario file (JSON; see Docs/Scenarios.md)
    --mode               deterministic (virtual network and clock; default) or loopback
                         (libuv, real sockets, real time)
    --seed N             the seed (default: the scenario's, else 1)
    --seeds N            run N seeds from --seed on: one summary line each and a total
    --swarm              each seed draws its own network and fault rates from the
                         scenario's swarm ranges
    --shard I/K          run only shard I of K (0 <= I < K): the seeds whose offset from
                         --seed leaves I when divided by K; K machines or CI jobs cover the
                         sweep, and `sessionsim merge` joins their --json lines
    --jobs J             run the seeds on J worker processes of this program (1 to 256;
                         default 1), with the same verdicts as one
    --peers N            scale the scenario's counted groups to about N peers in all
    --duration T         the scripted part's length (250ms, 30s, 2m)
    --trace FILE         write the run's trace (a header line, then one line per event)
    --json               print one line of JSON per seed (its report and the sweep it
                         belongs to), the input of `sessionsim merge`
    --check-determinism  run twice and compare the traces line by line
    --shrink             on a failure, shrink it and write the smallest failing scenario
    --shrink-out FILE    where --shrink writes (default <name>.shrunk.json)
    --watch PEER         print PEER's roster whenever it changes (role order; ★ host,
                         ☆ manager, ⧉ sharing)
    --report FILE.html   write a self-contained HTML report: a swimlane per peer with the
                         faults over it, rosters, media and latency, the verdict; for
                         --seeds, one row per seed (failing first) and the failing runs

  exit status: 0 every expectation held, 1 one failed, 2 usage or input error
  """

@Sendable func runRun(_ arguments: [String]) throws {
  guard let path = arguments.first, !path.hasPrefix("--") else {
    throw CommandFailure("a scenario file is required; usage: sessionsim \(runUsage)", status: 2)
  }
  let parser = try OptionParser(
    Array(arguments.dropFirst()),
    options: [
      "--mode", "--seed", "--seeds", "--peers", "--duration", "--trace", "--shrink-out", "--watch",
      "--shard", "--jobs", "--report",
    ],
    switches: ["--swarm", "--json", "--check-determinism", "--shrink"], usage: runUsage)
  var scenario: Scenario
  do {
    scenario = try ScenarioLoader.load(path: path)
  } catch let error as ScenarioError {
    throw CommandFailure("\(path): \(error)", status: 2)
  }
  let modeText = parser.string("--mode") ?? "deterministic"
  guard let mode = SimulationMode(rawValue: modeText) else {
    throw CommandFailure("--mode must be deterministic or loopback, not \(modeText)", status: 2)
  }
  let firstSeed = try parser.integer("--seed", default: scenario.seed ?? 1, in: 0...UInt64.max)
  let seeds = try parser.integer("--seeds", default: 1, in: 1...100_000)
  if let text = parser.string("--duration") {
    guard let duration = SimDuration.parse(text), duration > .zero,
      duration <= ScenarioLoader.maxDuration
    else {
      throw CommandFailure("--duration must be a duration such as 30s, not \(text)", status: 2)
    }
    scenario.duration = duration
  }
  if parser.string("--peers") != nil {
    let peers = try parser.integer("--peers", default: 1, in: 1...ScenarioLoader.maxPeers)
    scenario = ScenarioScaling.scaled(scenario, toAbout: peers)
  }
  do {
    // What the mode cannot do (loopback mode: duplication, reordering, loss bursts) is an
    // input error too.
    try ScenarioLoader.validate(scenario, for: mode)
  } catch let error as ScenarioError {
    throw CommandFailure("\(path): \(error)", status: 2)
  }
  let swarm = parser.flag("--swarm")
  let json = parser.flag("--json")
  var shard = SeedShard.whole
  if let text = parser.string("--shard") {
    do {
      shard = try SeedShard(parsing: text)
    } catch {
      throw CommandFailure(error.message, status: 2)
    }
  }
  let jobs = try parser.integer("--jobs", default: 1, in: 1...256)
  if jobs > 1 {
    for option in ["--trace", "--watch", "--shrink-out", "--report"]
    where parser.string(option) != nil {
      throw CommandFailure("--jobs cannot be combined with \(option)", status: 2)
    }
    if parser.flag("--shrink") { throw CommandFailure("--jobs cannot shrink", status: 2) }
    try runJobs(jobs, arguments: arguments, shard: shard, json: json)
    return
  }
  if parser.flag("--shrink") && mode != .deterministic {
    throw CommandFailure("--shrink needs --mode deterministic", status: 2)
  }
  if parser.flag("--check-determinism") && mode != .deterministic {
    throw CommandFailure("--check-determinism needs --mode deterministic", status: 2)
  }
  var replay = ["--mode", mode.rawValue]
  if let duration = parser.string("--duration") { replay += ["--duration", duration] }
  if let peers = parser.string("--peers") { replay += ["--peers", peers] }
  let reportPath = parser.string("--report")
  if let reportPath {
    if parser.flag("--check-determinism") {
      throw CommandFailure("--report cannot be combined with --check-determinism", status: 2)
    }
    try ReportFile.checkWritable(reportPath)
  }
  var sweepReport = SweepReportBuilder(scenario: scenario, path: path, swarm: swarm)
  let progress = Progress(enabled: !json && isatty(STDERR_FILENO) == 1)
  if let watched = parser.string("--watch"),
    !scenario.peers.flatMap(\.names).contains(watched)
  {
    throw CommandFailure("--watch \(watched): no such peer in \(path)", status: 2)
  }

  var reports: [RunReport] = []
  var failed = false
  for offset in 0..<seeds where shard.contains(offset: offset) {
    let (seed, overflow) = firstSeed.addingReportingOverflow(UInt64(offset))
    guard !overflow else { break }
    var show: (@Sendable (String) -> Void)?
    if progress.enabled { show = { @Sendable line in progress.show(line) } }
    var options = RunOptions(
      seed: seed, swarm: swarm, keepsTrace: parser.string("--trace") != nil, progress: show,
      replayArguments: replay, watch: parser.string("--watch"),
      narrate: json
        ? nil
        : { @Sendable line in
          progress.clear()
          print(line)
        })
    options.loopbackWorld = LoopbackWorld.maker
    options.recordsTimeline = reportPath != nil
    var report: RunReport
    var trace: [String] = []
    if parser.flag("--check-determinism") {
      let check = try Simulation.checkDeterminism(scenario, options: options)
      report = check.report
      progress.clear()
      if let difference = check.firstDifference {
        failed = true
        print(
          "NOT DETERMINISTIC \(scenario.name) seed \(seed): the traces differ at line "
            + "\(difference.line)\n  first:  \(difference.first)\n  second: \(difference.second)")
      } else if !json {
        print(
          "deterministic: two runs of seed \(seed) gave identical traces "
            + "(digest \(report.traceDigest))")
      }
    } else {
      options.keepsTrace = parser.string("--trace") != nil
      let outcome = try Simulation.run(scenario, mode: mode, options: options)
      report = outcome.report
      trace = outcome.trace
      if var timeline = outcome.timeline {
        timeline.replayCommand = timeline.replayCommand.replacingOccurrences(
          of: "<scenario>", with: path)
        sweepReport.add(report, timeline: timeline)
      }
    }
    progress.clear()
    report.replayCommand = report.replayCommand.replacingOccurrences(of: "<scenario>", with: path)
    reports.append(report)
    if !report.passed { failed = true }
    if json {
      print(
        try SweepRecord(report: report, swarm: swarm, firstSeed: firstSeed, seeds: seeds)
          .jsonLine())
      fflush(nil)
    } else {
      printReport(report, verbose: seeds == 1)
    }
    if let file = parser.string("--trace") {
      let header = Simulation.TraceHeader(scenario: scenario, seed: seed, mode: mode, swarm: swarm)
      let text = Simulation.traceFile(header: header, lines: trace)
      let name = seeds == 1 ? file : "\(file).\(seed)"
      guard FileManager.default.createFile(atPath: name, contents: Data(text.utf8)) else {
        throw CommandFailure("cannot write the trace to \(name)", status: 2)
      }
      if !json { print("trace: \(trace.count) lines written to \(name)") }
    }
    if !report.passed, parser.flag("--shrink") {
      try shrink(scenario, report: report, seed: seed, swarm: swarm, parser: parser, json: json)
    }
  }
  if !json, seeds > 1 {
    let passed = reports.count { $0.passed }
    print("total: \(passed) of \(reports.count) seeds passed")
  }
  if let reportPath {
    let html = sweepReport.html(sweep: seeds > 1, mode: mode.rawValue)
    try ReportFile.write(html, to: reportPath)
    if !json { print("report: \(reportPath) (\(ReportFile.size(html)))") }
  }
  if failed { throw CommandFailure("expectations failed", status: 1) }
}

private func printReport(_ report: RunReport, verbose: Bool) {
  print(Terminal.colouringVerdict(report.summaryLine))
  guard verbose || !report.passed else { return }
  if verbose, let media = report.media {
    print("  media:")
    for line in media.tableLines() { print("    \(line)") }
  }
  if !report.refusedByOperation.isEmpty {
    let refusals = report.refusedByOperation.sorted { $0.key < $1.key }.map {
      "\($0.key) \($0.value)"
    }
    print("  refused (by the SDK or the service): \(refusals.joined(separator: ", "))")
  }
  for failure in report.failures.prefix(10) { print("  \(failure)") }
  if report.failures.count > 10 { print("  … and \(report.failures.count - 10) more") }
  if !report.unsupportedFaults.isEmpty {
    print("  not supported in this mode: \(report.unsupportedFaults.joined(separator: ", "))")
  }
  if verbose, !report.inFlight.isEmpty {
    print("  still in flight at the end (\(report.inFlight.count)):")
    for line in InFlightSummary.describe(report.inFlight) { print("    \(line)") }
  }
  if !report.passed {
    print("  first failure: \(Terminal.red(String(describing: report.failures[0])))")
    print("  replay: \(Terminal.bold(report.replayCommand))")
  }
}

private func shrink(
  _ scenario: Scenario, report: RunReport, seed: UInt64, swarm: Bool, parser: OptionParser,
  json: Bool
) throws {
  if !json { print("shrinking (up to 300 runs)…") }
  let result = try Shrinker(seed: seed, swarm: swarm).shrink(scenario, failing: report)
  let file = parser.string("--shrink-out") ?? "\(scenario.name).shrunk.json"
  guard
    FileManager.default.createFile(atPath: file, contents: ScenarioLoader.encode(result.scenario))
  else { throw CommandFailure("cannot write \(file)", status: 2) }
  if !json {
    let peers = result.scenario.peers.reduce(0) { $0 + $1.count }
    print(
      "shrunk in \(result.runs) runs to \(peers) peers, \(result.scenario.actions.count) actions, "
        + "\(result.scenario.faults.count) faults, \(result.scenario.duration): \(file)")
    print("  it fails with: \(result.report.failures.first.map(String.init(describing:)) ?? "?")")
    print("  replay: sessionsim run \(file) --seed \(seed)\(swarm ? " --swarm" : "")")
  }
}

/// A live progress line on a terminal (stderr), nothing when piped; redrawn at most ten
/// times a second.
final class Progress: Sendable {
  let enabled: Bool
  private let lastShown = Mutex<ContinuousClock.Instant?>(nil)

  init(enabled: Bool) { self.enabled = enabled }

  func show(_ line: String) {
    guard enabled else { return }
    let now = ContinuousClock.now
    let due = lastShown.withLock { last in
      guard last.map({ $0.duration(to: now) >= .milliseconds(100) }) ?? true else {
        return false
      }
      last = now
      return true
    }
    guard due else { return }
    let width = Terminal.columns
    let shown = line.count > width - 1 ? String(line.prefix(width - 2)) + "…" : line
    FileHandle.standardError.write(Data("\r\u{1B}[K\(shown)".utf8))
  }

  func clear() {
    guard enabled else { return }
    FileHandle.standardError.write(Data("\r\u{1B}[K".utf8))
  }
}
