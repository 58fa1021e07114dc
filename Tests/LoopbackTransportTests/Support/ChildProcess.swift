import Foundation
import Synchronization
import Testing

/// A child process of the test (the built `sessionsim`), with its output collected line by line.
final class ChildProcess: Sendable {
  private let process: Process
  private let input: Pipe
  private let outputPipe = Pipe()
  private let collector = LineCollector()

  /// The `sessionsim` executable next to the test bundle, if it was built.
  /// The built `sessionsim`, or a failure that says how to build it: suites that need the
  /// binary fail without it, never skip.
  static func requireSessionsim(
    sourceLocation: SourceLocation = #_sourceLocation
  ) throws -> URL {
    try #require(
      sessionsim,
      "sessionsim is not built next to the tests: `swift build --build-tests` builds it",
      sourceLocation: sourceLocation)
  }

  static var sessionsim: URL? { builtExecutable("sessionsim") }

  /// The built `sessionbench`, or a failure that says how to build it.
  static func requireSessionbench(
    sourceLocation: SourceLocation = #_sourceLocation
  ) throws -> URL {
    try #require(
      builtExecutable("sessionbench"),
      "sessionbench is not built next to the tests: `swift build --build-tests` builds it",
      sourceLocation: sourceLocation)
  }

  /// The executable `name` built next to the test bundle, if there is one.
  static func builtExecutable(_ name: String) -> URL? {
    let candidates =
      [Bundle.main.bundleURL, Bundle.main.bundleURL.deletingLastPathComponent()]
      + CommandLine.arguments.prefix(1).map {
        URL(fileURLWithPath: $0).deletingLastPathComponent()
      }
    for directory in candidates {
      let url = directory.appendingPathComponent(name)
      if FileManager.default.isExecutableFile(atPath: url.path) { return url }
    }
    return nil
  }

  /// Starts `executable` with `arguments`; stdout and stderr are collected, stdin stays open
  /// until ``closeInput()`` or the child ends.
  init(_ executable: URL, _ arguments: [String]) throws {
    process = Process()
    process.executableURL = executable
    process.arguments = arguments
    input = Pipe()
    let output = outputPipe
    process.standardInput = input
    process.standardOutput = output
    process.standardError = output
    try process.run()
    // A thread of its own reads the output to its end (the child's exit closes the pipe).
    // Not Foundation's `readabilityHandler`: its monitor forms weak references that
    // LeakSanitizer reported at exit, 9 side tables, even with the handler cleared.
    let (collector, reading) = (self.collector, output.fileHandleForReading)
    Thread.detachNewThread {
      while true {
        let data = reading.availableData
        guard !data.isEmpty else { break }
        collector.feed(String(decoding: data, as: UTF8.self))
      }
      collector.finish()
    }
  }

  deinit {
    if process.isRunning { process.terminate() }
  }

  /// The lines printed so far.
  var output: [String] { collector.lines }

  /// Waits for a printed line starting with `prefix`; returns it.
  func waitForLine(startingWith prefix: String, timeoutSeconds: Double = 30) -> String? {
    var found: String?
    waitUntil(timeoutSeconds: timeoutSeconds) {
      found = output.first { $0.hasPrefix(prefix) }
      return found != nil
    }
    return found
  }

  /// Waits for the child to exit (at most `timeoutSeconds`) and for the end of its output;
  /// returns its status, or `nil` if it is still running.
  ///
  /// The output arrives on another thread: a child that exited may still have output in the
  /// pipe, so the wait goes on until the pipe's end was read (a short child's whole output,
  /// `--help`, came back empty on a loaded machine before this waited for it).
  func waitForExit(timeoutSeconds: Double = 60) -> Int32? {
    guard waitUntil(timeoutSeconds: timeoutSeconds, { !process.isRunning }) else { return nil }
    _ = waitUntil(timeoutSeconds: timeoutSeconds) { collector.isFinished }
    return process.terminationStatus
  }

  /// Whether the child ended by a signal.
  var wasKilledBySignal: Bool { process.terminationReason == .uncaughtSignal }

  /// The child's process id.
  var pid: Int32 { process.processIdentifier }

  /// Closes the child's standard input (`sessionsim serve` stops at its end).
  func closeInput() {
    try? input.fileHandleForWriting.close()
  }

  /// Sends `signal` to the child.
  func kill(_ signal: Int32) {
    _ = Foundation.kill(process.processIdentifier, signal)
  }
}

/// Splits a child's output into lines as it arrives.
final class LineCollector: Sendable {
  private let state = Mutex<(lines: [String], partial: String, finished: Bool)>(([], "", false))

  /// Adds a chunk of output.
  func feed(_ text: String) {
    state.withLock { state in
      state.partial += text
      var parts = state.partial.components(separatedBy: "\n")
      state.partial = parts.removeLast()
      state.lines.append(contentsOf: parts)
    }
  }

  /// The output ended: a last line without a newline counts as a line.
  func finish() {
    state.withLock { state in
      if !state.partial.isEmpty { state.lines.append(state.partial) }
      state.partial = ""
      state.finished = true
    }
  }

  /// Whether the output ended.
  var isFinished: Bool { state.withLock { $0.finished } }

  /// The complete lines so far.
  var lines: [String] { state.withLock { $0.lines } }
}
