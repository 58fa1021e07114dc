import Foundation
import SessionSimulation
import Testing

/// Sweeps split into shards and merged back: the same verdicts as one run, and every input
/// that does not belong refused with its file and line.
@Suite struct SweepTests {
  private static let scenario = Scenario(
    name: "sweep", duration: .seconds(4), session: SessionSpec(name: "Room"),
    peers: [
      PeerSpec(name: "host", role: .host, join: .exactly(.zero)),
      PeerSpec(name: "p{i}", count: 2, join: .exactly(.seconds(1))),
    ],
    actions: [ActionSpec(at: .seconds(2), peer: "host", .chat, text: "hi")])

  /// The `--json` lines of seeds `first..<first + count` that `shard` takes.
  private static func lines(
    _ scenario: Scenario = scenario, first: UInt64 = 1, count: Int, shard: SeedShard = .whole
  ) throws -> String {
    var text = ""
    for offset in 0..<count where shard.contains(offset: offset) {
      let report = try Simulation.run(
        scenario, mode: .deterministic, options: RunOptions(seed: first + UInt64(offset))
      ).report
      text +=
        try SweepRecord(report: report, swarm: false, firstSeed: first, seeds: count).jsonLine()
        + "\n"
    }
    return text
  }

  @Test func shardsParseAndSplitTheSeedsDisjointly() throws {
    let shards = try (0..<4).map { try SeedShard(parsing: "\($0)/4") }
    for offset in 0..<100 {
      #expect(shards.filter { $0.contains(offset: offset) }.count == 1)
    }
    #expect(try SeedShard(parsing: "0/1") == .whole)
    for bad in ["4/4", "-1/4", "1/0", "x", "1/", "/4", "1/2/3", "0/100001", ""] {
      #expect(throws: SweepError.self, "\(bad)") { try SeedShard(parsing: bad) }
    }
  }

  @Test func fourShardsMergeToTheUnshardedVerdictLineForLine() throws {
    let whole = try SweepVerdict.merge([("all", Self.lines(count: 8))])
    let shards = try (0..<4).map { index in
      (
        name: "shard \(index)",
        text: try Self.lines(count: 8, shard: SeedShard(parsing: "\(index)/4"))
      )
    }
    let merged = try SweepVerdict.merge(shards.reversed())
    #expect(merged.lines == whole.lines)
    #expect(merged.records.map(\.seed) == Array(1...8))
    #expect(merged.lines.last == "total: 8 of 8 seeds passed")
    #expect(merged.records.map(\.report.traceDigest) == whole.records.map(\.report.traceDigest))
  }

  @Test func linesThatDoNotBelongAreRefusedWithTheirFileAndLine() throws {
    let first = try Self.lines(count: 4, shard: SeedShard(parsing: "0/2"))
    let second = try Self.lines(count: 4, shard: SeedShard(parsing: "1/2"))
    var other = Self.scenario
    other.name = "other"
    let foreign = try Self.lines(other, count: 4, shard: SeedShard(parsing: "1/2"))
    let otherRange = try Self.lines(first: 10, count: 4, shard: SeedShard(parsing: "1/2"))
    func refusal(_ files: [(name: String, text: String)]) -> String? {
      do {
        _ = try SweepVerdict.merge(files)
        return nil
      } catch {
        return error.message
      }
    }
    #expect(refusal([("a", first), ("b", foreign)])?.hasPrefix("b:1: expected a seed of") == true)
    #expect(refusal([("a", first), ("b", otherRange)])?.hasPrefix("b:1:") == true)
    #expect(
      refusal([("a", first), ("b", "\n{not json}\n")])?.hasPrefix("b:2: expected one run") == true)
    #expect(refusal([("a", first), ("b", first)])?.contains("again (first in a:1)") == true)
    #expect(refusal([("a", first)])?.contains("misses 2 seeds: 2, 4") == true)
    #expect(refusal([("a", "")])?.hasPrefix("no runs to merge") == true)
    #expect(refusal([("a", first), ("b", second)]) == nil)
  }
}
