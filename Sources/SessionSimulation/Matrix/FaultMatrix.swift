import Foundation
import SessionCore
import Synchronization

/// The fault matrix: each kind of fault (``Fault``) struck during each phase of a session
/// (``Phase``), over many seeds, in deterministic mode. Every run is a small session (a host and
/// five guests) whose scenario this type writes for the cell and the seed; the seed draws when
/// the fault strikes within the phase, whom it hits, how hard and for how long, and the
/// network's own draws. A run passes when every check of the runner holds: the reducer's
/// invariants on every replica, convergence after the heal, liveness, and the delivery
/// properties (Docs/Scenarios.md, "Expectations").
///
/// `sessionsim matrix` runs it and writes the table into `Docs/Reliability.md`.
///
/// > Important: A namespace of pure functions; ``run(_:seeds:firstSeed:shard:jobs:progress:)``
/// > runs the cells on up to `jobs` threads, each run confined to its own thread.
package enum FaultMatrix {
  /// A kind of fault the matrix strikes with.
  package enum Fault: String, CaseIterable, Sendable, Codable {
    case delayJitter = "delay+jitter"
    case burstyLoss = "bursty loss"
    case partition = "partition+heal"
    case oneWayPartition = "one-way partition"
    case peerKilled = "peer killed"
    case hostKilled = "host killed"
    case peerPaused = "peer paused"
    case serviceRestart = "service restart"
    case clockSkew = "clock skew"
    case bandwidthCap = "bandwidth cap"

    /// What the seed draws for it, in words (for the document).
    package var drawn: String {
      switch self {
      case .delayJitter: "every link: 50–300 ms delay, 20–200 ms jitter, for 3–10 s"
      case .burstyLoss: "every link: 5–30% loss in Gilbert–Elliott bursts of 2–8, for 3–10 s"
      case .partition: "one guest cut from the service both ways for 1–25 s, then healed"
      case .oneWayPartition: "one guest's uplink or downlink (drawn) cut for 1–25 s"
      case .peerKilled: "one guest's process dies; a fresh one starts 2–15 s later and joins"
      case .hostKilled: "the host's process dies; a fresh one starts 2–15 s later and joins"
      case .peerPaused:
        "one guest's process stops for the heartbeat timeout plus 1–5 s (16–20 s), then runs"
      case .serviceRestart: "the service dies with its state and restarts 1–5 s later"
      case .clockSkew: "two guests' clocks move by up to ±10 min each"
      case .bandwidthCap: "one guest's link capped at 16–128 kbit/s (8 KiB queue) for 3–10 s"
      }
    }
  }

  /// A phase of a session the fault strikes in.
  package enum Phase: String, CaseIterable, Sendable, Codable {
    case joining
    case inSession = "in session"
    case sharing
    case annotating
    case chatting
    case leaving
    case subsession = "in a subsession"
    case media = "with media"

    /// What happens around the fault, in words (for the document).
    package var script: String {
      switch self {
      case .joining: "the guests join between 1 and 4 s; the fault strikes at 0.8–3.5 s"
      case .inSession:
        "everyone in, toggling video and chatting; the fault strikes at 6–10 s"
      case .sharing: "the host shares from 5 s; the fault strikes at 5.1–8 s"
      case .annotating:
        "the host shares from 5 s, every guest annotates from 6 s; the fault strikes at 6.1–9 s"
      case .chatting:
        "a chat message every 250 ms from 5 s to 12 s; the fault strikes at 6–10 s"
      case .leaving:
        "three guests leave at 10 s and one rejoins at 14 s; the fault strikes at 9.5–10.5 s"
      case .subsession:
        "the host commits one group and starts it at 6 s; the guests join it at 7 s; the "
          + "fault strikes at 8–12 s; the group stops at 22 s"
      case .media:
        "everyone sends video (the host 360p, the guests 180p) and watches the host and the "
          + "guests at 180p; the fault strikes at 6–10 s; at the end every live member receives "
          + "every track it watches"
      }
    }
  }

  /// One cell and seed.
  package struct Case: Sendable, Hashable, Codable {
    package var fault: Fault
    package var phase: Phase
    package var seed: UInt64

    package init(fault: Fault, phase: Phase, seed: UInt64) {
      self.fault = fault
      self.phase = phase
      self.seed = seed
    }
  }

  /// One run's result, as `sessionsim matrix --json` writes it (one line each).
  package struct Record: Sendable, Hashable, Codable {
    package var fault: Fault
    package var phase: Phase
    package var seed: UInt64
    package var passed: Bool
    /// The first failures, one line each (at most three).
    package var failures: [String]
    /// Virtual milliseconds from the heal to convergence, when it converged.
    package var convergedAfterHeal: Int64?
    package var wallSeconds: Double
  }

  /// The scenario of a cell and seed: a host and five guests, 30 s scripted, with the cell's
  /// phase and the fault drawn from the seed.
  ///
  /// - Parameter matrixCase: The cell and seed.
  /// - Returns: The scenario as JSON, as a user would write it.
  package static func scenarioJSON(_ matrixCase: Case) -> String {
    var random = SimulationRandom(
      seed: matrixCase.seed &* 0x9E37_79B9_7F4A_7C15
        ^ UInt64(Fault.allCases.firstIndex(of: matrixCase.fault) ?? 0) << 8
        ^ UInt64(Phase.allCases.firstIndex(of: matrixCase.phase) ?? 0))
    let guest = "guest-\(Int.random(in: 1...5, using: &random))"
    let (base, window, check) = phaseParts(matrixCase.phase)
    let at = Int.random(in: window, using: &random)
    let fault = faultJSON(matrixCase.fault, at: at, guest: guest, random: &random)
    let name = "matrix \(matrixCase.fault.rawValue) / \(matrixCase.phase.rawValue)"
    // The media phase gives every peer a media plane, and checks it at the end.
    let withMedia = matrixCase.phase == .media
    let watch = #""subscribe": { "video": ["host", "guest-*"], "resolution": "180p" }"#
    let hostMedia = withMedia ? #", "media": { "send": "360p", \#(watch) }"# : ""
    let guestMedia = withMedia ? #", "media": { "send": "180p", \#(watch) }"# : ""
    let expectMedia = withMedia ? #", "media": { "tracks": true }"# : ""
    return """
      {
        "name": "\(name)",
        "description": "The fault matrix's cell: \(matrixCase.fault.drawn), while \(matrixCase.phase.script).",
        "seed": \(matrixCase.seed),
        "duration": "30s",
        "session": { "name": "Matrix" },
        "peers": [
          { "name": "host", "role": "host", "join": "500ms", "video": true\(hostMedia) },
          { "name": "guest-{i}", "count": 5, "join": { "from": "1s", "to": "4s" }, "video": true\(guestMedia) }
        ],
      \(base),
        "faults": [ \(fault) ],
        "expect": { "liveness": "40s", "assertions": [ \(check) ]\(expectMedia) }
      }
      """
  }

  /// The scenario of a cell and seed, read as any scenario file is.
  ///
  /// - Parameter matrixCase: The cell and seed.
  /// - Returns: The validated scenario.
  /// - Throws: ``ScenarioError`` if the generated scenario does not read (a bug here).
  package static func scenario(_ matrixCase: Case) throws -> Scenario {
    try ScenarioLoader.load(Data(scenarioJSON(matrixCase).utf8))
  }

  /// Runs one cell and seed in deterministic mode.
  ///
  /// - Parameter matrixCase: The cell and seed.
  /// - Returns: Its record.
  package static func run(_ matrixCase: Case) -> Record {
    let started = ContinuousClock.now
    var record = Record(
      fault: matrixCase.fault, phase: matrixCase.phase, seed: matrixCase.seed, passed: false,
      failures: [], convergedAfterHeal: nil, wallSeconds: 0)
    do {
      let scenario = try scenario(matrixCase)
      let outcome = try Simulation.run(
        scenario, mode: .deterministic, options: RunOptions(seed: matrixCase.seed))
      record.passed = outcome.report.passed
      record.failures = outcome.report.failures.prefix(3).map(\.description)
      record.convergedAfterHeal = outcome.report.convergedAfterHeal
    } catch {
      record.failures = ["the run could not start: \(error)"]
    }
    let span = started.duration(to: .now)
    record.wallSeconds =
      Double(span.components.seconds) + Double(span.components.attoseconds) / 1e18
    return record
  }

  /// Runs the cells over `seeds` seeds each (this shard's share of them), on `jobs` threads.
  ///
  /// - Parameters:
  ///   - cells: The cells, fault by phase.
  ///   - seeds: Seeds per cell.
  ///   - firstSeed: The first seed.
  ///   - shard: Which seeds this process runs (by offset from `firstSeed`).
  ///   - jobs: Threads, at least 1.
  ///   - progress: Called after each run with the runs done and the runs in all (any thread).
  /// - Returns: One record per run, in cell and seed order.
  package static func run(
    _ cells: [(Fault, Phase)], seeds: Int, firstSeed: UInt64 = 1, shard: SeedShard = .whole,
    jobs: Int = 1, progress: (@Sendable (Int, Int) -> Void)? = nil
  ) -> [Record] {
    var cases: [Case] = []
    for (fault, phase) in cells {
      for offset in 0..<seeds where shard.contains(offset: offset) {
        cases.append(Case(fault: fault, phase: phase, seed: firstSeed &+ UInt64(offset)))
      }
    }
    let results = Mutex<[Record?]>(Array(repeating: nil, count: cases.count))
    let next = Atomic<Int>(0)
    let done = Atomic<Int>(0)
    let total = cases.count
    let work = cases
    DispatchQueue.concurrentPerform(iterations: max(1, min(jobs, total))) { _ in
      while true {
        let index = next.add(1, ordering: .relaxed).oldValue
        guard index < total else { return }
        let record = run(work[index])
        results.withLock { $0[index] = record }
        let finished = done.add(1, ordering: .relaxed).newValue
        progress?(finished, total)
      }
    }
    return results.withLock { $0.compactMap { $0 } }
  }

  // MARK: Scenario parts

  /// The phase's actions and behaviours (JSON members), when its fault may strike (ms), and
  /// an assertion just before that window that the phase is under way.
  private static func phaseParts(_ phase: Phase) -> (String, ClosedRange<Int>, String) {
    let quiet = """
        "behaviours": [
          { "peers": "guest-*", "videoTogglePerMinute": 2, "chatPerMinute": 2 }
        ]
      """
    switch phase {
    case .joining:
      return (
        "  \"actions\": [],\n" + quiet, 800...3_500,
        #"{ "at": "700ms", "peers": "host", "inSession": true }"#
      )
    case .inSession, .media:
      return (
        "  \"actions\": [],\n" + quiet, 6_000...10_000, #"{ "at": "5900ms", "rosterCount": 6 }"#
      )
    case .sharing:
      return (
        """
          "actions": [ { "at": "5s", "peer": "host", "do": "startShare" } ],
        \(quiet)
        """, 5_100...8_000, #"{ "at": "5090ms", "sharing": ["host"], "rosterCount": 6 }"#
      )
    case .annotating:
      return (
        """
          "actions": [
            { "at": "5s", "peer": "host", "do": "startShare" },
            { "at": "6s", "peer": "guest-*", "do": "startAnnotation" }
          ],
        \(quiet)
        """, 6_100...9_000, #"{ "at": "6050ms", "sharing": ["host"], "rosterCount": 6 }"#
      )
    case .chatting:
      let chats = (0..<29).map { step in
        "    { \"at\": \"\(5_000 + step * 250)ms\", \"peer\": \"guest-\(step % 5 + 1)\", "
          + "\"do\": \"chat\" }"
      }
      return (
        "  \"actions\": [\n" + chats.joined(separator: ",\n") + "\n  ],\n  \"behaviours\": []",
        6_000...10_000, #"{ "at": "5900ms", "rosterCount": 6 }"#
      )
    case .leaving:
      return (
        """
          "actions": [
            { "at": "10s", "peer": "guest-1", "do": "leave" },
            { "at": "10s", "peer": "guest-2", "do": "leave" },
            { "at": "10s", "peer": "guest-3", "do": "leave" },
            { "at": "14s", "peer": "guest-2", "do": "join" }
          ],
        \(quiet)
        """, 9_500...10_500, #"{ "at": "9400ms", "rosterCount": 6 }"#
      )
    case .subsession:
      return (
        """
          "actions": [
            { "at": "5s", "peer": "host", "do": "commitSubSessions" },
            { "at": "6s", "peer": "host", "do": "startSubSessions" },
            { "at": "7s", "peer": "guest-*", "do": "joinSubSession" },
            { "at": "22s", "peer": "host", "do": "stopSubSessions" }
          ],
        \(quiet)
        """, 8_000...12_000,
        #"{ "at": "7900ms", "subSessions": "started", "peers": "guest-*", "inSubSession": "Group 1" }"#
      )
    }
  }

  /// The fault's JSON object, drawn from `random`.
  private static func faultJSON(
    _ fault: Fault, at: Int, guest: String, random: inout SimulationRandom
  ) -> String {
    func span(_ range: ClosedRange<Int>) -> String {
      "\(Int.random(in: range, using: &random))ms"
    }
    let when = "\"at\": \"\(at)ms\""
    switch fault {
    case .delayJitter:
      let delay = Int.random(in: 50...300, using: &random)
      let jitter = Int.random(in: 20...200, using: &random)
      return """
        { \(when), "kind": "impair", "peers": "*", "for": "\(span(3_000...10_000))", \
        "network": { "both": { "delay": "\(delay)ms", "jitter": "\(jitter)ms" } } }
        """
    case .burstyLoss:
      let loss = Double(Int.random(in: 5...30, using: &random)) / 100
      let burst = Int.random(in: 2...8, using: &random)
      return """
        { \(when), "kind": "impair", "peers": "*", "for": "\(span(3_000...10_000))", \
        "network": { "both": { "loss": \(loss), "burstLength": \(burst) } } }
        """
    case .partition:
      return """
        { \(when), "kind": "partition", "peers": "\(guest)", "for": "\(span(1_000...25_000))" }
        """
    case .oneWayPartition:
      let groups =
        Bool.random(using: &random)
        ? "[[\"\(guest)\"], [\"service\"]]" : "[[\"service\"], [\"\(guest)\"]]"
      return """
        { \(when), "kind": "partition", "groups": \(groups), "oneWay": true, \
        "for": "\(span(1_000...25_000))" }
        """
    case .peerKilled:
      return """
        { \(when), "kind": "kill", "peers": "\(guest)", "for": "\(span(2_000...15_000))" }
        """
    case .hostKilled:
      return """
        { \(when), "kind": "kill", "peers": "host", "for": "\(span(2_000...15_000))" }
        """
    case .peerPaused:
      return """
        { \(when), "kind": "pause", "peers": "\(guest)", "for": "\(span(16_000...20_000))" }
        """
    case .serviceRestart:
      return """
        { \(when), "kind": "killService", "for": "\(span(1_000...5_000))" }
        """
    case .clockSkew:
      let other = "guest-\(Int.random(in: 1...5, using: &random))"
      let first = Int.random(in: -600_000...600_000, using: &random)
      let second = Int.random(in: -600_000...600_000, using: &random)
      return """
        { \(when), "kind": "clockSkew", "peers": "\(guest)", "skewMs": \(first) }, \
        { \(when), "kind": "clockSkew", "peers": "\(other)", "skewMs": \(second) }
        """
    case .bandwidthCap:
      let rate = Int.random(in: 16...128, using: &random)
      return """
        { \(when), "kind": "impair", "peers": "\(guest)", "for": "\(span(3_000...10_000))", \
        "network": { "both": { "bandwidth": "\(rate)kbps", "queueBytes": 8192 } } }
        """
    }
  }
}

// MARK: The document

extension FaultMatrix {
  /// Where the generated table starts and ends in a document.
  package static let beginMarker = "<!-- fault-matrix:begin (generated by sessionsim matrix) -->"
  package static let endMarker = "<!-- fault-matrix:end -->"

  /// Reads a cell's name, `FAULT/PHASE`, or a case's, `FAULT/PHASE/SEED`, by the names the
  /// table uses (`peer killed/joining/17`).
  ///
  /// - Parameter text: The name.
  /// - Returns: The fault, the phase and the seed, if one was given.
  package static func parseCase(_ text: String) -> (Fault, Phase, UInt64?)? {
    let parts = text.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
    guard parts.count == 2 || parts.count == 3,
      let fault = Fault(rawValue: parts[0]), let phase = Phase(rawValue: parts[1])
    else { return nil }
    guard parts.count == 3 else { return (fault, phase, nil) }
    guard let seed = UInt64(parts[2]) else { return nil }
    return (fault, phase, seed)
  }

  /// The table of `records`: a row per fault, a column per phase, each cell the runs that
  /// passed out of the runs made; then the failures, each with the command that replays it.
  ///
  /// - Parameter records: The runs (any order; a cell with no run shows `–`).
  /// - Returns: Markdown, between the markers.
  package static func markdown(_ records: [Record]) -> String {
    var cells: [String: (passed: Int, runs: Int)] = [:]
    var seeds: Set<UInt64> = []
    for record in records {
      let key = record.fault.rawValue + "/" + record.phase.rawValue
      var cell = cells[key] ?? (0, 0)
      cell.runs += 1
      if record.passed { cell.passed += 1 }
      cells[key] = cell
      seeds.insert(record.seed)
    }
    let passed = records.filter(\.passed).count
    let faults = Fault.allCases.filter { fault in records.contains { $0.fault == fault } }
    let phases = Phase.allCases.filter { phase in records.contains { $0.phase == phase } }
    var lines: [String] = [beginMarker, ""]
    let perCell = cells.values.map(\.runs)
    let seedText =
      seeds.isEmpty ? "no seeds" : "seeds \(seeds.min() ?? 0)–\(seeds.max() ?? 0)"
    lines.append(
      "\(records.count) runs in deterministic mode: \(faults.count) faults × \(phases.count) "
        + "phases, \(perCell.min() ?? 0)\(perCell.min() == perCell.max() ? "" : "–\(perCell.max() ?? 0)")"
        + " seed\(perCell.max() == 1 ? "" : "s") per cell (\(seedText)); **\(passed) passed, \(records.count - passed) failed**. "
        + "A cell reads passed/runs.")
    lines.append("")
    lines.append("| fault \\ phase | " + phases.map(\.rawValue).joined(separator: " | ") + " |")
    lines.append("| --- |" + String(repeating: " ---: |", count: phases.count))
    for fault in faults {
      let row = phases.map { phase -> String in
        guard let cell = cells[fault.rawValue + "/" + phase.rawValue] else { return "–" }
        let text = "\(cell.passed)/\(cell.runs)"
        return cell.passed == cell.runs ? text : "**\(text)**"
      }
      lines.append("| \(fault.rawValue) | " + row.joined(separator: " | ") + " |")
    }
    let failed = records.filter { !$0.passed }.sorted {
      ($0.fault.rawValue, $0.phase.rawValue, $0.seed) < (
        $1.fault.rawValue, $1.phase.rawValue, $1.seed
      )
    }
    if !failed.isEmpty {
      lines.append("")
      lines.append("Failures (first 20 of \(failed.count)):")
      lines.append("")
      for record in failed.prefix(20) {
        let name = "\(record.fault.rawValue)/\(record.phase.rawValue)/\(record.seed)"
        let first = (record.failures.first ?? "no detail")
          .replacingOccurrences(of: "|", with: "\\|").replacingOccurrences(of: "\n", with: " ")
        lines.append("- `\(name)`: \(first). Replay: `sessionsim matrix --case \"\(name)\"`")
      }
    }
    lines.append("")
    lines.append(endMarker)
    return lines.joined(separator: "\n")
  }

  /// `document` with the text between the markers replaced by `table` (markers included).
  ///
  /// - Parameters:
  ///   - document: The document's text; it must hold both markers, in order.
  ///   - table: What ``markdown(_:)`` made.
  /// - Returns: The new text.
  /// - Throws: ``SweepError`` when the markers are missing or out of order.
  package static func replacingTable(in document: String, with table: String) throws(SweepError)
    -> String
  {
    guard let begin = document.range(of: beginMarker),
      let end = document.range(of: endMarker, range: begin.upperBound..<document.endIndex)
    else {
      throw SweepError(
        "the document has no generated table: put the lines \(beginMarker) and \(endMarker) "
          + "where it goes")
    }
    return String(document[..<begin.lowerBound]) + table + String(document[end.upperBound...])
  }
}
