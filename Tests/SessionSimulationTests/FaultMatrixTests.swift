import Foundation
import Testing

@testable import SessionSimulation

/// The fault matrix (`sessionsim matrix`): every cell's scenario, a small run of the whole
/// matrix, and the table it writes into Docs/Reliability.md.
@Suite("Fault matrix")
struct FaultMatrixTests {
  private typealias Case = FaultMatrix.Case

  @Test func everyCellsScenarioReadsAndTheSeedDrawsItsFault() throws {
    for fault in FaultMatrix.Fault.allCases {
      for phase in FaultMatrix.Phase.allCases {
        let first = FaultMatrix.scenarioJSON(Case(fault: fault, phase: phase, seed: 1))
        let again = FaultMatrix.scenarioJSON(Case(fault: fault, phase: phase, seed: 1))
        #expect(first == again, "\(fault)/\(phase): the same seed writes the same scenario")
        let scenarios = try (1...8).map { seed in
          try FaultMatrix.scenario(Case(fault: fault, phase: phase, seed: seed))
        }
        #expect(scenarios.allSatisfy { !$0.faults.isEmpty }, "\(fault)/\(phase)")
        let texts = Set(
          (1...8).map { FaultMatrix.scenarioJSON(Case(fault: fault, phase: phase, seed: $0)) })
        #expect(texts.count > 1, "\(fault)/\(phase): seeds draw different faults")
      }
    }
  }

  @Test func theWholeMatrixPassesOneSeedPerCell() {
    let cells = FaultMatrix.Fault.allCases.flatMap { fault in
      FaultMatrix.Phase.allCases.map { (fault, $0) }
    }
    let records = FaultMatrix.run(cells, seeds: 1, firstSeed: 41, jobs: 2)
    #expect(records.count == 80)
    for record in records where !record.passed {
      Issue.record(
        "\(record.fault.rawValue)/\(record.phase.rawValue)/\(record.seed): \(record.failures)")
    }
    let table = FaultMatrix.markdown(records)
    #expect(table.contains("**80 passed, 0 failed**"))
    #expect(table.contains("| peer paused | 1/1 | 1/1 | 1/1 | 1/1 | 1/1 | 1/1 | 1/1 | 1/1 |"))
  }

  @Test func theMediaPhaseGivesEveryPeerAMediaPlaneAndChecksItsTracks() throws {
    let scenario = try FaultMatrix.scenario(Case(fault: .partition, phase: .media, seed: 1))
    #expect(scenario.peers.allSatisfy { $0.media != nil })
    #expect(scenario.expect.media?.tracks == true)
    let quiet = try FaultMatrix.scenario(Case(fault: .partition, phase: .inSession, seed: 1))
    #expect(quiet.peers.allSatisfy { $0.media == nil }, "only the media phase has media")
  }

  /// The case that found it: a guest's clock set back four minutes while media ran froze that
  /// guest's media (the SDK's media clock never goes back, and the virtual link stepped it
  /// back), so it received none of its tracks at the end. A media clock is monotonic now; the
  /// skew moves the wall clock.
  @Test func aClockSetBackWhileMediaRunsLeavesTheMediaFlowing() {
    let record = FaultMatrix.run(Case(fault: .clockSkew, phase: .media, seed: 1))
    #expect(record.passed, "\(record.failures)")
  }

  @Test func aCellsRunsAreShardedWithoutOverlap() {
    let cells = [(FaultMatrix.Fault.peerKilled, FaultMatrix.Phase.joining)]
    let whole = FaultMatrix.run(cells, seeds: 4, jobs: 1)
    let shards = try! (0..<2).flatMap { index in
      FaultMatrix.run(cells, seeds: 4, shard: try SeedShard(parsing: "\(index)/2"), jobs: 1)
    }
    #expect(whole.map(\.seed) == [1, 2, 3, 4])
    #expect(shards.map(\.seed).sorted() == [1, 2, 3, 4])
    #expect(
      Set(whole.map { "\($0.seed) \($0.passed) \($0.failures)" })
        == Set(shards.map { "\($0.seed) \($0.passed) \($0.failures)" }))
  }

  @Test func theTableMarksFailingCellsAndSaysHowToReplayThem() {
    func record(
      _ fault: FaultMatrix.Fault, _ phase: FaultMatrix.Phase, _ seed: UInt64, _ passed: Bool
    )
      -> FaultMatrix.Record
    {
      FaultMatrix.Record(
        fault: fault, phase: phase, seed: seed, passed: passed,
        failures: passed ? [] : ["convergence | guest-2 at 31250 ms: roster 5, service 6"],
        convergedAfterHeal: nil, wallSeconds: 0.1)
    }
    let records = [
      record(.hostKilled, .sharing, 1, true), record(.hostKilled, .sharing, 2, false),
      record(.clockSkew, .leaving, 1, true), record(.clockSkew, .leaving, 2, true),
    ]
    let table = FaultMatrix.markdown(records)
    #expect(table.hasPrefix(FaultMatrix.beginMarker))
    #expect(table.hasSuffix(FaultMatrix.endMarker))
    #expect(table.contains("**3 passed, 1 failed**"))
    #expect(table.contains("| host killed | **1/2** | – |"))
    #expect(table.contains("| clock skew | – | 2/2 |"))
    // A pipe in a failure's text would break the Markdown row; it is escaped.
    #expect(table.contains("convergence \\| guest-2"))
    #expect(table.contains("Replay: `sessionsim matrix --case \"host killed/sharing/2\"`"))
  }

  @Test func theTableGoesBetweenTheMarkersAndNowhereElse() throws {
    let document =
      "# Title\n\nbefore\n\(FaultMatrix.beginMarker)\nold\n\(FaultMatrix.endMarker)\nafter\n"
    let replaced = try FaultMatrix.replacingTable(in: document, with: "NEW")
    #expect(replaced == "# Title\n\nbefore\nNEW\nafter\n")
    #expect(throws: SweepError.self) {
      try FaultMatrix.replacingTable(in: "# no markers", with: "NEW")
    }
    #expect(throws: SweepError.self) {
      try FaultMatrix.replacingTable(
        in: "\(FaultMatrix.endMarker)\n\(FaultMatrix.beginMarker)", with: "NEW")
    }
  }

  @Test func caseNamesReadBackAndBadOnesAreRefused() {
    #expect(FaultMatrix.parseCase("peer killed/joining/17")?.2 == 17)
    #expect(FaultMatrix.parseCase("service restart/in a subsession")?.1 == .subsession)
    for bad in [
      "", "peer killed", "nonsense/joining/1", "peer killed/never/1",
      "peer killed/joining/-1", "peer killed/joining/1/2", "peer killed/joining/x",
    ] {
      #expect(FaultMatrix.parseCase(bad) == nil, "\(bad)")
    }
  }
}
