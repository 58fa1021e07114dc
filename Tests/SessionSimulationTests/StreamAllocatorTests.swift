import Foundation
import SessionCore
import SessionSDK
import SessionTransport
import Synchronization
import Testing

@testable import SessionSimulation

/// The stream allocator and the delay-based estimate on the virtual network, against the bars
/// of the media-under-pressure work: `Examples/Scenarios/tight-downlink.json` (student-7
/// watches ten videos; its downlink is capped at 300 kbit/s from 10 s to 30 s),
/// `lossy-viewer.json` (10% random loss on its downlink) and `share-under-cap.json` (a cap the
/// share fits and ten videos do not).
@Suite struct StreamAllocatorTests {
  /// One stream of student-7's at one moment.
  struct StreamSample: Sendable {
    var publisher: UserID
    var kind: MediaKind
    var lost: Int64
    var expected: Int64
    var freezes: Int
    var isPaused: Bool
    var pausedTime: Int64
    var layer: Int?
  }

  /// Student-7's streams every half second from 5 s, keyed by the time in ms.
  typealias Samples = [Int64: [StreamSample]]

  static func run(
    _ name: String, _ change: (inout Scenario) -> Void = { _ in }
  ) throws -> (RunReport, Samples) {
    var scenario = try PackageFiles.example(name)
    change(&scenario)
    let world = DeterministicWorld(
      seed: 1, service: ScenarioLoader.serviceConfiguration(for: scenario, seed: 1))
    let runner = ScenarioRunner(scenario: scenario, world: world, options: RunOptions(seed: 1))
    let samples = Mutex<Samples>([:])
    for tenth in stride(from: Int64(50), through: scenario.duration.milliseconds / 100, by: 5) {
      runner.schedule(at: tenth * 100) { runner in
        guard let peer = runner.peersByName["student-7"] else { return }
        let streams = peer.sdk.mediaFigures.streams.filter { $0.kind != .audio }.map {
          StreamSample(
            publisher: $0.publisher, kind: $0.kind, lost: $0.packetsLost,
            expected: $0.packetsExpected, freezes: $0.freezes, isPaused: $0.isPaused,
            pausedTime: $0.pausedTime, layer: $0.layer)
        }
        samples.withLock { $0[tenth * 100] = streams }
      }
    }
    let report = try runner.run()
    return (report, samples.withLock { $0 })
  }

  static func at(_ samples: Samples, _ seconds: Double) throws -> [StreamSample] {
    try #require(samples[Int64(seconds * 1_000)])
  }

  /// Loss over `from`…`to` seconds, a fraction of what was expected then.
  static func loss(_ samples: Samples, from: Double, to: Double) throws -> Double {
    let start = try at(samples, from)
    let end = try at(samples, to)
    let lost = end.reduce(0) { $0 + $1.lost } - start.reduce(0) { $0 + $1.lost }
    let expected = end.reduce(0) { $0 + $1.expected } - start.reduce(0) { $0 + $1.expected }
    return expected == 0 ? 0 : Double(lost) / Double(expected)
  }

  /// Freezes over `from`…`to` seconds on streams that were never paused in that span.
  static func freezesOnFlowing(_ samples: Samples, from: Double, to: Double) throws -> Int {
    let start = try at(samples, from)
    let end = try at(samples, to)
    var total = 0
    for stream in end {
      guard
        let before = start.first(where: {
          $0.publisher == stream.publisher && $0.kind == stream.kind
        })
      else { continue }
      let pausedThen = before.isPaused || stream.isPaused || stream.pausedTime != before.pausedTime
      if !pausedThen { total += stream.freezes - before.freezes }
    }
    return total
  }

  @Test func aCappedViewerLosesUnderTwoPercentFromThreeSecondsAndFreezesOnlyPausedTracks() throws {
    let (report, samples) = try Self.run("tight-downlink")
    #expect(report.passed, "\(report.failures)")
    // Before the cap: everything flows, nothing lost.
    let start = try Self.at(samples, 10)
    #expect(start.allSatisfy { !$0.isPaused } && start.reduce(0) { $0 + $1.lost } == 0)
    // From 3 s after the cap began until it lifts: under 2% lost, no freeze on a track that
    // flowed throughout, and what does not fit is paused.
    let loss = try Self.loss(samples, from: 13, to: 30)
    #expect(loss < 0.02, "loss \(loss)")
    #expect(try Self.freezesOnFlowing(samples, from: 13, to: 30) == 0)
    #expect(try Self.at(samples, 15).filter(\.isPaused).count >= 8)
    // What fits flows under the cap: one 180p layer at least.
    #expect(try Self.at(samples, 20).contains { !$0.isPaused })
    // The media table counts paused time apart from freezes, for the capped viewer alone.
    let rows = try #require(report.media?.rows)
    for row in rows {
      if row.peer == "student-7" {
        #expect(row.pausedSeconds > 20 && row.pausedTracks == 0)
      } else {
        #expect(row.pausedSeconds == 0 && row.pausedTracks == 0)
      }
    }
  }

  @Test func afterTheCapLiftsEveryTrackIsBackAtItsTopLayerWithinTenSeconds() throws {
    let (report, samples) = try Self.run("tight-downlink")
    // The scenario's own expectation (`recoverWithin: 10s`) checked the service's view.
    #expect(report.passed, "\(report.failures)")
    // The viewer's: every video resumed and at 360p (layer 1 of each sender's simulcast).
    let back = stride(from: 30.0, through: 50, by: 0.5).first { second in
      guard let streams = samples[Int64(second * 1_000)] else { return false }
      return streams.count == 10 && streams.allSatisfy { !$0.isPaused && $0.layer == 1 }
    }
    let recovered = try #require(back)
    #expect(recovered - 30 <= 10, "back at \(recovered) s")
  }

  @Test func aLossyViewerKeepsAtLeastFourFifthsOfWhatItsNeighboursGet() throws {
    let (report, samples) = try Self.run("lossy-viewer")
    #expect(report.passed, "\(report.failures)")
    let rows = try #require(report.media?.rows)
    let viewer = try #require(rows.first { $0.peer == "student-7" })
    let neighbours = rows.filter { $0.peer.hasPrefix("student-") && $0.peer != "student-7" }
    let typical = neighbours.map(\.receiveKbps).sorted()[neighbours.count / 2]
    #expect(viewer.receiveKbps >= 0.8 * typical, "\(viewer.receiveKbps) against \(typical)")
    // Random loss is no congestion: nothing is ever paused.
    #expect(samples.values.allSatisfy { $0.allSatisfy { !$0.isPaused } })
    #expect(viewer.pausedSeconds == 0)
  }

  @Test func theShareSurvivesACapThatTheVideosDoNot() throws {
    let (report, samples) = try Self.run("share-under-cap")
    #expect(report.passed, "\(report.failures)")
    // The share is never paused; videos are.
    #expect(
      samples.values.allSatisfy { $0.filter { $0.kind == .share }.allSatisfy { !$0.isPaused } })
    let capped = try Self.at(samples, 20)
    #expect(capped.contains { $0.kind == .share })
    #expect(capped.filter { $0.kind == .video && $0.isPaused }.count >= 5)
    // From 3 s after the cap it flows throughout (its losses come with the probes, when a
    // resumed video's key frame finds the queue: under a tenth).
    let share = { (seconds: Double) throws -> StreamSample in
      try #require(try Self.at(samples, seconds).first { $0.kind == .share })
    }
    for second in stride(from: 13.0, to: 30, by: 1) {
      let (from, to) = (try share(second), try share(second + 1))
      #expect(to.expected - from.expected > 40, "the share stalled at \(second) s")
    }
    let (from, to) = (try share(13), try share(30))
    #expect(Double(to.lost - from.lost) < 0.1 * Double(to.expected - from.expected))
    #expect(to.pausedTime == 0)
  }

  @Test func aBoundOnPausedTracksFailsARunThatEndsAboveIt() throws {
    // Every student's own downlink carries 300 kbit/s (no fault: the heal keeps it), so
    // most of their tracks are still paused at the end.
    func narrow(_ scenario: inout Scenario, bound: Int) {
      scenario.faults = []
      scenario.peers[1].network = NetworkSpec(
        downlink: LinkSpec(bandwidth: Bitrate(bitsPerSecond: 300_000)))
      scenario.expect.media?.maxPausedTracks = bound
      scenario.expect.media?.recoverWithin = nil
    }
    let (report, _) = try Self.run("tight-downlink") { narrow(&$0, bound: 0) }
    let failure = try #require(report.failures.first { $0.check == "media" })
    #expect(failure.peer?.hasPrefix("student-") == true)
    #expect(failure.detail.contains("tracks paused at the end, over the bound of 0"))
    // A bound it keeps passes.
    let (kept, _) = try Self.run("tight-downlink") { narrow(&$0, bound: 10) }
    #expect(kept.passed, "\(kept.failures)")
  }

  @Test func aRecoveryBoundFailsARunWhoseCapLastsPastIt() throws {
    // The cap lasts to 45 s and the check comes 1 s after it: the viewer is still climbing.
    let (report, _) = try Self.run("tight-downlink") {
      $0.faults[0].duration = .seconds(35)
      $0.expect.media?.recoverWithin = .seconds(1)
    }
    let failure = try #require(report.failures.first { $0.check == "media" })
    #expect(failure.peer == "student-7")
    #expect(failure.detail.contains("below their top layer or paused"))
  }
}
