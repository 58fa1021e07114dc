import Foundation
import SessionSimulation

/// Runs a sweep on `jobs` worker processes of this program: each runs `run` with the same
/// arguments and a shard of its own (`--shard`, composed with the caller's), writing `--json`
/// lines; the lines are merged as `sessionsim merge` merges them, so the verdicts are the
/// same as one process's.
///
/// - Parameters:
///   - jobs: How many workers, at least 2.
///   - arguments: `run`'s arguments as given (the scenario first).
///   - shard: The caller's shard (the whole sweep unless `--shard` was given).
///   - json: Whether to print the merged `--json` lines instead of the verdict.
/// - Throws: ``CommandFailure``: status 1 when a seed failed, 2 when a worker could not run.
func runJobs(_ jobs: Int, arguments: [String], shard: SeedShard, json: Bool) throws {
  var base: [String] = []
  var index = 0
  while index < arguments.count {
    let argument = arguments[index]
    if argument == "--jobs" || argument == "--shard" {
      index += 2
      continue
    }
    if argument != "--json" { base.append(argument) }
    index += 1
  }
  guard let executable = Bundle.main.executableURL else {
    throw CommandFailure("cannot find this program's executable to start workers", status: 2)
  }
  let outputs = Array(repeating: Data(), count: jobs)
  let results = LockedOutputs(outputs)
  var processes: [Process] = []
  let group = DispatchGroup()
  for job in 0..<jobs {
    // Shard I/K run on J workers: worker j takes shard I + K·j of K·J.
    let count = shard.count * jobs
    let process = Process()
    process.executableURL = executable
    process.arguments =
      ["run"] + base + ["--shard", "\(shard.index + shard.count * job)/\(count)", "--json"]
    let pipe = Pipe()
    process.standardOutput = pipe
    do {
      try process.run()
    } catch {
      throw CommandFailure("cannot start worker \(job): \(error)", status: 2)
    }
    processes.append(process)
    group.enter()
    DispatchQueue.global().async {
      let data = pipe.fileHandleForReading.readDataToEndOfFile()
      results.set(job, data)
      group.leave()
    }
  }
  group.wait()
  for (job, process) in processes.enumerated() {
    process.waitUntilExit()
    // 0 every seed passed, 1 one failed; anything else is the worker's own failure.
    guard process.terminationReason == .exit, process.terminationStatus <= 1 else {
      throw CommandFailure(
        "worker \(job) of \(jobs) failed (status \(process.terminationStatus))", status: 2)
    }
  }
  let files = results.all.enumerated().map { job, data in
    (name: "worker \(job)", text: String(decoding: data, as: UTF8.self))
  }
  let verdict: SweepVerdict
  do {
    verdict = try SweepVerdict.merge(files, shard: shard)
  } catch {
    throw CommandFailure(error.message, status: 2)
  }
  if json {
    for record in verdict.records { print(try record.jsonLine()) }
  } else {
    for line in verdict.lines { print(line) }
  }
  if !verdict.passed { throw CommandFailure("expectations failed", status: 1) }
}

/// The workers' outputs, written from their reading threads.
private final class LockedOutputs: @unchecked Sendable {
  // Unchecked Sendable: every access holds the lock.
  private let lock = NSLock()
  private var outputs: [Data]

  init(_ outputs: [Data]) { self.outputs = outputs }

  func set(_ index: Int, _ data: Data) {
    lock.withLock { outputs[index] = data }
  }

  var all: [Data] { lock.withLock { outputs } }
}

/// `sessionsim merge FILES…`: joins the `--json` lines of a sweep's shards into one verdict.
let mergeUsage = """
  merge FILE...

    FILE   the output of `sessionsim run --json` for one or more shards of one sweep
           (`--shard I/K` on K machines or CI jobs); `-` reads standard input

  Prints one verdict per seed (as one run prints it, without wall time), the failing seeds'
  first failure and replay command, and a total. Refuses lines of another scenario, mode or
  seed range, a seed given twice, a seed missing, and a line that is not a run's JSON, naming
  the file and line; nothing is printed then.

  exit status: 0 every seed passed, 1 one failed, 2 usage or input error
  """

@Sendable func runMerge(_ arguments: [String]) throws {
  guard !arguments.isEmpty else {
    throw CommandFailure(
      "merge needs the files to merge; usage: sessionsim \(mergeUsage)", status: 2)
  }
  var files: [(name: String, text: String)] = []
  for path in arguments {
    if path == "-" {
      let data = FileHandle.standardInput.readDataToEndOfFile()
      files.append(("standard input", String(decoding: data, as: UTF8.self)))
      continue
    }
    guard let data = FileManager.default.contents(atPath: path) else {
      throw CommandFailure("\(path): cannot read it", status: 2)
    }
    files.append((path, String(decoding: data, as: UTF8.self)))
  }
  let verdict: SweepVerdict
  do {
    verdict = try SweepVerdict.merge(files)
  } catch {
    throw CommandFailure(error.message, status: 2)
  }
  for line in verdict.lines { print(line) }
  if !verdict.passed { throw CommandFailure("expectations failed", status: 1) }
}
