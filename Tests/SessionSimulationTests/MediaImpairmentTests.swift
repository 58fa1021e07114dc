import Foundation
import LoopbackSimulation
import SessionCore
import SessionSDK
import SessionService
import SessionTransport
import Synchronization
import Testing
import VirtualNetwork

@testable import SessionSimulation

/// Impairments read true: injected loss shows in the statistics, a capped downlink moves to a
/// lower layer and stops losing, a partition freezes the streams and the heal brings them back.
@Suite struct MediaImpairmentTests {
  /// `Examples/Scenarios/media-impairments.json`: a teacher at 720p and four viewers: `lossy`
  /// with 10% downlink loss throughout, `capped` whose downlink is capped at 1 Mbit/s from 6 s,
  /// `cut` partitioned from 6 s to 9 s, and `clean`; the teacher shares from 1 s.

  /// One viewer's figures for the teacher's video at one time.
  struct Sample: Sendable {
    var at: Int64
    var stream: MediaFigures.Stream?
    /// Every stream the viewer receives.
    var streams: [MediaFigures.Stream] = []
    var statistics: QOSStatistics?
    var now: Int64
  }

  /// Runs the scenario in `mode`, sampling each viewer's view of the teacher at `times`.
  static func run(mode: SimulationMode, times: [Int64]) throws -> (
    RunReport, [String: [Sample]]
  ) {
    let scenario = try PackageFiles.example("media-impairments")
    let world = try Simulation.makeWorld(
      mode, scenario: scenario, seed: 1, tracesNetwork: false, loopbackWorld: LoopbackWorld.maker)
    defer { world.shutdown() }
    let runner = ScenarioRunner(scenario: scenario, world: world, options: RunOptions(seed: 1))
    let samples = Mutex<[String: [Sample]]>([:])
    for time in times {
      runner.schedule(at: time) { runner in
        guard let teacher = runner.peersByName["teacher"]?.userID else { return }
        for name in ["lossy", "capped", "cut", "clean"] {
          guard let peer = runner.peersByName[name] else { continue }
          let figures = peer.sdk.mediaFigures
          let stream = figures.streams.first { $0.publisher == teacher && $0.kind == .video }
          let statistics = peer.sdk.getSession()?.user(withID: teacher)?.getVideoStatisticInfo()
          let sample = Sample(
            at: time, stream: stream, streams: figures.streams, statistics: statistics,
            now: figures.now)
          samples.withLock { $0[name, default: []].append(sample) }
        }
      }
    }
    let report = try runner.run()
    return (report, samples.withLock { $0 })
  }

  /// The sample times: before the faults, 3 s into them, during the partition, 2 s after its
  /// heal, and the end.
  static let times: [Int64] = [5_500, 8_500, 9_000, 11_000, 15_500]

  @Test func impairmentsReadTrueInDeterministicMode() throws {
    try Self.check(mode: .deterministic)
  }

  @Test func impairmentsReadTrueInLoopbackMode() throws {
    try Self.check(mode: .loopback)
  }

  static func check(mode: SimulationMode) throws {
    let (report, samples) = try Self.run(mode: mode, times: times)
    #expect(report.passed, "\(report.failures)")
    func sample(_ peer: String, _ at: Int64) -> Sample? {
      samples[peer]?.first { $0.at == at }
    }
    // 10% injected loss reads 10% ± 1.5 points over the video and share the viewer receives
    // (enough packets that the draw itself is near 10%), and per stream in the SDK's
    // statistics.
    let streams = try #require(sample("lossy", 15_500)?.streams).filter { $0.kind != .audio }
    let lost = streams.reduce(0) { $0 + $1.packetsLost }
    let wanted = streams.reduce(0) { $0 + $1.packetsExpected }
    #expect(wanted > 1_500)
    let loss = Double(lost) / Double(max(1, wanted))
    #expect(abs(loss - 0.10) <= 0.015, "loss \(lost) of \(wanted)")
    // The SDK's statistics say the same as its figures: the totals match, and the loss of the
    // last five seconds (fewer packets, so a wider tolerance) is near 100‰.
    let statistics = try #require(sample("lossy", 15_500)?.statistics)
    let video = try #require(sample("lossy", 15_500)?.stream)
    #expect(statistics.packetsLost == Int(video.packetsLost))
    #expect(statistics.direction == .receive)
    #expect((30...190).contains(statistics.averageLoss), "5 s loss \(statistics.averageLoss)‰")
    #expect(statistics.maximumLoss >= statistics.averageLoss)
    // The clean viewer loses nothing and gets the top layer.
    let clean = try #require(sample("clean", 15_500)?.stream)
    #expect(clean.packetsLost == 0)
    #expect(clean.layer == 2)
    // Capped at 1 Mbit/s from 6 s: below 720p within 3 s; then under 2% loss.
    let before = try #require(sample("capped", 5_500)?.stream)
    #expect(before.layer == 2)
    let switched = try #require(sample("capped", 9_000)?.stream)
    #expect((switched.layer ?? 2) < 2, "layer at 9 s: \(String(describing: switched.layer))")
    let end = try #require(sample("capped", 15_500)?.stream)
    let cappedLost = end.packetsLost - switched.packetsLost
    let expected = end.packetsExpected - switched.packetsExpected
    #expect(expected > 150)
    #expect(
      Double(cappedLost) / Double(max(1, expected)) < 0.02, "\(cappedLost) of \(expected) lost")
    // Partitioned 6–9 s: frozen during, flowing again within 2 s of the heal.
    let frozen = try #require(sample("cut", 8_500)?.stream)
    #expect(frozen.isFrozen)
    let recovered = try #require(sample("cut", 11_000))
    let arrival = try #require(recovered.stream?.lastArrival)
    #expect(recovered.now - arrival < 200_000)
    #expect(recovered.stream?.isFrozen == false)
    // Network quality, as each viewer reads the teacher's video: 10% loss is no longer good,
    // a clean link is, a partition is bad.
    let lossyLevel = try #require(sample("lossy", 15_500)?.statistics?.networkLevel)
    #expect(lossyLevel == .normal || lossyLevel == .bad, "lossy reads \(lossyLevel)")
    #expect(sample("clean", 15_500)?.statistics?.networkLevel == .good)
    #expect(sample("cut", 8_500)?.statistics?.networkLevel == .bad)
    // The run's table agrees.
    let table = try #require(report.media)
    #expect(table.tracks.received == table.tracks.expected)
    #expect(table.rows.first { $0.peer == "clean" }?.lossPercent == 0)
  }
}
