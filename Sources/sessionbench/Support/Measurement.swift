import Foundation
import SessionSimulation

/// Options every benchmark understands.
struct BenchmarkOptions {
  /// Print one JSON object instead of a table.
  var json = false
  /// How many timed repetitions; the median is reported.
  var repetitions = 5

  /// Parses `--json` and `--repetitions N`.
  init(_ arguments: [String]) throws {
    var rest = arguments[...]
    while let argument = rest.popFirst() {
      switch argument {
      case "--json":
        json = true
      case "--repetitions":
        guard let value = rest.popFirst().flatMap(Int.init), value > 0 else {
          throw usageError("--repetitions needs a positive number")
        }
        repetitions = value
      default:
        throw usageError("unknown option \(argument)")
      }
    }
  }
}

/// A usage error of a benchmark (an unknown option, a missing or out-of-range value): the
/// message, and exit status 2, before anything starts. (An unknown benchmark exits 64.)
///
/// - Parameter message: What is wrong, and for the soak its usage.
/// - Returns: The failure to throw.
func usageError(_ message: String) -> ToolFailure {
  ToolFailure(message, status: 2)
}

/// A benchmark's setup or run failure (exit status 1); usage errors are ``usageError(_:)``.
struct BenchmarkError: Error, CustomStringConvertible {
  var description: String
  init(_ description: String) { self.description = description }
}

/// One timed run of a benchmark: prepares its input untimed, then times the work.
struct TimedRun {
  /// How many operations one run performs.
  var operations: Int
  /// Prepares, runs and times once; returns the elapsed time.
  var run: () -> Duration

  /// A run whose input `prepare` builds outside the timed region; `body` returns a value that
  /// is kept so that the work is not optimised away.
  init<Input>(
    operations: Int, prepare: @escaping () -> Input, _ body: @escaping (inout Input) -> Int
  ) {
    self.operations = operations
    run = {
      var input = prepare()
      let clock = ContinuousClock()
      let start = clock.now
      let result = body(&input)
      let elapsed = clock.now - start
      blackHole(result)
      return elapsed
    }
  }
}

/// Runs every case once untimed, then `repetitions` rounds in which every case runs once, and
/// returns each case's median rate (operations per second).
///
/// Interleaving the cases round by round means a burst of load on the machine slows every
/// case alike, so the ratios between them stay meaningful.
func medianRates(repetitions: Int, _ cases: [TimedRun]) -> [Double] {
  roundRates(repetitions: repetitions, cases).map { $0.sorted()[$0.count / 2] }
}

/// Runs every case once untimed, then `repetitions` rounds in which every case runs once, and
/// returns each case's rate (operations per second) in every round, in round order: for
/// figures computed round by round from cases measured side by side.
func roundRates(repetitions: Int, _ cases: [TimedRun]) -> [[Double]] {
  for timed in cases { _ = timed.run() }  // warm-up
  var rates = Array(repeating: [Double](), count: cases.count)
  for _ in 0..<repetitions {
    for (index, timed) in cases.enumerated() {
      rates[index].append(Double(timed.operations) / timed.run().seconds)
    }
  }
  return rates
}

/// Keeps a value alive as far as the optimiser can tell.
@inline(never)
func blackHole(_ value: Int) {
  if value == .min { print("") }
}

extension Duration {
  /// The duration in seconds.
  var seconds: Double {
    let (seconds, attoseconds) = components
    return Double(seconds) + Double(attoseconds) * 1e-18
  }
}

/// Formats a rate as millions of operations per second.
func millions(_ rate: Double) -> String {
  String(format: "%8.2f M/s", rate / 1e6)
}

/// Prints one JSON object with sorted keys.
func printJSON(_ values: [String: Double]) throws {
  let encoder = JSONEncoder()
  encoder.outputFormatting = [.sortedKeys]
  print(String(decoding: try encoder.encode(values), as: UTF8.self))
}

/// The median of some values (the upper one of an even count).
func median(_ values: [Double]) -> Double {
  let sorted = values.sorted()
  return sorted[sorted.count / 2]
}

/// Formats a value with a fixed number of decimals.
func fixed(_ value: Double, _ digits: Int) -> String {
  String(format: "%.\(digits)f", value)
}

/// Runs `measured` and `baseline` once each per round, `repetitions` rounds, interleaved so
/// that a burst of load slows both alike; every figure of each, in order.
func interleaved(
  repetitions: Int, _ measured: () throws -> Double, against baseline: () throws -> Double
) rethrows -> (measured: [Double], baseline: [Double]) {
  var first: [Double] = []
  var second: [Double] = []
  for _ in 0..<repetitions {
    first.append(try measured())
    second.append(try baseline())
  }
  return (first, second)
}

/// Runs a scenario in deterministic mode with its own seed and returns virtual seconds per
/// wall second; a scenario that fails is an error naming its first failure.
func deterministicSpeedup(_ scenario: Scenario) throws -> Double {
  let outcome = try Simulation.run(
    scenario, mode: .deterministic, options: RunOptions(seed: scenario.seed ?? 1))
  guard outcome.report.passed else {
    throw BenchmarkError(
      "\(scenario.name) failed: \(outcome.report.failures.first.map { "\($0)" } ?? "")")
  }
  return Double(outcome.report.simulatedMilliseconds) / 1_000 / outcome.report.wallSeconds
}

/// Runs a program to its end and returns its standard output; an error names its status and
/// the end of its output.
func runProcess(_ program: String, _ arguments: [String]) throws -> String {
  let process = Process()
  process.executableURL = URL(fileURLWithPath: program)
  process.arguments = arguments
  let output = Pipe()
  process.standardOutput = output
  try process.run()
  let data = output.fileHandleForReading.readDataToEndOfFile()
  process.waitUntilExit()
  let text = String(decoding: data, as: UTF8.self)
  guard process.terminationReason == .exit, process.terminationStatus == 0 else {
    throw BenchmarkError(
      "\(program) \(arguments.joined(separator: " ")) exited with status "
        + "\(process.terminationStatus): \(text.suffix(400))")
  }
  return text
}

/// This benchmark's own executable, for measurements in a fresh child process.
var ownExecutable: String {
  URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().path
}
