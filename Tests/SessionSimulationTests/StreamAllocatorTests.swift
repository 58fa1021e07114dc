import Foundation
import SessionCore
import SessionSDK
import SessionTransport
import Synchronization
import Testing

@testable import SessionSimulation

/// The stream allocator on the virtual network (`Examples/Scenarios/tight-downlink.json`):
/// student-7 watches ten videos, and its downlink is capped at 300 kbit/s from 10 s to 30 s.
@Suite struct StreamAllocatorTests {
  struct Sample: Sendable {
    var at: Int64
    var lost: Int64
    var expected: Int64
    var paused: Int
    var freezesOnFlowing: Int
    var estimate: Int
  }

  static func run(
    _ change: (inout Scenario) -> Void = { _ in }
  ) throws -> (RunReport, [Sample]) {
    var scenario = try PackageFiles.example("tight-downlink")
    change(&scenario)
    let world = DeterministicWorld(
      seed: 1, service: ScenarioLoader.serviceConfiguration(for: scenario, seed: 1))
    let runner = ScenarioRunner(scenario: scenario, world: world, options: RunOptions(seed: 1))
    let samples = Mutex<[Sample]>([])
    for second in stride(from: Int64(5), through: 50, by: 1) {
      runner.schedule(at: second * 1_000) { runner in
        guard let peer = runner.peersByName["student-7"] else { return }
        let streams = peer.sdk.mediaFigures.streams.filter { $0.kind == .video }
        let sample = Sample(
          at: second, lost: streams.reduce(0) { $0 + $1.packetsLost },
          expected: streams.reduce(0) { $0 + $1.packetsExpected },
          paused: streams.filter(\.isPaused).count,
          freezesOnFlowing: streams.filter { !$0.isPaused && $0.pausedTime == 0 }
            .reduce(0) { $0 + $1.freezes },
          estimate: runner.peersByName["teacher"]?.userID.flatMap {
            peer.sdk.getSession()?.user(withID: $0)?.getVideoStatisticInfo().bandwidth
          } ?? -1)
        samples.withLock { $0.append(sample) }
      }
    }
    let report = try runner.run()
    return (report, samples.withLock { $0 })
  }

  @Test func aCappedViewerKeepsWhatFitsAndPausesTheRest() throws {
    let (report, samples) = try Self.run()
    #expect(report.passed, "\(report.failures)")
    func at(_ second: Int64) throws -> Sample { try #require(samples.first { $0.at == second }) }
    // Before the cap: everything flows, nothing lost.
    let start = try at(10)
    #expect(start.paused == 0 && start.lost == 0)
    // Within eight seconds of the cap, what does not fit is paused, and from then until the
    // cap lifts nothing more is lost and no track that flows freezes.
    #expect(try at(18).paused >= 8)
    #expect(try at(30).lost == at(18).lost)
    #expect(try at(30).freezesOnFlowing == 0)
    // What fits flows again under the cap (the estimate grew to carry one 180p layer).
    #expect(try at(28).paused < 10)
    // After the cap lifts, paused tracks resume as the estimate grows.
    #expect(try at(50).paused < at(30).paused)
    // The media table counts paused time apart from freezes, for the capped viewer alone.
    let rows = try #require(report.media?.rows)
    let pausedAtTheEnd = try at(50).paused
    for row in rows {
      if row.peer == "student-7" {
        #expect(row.pausedSeconds > 20 && row.pausedTracks <= pausedAtTheEnd)
      } else {
        #expect(row.pausedSeconds == 0 && row.pausedTracks == 0)
      }
    }
  }

  @Test func aBoundOnPausedTracksFailsARunThatEndsAboveIt() throws {
    // The cap stays to the end, so most tracks are still paused then.
    let (report, _) = try Self.run {
      $0.faults[0].duration = nil
      $0.expect.media?.maxPausedTracks = 0
    }
    let failure = try #require(report.failures.first { $0.check == "media" })
    #expect(failure.peer == "student-7")
    #expect(failure.detail.contains("tracks paused at the end, over the bound of 0"))
    // A bound it keeps passes.
    let (kept, _) = try Self.run {
      $0.faults[0].duration = nil
      $0.expect.media?.maxPausedTracks = 10
    }
    #expect(kept.passed, "\(kept.failures)")
  }
}
