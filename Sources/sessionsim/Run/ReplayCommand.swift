import Foundation
import SessionSimulation

/// `sessionsim replay TRACE`: runs the trace's scenario and seed again and compares.
let replayUsage = """
  replay TRACE [--json]

    TRACE   a trace file written by `sessionsim run … --trace FILE`

  Runs the recorded scenario with the recorded seed in deterministic mode, compares the new
  trace with the file line by line, and prints the first line where they differ.
  exit status: 0 identical and passed, 1 diverged or an expectation failed, 2 usage or input
  """

@Sendable func runReplay(_ arguments: [String]) throws {
  guard let path = arguments.first, !path.hasPrefix("--") else {
    throw CommandFailure("a trace file is required; usage: sessionsim \(replayUsage)", status: 2)
  }
  let parser = try OptionParser(
    Array(arguments.dropFirst()), options: [], switches: ["--json"], usage: replayUsage)
  guard let data = FileManager.default.contents(atPath: path) else {
    throw CommandFailure("cannot read \(path)", status: 2)
  }
  let header: Simulation.TraceHeader
  let recorded: [String]
  do {
    (header, recorded) = try Simulation.readTraceFile(String(decoding: data, as: UTF8.self))
  } catch let error as ScenarioError {
    throw CommandFailure("\(path): \(error)", status: 2)
  }
  guard header.mode == .deterministic else {
    throw CommandFailure(
      "\(path) records a \(header.mode.rawValue) run; only deterministic runs replay", status: 2)
  }
  let outcome = try Simulation.run(
    header.scenario, mode: .deterministic,
    options: RunOptions(seed: header.seed, swarm: header.swarm, keepsTrace: true))
  let difference = Simulation.firstDifference(recorded, outcome.trace)
  if parser.flag("--json") {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
    print(String(decoding: try encoder.encode(outcome.report), as: UTF8.self))
  } else {
    print(outcome.report.summaryLine)
    for failure in outcome.report.failures.prefix(10) { print("  \(failure)") }
  }
  if let difference {
    print(
      "diverged from \(path) at line \(difference.line):\n  recorded: \(difference.first)\n"
        + "  replayed: \(difference.second)")
    throw CommandFailure("the replay diverged", status: 1)
  }
  if !parser.flag("--json") {
    print("replayed identically: \(recorded.count) lines")
  }
  if !outcome.report.passed { throw CommandFailure("expectations failed", status: 1) }
}
