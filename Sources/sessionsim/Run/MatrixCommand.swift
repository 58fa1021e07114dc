import Foundation
import SessionSimulation

/// `sessionsim matrix`: the fault matrix (``FaultMatrix``).
let matrixUsage = """
  matrix [--seeds N] [--seed S] [--faults LIST] [--phases LIST] [--shard I/K] [--jobs J]
         [--json] [--write FILE] [--merge FILES] [--case NAME [--print-scenario]]

    Strikes each kind of fault during each phase of a small session (a host, five guests),
    over N seeds per cell, in deterministic mode; a run passes when the invariants,
    convergence, liveness and the delivery properties hold. Prints the table (Markdown).

    --seeds N          seeds per cell (default 100)
    --seed S           the first seed (default 1)
    --faults LIST      comma-separated faults (default all): \(FaultMatrix.Fault.allCases.map(\.rawValue).joined(separator: ", "))
    --phases LIST      comma-separated phases (default all): \(FaultMatrix.Phase.allCases.map(\.rawValue).joined(separator: ", "))
    --shard I/K        run only the seeds whose offset from --seed leaves I when divided by
                       K (machines or CI jobs each take one; --merge joins their --json)
    --jobs J           threads (default: the machine's cores)
    --json             print one JSON line per run instead of the table
    --write FILE       also write the table into FILE between the lines
                       \(FaultMatrix.beginMarker)
                       \(FaultMatrix.endMarker)
    --merge FILES      run nothing: read the comma-separated --json files of the shards and
                       make the table of them all
    --case NAME        run one case, FAULT/PHASE/SEED (as the table's failures name it), and
                       print its report; with --print-scenario print its scenario file instead
                       (then `sessionsim run FILE --seed SEED` runs it)

  exit status: 0 every run passed, 1 one failed, 2 usage or input error
  """

@Sendable func runMatrix(_ arguments: [String]) throws {
  let parser = try OptionParser(
    arguments,
    options: [
      "--seeds", "--seed", "--faults", "--phases", "--shard", "--jobs", "--write", "--merge",
      "--case",
    ],
    switches: ["--json", "--print-scenario"], usage: matrixUsage)
  if let name = parser.string("--case") {
    try runMatrixCase(name, printScenario: parser.flag("--print-scenario"))
    return
  }
  let records: [FaultMatrix.Record]
  if let merge = parser.string("--merge") {
    records = try readMatrixRecords(merge.split(separator: ",").map(String.init))
  } else {
    let seeds: Int = try parser.integer("--seeds", default: 100, in: 1...100_000)
    let first: UInt64 = try parser.integer("--seed", default: 1, in: 0...UInt64.max / 2)
    let jobs: Int = try parser.integer(
      "--jobs", default: ProcessInfo.processInfo.activeProcessorCount, in: 1...256)
    let faults = try matrixList(parser.string("--faults"), FaultMatrix.Fault.self, "--faults")
    let phases = try matrixList(parser.string("--phases"), FaultMatrix.Phase.self, "--phases")
    var shard = SeedShard.whole
    if let text = parser.string("--shard") {
      do { shard = try SeedShard(parsing: text) } catch {
        throw CommandFailure(error.message, status: 2)
      }
    }
    let cells = faults.flatMap { fault in phases.map { (fault, $0) } }
    let log = FileHandle.standardError
    let started = ContinuousClock.now
    let tty = isatty(2) == 1
    records = FaultMatrix.run(
      cells, seeds: seeds, firstSeed: first, shard: shard, jobs: jobs
    ) { done, total in
      guard tty, done % 10 == 0 || done == total else { return }
      log.write(Data("\r\(done)/\(total) runs".utf8))
    }
    if tty { log.write(Data("\n".utf8)) }
    let seconds = started.duration(to: .now).components.seconds
    log.write(
      Data(
        "\(records.count) runs, \(records.filter(\.passed).count) passed, in \(seconds) s on \(jobs) threads\n"
          .utf8))
  }
  if parser.flag("--json") {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    for record in records {
      print(String(decoding: try encoder.encode(record), as: UTF8.self))
    }
  } else {
    print(FaultMatrix.markdown(records))
  }
  if let path = parser.string("--write") {
    let document: String
    do {
      document = try String(contentsOfFile: path, encoding: .utf8)
    } catch {
      throw CommandFailure(
        "--write \(path): cannot read it (\(error.localizedDescription))", status: 2)
    }
    do {
      let updated = try FaultMatrix.replacingTable(
        in: document, with: FaultMatrix.markdown(records))
      try Data(updated.utf8).write(to: URL(fileURLWithPath: path))
    } catch let error as SweepError {
      throw CommandFailure("--write \(path): \(error.message)", status: 2)
    } catch {
      throw CommandFailure(
        "--write \(path): cannot write it (\(error.localizedDescription))", status: 2)
    }
  }
  if records.contains(where: { !$0.passed }) {
    throw CommandFailure("\(records.filter { !$0.passed }.count) runs failed", status: 1)
  }
}

/// One case: its report, or its scenario file.
private func runMatrixCase(_ name: String, printScenario: Bool) throws {
  guard let (fault, phase, seed) = FaultMatrix.parseCase(name), let seed else {
    throw CommandFailure(
      "--case \(name): expected FAULT/PHASE/SEED, such as \"peer killed/joining/17\"", status: 2)
  }
  let matrixCase = FaultMatrix.Case(fault: fault, phase: phase, seed: seed)
  if printScenario {
    print(FaultMatrix.scenarioJSON(matrixCase))
    return
  }
  let scenario = try FaultMatrix.scenario(matrixCase)
  let outcome = try Simulation.run(
    scenario, mode: .deterministic,
    options: RunOptions(seed: seed))
  print(outcome.report.summaryLine)
  for failure in outcome.report.failures { print("  \(failure)") }
  if !outcome.report.passed { throw CommandFailure("expectations failed", status: 1) }
}

/// The values of a comma-separated list of names (every value when `text` is nil).
private func matrixList<Value: RawRepresentable & CaseIterable>(
  _ text: String?, _ type: Value.Type, _ option: String
) throws -> [Value] where Value.RawValue == String {
  guard let text else { return Array(Value.allCases) }
  var values: [Value] = []
  for name in text.split(separator: ",", omittingEmptySubsequences: false) {
    let trimmed = name.trimmingCharacters(in: .whitespaces)
    guard let value = Value(rawValue: trimmed) else {
      throw CommandFailure(
        "\(option): no \(trimmed.isEmpty ? "empty name" : trimmed) (one of: "
          + Value.allCases.map(\.rawValue).joined(separator: ", ") + ")", status: 2)
    }
    if !values.contains(where: { $0.rawValue == value.rawValue }) { values.append(value) }
  }
  return values
}

/// The records of the shards' `--json` files.
private func readMatrixRecords(_ paths: [String]) throws -> [FaultMatrix.Record] {
  guard !paths.isEmpty else { throw CommandFailure("--merge: no files", status: 2) }
  let decoder = JSONDecoder()
  var records: [FaultMatrix.Record] = []
  var seen: Set<FaultMatrix.Case> = []
  for path in paths {
    guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
      throw CommandFailure("--merge: cannot read \(path)", status: 2)
    }
    for (number, line) in text.split(separator: "\n").enumerated() where !line.isEmpty {
      guard let record = try? decoder.decode(FaultMatrix.Record.self, from: Data(line.utf8)) else {
        throw CommandFailure(
          "--merge: \(path):\(number + 1): not a matrix run's JSON line", status: 2)
      }
      let key = FaultMatrix.Case(fault: record.fault, phase: record.phase, seed: record.seed)
      guard seen.insert(key).inserted else {
        throw CommandFailure(
          "--merge: \(path):\(number + 1): \(record.fault.rawValue)/\(record.phase.rawValue)/"
            + "\(record.seed) is in two files (overlapping shards)", status: 2)
      }
      records.append(record)
    }
  }
  return records
}
