import Foundation
import Testing

/// `sessionsim run --jobs` against one process, through the built executable.
@Suite("Sweeps on worker processes")
struct SweepProcessTests {
  /// The repository's root, from this file's path.
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()

  /// Runs `sessionsim` with `arguments`, feeding `input`; returns its exit status and output.
  static func sessionsim(_ arguments: [String], input: String? = nil) throws -> (Int32, String) {
    let process = Process()
    process.executableURL = try ChildProcess.requireSessionsim()
    process.arguments = arguments
    process.currentDirectoryURL = root
    let output = Pipe()
    let inputPipe = Pipe()
    process.standardOutput = output
    process.standardError = Pipe()
    process.standardInput = inputPipe
    try process.run()
    if let input { inputPipe.fileHandleForWriting.write(Data(input.utf8)) }
    try inputPipe.fileHandleForWriting.close()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: data, as: UTF8.self))
  }

  @Test func threeWorkersGiveTheVerdictsOfOneProcess() throws {
    let scenario = "Examples/Scenarios/quickstart.json"
    let (jsonStatus, lines) = try Self.sessionsim(["run", scenario, "--seeds", "6", "--json"])
    #expect(jsonStatus == 0)
    #expect(lines.split(separator: "\n").count == 6)
    let (mergeStatus, one) = try Self.sessionsim(["merge", "-"], input: lines)
    #expect(mergeStatus == 0)
    let (jobsStatus, three) = try Self.sessionsim(["run", scenario, "--seeds", "6", "--jobs", "3"])
    #expect(jobsStatus == 0)
    #expect(three == one)
    #expect(three.hasSuffix("total: 6 of 6 seeds passed\n"))
  }

  @Test func badShardsJobsAndMergeInputsExitWithTwoAndPrintNothing() throws {
    let scenario = "Examples/Scenarios/quickstart.json"
    for arguments in [
      ["run", scenario, "--shard", "3/3"], ["run", scenario, "--shard", "a/b"],
      ["run", scenario, "--jobs", "0"], ["run", scenario, "--jobs", "2", "--trace", "t"],
      ["merge", "-"],
    ] {
      let (status, output) = try Self.sessionsim(arguments, input: "not a run\n")
      #expect(status == 2, "\(arguments)")
      #expect(output.isEmpty, "\(arguments): \(output)")
    }
  }
}
