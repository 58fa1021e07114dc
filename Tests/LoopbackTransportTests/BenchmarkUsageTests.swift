import Foundation
import Testing

/// `sessionbench`'s usage errors, from the built binary: every benchmark refuses an unknown
/// option or a value out of range with exit status 2 and its reason, before it measures
/// anything; an unknown benchmark exits 64 with the list of benchmarks.
@Suite("sessionbench usage errors")
struct BenchmarkUsageTests {
  static func bench(_ arguments: [String]) throws -> (status: Int32?, output: String) {
    let child = try ChildProcess(try ChildProcess.requireSessionbench(), arguments)
    let status = child.waitForExit()
    return (status, child.output.joined(separator: "\n"))
  }

  @Test(arguments: [
    (["reducer", "--repetitions", "0"], "--repetitions needs a positive number"),
    (["reducer", "--fast"], "unknown option --fast"),
    (["reducer", "--profile", "3k"], "--profile needs 1k or 10k"),
    (["sdk", "--members", "5"], "--members needs a number of at least 10"),
    (["sdk", "--commands", "1e300"], "--commands needs a number of at least 10"),
    (["transport", "--peers", "1"], "--peers needs a number of at least 2"),
    (["transport", "--only"], "--only needs one of storm, fanout"),
    (["transport", "--only", "everything"], "--only needs one of storm, fanout"),
    (["media", "--only", "relay,dance"], "--only needs parts among service, auth"),
    (["media", "--scenario"], "--scenario needs a file"),
    (["media", "--repetitions", "-3"], "--repetitions needs a positive number"),
    (["simulation", "--only", "everything"], "--only needs one of"),
    (["soak", "--peers", "1"], "usage: sessionbench soak"),
  ])
  func aUsageErrorExits2WithItsReason(_ arguments: [String], reason: String) throws {
    let (status, output) = try Self.bench(arguments)
    #expect(status == 2, "\(arguments): \(output)")
    #expect(output.contains(reason), "\(arguments): \(output)")
  }

  @Test func anUnknownBenchmarkExits64WithTheList() throws {
    let (status, output) = try Self.bench(["everything"])
    #expect(status == 64)
    #expect(output.contains("unknown benchmark 'everything'"))
    #expect(output.contains("soak"))
  }
}
