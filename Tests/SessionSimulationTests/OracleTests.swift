import LoopbackSimulation
import SessionCore
import SessionService
import SessionTransport
import Testing

@testable import SessionSimulation

/// The oracles: every message the service sent on a peer's open connection must reach the
/// peer's callbacks, and at quiescence no member of the service's roster is bound to a
/// connection its peer closed. A world that claims one more message than was sent, or a ghost
/// member, must fail the run.
@Suite struct OracleTests {
  /// What a lying world claims.
  enum Lie { case lostMessage, ghost }

  /// A deterministic world whose service seems to have sent alice one more message, or to
  /// hold alice on a connection she closed.
  final class Lying: SimulationWorld {
    let base: DeterministicWorld
    let lie: Lie
    init(_ base: DeterministicWorld, _ lie: Lie) {
      self.base = base
      self.lie = lie
    }
    var modeName: String { base.modeName }
    var elapsed: Int64 { base.elapsed }
    var epochMilliseconds: Int64 { base.epochMilliseconds }
    func schedule(at elapsed: Int64, _ work: @escaping @Sendable () -> Void) {
      base.schedule(at: elapsed, work)
    }
    func run(until elapsed: Int64) throws { try base.run(until: elapsed) }
    func settle(limit: Int64) throws -> Bool { try base.settle(limit: limit) }
    func perform<Result: Sendable>(_ body: @escaping @Sendable () -> Result) throws -> Result {
      try base.perform(body)
    }
    func transport(for peer: String) -> any SessionLinkFactory { base.transport(for: peer) }
    func clock(for peer: String) -> () -> Int64 { base.clock(for: peer) }
    func mediaTransport(for peer: String) -> (any MediaLinkFactory)? {
      base.mediaTransport(for: peer)
    }
    func startMedia() -> Bool { base.startMedia() }
    func mediaStatistics() -> MediaPlaneStatistics? { base.mediaStatistics() }
    func subscriptionsBelowTop(of user: UserID, inSession name: String) -> Int? {
      base.subscriptionsBelowTop(of: user, inSession: name)
    }
    func serviceState(ofSession name: String) -> SessionState? {
      base.serviceState(ofSession: name)
    }
    func serviceSequence(ofSession name: String) -> UInt64? {
      base.serviceSequence(ofSession: name)
    }
    func expectedChat() -> ExpectedChat {
      var expected = base.expectedChat()
      if lie == .lostMessage { expected.expect("never-delivered", of: "alice") }
      return expected
    }
    func ghostMembers(ofSession name: String) -> [(user: UserID, peer: String)] {
      lie == .ghost ? [(user: 1, peer: "alice")] : base.ghostMembers(ofSession: name)
    }
    func inject(_ fault: WorldFault) -> Bool { base.inject(fault) }
    func traceNetwork(to sink: @escaping (String) -> Void) { base.traceNetwork(to: sink) }
    func finish() -> [String] { base.finish() }
  }

  private func run(lying lie: Lie?) throws -> RunReport {
    let scenario = RunnerTests.room(
      actions: [ActionSpec(at: .seconds(3), peer: "student-1", .chat, text: "hello")],
      expect: Expectations(liveness: .seconds(5)))
    let base = DeterministicWorld(
      seed: 1, service: ScenarioLoader.serviceConfiguration(for: scenario, seed: 1))
    let world: any SimulationWorld = lie.map { Lying(base, $0) } ?? base
    return try ScenarioRunner(scenario: scenario, world: world, options: RunOptions(seed: 1)).run()
  }

  @Test func everyMessageSentArrivesExactlyOnce() throws {
    let report = try run(lying: nil)
    #expect(report.passed, "\(report.failures)")
  }

  @Test func aGhostMemberAtQuiescenceFailsConvergence() throws {
    let report = try run(lying: .ghost)
    let failure = try #require(report.failures.first { $0.check == "convergence" })
    #expect(failure.peer == "alice")
    #expect(failure.detail.contains("on a connection alice closed"))
  }

  /// The tap's own answer, not only that runs pass with it: every broadcast a peer's open
  /// connection got after its admission, nothing from before a rejoin, a private message to
  /// its two ends alone.
  @Test func theTapOwesEachOpenConnectionWhatWasSentOnItAfterItsAdmission() throws {
    let scenario = Scenario(
      name: "owed", duration: .seconds(8), session: SessionSpec(name: "Room"),
      peers: [
        PeerSpec(name: "alice", role: .host),
        PeerSpec(name: "bob", join: .exactly(.ms(500))),
        PeerSpec(name: "carol", join: .exactly(.ms(500))),
      ],
      actions: [
        ActionSpec(at: .seconds(1), peer: "bob", .chat, text: "one"),
        ActionSpec(at: .ms(1_500), peer: "bob", .chat, text: "two"),
        ActionSpec(at: .seconds(2), peer: "carol", .leave),
        ActionSpec(at: .ms(2_500), peer: "alice", .chat, text: "three"),
        ActionSpec(at: .seconds(3), peer: "carol", .join),
        ActionSpec(at: .seconds(4), peer: "alice", .chatTo, target: "bob", text: "private"),
        ActionSpec(at: .seconds(5), peer: "bob", .chat, text: "four"),
      ],
      expect: Expectations(liveness: .seconds(5)))
    let world = DeterministicWorld(
      seed: 1, service: ScenarioLoader.serviceConfiguration(for: scenario, seed: 1))
    let report = try ScenarioRunner(scenario: scenario, world: world, options: RunOptions(seed: 1))
      .run()
    #expect(report.passed, "\(report.failures)")
    let expected = world.expectedChat()
    func owed(_ peer: String) -> [Int] {
      var places: [Int] = []
      expected.forEachPlace(of: peer) { places.append($0) }
      return places
    }
    #expect(expected.log.count == 5)
    #expect(owed("alice") == [0, 1, 2, 3, 4])
    #expect(owed("bob") == [0, 1, 2, 3, 4])
    // Rejoined after "one", "two" and "three": owed only the broadcast after that.
    #expect(owed("carol") == [4])
  }

  @Test func aMessageTheServiceSentThatNeverArrivedFailsDelivery() throws {
    let report = try run(lying: .lostMessage)
    let failure = try #require(report.failures.first { $0.check == "delivery" })
    #expect(failure.peer == "alice")
    #expect(failure.detail.contains("never-delivered"))
  }
}

/// The same scenario file in loopback mode: libuv, real sockets, the fault proxy.
@Suite(.serialized) struct LoopbackModeTests {
  @Test func aShortScenarioConvergesOverRealSockets() throws {
    let scenario = Scenario(
      name: "loopback", duration: .seconds(2), session: SessionSpec(name: "Room"),
      service: ServiceSpec(heartbeatTimeout: .seconds(2), reconnectGrace: .seconds(1)),
      network: .symmetric(LinkSpec(delay: .ms(5), loss: 0.05)),
      peers: [
        PeerSpec(name: "alice", role: .host, video: true),
        PeerSpec(name: "bob", join: .exactly(.ms(300))),
        PeerSpec(name: "carol", join: .exactly(.ms(600))),
      ],
      actions: [
        ActionSpec(at: .seconds(1), peer: "bob", .chat, text: "hi"),
        ActionSpec(at: .ms(1_200), peer: "alice", .startShare),
      ],
      faults: [
        FaultSpec(at: .ms(900), .kill, peers: "carol", for: .ms(500)),
        // Pausing a process: the proxy holds its links, its gate stops its instance.
        FaultSpec(at: .ms(1_000), .pause, peers: "bob", for: .ms(100)),
      ],
      expect: Expectations(liveness: .seconds(30)))
    try ScenarioLoader.validate(scenario)
    var options = RunOptions(seed: 1)
    options.loopbackWorld = LoopbackWorld.maker
    let outcome = try Simulation.run(scenario, mode: .loopback, options: options)
    #expect(outcome.report.mode == "loopback")
    #expect(outcome.report.passed, "\(outcome.report.failures)")
    #expect(outcome.report.unsupportedFaults.isEmpty)
  }
}
