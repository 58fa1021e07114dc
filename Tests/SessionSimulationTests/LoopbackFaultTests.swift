import Foundation
import LoopbackSimulation
import SessionCore
import SessionService
import Synchronization
import Testing

@testable import SessionSimulation

/// Every fault in loopback mode too (issue 25): service kill and restart, pause, and the
/// signalling path's jitter, distributions and caps, each in a short real-time run that shows
/// the fault happened and the run converged; and what loopback mode cannot do, refused when
/// loaded. Real time on a shared machine: every bound is generous, and lower bounds are used
/// where a loaded machine could only be slower.
@Suite(.serialized) struct LoopbackFaultTests {
  /// What a run saw at a moment, from the client loop.
  private final class Probe: Sendable {
    private let seen = Mutex<[String: String]>([:])

    func note(_ key: String, _ value: String) { seen.withLock { $0[key] = value } }
    subscript(key: String) -> String? { seen.withLock { $0[key] } }
  }

  /// Runs `scenario` in a loopback world of its own, with `probes` scheduled on the world
  /// before the run starts; returns the outcome's report, its trace and the world's view of
  /// the session at the end.
  private static func run(
    _ scenario: Scenario, seed: UInt64 = 1,
    probes: (LoopbackWorld) -> Void = { _ in }
  ) throws -> (report: RunReport, trace: [String], end: SessionState?) {
    try ScenarioLoader.validate(scenario, for: .loopback)
    let service = ScenarioLoader.serviceConfiguration(for: scenario, seed: seed)
    let world = try LoopbackWorld(seed: seed, service: service, scenario: scenario)
    defer { world.shutdown() }
    probes(world)
    var options = RunOptions(seed: seed, keepsTrace: true)
    options.loopbackWorld = LoopbackWorld.maker
    let runner = ScenarioRunner(scenario: scenario, world: world, options: options)
    let report = try runner.run()
    let name = scenario.session.name
    let end = try world.perform { world.serviceState(ofSession: name) }
    return (report, runner.traceLines, end)
  }

  /// The callbacks peer number `index` got, as the trace's `elapsed pN callback` lines.
  private static func callbacks(of index: Int, in trace: [String]) -> [(at: Int64, line: String)] {
    trace.compactMap { line in
      let parts = line.split(separator: " ", maxSplits: 2)
      guard parts.count == 3, parts[1] == "p\(index)", let at = Int64(parts[0]) else { return nil }
      return (at, String(parts[2]))
    }
  }

  // MARK: Service kill and restart

  @Test func aKilledServiceRestartsFreshOnItsPortsAndTheMembersRejoinIt() throws {
    let scenario = Scenario(
      name: "service-restart", duration: .seconds(4), session: SessionSpec(name: "Room"),
      service: ServiceSpec(heartbeatTimeout: .ms(1_500), reconnectGrace: .seconds(1)),
      peers: [
        PeerSpec(name: "alice", role: .host),
        PeerSpec(name: "bob", join: .exactly(.ms(200))),
        PeerSpec(name: "carol", join: .exactly(.ms(400))),
      ],
      actions: [ActionSpec(at: .ms(1_000), peer: "bob", .chat, text: "before")],
      faults: [FaultSpec(at: .ms(1_500), .killService, for: .ms(1_500))],
      expect: Expectations(liveness: .seconds(40)))
    let probe = Probe()
    let result = try Self.run(scenario) { world in
      world.schedule(at: 1_300) {
        let state = world.serviceState(ofSession: "Room")
        probe.note("before.id", state?.sessionID ?? "none")
        probe.note("before.members", "\(state?.participants.count ?? 0)")
        probe.note("before.sequence", "\(world.serviceSequence(ofSession: "Room") ?? 0)")
      }
      world.schedule(at: 2_300) {
        // Down: the world answers as deterministic mode's does with its host down.
        probe.note("down.state", world.serviceState(ofSession: "Room") == nil ? "nil" : "live")
        probe.note(
          "down.sequence", world.serviceSequence(ofSession: "Room") == nil ? "nil" : "live")
        probe.note("down.media", world.mediaStatistics() == nil ? "nil" : "live")
      }
    }
    #expect(result.report.passed, "\(result.report.failures.prefix(3))")
    #expect(result.report.unsupportedFaults.isEmpty)
    #expect(probe["before.members"] == "3")
    #expect(probe["down.state"] == "nil")
    #expect(probe["down.sequence"] == "nil")
    #expect(probe["down.media"] == "nil")
    // A fresh service: a new session (its id from the restarted secrets) with every member
    // back in it, its sequence rebuilt from the rejoins alone.
    let end = try #require(result.end)
    let before = try #require(probe["before.id"])
    #expect(before != "none")
    #expect(end.sessionID != nil && end.sessionID != before)
    #expect(end.participants.count == 3)
    // Each member's instance saw its session end and joined the fresh one.
    for index in 0..<3 {
      let lines = Self.callbacks(of: index, in: result.trace)
      #expect(
        lines.contains { $0.at >= 1_500 && $0.line.hasPrefix("onSessionLeave") },
        "p\(index): \(lines.map(\.line))")
      #expect(
        lines.contains { $0.at >= 3_000 && $0.line.hasPrefix("onSessionJoin") },
        "p\(index): \(lines.map(\.line))")
    }
  }

  // MARK: Pause

  @Test func aPausedPeerStopsIsTimedOutByTheServiceAndRecoversOnResume() throws {
    let scenario = Scenario(
      name: "pause", duration: .seconds(5), session: SessionSpec(name: "Room"),
      service: ServiceSpec(heartbeatTimeout: .seconds(1), reconnectGrace: .ms(500)),
      peers: [
        PeerSpec(name: "alice", role: .host),
        PeerSpec(name: "bob", join: .exactly(.ms(200))),
      ],
      actions: [
        // Said while bob is stopped: he reads it only after he is back.
        ActionSpec(at: .ms(2_500), peer: "alice", .chat, text: "while you were out")
      ],
      faults: [FaultSpec(at: .ms(1_500), .pause, peers: "bob", for: .seconds(3))],
      expect: Expectations(liveness: .seconds(40)))
    let probe = Probe()
    let result = try Self.run(scenario) { world in
      world.schedule(at: 4_000) {
        let names = world.serviceState(ofSession: "Room")?.participants.values.map(\.name) ?? []
        probe.note("paused.members", names.sorted().joined(separator: ","))
      }
    }
    #expect(result.report.passed, "\(result.report.failures.prefix(3))")
    #expect(result.report.unsupportedFaults.isEmpty)
    let bob = Self.callbacks(of: 1, in: result.trace)
    let alice = Self.callbacks(of: 0, in: result.trace)
    // Stopped: past its links' heartbeat timeout and with a chat waiting, bob's instance heard
    // nothing from the pause to the resume (a little slack at each end for the loop's turn).
    let during = bob.filter { $0.at > 1_600 && $0.at < 4_400 }
    #expect(during.isEmpty, "bob heard \(during.map(\.line)) while paused")
    #expect(bob.contains { $0.at < 1_500 && $0.line.hasPrefix("onSessionJoin") })
    // The service timed him out (heartbeat timeout, then the reconnect grace) and alice saw
    // him leave, while he was still stopped.
    #expect(probe["paused.members"] == "alice", "service roster: \(probe["paused.members"] ?? "")")
    #expect(
      alice.contains { $0.at > 2_000 && $0.at < 4_500 && $0.line.hasPrefix("onUserLeave") },
      "\(alice.map(\.line))")
    // Back: what waited reached him, he rejoined, and both see each other again.
    #expect(bob.contains { $0.at >= 4_400 && $0.line.hasPrefix("onSessionJoin") })
    #expect(result.end?.participants.count == 2)
  }

  // MARK: Signalling impairments

  @Test func jitterDistributionsAndACapDelayTheSignallingAndTheRunConverges() throws {
    // dave's signalling: 150 ms, plus a uniform draw up to 300 ms in all, ± 40 ms of jitter,
    // through a 64 kbit/s cap. carol's is ideal. No media: all of it is TCP.
    let slow = LinkSpec(
      delay: .ms(150), distribution: DelayDistributionSpec(kind: .uniform, max: .ms(300)),
      jitter: .ms(40), bandwidth: Bitrate(bitsPerSecond: 64_000), queueBytes: 16_384)
    let scenario = Scenario(
      name: "tcp-impairments", duration: .seconds(4), session: SessionSpec(name: "Room"),
      peers: [
        PeerSpec(name: "alice", role: .host),
        PeerSpec(name: "carol", join: .exactly(.ms(300))),
        PeerSpec(name: "dave", join: .exactly(.ms(300)), network: .symmetric(slow)),
      ],
      actions: [
        ActionSpec(at: .ms(2_000), peer: "dave", .chat, text: "one"),
        ActionSpec(at: .ms(2_010), peer: "dave", .chat, text: "two"),
        ActionSpec(at: .ms(2_020), peer: "alice", .chat, text: "three"),
      ],
      expect: Expectations(liveness: .seconds(40)))
    let result = try Self.run(scenario)
    #expect(result.report.passed, "\(result.report.failures.prefix(3))")
    #expect(result.report.unsupportedFaults.isEmpty)
    func joinedAt(_ index: Int) -> Int64? {
      Self.callbacks(of: index, in: result.trace).first { $0.line.hasPrefix("onSessionJoin") }?.at
    }
    let carol = try #require(joinedAt(1))
    let dave = try #require(joinedAt(2))
    // A join is a connect, a hello and a join request up, their answers down: at least two
    // crossings each way of at least 150 − 40 ms (a lower bound: load only adds to it).
    #expect(dave - 300 >= 440, "dave joined \(dave - 300) ms after asking")
    #expect(dave > carol, "carol \(carol), dave \(dave)")
    // Order kept: the delivery check passed, and dave's two chats, drawn different delays,
    // reached carol in the order he sent them (alice's, sent undelayed after them, may come
    // first).
    let heard = Self.callbacks(of: 1, in: result.trace).map(\.line).filter {
      $0.hasPrefix("onChatNewMessage")
    }
    let one = try #require(heard.firstIndex { $0.contains("\"one\"") }, "\(heard)")
    let two = try #require(heard.firstIndex { $0.contains("\"two\"") }, "\(heard)")
    #expect(one < two, "\(heard)")
    #expect(heard.contains { $0.contains("\"three\"") }, "\(heard)")
  }

  // MARK: What loopback mode cannot do

  @Test func whatLoopbackModeCannotDoIsRefusedWhenLoadedForItAndOnlyThen() throws {
    let cases: [(LinkSpec, String)] = [
      (LinkSpec(duplicate: 0.1), "duplicate"),
      (LinkSpec(reorder: true), "reorder"),
      (LinkSpec(loss: 0.1, burstLength: 4), "burstLength"),
    ]
    for (link, key) in cases {
      let scenario = Scenario(
        name: "refused", duration: .seconds(1), session: SessionSpec(name: "Room"),
        peers: [PeerSpec(name: "alice", role: .host)],
        faults: [FaultSpec(at: .ms(100), .impair, peers: "alice", network: .symmetric(link))])
      // Deterministic mode does it all.
      try ScenarioLoader.validate(scenario, for: .deterministic)
      let error = #expect(throws: ScenarioError.self) {
        try ScenarioLoader.validate(scenario, for: .loopback)
      }
      #expect(error?.path == "faults[0].network.both.\(key)")
      #expect(
        error?.reason.contains("loopback mode cannot") == true, "\(String(describing: error))")
      // Running it anyway is refused before any socket opens.
      var options = RunOptions(seed: 1)
      options.loopbackWorld = LoopbackWorld.maker
      #expect(throws: ScenarioError.self) {
        _ = try Simulation.run(scenario, mode: .loopback, options: options)
      }
    }
    // Zero duplication, no reordering and bursts of one are no request at all.
    let harmless = Scenario(
      name: "harmless", duration: .seconds(1), session: SessionSpec(name: "Room"),
      network: .symmetric(LinkSpec(burstLength: 1, duplicate: 0, reorder: false)),
      peers: [PeerSpec(name: "alice", role: .host)])
    try ScenarioLoader.validate(harmless, for: .loopback)
    // Each place a link is stated is checked, and named.
    let perPeer = Scenario(
      name: "per-peer", duration: .seconds(1), session: SessionSpec(name: "Room"),
      peers: [
        PeerSpec(name: "alice", role: .host),
        PeerSpec(name: "bob", network: NetworkSpec(downlink: LinkSpec(reorder: true))),
      ])
    let error = #expect(throws: ScenarioError.self) {
      try ScenarioLoader.validate(perPeer, for: .loopback)
    }
    #expect(error?.path == "peers[1].network.downlink.reorder")
  }
}
