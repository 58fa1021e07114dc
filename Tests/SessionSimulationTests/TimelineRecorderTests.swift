import Foundation
import Testing

@testable import SessionSimulation

/// The timeline behind a run's HTML report: what it records, and that recording it changes
/// nothing in the run.
@Suite struct TimelineRecorderTests {
  private func run(
    _ scenario: Scenario, seed: UInt64? = nil, timeline: Bool, trace: Bool = true
  ) throws -> Simulation.Outcome {
    var options = RunOptions(
      seed: seed ?? scenario.seed ?? 1, swarm: scenario.swarm != nil, keepsTrace: trace)
    options.recordsTimeline = timeline
    return try Simulation.run(scenario, mode: .deterministic, options: options)
  }

  @Test func recordingTheTimelineLeavesTheTraceAsItWas() throws {
    let scenario = try PackageFiles.example("classroom-groups")
    let plain = try run(scenario, timeline: false)
    let recorded = try run(scenario, timeline: true)
    #expect(plain.timeline == nil)
    #expect(recorded.timeline != nil)
    #expect(plain.report.traceDigest == recorded.report.traceDigest)
    #expect(Simulation.firstDifference(plain.trace, recorded.trace) == nil)
    #expect(plain.report.passed && recorded.report.passed)
  }

  @Test func aClassroomWithGroupsShowsEveryPeerItsRolesAndTheSubsessions() throws {
    let outcome = try run(try PackageFiles.example("classroom-groups"), timeline: true)
    let timeline = try #require(outcome.timeline)
    #expect(timeline.peers.count == 21)
    #expect(!timeline.folded)
    #expect(timeline.passed)
    #expect(timeline.end == outcome.report.simulatedMilliseconds)
    let teacher = try #require(timeline.peers.first { $0.name == "teacher" })
    let role = try #require(teacher.lanes.first { $0.kind == "role" })
    #expect(role.segments.contains { $0.value == "host" })
    #expect(teacher.lanes.contains { $0.kind == "share" })
    #expect(!teacher.callbacks.isEmpty)
    #expect(teacher.callbacks.contains { $0.name == "onSessionJoin" })
    // Students spend time in their groups.
    let inGroups = timeline.peers.filter { peer in
      peer.lanes.contains { $0.kind == "subsession" && !$0.segments.isEmpty }
    }
    #expect(inGroups.count >= 15)
    // Segments are ordered, do not overlap and stay inside the run.
    for peer in timeline.peers {
      for lane in peer.lanes {
        for (a, b) in zip(lane.segments, lane.segments.dropFirst()) { #expect(a.to <= b.from) }
        #expect(
          lane.segments.allSatisfy { 0 <= $0.from && $0.from < $0.to && $0.to <= timeline.end })
      }
    }
    // The service's roster and the teacher's, with the host named.
    #expect(timeline.rosters.map(\.observer).prefix(2) == ["service", "teacher"])
    let service = timeline.rosters[0].samples
    #expect(service.map(\.size).max() == 21)
    #expect(service.last?.host == "teacher")
    #expect(service.last?.hosts == 1)
    #expect(timeline.callbackLatency != nil)
    #expect((timeline.callbackLatency?.count ?? 0) > 100)
  }

  @Test func aSpotlightShowsOnTheSpotlightedPeersLane() throws {
    let outcome = try run(try PackageFiles.example("raise-hand"), timeline: true, trace: false)
    let timeline = try #require(outcome.timeline)
    let spotlit = timeline.peers.filter { peer in
      peer.lanes.contains {
        $0.kind == "spotlight" && $0.segments.contains { $0.value == "spotlighted" }
      }
    }
    #expect(!spotlit.isEmpty)
    #expect(spotlit.count < timeline.peers.count)
  }

  @Test func aCapIsABandAndTheCappedViewersPausedTracksShow() throws {
    let outcome = try run(try PackageFiles.example("tight-downlink"), timeline: true, trace: false)
    let timeline = try #require(outcome.timeline)
    let cap = try #require(timeline.faults.first { $0.kind == "cap" })
    #expect(cap.from == 10_000)
    #expect(cap.to == 30_000)
    #expect(cap.peers == ["student-7"])
    #expect(cap.label.contains("student-7"))
    let capped = try #require(timeline.media.first { $0.peer == "student-7" })
    #expect(capped.samples.contains { $0.pausedTracks > 0 })
    #expect(!capped.subscriptions.isEmpty)
    #expect(capped.subscriptions.contains { $0.samples.contains { $0.layer != nil } })
    #expect(capped.samples.contains { $0.receiveKbps > 0 })
    #expect(capped.delay != nil)
    #expect(timeline.delay.map { $0.p50 <= $0.p99 && $0.p99 <= $0.max } == true)
  }

  @Test func aLargeRunFoldsIntoGroupsWithChosenPeersExpanded() throws {
    let scenario = ScenarioScaling.scaled(try PackageFiles.example("churn-1000"), toAbout: 120)
    let outcome = try run(scenario, timeline: true, trace: false)
    let timeline = try #require(outcome.timeline)
    #expect(timeline.folded)
    #expect(timeline.peerCount == outcome.report.peers)
    #expect(timeline.peers.count < 12)
    #expect(timeline.peers.contains { $0.expandedBecause == "host" })
    #expect(timeline.groups.map(\.count).reduce(0, +) == timeline.peerCount)
    let most = timeline.groups.flatMap(\.samples).map(\.inSession).max() ?? 0
    #expect(most > 50)
  }

  @Test func aFailingRunsReportMarksTheCheckWhereItFailed() throws {
    var scenario = try PackageFiles.example("quickstart")
    scenario.expect.assertions = [
      AssertionSpec(at: .seconds(5), peers: "bob", host: "bob")
    ]
    let outcome = try run(scenario, timeline: true, trace: false)
    #expect(!outcome.report.passed)
    let timeline = try #require(outcome.timeline)
    #expect(!timeline.passed)
    let mark = try #require(timeline.failures.first)
    #expect(mark.check == "assertion")
    #expect(mark.at == 5_000)
    #expect(mark.expected == "host bob")
    #expect(mark.actual == "alice")
    let html = HTMLReport.render(timeline)
    #expect(html.contains("class=\"failure-mark\""))
    #expect(html.contains("FAIL"))
    #expect(html.contains("host bob"))
    #expect(html.contains("sessionsim run &lt;scenario&gt; --seed 1"))
  }

  @Test func aFailureIsPlacedWithWhatWasExpectedAndFound() {
    let failure = RunReport.Failure(
      check: "assertion", peer: "student-1", at: 4_000, sequence: 9,
      detail: "expected host teacher, saw student-3")
    let mark = TimelineRecorder.mark(failure)
    #expect(mark.at == 4_000)
    #expect(mark.expected == "host teacher")
    #expect(mark.actual == "student-3")
    let plain = TimelineRecorder.mark(
      RunReport.Failure(check: "liveness", peer: nil, at: 1, sequence: nil, detail: "stuck"))
    #expect(plain.expected == nil && plain.actual == nil && plain.detail == "stuck")
  }

  @Test func theSamplingPeriodKeepsAboutAThousandSamples() {
    #expect(TimelineRecorder.interval(forLength: 10_000) == 100)
    #expect(TimelineRecorder.interval(forLength: 95_000) == 100)
    #expect(TimelineRecorder.interval(forLength: 180_000) == 200)
    #expect(TimelineRecorder.interval(forLength: 600_000) == 1_000)
    #expect(TimelineRecorder.interval(forLength: 100_000_000) == 60_000)
  }
}
