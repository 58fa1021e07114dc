import Foundation
import Testing

/// `sessionsim run --mode loopback` refuses, before any socket opens, a scenario asking for what
/// loopback mode cannot do (duplication, reordering, loss bursts): an input error, exit 2, naming
/// the field and the mode. The same file runs in deterministic mode.
@Suite("Loopback mode refuses what it cannot do")
struct LoopbackModeRefusalTests {
  private static func scenarioFile(_ link: String) throws -> String {
    let text = """
      {
        "name": "refused-in-loopback", "duration": "1s", "session": { "name": "Room" },
        "peers": [ { "name": "alice", "role": "host" }, { "name": "bob" } ],
        "faults": [
          { "at": "200ms", "kind": "impair", "peers": "bob", "for": "300ms",
            "network": { "downlink": \(link) } }
        ],
        "expect": { "liveness": "5s" }
      }
      """
    let path = FileManager.default.temporaryDirectory
      .appendingPathComponent("refused-\(UInt64.random(in: 0...UInt64.max)).json").path
    try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    return path
  }

  /// Runs the built `sessionsim` to its end; its status and every line it printed.
  private static func sessionsim(_ arguments: [String]) throws -> (Int32?, [String]) {
    let child = try ChildProcess(try ChildProcess.requireSessionsim(), arguments)
    let status = child.waitForExit()
    // The output arrives on another thread: wait for the last of it.
    waitUntil(timeoutSeconds: 5) { !child.output.isEmpty }
    usleep(100_000)
    return (status, child.output)
  }

  @Test(arguments: [
    (#"{ "duplicate": 0.2 }"#, "duplicate"),
    (#"{ "reorder": true }"#, "reorder"),
    (#"{ "loss": 0.1, "burstLength": 3 }"#, "burstLength"),
  ])
  func aFieldLoopbackModeCannotDoExitsTwoNamingItAndTheMode(link: String, key: String) throws {
    let path = try Self.scenarioFile(link)
    defer { try? FileManager.default.removeItem(atPath: path) }
    let (status, output) = try Self.sessionsim(["run", path, "--mode", "loopback"])
    #expect(status == 2, "\(output)")
    let text = output.joined(separator: "\n")
    #expect(text.contains("faults[0].network.downlink.\(key)"), "\(text)")
    #expect(text.contains("loopback mode cannot"), "\(text)")
    // Nothing ran: no verdict.
    #expect(!text.contains("PASS") && !text.contains("FAIL"), "\(text)")
    // Deterministic mode does it: the same file runs and passes.
    let (deterministic, lines) = try Self.sessionsim(["run", path, "--mode", "deterministic"])
    #expect(deterministic == 0, "\(lines)")
  }
}
