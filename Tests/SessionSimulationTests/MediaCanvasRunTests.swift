import Foundation
import SessionCore
import SessionSDK
import Synchronization
import Testing
import VirtualNetwork

@testable import SessionSimulation

/// Canvases end to end on the virtual network: subscribing starts delivery and unsubscribing
/// stops it, the 26th video canvas is refused with its reason, and the statistics read the
/// links' delay.
@Suite struct MediaCanvasRunTests {
  /// `alice` sends 720p; `bob` watches only what the test subscribes; 26 more peers send
  /// 180p. Every link has 40 ms of delay each way.
  static let scenario = """
    {
      "name": "canvases", "seed": 2, "duration": "10s",
      "session": { "name": "Canvases" },
      "network": { "both": { "delay": "40ms" } },
      "peers": [
        { "name": "alice", "role": "host", "video": true, "media": { "send": "720p" } },
        { "name": "bob", "media": { "send": "180p" } },
        { "name": "p-{i}", "count": 26, "video": true, "join": "500ms",
          "media": { "send": "180p" } }
      ],
      "expect": { "liveness": "5s" }
    }
    """

  /// A view that counts frames.
  final class Sink: VideoSink, @unchecked Sendable {
    let frames = Mutex(0)
    func onFrameReceived(_ frame: VideoFrame) { frames.withLock { $0 += 1 } }
  }

  /// What the test saw, written from the world's thread.
  struct Seen: Sendable {
    var framesAt: [Int64: Int] = [:]
    var subscribeResults: [VideoSDKError] = []
    var subscriptionCount = 0
    var arriving = 0
    var delayP50: Int64 = 0
    var rtt = 0
    var failures: [SubscribeFailReason] = []
  }

  static func bob(_ runner: ScenarioRunner) -> SimulatedPeer? { runner.peersByName["bob"] }

  /// `name`'s user as bob's session knows it.
  static func user(_ name: String, _ runner: ScenarioRunner) -> User? {
    guard let id = runner.peersByName[name]?.userID else { return nil }
    return bob(runner)?.sdk.getSession()?.user(withID: id)
  }

  @Test func subscribeStartsDeliveryUnsubscribeStopsItAndTheTwentySixthIsRefused() throws {
    let scenario = try ScenarioLoader.load(Data(Self.scenario.utf8))
    let world = try Simulation.makeWorld(
      .deterministic, scenario: scenario, seed: 2, tracesNetwork: false)
    let runner = ScenarioRunner(scenario: scenario, world: world, options: RunOptions(seed: 2))
    let seen = Mutex(Seen())
    let sink = Sink()
    let views = (0..<26).map { _ in Sink() }
    runner.schedule(at: 2_000) { runner in
      _ = Self.user("alice", runner)?.getVideoCanvas()?.subscribe(
        with: sink, aspectMode: .panAndScan, andResolution: .auto)
    }
    for time: Int64 in [1_900, 4_000, 4_500, 6_000] {
      runner.schedule(at: time) { _ in
        let frames = sink.frames.withLock { $0 }
        seen.withLock { $0.framesAt[time] = frames }
      }
    }
    runner.schedule(at: 4_000) { runner in
      guard let bob = Self.bob(runner) else { return }
      let stream = bob.sdk.mediaFigures
      seen.withLock { $0.delayP50 = stream.videoDelays.percentile(0.5) }
      if let alice = Self.user("alice", runner) {
        seen.withLock { $0.rtt = alice.getVideoStatisticInfo().rtt }
      }
      _ = Self.user("alice", runner)?.getVideoCanvas()?.unSubscribe(with: sink)
    }
    runner.schedule(at: 6_100) { runner in
      guard let bob = Self.bob(runner) else { return }
      let previous = bob.sdk.callbackObserver
      bob.sdk.callbackObserver = { callback in
        if case .onVideoCanvasSubscribeFail(let reason, _) = callback {
          seen.withLock { $0.failures.append(reason) }
        }
        previous?(callback)
      }
      var results: [VideoSDKError] = []
      for (index, view) in views.enumerated() {
        let canvas = Self.user("p-\(index + 1)", runner)?.getVideoCanvas()
        results.append(
          canvas?.subscribe(with: view, aspectMode: .panAndScan, andResolution: .p180Spec)
            ?? .invalidParameter)
      }
      seen.withLock {
        $0.subscribeResults = results
        $0.subscriptionCount = bob.sdk.videoSubscriptionCount
      }
    }
    runner.schedule(at: 9_000) { _ in
      let arriving = views.filter { $0.frames.withLock { $0 } > 0 }.count
      seen.withLock { $0.arriving = arriving }
    }
    let report = try runner.run()
    #expect(report.passed, "\(report.failures.prefix(3))")
    let result = seen.withLock { $0 }
    // Nothing before the subscription; frames after it; none after the unsubscription.
    #expect(result.framesAt[1_900] == 0)
    let during = try #require(result.framesAt[4_000])
    #expect(during > 40, "\(during) frames in 2 s")
    #expect(result.framesAt[6_000] == result.framesAt[4_500])
    // 40 ms each way: alice's uplink and bob's downlink make 80 ms one way; bob's probe
    // crosses his link both ways.
    #expect((78_000...90_000).contains(result.delayP50), "p50 \(result.delayP50) µs")
    #expect((78...95).contains(result.rtt), "rtt \(result.rtt) ms")
    // 25 canvases, then the SDK's limit with its reason; the 25 all deliver.
    #expect(result.subscribeResults.prefix(25).allSatisfy { $0 == .success })
    #expect(result.subscribeResults.last == .sessionVideoError)
    #expect(result.failures == [.hasSubscribeExceededLimit])
    #expect(result.subscriptionCount == 25)
    #expect(result.arriving == 25)
  }
}

extension VideoResolution {
  /// 180p, spelt for these tests.
  fileprivate static var p180Spec: VideoResolution { .resolution180 }
}
