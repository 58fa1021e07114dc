import Foundation
import SessionCore
import Testing

@testable import SessionSimulation

@Suite struct ShrinkTests {
  /// A failure that needs two peers and one action: carol joins, and alice must not see her.
  /// Everything else (peers, actions, behaviours, faults) is noise the shrinker removes.
  @Test func shrinkingKeepsOnlyWhatTheFailureNeeds() throws {
    let scenario = Scenario(
      name: "noisy", duration: .seconds(20), session: SessionSpec(name: "Room"),
      peers: [
        PeerSpec(name: "alice", role: .host),
        PeerSpec(name: "bob", join: .exactly(.seconds(1))),
        PeerSpec(name: "carol", join: nil),
        PeerSpec(name: "extra-{i}", count: 8, join: .exactly(.seconds(2))),
      ],
      actions: [
        ActionSpec(at: .seconds(3), peer: "bob", .startVideo),
        ActionSpec(at: .seconds(4), peer: "carol", .join),
        ActionSpec(at: .seconds(5), peer: "extra-*", .chat),
        ActionSpec(at: .seconds(6), peer: "alice", .lockShare),
      ],
      behaviours: [BehaviourSpec(peers: "extra-*", videoTogglePerMinute: 10)],
      faults: [
        FaultSpec(at: .seconds(7), .partition, groups: [["bob"], ["service"]], for: .seconds(2))
      ],
      expect: Expectations(
        liveness: .seconds(5),
        assertions: [AssertionSpec(at: .seconds(8), peers: "alice", doesNotSee: ["carol"])]))
    try ScenarioLoader.validate(scenario)
    let report = try Simulation.run(scenario, mode: .deterministic, options: RunOptions(seed: 3))
      .report
    #expect(!report.passed)
    let result = try Shrinker(seed: 3).shrink(scenario, failing: report)
    #expect(!result.report.passed)
    #expect(result.report.failures.first?.check == "assertion")
    #expect(result.scenario.peers.map(\.name) == ["alice", "carol"])
    #expect(result.scenario.actions.map(\.operation) == [.join])
    #expect(result.scenario.behaviours.isEmpty)
    #expect(result.scenario.faults.isEmpty)
    #expect(result.runs > 0 && result.runs <= 300)
    // The smallest scenario still validates and, written and read back, fails the same way.
    let reread = try ScenarioLoader.load(ScenarioLoader.encode(result.scenario))
    #expect(reread == result.scenario)
  }

  @Test func aPassingRunHasNothingToShrink() throws {
    let scenario = RunnerTests.room(expect: Expectations(liveness: .seconds(5)))
    let report = try RunnerTests.run(scenario).report
    #expect(report.passed)
    let result = try Shrinker(seed: 1).shrink(scenario, failing: report)
    #expect(result.runs == 0)
    #expect(result.scenario == scenario)
  }
}

/// Before shrinking, a swarm run's draws and random processes are written out as plain
/// settings and scripted faults: the written-out scenario must run exactly as the swarm did.
@Suite struct MaterializeTests {
  @Test func aWrittenOutSwarmRunsAsTheSwarmDid() throws {
    let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .appendingPathComponent("Fixtures/swarm-storm.json")
    let scenario = try ScenarioLoader.load(path: file.path)
    let written = Shrinker.materialized(scenario, seed: 143, swarm: true)
    #expect(written.swarm == nil)
    #expect(written.randomFaults.isEmpty)
    #expect(!written.faults.isEmpty)
    try ScenarioLoader.validate(written)
    let swarm = try Simulation.run(
      scenario, mode: .deterministic, options: RunOptions(seed: 143, swarm: true, keepsTrace: true))
    let plain = try Simulation.run(
      written, mode: .deterministic, options: RunOptions(seed: 143, keepsTrace: true))
    #expect(swarm.report.faults == plain.report.faults)
    #expect(swarm.report.callbacks == plain.report.callbacks)
    #expect(Simulation.firstDifference(swarm.trace, plain.trace).map { "\($0)" } == nil)
  }
}
