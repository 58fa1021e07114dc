import SessionCore
import SessionSimulation
import Testing

/// Joins the service refuses show in the report, and a scenario cannot ask for more members
/// than the service holds.
@Suite struct RefusalVisibilityTests {
  /// A host and four guests in a session of three: two guests are refused.
  private static func fullRoom(_ expect: Expectations = Expectations()) -> Scenario {
    Scenario(
      name: "full", duration: .seconds(5), session: SessionSpec(name: "Room"),
      service: ServiceSpec(maxUsers: 3),
      peers: [
        PeerSpec(name: "host", role: .host, join: .exactly(.zero)),
        PeerSpec(name: "guest-{i}", count: 4, join: .exactly(.seconds(1))),
      ], expect: expect)
  }

  /// Runs `scenario` in deterministic mode with `seed`.
  private static func run(_ scenario: Scenario, seed: UInt64 = 1) throws -> RunReport {
    try ScenarioLoader.validate(scenario)
    let world = DeterministicWorld(
      seed: seed, service: ScenarioLoader.serviceConfiguration(for: scenario, seed: seed))
    return try ScenarioRunner(scenario: scenario, world: world, options: RunOptions(seed: seed))
      .run()
  }

  @Test func refusedJoinsAreCountedByReasonAndNamedInTheSummary() throws {
    let report = try Self.run(Self.fullRoom())
    let failed = report.refusedJoins[VideoSDKError.sessionJoinFailed.sdkName] ?? 0
    #expect(failed >= 2, "\(report.refusedJoins)")
    #expect(report.summaryLine.contains("joins failed (Errors_Session_Join_Failed"))
  }

  @Test func theFirstFailingAssertionAfterARefusalSaysSo() throws {
    let report = try Self.run(
      Self.fullRoom(
        Expectations(assertions: [AssertionSpec(at: .seconds(4), host: "host", rosterCount: 5)])))
    let first = try #require(report.failures.first { $0.check == "assertion" })
    #expect(first.detail.contains("joins failed during the run: Errors_Session_Join_Failed"))
  }

  @Test func aCleanRunReportsNoRefusedJoins() throws {
    let report = try Self.run(
      Scenario(
        name: "room", duration: .seconds(3), session: SessionSpec(name: "Room"),
        peers: [PeerSpec(name: "p{i}", count: 3, join: .exactly(.zero))]),
      seed: 2)
    #expect(report.refusedJoins.isEmpty)
    #expect(!report.summaryLine.contains("joins failed"))
  }

  @Test func aMaxUsersBeyondWhatTheServiceHoldsIsRefusedWhenItLoads() {
    for users in [0, 100_000, Int.max] {
      let scenario = Scenario(
        name: "big", duration: .seconds(5), session: SessionSpec(name: "Room"),
        service: ServiceSpec(maxUsers: users), peers: [PeerSpec(name: "a")])
      #expect {
        try ScenarioLoader.validate(scenario)
      } throws: { error in
        (error as? ScenarioError)?.path == "service.maxUsers"
      }
    }
    // The SDK's largest sessions (5,000) fit: their snapshots travel in fragments.
    for users in [1_000, 5_000] {
      let fits = Scenario(
        name: "ok", duration: .seconds(5), session: SessionSpec(name: "Room"),
        service: ServiceSpec(maxUsers: users), peers: [PeerSpec(name: "a")])
      #expect(throws: Never.self) { try ScenarioLoader.validate(fits) }
    }
  }
}
