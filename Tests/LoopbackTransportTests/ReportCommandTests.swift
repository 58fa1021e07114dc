import Foundation
import Testing

/// `sessionsim run --report` and `sessionsim report`, through the built executable.
@Suite("HTML reports from the command line")
struct ReportCommandTests {
  private static func sessionsim(_ arguments: [String]) throws -> (Int32, String) {
    try SweepProcessTests.sessionsim(arguments)
  }

  private static func temporary(_ name: String) -> String {
    FileManager.default.temporaryDirectory
      .appendingPathComponent("report-\(UInt64.random(in: 0...UInt64.max))-\(name)").path
  }

  @Test func aReportToAPathThatCannotBeWrittenFailsBeforeTheRun() throws {
    let scenario = "Examples/Scenarios/quickstart.json"
    let folder = Self.temporary("folder")
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    for path in ["/nonexistent-folder/run.html", folder] {
      let (status, output) = try Self.sessionsim(["run", scenario, "--report", path])
      #expect(status == 2, "\(path)")
      // Nothing ran: no verdict was printed.
      #expect(output.isEmpty, "\(path): \(output)")
    }
    let (status, _) = try Self.sessionsim([
      "run", scenario, "--report", Self.temporary("x.html"), "--check-determinism",
    ])
    #expect(status == 2)
  }

  @Test func aRunWritesItsReportAndSaysWhere() throws {
    let path = Self.temporary("quickstart.html")
    defer { try? FileManager.default.removeItem(atPath: path) }
    let (status, output) = try Self.sessionsim([
      "run", "Examples/Scenarios/quickstart.json", "--report", path,
    ])
    #expect(status == 0)
    #expect(output.contains("report: \(path)"))
    let html = try String(contentsOfFile: path, encoding: .utf8)
    #expect(html.contains("data-peer=\"alice\""))
    #expect(html.contains("data-peer=\"bob\""))
    #expect(html.contains("PASS"))
    // Piped: no colours and no progress line.
    #expect(!output.contains("\u{1B}["))
  }

  @Test func aSweepsReportHasARowPerSeed() throws {
    let path = Self.temporary("sweep.html")
    defer { try? FileManager.default.removeItem(atPath: path) }
    let (status, _) = try Self.sessionsim([
      "run", "Examples/Scenarios/quickstart.json", "--seeds", "3", "--report", path,
    ])
    #expect(status == 0)
    let html = try String(contentsOfFile: path, encoding: .utf8)
    for seed in 1...3 {
      #expect(html.contains("sessionsim run Examples/Scenarios/quickstart.json --seed \(seed)"))
    }
  }

  @Test func aReportOfATraceReplaysIt() throws {
    let trace = Self.temporary("run.trace")
    let html = Self.temporary("run.html")
    defer {
      try? FileManager.default.removeItem(atPath: trace)
      try? FileManager.default.removeItem(atPath: html)
    }
    let (ran, _) = try Self.sessionsim([
      "run", "Examples/Scenarios/partition-heal.json", "--trace", trace,
    ])
    #expect(ran == 0)
    let (status, output) = try Self.sessionsim(["report", trace, "--out", html])
    #expect(status == 0)
    #expect(output.contains("report: \(html)"))
    let page = try String(contentsOfFile: html, encoding: .utf8)
    #expect(page.contains("class=\"fault\""))
    #expect(page.contains("sessionsim replay \(trace)"))
  }

  @Test func aFileThatIsNotATraceIsRefusedNamingTheLine() throws {
    let trace = Self.temporary("run.trace")
    let out = Self.temporary("out.html")
    defer {
      try? FileManager.default.removeItem(atPath: trace)
      try? FileManager.default.removeItem(atPath: out)
    }
    let (ran, _) = try Self.sessionsim([
      "run", "Examples/Scenarios/quickstart.json", "--trace", trace,
    ])
    #expect(ran == 0)
    let lines = try String(contentsOfFile: trace, encoding: .utf8)
      .split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    let executable = try ChildProcess.requireSessionsim()
    /// The status and standard error of `report` on a trace file holding `text`.
    func refusal(_ text: String) throws -> (Int32, String) {
      try text.write(toFile: trace, atomically: true, encoding: .utf8)
      let errors = Pipe()
      let run = Process()
      run.executableURL = executable
      run.arguments = ["report", trace, "--out", out]
      run.standardOutput = Pipe()
      run.standardError = errors
      try run.run()
      let data = errors.fileHandleForReading.readDataToEndOfFile()
      run.waitUntilExit()
      return (run.terminationStatus, String(decoding: data, as: UTF8.self))
    }
    // No header.
    let (noHeader, noHeaderError) = try refusal("hello\n")
    #expect(noHeader == 2)
    #expect(noHeaderError.contains("line 1"))
    // A malformed fourth line.
    var broken = lines
    broken[3] = "this is not a trace line"
    let (malformed, malformedError) = try refusal(broken.joined(separator: "\n"))
    #expect(malformed == 2)
    #expect(malformedError.contains("line 4 is not a trace line"))
    // A well-formed line the replay does not give.
    var edited = lines
    edited[5] = "1 p0 onUserJoin(nobody)"
    let (differs, differsError) = try refusal(edited.joined(separator: "\n"))
    #expect(differs == 1)
    #expect(differsError.contains("line 6 differs"))
    #expect(!FileManager.default.fileExists(atPath: out))
  }
}
