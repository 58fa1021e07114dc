import Foundation
import SessionSimulation

/// `sessionsim report TRACE`: the HTML report of a recorded run.
let reportUsage = """
  report TRACE [--out FILE.html]

    TRACE       a trace file written by `sessionsim run … --trace FILE`
    --out FILE  where to write the report (default: TRACE with .html in place of its
                extension)

  Checks that every line of the trace is a trace line, runs the recorded scenario with the
  recorded seed again in deterministic mode with its timeline recorded, checks that the run
  gives the trace line for line, and writes the run's self-contained HTML report (the same
  as `sessionsim run … --report`). A loopback run's timing is not reproducible: report it
  with `sessionsim run … --mode loopback --report FILE.html`.
  exit status: 0 written (whatever the run's verdict), 1 the trace differs from its replay,
  2 usage or input error (a file that is not a trace: the line is named)
  """

@Sendable func runReport(_ arguments: [String]) throws {
  guard let path = arguments.first, !path.hasPrefix("--") else {
    throw CommandFailure("a trace file is required; usage: sessionsim \(reportUsage)", status: 2)
  }
  let parser = try OptionParser(
    Array(arguments.dropFirst()), options: ["--out"], usage: reportUsage)
  let out = parser.string("--out") ?? ReportFile.defaultPath(for: path)
  try ReportFile.checkWritable(out)
  guard let data = FileManager.default.contents(atPath: path) else {
    throw CommandFailure("cannot read \(path)", status: 2)
  }
  let text = String(decoding: data, as: UTF8.self)
  let header: Simulation.TraceHeader
  let recorded: [String]
  do {
    (header, recorded) = try Simulation.readTraceFile(text)
  } catch let error as ScenarioError {
    throw CommandFailure("\(path): line 1: \(error.reason)", status: 2)
  }
  if let (number, line) = ReportFile.firstMalformedLine(recorded) {
    let shown = line.count > 80 ? "\(line.prefix(80))…" : line
    throw CommandFailure(
      "\(path): line \(number + 2) is not a trace line (`<time> p<peer> <callback>`, "
        + "`<time> #<n> <network event>` or `fault <fault>`): \(shown)", status: 2)
  }
  guard header.mode == .deterministic else {
    throw CommandFailure(
      "\(path) records a \(header.mode.rawValue) run, whose timing a replay cannot give "
        + "again; use `sessionsim run SCENARIO --mode loopback --report FILE.html`", status: 2)
  }
  var options = RunOptions(seed: header.seed, swarm: header.swarm, keepsTrace: true)
  options.recordsTimeline = true
  let outcome = try Simulation.run(header.scenario, mode: .deterministic, options: options)
  if let difference = Simulation.firstDifference(recorded, outcome.trace) {
    throw CommandFailure(
      "\(path): line \(difference.line + 1) differs from the replay of its scenario and seed "
        + "(was the trace edited, or recorded by another version?)\n  recorded: "
        + "\(difference.first)\n  replayed: \(difference.second)", status: 1)
  }
  guard var timeline = outcome.timeline else {
    throw CommandFailure("the run recorded no timeline", status: 1)
  }
  timeline.replayCommand = "sessionsim replay \(path)"
  let html = HTMLReport.render(timeline)
  try ReportFile.write(html, to: out)
  print(outcome.report.summaryLine(includingWallTime: false))
  print("report: \(out) (\(ReportFile.size(html)))")
}

/// Where reports go: checked before a run starts, written after.
enum ReportFile {
  /// Fails (status 2) unless a file can be written at `path`: its folder exists and is
  /// writable, and the file, if there, is a writable file. Leaves no file behind.
  static func checkWritable(_ path: String) throws {
    let manager = FileManager.default
    var isFolder: ObjCBool = false
    if manager.fileExists(atPath: path, isDirectory: &isFolder) {
      guard !isFolder.boolValue else {
        throw CommandFailure("--report \(path): is a folder, not a file", status: 2)
      }
      guard manager.isWritableFile(atPath: path) else {
        throw CommandFailure("--report \(path): cannot be written (permission)", status: 2)
      }
      return
    }
    let folder = (path as NSString).deletingLastPathComponent
    let parent = folder.isEmpty ? "." : folder
    guard manager.fileExists(atPath: parent, isDirectory: &isFolder), isFolder.boolValue else {
      throw CommandFailure("--report \(path): the folder \(parent) does not exist", status: 2)
    }
    guard manager.createFile(atPath: path, contents: Data()) else {
      throw CommandFailure("--report \(path): cannot be written in \(parent)", status: 2)
    }
    try? manager.removeItem(atPath: path)
  }

  /// Writes the report.
  static func write(_ html: String, to path: String) throws {
    guard FileManager.default.createFile(atPath: path, contents: Data(html.utf8)) else {
      throw CommandFailure("cannot write the report to \(path)", status: 2)
    }
  }

  /// `1.2 MB`, `340 kB`.
  static func size(_ html: String) -> String {
    let bytes = Double(html.utf8.count)
    return bytes >= 1_000_000
      ? String(format: "%.1f MB", bytes / 1_000_000) : String(format: "%.0f kB", bytes / 1_000)
  }

  /// `run.trace` → `run.html`.
  static func defaultPath(for trace: String) -> String {
    let base = (trace as NSString).deletingPathExtension
    return (base.isEmpty ? trace : base) + ".html"
  }

  /// The first line (its index and text) of a run trace's body that has no trace line's
  /// shape: `<time> p<peer> <callback>`, `<time> #<n> <event>` or `fault <fault>`.
  static func firstMalformedLine(_ lines: [String]) -> (Int, String)? {
    for (index, line) in lines.enumerated() {
      if line.hasPrefix("fault ") { continue }
      let parts = line.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
      guard parts.count == 3, !parts[0].isEmpty, parts[0].allSatisfy(\.isNumber),
        let mark = parts[1].first, mark == "p" || mark == "#", parts[1].count > 1,
        parts[1].dropFirst().allSatisfy(\.isNumber), !parts[2].isEmpty
      else { return (index, line) }
    }
    return nil
  }
}

/// Gathers a sweep's rows and the timelines worth keeping: the first seed's and up to three
/// failing seeds'.
struct SweepReportBuilder {
  let scenario: Scenario
  let path: String
  let swarm: Bool
  private(set) var rows: [SweepTimeline.Row] = []
  private(set) var runs: [RunTimeline] = []
  /// The most failing runs drawn in full.
  static let failingRunLimit = 3

  init(scenario: Scenario, path: String, swarm: Bool) {
    self.scenario = scenario
    self.path = path
    self.swarm = swarm
  }

  mutating func add(_ report: RunReport, timeline: RunTimeline) {
    rows.append(
      SweepTimeline.Row(
        seed: report.seed, passed: report.passed,
        drew: swarm ? SwarmDraw.drawn(by: scenario, seed: report.seed) : "",
        summary: report.summaryLine(includingWallTime: false),
        firstFailure: report.failures.first.map(String.init(describing:)),
        replayCommand: timeline.replayCommand))
    let failing = runs.count { !$0.passed }
    if runs.isEmpty || (!report.passed && failing < Self.failingRunLimit) {
      runs.append(timeline)
    }
  }

  /// The report: one run's, or the sweep's.
  func html(sweep: Bool, mode: String) -> String {
    if !sweep, let only = runs.first { return HTMLReport.render(only) }
    // Failing seeds first, then seed order; failing runs first, then the first seed's.
    let ordered = rows.filter { !$0.passed } + rows.filter(\.passed)
    let failingRuns = runs.filter { !$0.passed }
    let shown = failingRuns.isEmpty ? Array(runs.prefix(1)) : failingRuns
    return HTMLReport.render(
      SweepTimeline(scenario: scenario.name, mode: mode, rows: ordered, runs: shown))
  }
}
