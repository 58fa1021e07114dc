import SessionCore
import SessionSimulation
import Testing

@Suite struct SmokeTests {
  @Test func twoPeersConverge() throws {
    let scenario = Scenario(
      name: "smoke", duration: .seconds(10), session: SessionSpec(name: "Room"),
      peers: [
        PeerSpec(name: "alice", role: .host, join: .exactly(.zero), video: true),
        PeerSpec(name: "bob", join: .exactly(.seconds(1))),
      ],
      actions: [
        ActionSpec(at: .seconds(2), peer: "alice", .chat, text: "hi"),
        ActionSpec(at: .seconds(3), peer: "bob", .startVideo),
      ],
      expect: Expectations(
        liveness: .seconds(5),
        assertions: [AssertionSpec(at: .seconds(5), host: "alice", rosterCount: 2)]))
    try ScenarioLoader.validate(scenario)
    let world = DeterministicWorld(
      seed: 1, service: ScenarioLoader.serviceConfiguration(for: scenario, seed: 1))
    let runner = ScenarioRunner(scenario: scenario, world: world, options: RunOptions(seed: 1))
    let report = try runner.run()
    #expect(report.passed, "\(report.failures)")
    #expect(report.summaryLine.hasPrefix("PASS smoke seed 1 [deterministic]: 2 peers"))
  }
}
