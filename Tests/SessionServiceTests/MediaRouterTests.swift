import SessionCore
import SessionService
import SessionTransport
import Testing

// MARK: Fixtures

private let ada: UserID = 1
private let bob: UserID = 2
private let cy: UserID = 3

/// Simulcast as the synthetic sources send it by default: 180p, 360p, 720p.
private let simulcast: [(bitrate: Int, width: UInt16, height: UInt16)] = [
  (150_000, 320, 180), (500_000, 640, 360), (1_500_000, 1280, 720),
]

private func makeRouter(
  _ users: [UserID] = [ada, bob, cy],
  configuration: MediaRouter.Configuration = MediaRouter.Configuration()
) -> MediaRouter {
  var router = MediaRouter(configuration: configuration)
  for user in users { router.add(user) }
  return router
}

private func announceSimulcast(_ router: inout MediaRouter, for user: UserID) throws {
  for (layer, description) in simulcast.enumerated() {
    try router.announce(
      stream: StreamID(user: user, kind: .video, layer: UInt8(layer)),
      bitrate: description.bitrate, width: description.width, height: description.height)
  }
}

private func video(
  _ user: UserID, layer: UInt8, key: Bool = false, sequence: UInt32 = 0, kind: MediaKind = .video
) -> MediaPacket {
  MediaPacket(
    stream: StreamID(user: user, kind: kind, layer: layer), sequence: sequence, frameID: sequence,
    isKeyFrame: key, sendTime: 0, payloadBytes: 1_000, audioLevel: 127, width: 1280,
    height: 720, framePackets: 1)
}

private func audio(_ user: UserID, level: UInt8, sequence: UInt32 = 0) -> MediaPacket {
  MediaPacket(
    stream: StreamID(user: user, kind: .audio), sequence: sequence, frameID: sequence,
    isKeyFrame: false, sendTime: 0, payloadBytes: 80, audioLevel: level, width: 0, height: 0,
    framePackets: 1)
}

extension [RouterOutput] {
  fileprivate var recipients: [UserID] {
    compactMap {
      if case .forward(let user, _) = $0 { user } else { nil }
    }
  }

  fileprivate var keyFrameRequests: [StreamID] {
    compactMap {
      if case .requestKeyFrame(let stream) = $0 { stream } else { nil }
    }
  }
}

/// Subscribes `subscriber` to `publisher` and lets a key frame of the target layer through, so
/// that the subscription flows.
private func startFlowing(
  _ router: inout MediaRouter, _ subscriber: UserID, to publisher: UserID,
  resolution: MediaRouter.Resolution = .auto, now: Int64 = 0
) throws {
  #expect(
    router.subscribe(subscriber, to: publisher, kind: .video, resolution: resolution)
      == .subscribed)
  let target = try #require(
    router.subscription(of: subscriber, to: publisher, kind: .video)?.targetLayer)
  _ = router.route(video(publisher, layer: target, key: true), now: now)
  #expect(router.subscription(of: subscriber, to: publisher, kind: .video)?.selectedLayer == target)
}

@Suite struct MediaRouterTests {
  // MARK: Forwarding

  @Test func videoGoesOnlyToSubscribers() throws {
    var router = makeRouter()
    try announceSimulcast(&router, for: ada)
    try startFlowing(&router, bob, to: ada)
    let outputs = router.route(video(ada, layer: 2, sequence: 1), now: 1_000)
    #expect(outputs.recipients == [bob])
    #expect(router.route(video(ada, layer: 0, sequence: 2), now: 2_000).recipients.isEmpty)
    #expect(
      router.counters(of: bob, for: StreamID(user: ada, kind: .video, layer: 2))
        == StreamCounters(forwardedPackets: 2, forwardedBytes: 2_000, droppedBySelection: 0))
    #expect(router.counters(of: cy, for: StreamID(user: ada, kind: .video, layer: 2)) == nil)
    try startFlowing(&router, cy, to: ada)
    #expect(router.route(video(ada, layer: 2), now: 3_000).recipients == [bob, cy])
  }

  @Test func unsubscribeStopsForwarding() throws {
    var router = makeRouter()
    try announceSimulcast(&router, for: ada)
    try startFlowing(&router, bob, to: ada)
    try startFlowing(&router, cy, to: ada)
    #expect(router.unsubscribe(bob, from: ada, kind: .video) == true)
    #expect(router.route(video(ada, layer: 2, key: true), now: 1_000).recipients == [cy])
    #expect(router.subscription(of: bob, to: ada, kind: .video) == nil)
    #expect(router.unsubscribe(bob, from: ada, kind: .video) == false)
    #expect(router.unsubscribe(bob, from: ada, kind: .share) == false)
    #expect(router.unsubscribe(bob, from: ada, kind: .audio) == false)
    #expect(router.unsubscribe(99, from: ada, kind: .video) == false)
  }

  @Test func shareGoesOnlyToItsSubscriber() throws {
    var router = makeRouter()
    try router.announce(
      stream: StreamID(user: ada, kind: .share), bitrate: 800_000, width: 1920, height: 1080)
    #expect(router.subscribe(bob, to: ada, kind: .share, resolution: .auto) == .subscribed)
    #expect(router.shareSubscription(of: bob) == ada)
    let first = router.route(video(ada, layer: 0, key: true, kind: .share), now: 0)
    #expect(first.recipients == [bob])
    #expect(router.route(video(ada, layer: 0, kind: .share), now: 1).recipients == [bob])
    #expect(router.unsubscribe(bob, from: ada, kind: .share) == true)
    #expect(router.route(video(ada, layer: 0, key: true, kind: .share), now: 2).isEmpty)
  }

  // MARK: Limits

  @Test func twentySixthVideoSubscriptionExceedsTheLimit() throws {
    let publishers = (10..<36).map { UserID($0) }
    var router = makeRouter([ada] + publishers)
    for publisher in publishers.prefix(25) {
      #expect(router.subscribe(ada, to: publisher, kind: .video, resolution: .p180) == .subscribed)
    }
    #expect(router.videoSubscriptionCount(of: ada) == 25)
    let refused = router.subscribe(ada, to: publishers[25], kind: .video, resolution: .p180)
    #expect(refused == .failed(.exceededLimit))
    #expect(SubscribeRefusal.exceededLimit.sdkReason == 2)
    #expect(router.videoSubscriptionCount(of: ada) == 25)
    #expect(router.subscription(of: ada, to: publishers[25], kind: .video) == nil)
    // At the limit, subscribing again to a held one only changes its resolution.
    #expect(
      router.subscribe(ada, to: publishers[0], kind: .video, resolution: .p720) == .subscribed)
    #expect(router.subscription(of: ada, to: publishers[0], kind: .video)?.resolution == .p720)
    #expect(router.videoSubscriptionCount(of: ada) == 25)
    // A freed slot can be taken.
    #expect(router.unsubscribe(ada, from: publishers[1], kind: .video) == true)
    #expect(
      router.subscribe(ada, to: publishers[25], kind: .video, resolution: .p180) == .subscribed)
  }

  @Test func theLimitFollowsTheConfiguration() {
    var router = makeRouter(configuration: MediaRouter.Configuration(maxVideoSubscriptions: 1))
    #expect(router.subscribe(ada, to: bob, kind: .video, resolution: .auto) == .subscribed)
    #expect(
      router.subscribe(ada, to: cy, kind: .video, resolution: .auto)
        == .failed(.exceededLimit))
    var none = makeRouter(configuration: MediaRouter.Configuration(maxVideoSubscriptions: -5))
    #expect(none.configuration.maxVideoSubscriptions == 0)
    #expect(
      none.subscribe(ada, to: bob, kind: .video, resolution: .auto)
        == .failed(.exceededLimit))
  }

  @Test func aSecondShareSubscriptionIsRefused() {
    var router = makeRouter()
    #expect(router.subscribe(ada, to: bob, kind: .share, resolution: .auto) == .subscribed)
    #expect(router.subscribe(ada, to: cy, kind: .share, resolution: .auto) == .failed(.oneShare))
    #expect(SubscribeRefusal.oneShare.sdkReason == 4)
    #expect(router.shareSubscription(of: ada) == bob)
    #expect(router.subscription(of: ada, to: cy, kind: .share) == nil)
    // The same share again is fine; after leaving it, another one is too.
    #expect(router.subscribe(ada, to: bob, kind: .share, resolution: .p720) == .subscribed)
    #expect(router.unsubscribe(ada, from: bob, kind: .share) == true)
    #expect(router.subscribe(ada, to: cy, kind: .share, resolution: .auto) == .subscribed)
    // A share does not count against the video limit, nor video against the share.
    #expect(router.subscribe(ada, to: bob, kind: .video, resolution: .auto) == .subscribed)
    #expect(router.videoSubscriptionCount(of: ada) == 1)
  }

  @Test func refusedSubscriptionsChangeNothing() {
    var router = makeRouter()
    #expect(router.subscribe(ada, to: ada, kind: .video, resolution: .auto) == .failed(.ownStream))
    #expect(router.subscribe(ada, to: ada, kind: .share, resolution: .auto) == .failed(.ownStream))
    #expect(
      router.subscribe(ada, to: 42, kind: .video, resolution: .auto)
        == .failed(.unknownPublisher))
    #expect(
      router.subscribe(42, to: ada, kind: .video, resolution: .auto)
        == .failed(.unknownSubscriber))
    #expect(
      router.subscribe(ada, to: bob, kind: .audio, resolution: .auto)
        == .failed(.notSubscribable))
    #expect(router.videoSubscriptionCount(of: ada) == 0)
    #expect(router.shareSubscription(of: ada) == nil)
    #expect(router.subscription(of: ada, to: ada, kind: .video) == nil)
    #expect(router.subscription(of: ada, to: 42, kind: .video) == nil)
    #expect(router.memberCount == 3)
    #expect(!router.isMember(42))
    #expect(SubscribeRefusal.ownStream.sdkReason == nil)
  }

  // MARK: Layer selection

  @Test(arguments: [
    (MediaRouter.Resolution.p90, UInt8(0)), (.p180, 0), (.p360, 1), (.p720, 2), (.p1080, 2),
    (.auto, 2),
  ])
  func layerFollowsTheRequestedResolution(resolution: MediaRouter.Resolution, layer: UInt8) throws {
    var router = makeRouter()
    try announceSimulcast(&router, for: ada)
    try startFlowing(&router, bob, to: ada, resolution: resolution)
    #expect(router.subscription(of: bob, to: ada, kind: .video)?.selectedLayer == layer)
    for other in UInt8(0)..<3 {
      let reached = router.route(video(ada, layer: other), now: 1_000).recipients
      #expect(reached == (other == layer ? [bob] : []))
    }
    #expect(
      router.counters(of: bob, for: StreamID(user: ada, kind: .video, layer: (layer + 1) % 3))?
        .droppedBySelection == 1)
  }

  @Test func portraitVideoIsCappedByItsShorterSide() throws {
    var router = makeRouter()
    for (layer, size) in [(UInt16(180), UInt16(320)), (360, 640), (720, 1280)].enumerated() {
      try router.announce(
        stream: StreamID(user: ada, kind: .video, layer: UInt8(layer)), bitrate: 100_000,
        width: size.0, height: size.1)
    }
    #expect(router.subscribe(bob, to: ada, kind: .video, resolution: .p360) == .subscribed)
    #expect(router.subscription(of: bob, to: ada, kind: .video)?.targetLayer == 1)
  }

  @Test func aSubscriptionBeforeAnyAnnouncementWaitsForOne() throws {
    var router = makeRouter()
    #expect(router.subscribe(bob, to: ada, kind: .video, resolution: .auto) == .subscribed)
    #expect(
      router.subscription(of: bob, to: ada, kind: .video)
        == SubscriptionState(resolution: .auto, selectedLayer: nil, targetLayer: nil))
    // Packets of a stream never announced are refused and counted.
    #expect(router.route(video(ada, layer: 0, key: true), now: 0).isEmpty)
    #expect(router.totals.rejectedUnknownStream == 1)
    try announceSimulcast(&router, for: ada)
    #expect(router.subscription(of: bob, to: ada, kind: .video)?.targetLayer == 2)
    try router.withdraw(stream: StreamID(user: ada, kind: .video, layer: 2))
    #expect(router.subscription(of: bob, to: ada, kind: .video)?.targetLayer == 1)
    #expect(router.route(video(ada, layer: 2, key: true), now: 0).isEmpty)
    #expect(router.totals.rejectedUnknownStream == 2)
  }

  @Test func theEstimateIsSharedShareFirstThenVideo() throws {
    // 1 Mbit/s: the share takes 800 kbit/s, the two videos 100 kbit/s each, which fits no
    // layer but the lowest.
    var router = makeRouter(
      [ada, bob, cy, 4], configuration: MediaRouter.Configuration(initialEstimate: 1_000_000))
    try router.announce(
      stream: StreamID(user: cy, kind: .share), bitrate: 800_000, width: 1920, height: 1080)
    try announceSimulcast(&router, for: ada)
    try announceSimulcast(&router, for: bob)
    #expect(router.subscribe(4, to: ada, kind: .video, resolution: .auto) == .subscribed)
    #expect(router.subscription(of: 4, to: ada, kind: .video)?.targetLayer == 1)
    #expect(router.subscribe(4, to: bob, kind: .video, resolution: .auto) == .subscribed)
    #expect(router.subscription(of: 4, to: ada, kind: .video)?.targetLayer == 1)
    #expect(router.subscribe(4, to: cy, kind: .share, resolution: .auto) == .subscribed)
    #expect(router.subscription(of: 4, to: cy, kind: .share)?.targetLayer == 0)
    #expect(router.subscription(of: 4, to: ada, kind: .video)?.targetLayer == 0)
    #expect(router.subscription(of: 4, to: bob, kind: .video)?.targetLayer == 0)
    // Leaving the share gives the videos 500 kbit/s each: 360p again.
    #expect(router.unsubscribe(4, from: cy, kind: .share) == true)
    #expect(router.subscription(of: 4, to: ada, kind: .video)?.targetLayer == 1)
    #expect(router.subscription(of: 4, to: bob, kind: .video)?.targetLayer == 1)
  }

  // MARK: Switching at key frames

  @Test func aSwitchWaitsForAKeyFrameAndAsksForOne() throws {
    var router = makeRouter()
    try announceSimulcast(&router, for: ada)
    try startFlowing(&router, bob, to: ada)
    #expect(router.subscribe(bob, to: ada, kind: .video, resolution: .p180) == .subscribed)
    #expect(
      router.subscription(of: bob, to: ada, kind: .video)
        == SubscriptionState(resolution: .p180, selectedLayer: 2, targetLayer: 0))
    // Until a key frame of layer 0, layer 2 keeps flowing.
    #expect(router.route(video(ada, layer: 2), now: 10_000).recipients == [bob])
    let low = StreamID(user: ada, kind: .video, layer: 0)
    let first = router.route(video(ada, layer: 0), now: 20_000)
    #expect(first.recipients.isEmpty)
    #expect(first.keyFrameRequests == [low])
    // Asked at most once per request interval.
    #expect(router.route(video(ada, layer: 0), now: 300_000).keyFrameRequests.isEmpty)
    #expect(router.route(video(ada, layer: 0), now: 520_000).keyFrameRequests == [low])
    #expect(router.totals.keyFrameRequests == 2)
    // The key frame switches.
    let switched = router.route(video(ada, layer: 0, key: true), now: 530_000)
    #expect(switched == [.forward(to: bob, packet: video(ada, layer: 0, key: true))])
    #expect(router.subscription(of: bob, to: ada, kind: .video)?.selectedLayer == 0)
    #expect(router.route(video(ada, layer: 2), now: 540_000).recipients.isEmpty)
    #expect(router.route(video(ada, layer: 0), now: 550_000).recipients == [bob])
    #expect(
      router.counters(of: bob, for: StreamID(user: ada, kind: .video, layer: 2))
        == StreamCounters(forwardedPackets: 2, forwardedBytes: 2_000, droppedBySelection: 1))
    #expect(router.counters(of: bob, for: low)?.droppedBySelection == 3)
  }

  @Test func aKeyFrameOfAnotherLayerDoesNotSwitch() throws {
    var router = makeRouter()
    try announceSimulcast(&router, for: ada)
    try startFlowing(&router, bob, to: ada)
    #expect(router.subscribe(bob, to: ada, kind: .video, resolution: .p360) == .subscribed)
    _ = router.route(video(ada, layer: 0, key: true), now: 1)
    _ = router.route(video(ada, layer: 2, key: true), now: 2)
    #expect(router.subscription(of: bob, to: ada, kind: .video)?.selectedLayer == 2)
    _ = router.route(video(ada, layer: 1, key: true), now: 3)
    #expect(router.subscription(of: bob, to: ada, kind: .video)?.selectedLayer == 1)
  }

  @Test func theEndpointRouteListsEachSubscribersEndpointAsItIsNow() throws {
    var router = makeRouter()
    try announceSimulcast(&router, for: ada)
    // Bob bound before subscribing, Cy after: both are listed.
    router.setEndpoint(MediaEndpointID(20), of: bob)
    #expect(router.subscribe(bob, to: ada, kind: .video, resolution: .auto) == .subscribed)
    #expect(router.subscribe(cy, to: ada, kind: .video, resolution: .auto) == .subscribed)
    router.setEndpoint(MediaEndpointID(30), of: cy)
    func route(_ packet: MediaPacket) -> (endpoints: [MediaEndpointID], keyFrames: [StreamID]) {
      var keyFrames: [StreamID] = []
      let endpoints = router.route(packet, now: 0, keyFrames: &keyFrames)
      #expect(endpoints != nil)
      return (endpoints ?? [], keyFrames)
    }
    // A delta frame before any key frame reaches nobody and asks for a key frame, as the
    // output route does.
    let waiting = route(video(ada, layer: 2))
    #expect(waiting.endpoints.isEmpty)
    #expect(waiting.keyFrames == [StreamID(user: ada, kind: .video, layer: 2)])
    #expect(
      route(video(ada, layer: 2, key: true)).endpoints == [
        MediaEndpointID(20), MediaEndpointID(30),
      ])
    // Cy rebinds elsewhere, Bob loses his endpoint: the next packet follows at once.
    router.setEndpoint(MediaEndpointID(31), of: cy)
    router.setEndpoint(nil, of: bob)
    #expect(route(video(ada, layer: 2)).endpoints == [MediaEndpointID(31)])
    // Counted as forwarded either way, as the output route counts a subscriber with no
    // endpoint.
    #expect(
      router.counters(of: bob, for: StreamID(user: ada, kind: .video, layer: 2))?.forwardedPackets
        == 2)
    // Audio, an unknown publisher or a stream never announced are refused and counted.
    var keyFrames: [StreamID] = []
    let refusedBefore = router.totals.rejectedUnknownStream
    #expect(router.route(audio(ada, level: 10), now: 1, keyFrames: &keyFrames) == nil)
    #expect(router.route(video(bob, layer: 0), now: 1, keyFrames: &keyFrames) == nil)
    #expect(router.totals.rejectedUnknownStream == refusedBefore + 2)
    #expect(router.route(video(99, layer: 0), now: 1, keyFrames: &keyFrames) == nil)
    #expect(keyFrames.isEmpty)
  }

  @Test func aNewSubscriptionStartsAtAKeyFrame() throws {
    var router = makeRouter()
    try announceSimulcast(&router, for: ada)
    #expect(router.subscribe(bob, to: ada, kind: .video, resolution: .auto) == .subscribed)
    let waiting = router.route(video(ada, layer: 2), now: 0)
    #expect(waiting.recipients.isEmpty)
    #expect(waiting.keyFrameRequests == [StreamID(user: ada, kind: .video, layer: 2)])
    #expect(router.route(video(ada, layer: 2, key: true), now: 1).recipients == [bob])
    #expect(router.route(video(ada, layer: 2), now: 2).keyFrameRequests.isEmpty)
  }

  // MARK: The downlink estimate

  @Test func reportsMoveTheEstimateAsTheLossBasedControllerDoes() throws {
    var router = makeRouter(configuration: MediaRouter.Configuration(initialEstimate: 1_000_000))
    try announceSimulcast(&router, for: ada)
    try startFlowing(&router, bob, to: ada)
    try router.report(subscriber: bob, lossFraction: 0, now: 0)
    #expect(router.estimate(of: bob) == 1_000_000)  // The first report only starts the clock.
    // Under 2%: growth, doubling a second when no cut came before.
    try router.report(subscriber: bob, lossFraction: 0.01, now: 1_000_000)
    #expect(abs((router.estimate(of: bob) ?? 0) - 2_000_000) < 1)
    try router.report(subscriber: bob, lossFraction: 0.05, now: 2_000_000)
    #expect(abs((router.estimate(of: bob) ?? 0) - 2_000_000) < 1)  // Between: hold.
    try router.report(subscriber: bob, lossFraction: 0.2, now: 2_100_000)
    // The cut starts from what flows (layer 1, 500 kbit/s) as that is below the estimate.
    #expect(abs((router.estimate(of: bob) ?? 0) - 450_000) < 1)  // × (1 − 0.1)
    try router.report(subscriber: bob, lossFraction: 0.2, now: 2_300_000)
    #expect(abs((router.estimate(of: bob) ?? 0) - 450_000) < 1)  // Within 300 ms: no cut.
    try router.report(subscriber: bob, lossFraction: 0.2, now: 2_400_000)
    // Layer 1 still flows until a key frame of layer 0: the estimate is the lower.
    #expect(abs((router.estimate(of: bob) ?? 0) - 405_000) < 1)
    // Total loss halves it, and never below the minimum.
    for step in 1...40 {
      try router.report(subscriber: bob, lossFraction: 1, now: 2_400_000 + Int64(step) * 300_000)
    }
    #expect(router.estimate(of: bob) == router.configuration.minimumEstimate)
  }

  @Test func growthStopsAtTheCeiling() throws {
    var router = makeRouter()
    try router.report(subscriber: bob, lossFraction: 0, now: 0)
    // No subscriptions: growth stops at the initial estimate.
    try router.report(subscriber: bob, lossFraction: 0, now: 100_000_000)
    #expect(router.estimate(of: bob) == router.configuration.initialEstimate)
    // The most it reaches is 1.5 × what the subscriptions could use, up to the maximum.
    let many = (10..<20).map { UserID($0) }
    for publisher in many {
      router.add(publisher)
      try announceSimulcast(&router, for: publisher)
      #expect(router.subscribe(bob, to: publisher, kind: .video, resolution: .auto) == .subscribed)
    }
    try router.report(subscriber: bob, lossFraction: 0, now: 1_000_000_000)
    #expect(router.estimate(of: bob) == 22_500_000)
  }

  /// Sends every layer of Ada's video to Bob over a link of `capacity(t)` bit/s for
  /// `seconds`, with key frames when asked and once a second, and a receiver report every
  /// 100 ms that reads the loss of what flowed; returns Bob's selected layer and loss per
  /// report.
  private func runCapped(
    _ router: inout MediaRouter, from start: Int64, seconds: Int, capacity: (Int64) -> Double
  ) throws -> [(time: Int64, layer: UInt8?, loss: Double)] {
    var samples: [(time: Int64, layer: UInt8?, loss: Double)] = []
    var keyFrameDue: Set<UInt8> = []
    let step: Int64 = 20_000
    var time = start
    let end = start + Int64(seconds) * 1_000_000
    while time < end {
      time += step
      for layer in UInt8(0)..<3 {
        let key = keyFrameDue.remove(layer) != nil || time % 1_000_000 == 0
        let outputs = router.route(video(ada, layer: layer, key: key), now: time)
        keyFrameDue.formUnion(outputs.keyFrameRequests.map(\.layer))
      }
      if time % 100_000 == 0 {
        let selected = router.subscription(of: bob, to: ada, kind: .video)?.selectedLayer
        let flowing = selected.map { Double(simulcast[Int($0)].bitrate) } ?? 0
        let loss = flowing == 0 ? 0 : max(0, 1 - capacity(time) / flowing)
        try router.report(subscriber: bob, lossFraction: loss, now: time)
        samples.append((time, selected, loss))
      }
    }
    return samples
  }

  @Test func aCappedDownlinkMovesDownALayerAndBackUpWhenItRecovers() throws {
    var router = makeRouter()
    try announceSimulcast(&router, for: ada)
    try startFlowing(&router, bob, to: ada)
    // 1 Mbit/s for 40 s, below the 720p layer's 1.5 Mbit/s; then the cap goes.
    let capped = try runCapped(&router, from: 0, seconds: 40) { _ in 1_000_000 }
    let down = try #require(capped.first { $0.layer == 1 })
    #expect(down.time <= 3_000_000)
    // Once down, probes upward are rare: loss averages under 2%.
    let after = capped.filter { $0.time > down.time }
    let meanLoss = after.map(\.loss).reduce(0, +) / Double(after.count)
    #expect(meanLoss < 0.02)
    #expect(capped.last?.layer == 1)
    let free = try runCapped(&router, from: 40_000_000, seconds: 90) { _ in 10_000_000 }
    let up = try #require(free.first { $0.layer == 2 })
    #expect(up.time < 40_000_000 + 90_000_000)
    #expect(free.last?.layer == 2)
    #expect(free.filter { $0.time > up.time }.allSatisfy { $0.loss == 0 })
  }

  @Test func aDownlinkThatNeverLosesStaysAtTheTop() throws {
    var router = makeRouter()
    try announceSimulcast(&router, for: ada)
    try startFlowing(&router, bob, to: ada)
    let samples = try runCapped(&router, from: 0, seconds: 10) { _ in 10_000_000 }
    #expect(samples.allSatisfy { $0.layer == 2 && $0.loss == 0 })
  }

  // MARK: Stream allocator

  /// Spotlighted videos come first in a congested subscriber's allocation, before the loudest
  /// talker; when the spotlight goes, the talker is kept again.
  @Test func theAllocatorKeepsTheSpotlightedVideoFirst() throws {
    let users: [UserID] = [1, 2, 3, 4]
    var router = makeRouter(
      users, configuration: MediaRouter.Configuration(initialEstimate: 300_000))
    for user in users.dropFirst() { try announceSimulcast(&router, for: user) }
    for publisher: UserID in [2, 3, 4] {
      _ = router.subscribe(1, to: publisher, kind: .video, resolution: .p180)
    }
    _ = router.route(audio(3, level: 10), now: 0)
    // Cut to 210k: one 180p layer fits.
    try router.report(subscriber: 1, lossFraction: 0.6, now: 1)
    #expect(router.pausedSubscriptions(of: 1).map(\.publisher) == [2, 4], "the talker kept")
    router.setSpotlighted([4])
    #expect(router.spotlighted == [4])
    #expect(router.pausedSubscriptions(of: 1).map(\.publisher) == [2, 3], "the spotlight kept")
    router.setSpotlighted([])
    #expect(router.pausedSubscriptions(of: 1).map(\.publisher) == [2, 4])
  }

  /// A subscriber whose congested downlink carries 350 kbit/s beside a share: the share
  /// stays, then the loudest talker, then the larger canvases, then roster order; the rest are
  /// paused at once (nothing forwarded) and resumed as the estimate grows.
  @Test func theAllocatorPausesByPriorityAndResumesWhenTheEstimateGrows() throws {
    let users: [UserID] = [1, 2, 3, 4, 5, 6]
    var router = makeRouter(
      users, configuration: MediaRouter.Configuration(initialEstimate: 500_000))
    for user in users.dropFirst() { try announceSimulcast(&router, for: user) }
    try router.announce(
      stream: StreamID(user: 6, kind: .share), bitrate: 300_000, width: 1280, height: 720)
    // 1 watches 2 and 3 small, 4 and 5 large, and 6's share.
    for (publisher, resolution) in [
      (UserID(2), MediaRouter.Resolution.p180), (3, .p180), (4, .p360), (5, .p360),
    ] {
      _ = router.subscribe(1, to: publisher, kind: .video, resolution: resolution)
    }
    _ = router.subscribe(1, to: 6, kind: .share, resolution: .auto)
    // 3 talks: the loudest.
    _ = router.route(audio(3, level: 10), now: 0)
    // Untested, the estimate pauses nothing.
    #expect(router.isPaused(1, publisher: 2, kind: .video) == false)
    // Six tenths lost: a congested link, and the estimate cut by 30%, to 350k.
    try router.report(subscriber: 1, lossFraction: 0.6, now: 1)
    #expect(abs(try #require(router.estimate(of: 1)) - 350_000) < 1)
    // Share 300k of 350k: 50k left, no 180p layer fits: every video paused, the share kept.
    #expect(router.isPaused(1, publisher: 6, kind: .share) == false)
    for publisher in [UserID(2), 3, 4, 5] {
      #expect(router.isPaused(1, publisher: publisher, kind: .video) == true)
    }
    let paused = router.takePauseChanges()
    #expect(Set(paused.map(\.publisher)) == [2, 3, 4, 5] && paused.allSatisfy(\.paused))
    #expect(router.takePauseChanges().isEmpty)
    // What a resuming member is sent after its credential.
    #expect(router.pausedSubscriptions(of: 1).map(\.publisher) == [2, 3, 4, 5])
    #expect(router.pausedSubscriptions(of: 6).isEmpty)
    // A paused subscription gets nothing, key frame or not.
    #expect(router.route(video(3, layer: 0, key: true), now: 2).recipients.isEmpty)
    // Growth with no loss, after the probe wait (2 s), a report every 100 ms. At 450k one
    // 180p layer fits: the talker's.
    var now: Int64 = 1
    func grow(until estimate: Double) throws {
      while try #require(router.estimate(of: 1)) < estimate {
        now += 100_000
        _ = router.route(audio(3, level: 10), now: now)
        try router.report(subscriber: 1, lossFraction: 0, now: now)
      }
    }
    try grow(until: 450_000)
    #expect(router.takePauseChanges().map(\.publisher) == [3])
    #expect(router.route(video(3, layer: 0, key: true), now: now + 1).recipients == [1])
    // Next the larger canvases, in roster order (4 before 5), then 2.
    try grow(until: 600_000)
    #expect(router.takePauseChanges().map(\.publisher) == [4])
    try grow(until: 750_000)
    #expect(router.takePauseChanges().map(\.publisher) == [5])
    try grow(until: 900_000)
    let last = router.takePauseChanges()
    #expect(last.map(\.publisher) == [2] && last.allSatisfy { !$0.paused })
    for publisher in [UserID(2), 3, 4, 5] {
      #expect(router.isPaused(1, publisher: publisher, kind: .video) == false)
    }
  }

  /// Member 1 watching 2's and 3's simulcast video, with a 400 kbit/s estimate.
  private static func watchingTwoVideos() throws -> MediaRouter {
    var router = makeRouter(
      [1, 2, 3], configuration: MediaRouter.Configuration(initialEstimate: 400_000))
    try announceSimulcast(&router, for: 2)
    try announceSimulcast(&router, for: 3)
    _ = router.subscribe(1, to: 2, kind: .video, resolution: .auto)
    _ = router.subscribe(1, to: 3, kind: .video, resolution: .auto)
    return router
  }

  /// Random loss (10 to 50%) cuts the estimate but is no congestion: nothing is paused, the
  /// videos are thinned to their lowest layers instead.
  @Test func randomLossThinsButPausesNothing() throws {
    var router = try Self.watchingTwoVideos()
    for step in Int64(1)...20 {
      try router.report(subscriber: 1, lossFraction: 0.4, now: step * 400_000)
    }
    #expect(try #require(router.estimate(of: 1)) < 300_000)
    for publisher in [UserID(2), 3] {
      #expect(router.isPaused(1, publisher: publisher, kind: .video) == false)
      #expect(router.subscription(of: 1, to: publisher, kind: .video)?.targetLayer == 0)
    }
    #expect(router.takePauseChanges().isEmpty)
  }

  /// With packet counts, congestion is judged on a second's reports together, and only when
  /// the second before lost over half too: one report counting a publisher's long silence at
  /// once (2 received, 561 lost) pauses nothing; two seconds of a cap do.
  @Test func congestionFromCountsMustLastTwoSeconds() throws {
    var router = try Self.watchingTwoVideos()
    var now: Int64 = 1_000_000
    try router.report(subscriber: 1, packetsReceived: 2, packetsLost: 561, now: now)
    try router.report(subscriber: 1, packetsReceived: 60, packetsLost: 0, now: now + 1_000)
    now += 1_000_000
    try router.report(subscriber: 1, packetsReceived: 60, packetsLost: 1, now: now)
    #expect(router.isPaused(1, publisher: 3, kind: .video) == false)
    #expect(router.takePauseChanges().isEmpty)
    // A cap: two seconds of 80% loss over both streams.
    for _ in 0..<3 {
      now += 1_000_000
      try router.report(subscriber: 1, packetsReceived: 10, packetsLost: 40, now: now)
      try router.report(subscriber: 1, packetsReceived: 10, packetsLost: 40, now: now + 1_000)
    }
    #expect(router.takePauseChanges().contains { $0.paused })
  }

  @Test func aShareIsNeverPausedEvenWhenNothingFits() throws {
    var router = makeRouter(
      [1, 2], configuration: MediaRouter.Configuration(initialEstimate: 60_000))
    try router.announce(
      stream: StreamID(user: 2, kind: .share), bitrate: 800_000, width: 1280, height: 720)
    try announceSimulcast(&router, for: 2)
    _ = router.subscribe(1, to: 2, kind: .share, resolution: .auto)
    _ = router.subscribe(1, to: 2, kind: .video, resolution: .auto)
    try router.report(subscriber: 1, lossFraction: 0.9, now: 1)
    #expect(router.isPaused(1, publisher: 2, kind: .share) == false)
    #expect(router.isPaused(1, publisher: 2, kind: .video) == true)
    #expect(
      router.route(video(2, layer: 0, key: true, kind: .share), now: 2).recipients == [1])
  }

  // MARK: Audio

  @Test func everyMemberHearsTheLoudestThreeOthers() throws {
    let users = (1...5).map { UserID($0) }
    var router = makeRouter(users)
    // Levels: 1 loudest, then 2, 3, 4; 5 is silent.
    let levels: [UserID: UInt8] = [1: 10, 2: 20, 3: 30, 4: 40, 5: 127]
    var heard: [UserID: Set<UserID>] = [:]
    for tick in Int64(0)..<20 {
      for user in users {
        let level = try #require(levels[user])
        for output in router.route(audio(user, level: level), now: tick * 20_000) {
          if case .forward(let receiver, let packet) = output {
            if tick > 1 { heard[receiver, default: []].insert(packet.stream.user) }
          }
        }
      }
    }
    #expect(router.loudestSpeakers == [1, 2, 3])
    #expect(heard[1] == [2, 3, 4])
    #expect(heard[2] == [1, 3, 4])
    #expect(heard[3] == [1, 2, 4])
    #expect(heard[4] == [1, 2, 3])
    #expect(heard[5] == [1, 2, 3])
    let fromFive = StreamID(user: 5, kind: .audio)
    #expect(router.counters(of: 1, for: fromFive) == nil)  // Never received.
    #expect(
      router.counters(of: 5, for: StreamID(user: 1, kind: .audio))?.forwardedPackets == 20)
  }

  @Test func theLoudestSetFollowsWhoTalks() throws {
    let users = (1...5).map { UserID($0) }
    var router = makeRouter(users)
    func talk(_ levels: [UserID: UInt8], from start: Int64, ticks: Int64) {
      for tick in 0..<ticks {
        for user in users {
          _ = router.route(audio(user, level: levels[user] ?? 127), now: start + tick * 20_000)
        }
      }
    }
    talk([1: 10, 2: 20, 3: 30], from: 0, ticks: 20)
    #expect(router.loudestSpeakers == [1, 2, 3])
    // 1 stops, 4 and 5 start loudly: within one 300 ms window the set is theirs.
    talk([2: 20, 3: 30, 4: 5, 5: 8], from: 400_000, ticks: 20)
    #expect(router.loudestSpeakers == [4, 5, 2])
    // Nobody talks: after a window nobody is forwarded.
    talk([:], from: 800_000, ticks: 20)
    #expect(router.loudestSpeakers.isEmpty)
    #expect(router.route(audio(1, level: 127), now: 1_300_000).isEmpty)
    #expect(
      router.counters(of: 2, for: StreamID(user: 1, kind: .audio))?.droppedBySelection ?? 0 > 0)
  }

  @Test func aTalkerInTheSetKeepsItsPlaceUntilANewcomerIsClearlyLouder() throws {
    let users = (1...6).map { UserID($0) }
    var router = makeRouter(users)
    var now: Int64 = 0
    func talk(_ levels: [UserID: UInt8], ticks: Int64) {
      for _ in 0..<ticks {
        for user in users {
          _ = router.route(audio(user, level: levels[user] ?? 127), now: now)
        }
        now += 20_000
      }
    }
    // Four talk (the router ranks four so that each of the top three hears a third other).
    talk([1: 10, 2: 20, 3: 30, 4: 40], ticks: 20)
    #expect(router.loudestSpeakers == [1, 2, 3])
    // 5 starts 3 dB louder than 4: not enough to take 4's place.
    talk([1: 10, 2: 20, 3: 30, 4: 40, 5: 37], ticks: 30)
    #expect(router.loudestSpeakers == [1, 2, 3])
    #expect(!router.route(audio(4, level: 40), now: now).recipients.isEmpty)
    #expect(router.route(audio(5, level: 37), now: now).recipients.isEmpty)
    // 6 starts 10 dB louder than 4: it takes the place (within the window).
    talk([1: 10, 2: 20, 3: 30, 4: 40, 6: 30], ticks: 30)
    #expect(router.route(audio(4, level: 40), now: now).recipients.isEmpty)
    #expect(!router.route(audio(6, level: 30), now: now).recipients.isEmpty)
  }

  /// Audio numbered per listener: a talker that speaker selection leaves out for a while
  /// comes back with no gap in the listener's numbers, while a packet lost before the service
  /// still leaves one; video keeps its publisher's numbers.
  @Test func audioIsNumberedPerListenerSoThatSelectionGapsAreNotLoss() throws {
    let users = (1...5).map { UserID($0) }
    var router = makeRouter(users)
    var sequences: [UserID: UInt32] = [:]
    var heardFrom4ByListener1: [UInt32] = []
    var now: Int64 = 0
    func talk(_ levels: [UserID: UInt8], ticks: Int, skipping lost: UInt32? = nil) {
      for _ in 0..<ticks {
        for user in users {
          let sequence = sequences[user, default: 0]
          sequences[user] = sequence &+ 1
          if user == 4, sequence == lost { continue }  // lost on the way to the service
          let packet = audio(user, level: levels[user] ?? 127, sequence: sequence)
          for output in router.route(packet, now: now) {
            if case .forward(1, let forwarded) = output, forwarded.stream.user == 4 {
              heardFrom4ByListener1.append(forwarded.sequence)
            }
          }
        }
        now += 20_000
      }
    }
    // 4 is among the three loudest others for listener 1 (2, 3 and 4 talk).
    talk([2: 20, 3: 30, 4: 40], ticks: 20)
    let before = heardFrom4ByListener1.count
    #expect(before > 0)
    // 5 and 1 talk loudly: 4 drops out of everyone's top three for a while.
    talk([1: 5, 2: 20, 3: 30, 4: 40, 5: 8], ticks: 30)
    // Selection left most of those 30 out.
    #expect(heardFrom4ByListener1.count - before < 15)
    // 1 and 5 stop: 4 is back for listener 1, and one of 4's packets is lost upstream.
    talk([2: 20, 3: 30, 4: 40], ticks: 30, skipping: 75)
    let heard = heardFrom4ByListener1
    #expect(heard.count > before)
    let gaps = zip(heard, heard.dropFirst()).map { $1 &- $0 }
    // Every step is 1 but the one the upstream loss left (2): the selection gap is gone.
    #expect(gaps.filter { $0 != 1 } == [2], "\(gaps)")
    let counters = try #require(router.counters(of: 1, for: StreamID(user: 4, kind: .audio)))
    #expect(counters.droppedBySelection > 0)
  }

  @Test func sendingMorePacketsDoesNotMakeATalkerLouder() {
    var router = makeRouter([1, 2, 3, 4, 5])
    for tick in Int64(0)..<20 {
      for user in [UserID(1), 2, 3, 4] {
        // 4 is the quietest but sends ten packets per 20 ms.
        let repeats = user == 4 ? 10 : 1
        for _ in 0..<repeats {
          _ = router.route(audio(user, level: 10 * UInt8(user.rawValue)), now: tick * 20_000)
        }
      }
    }
    #expect(router.loudestSpeakers == [1, 2, 3])
  }

  // MARK: Leaving

  @Test func aMemberWhoLeavesIsDroppedAsPublisherAndSubscriber() throws {
    var router = makeRouter()
    try announceSimulcast(&router, for: ada)
    try announceSimulcast(&router, for: bob)
    try startFlowing(&router, bob, to: ada)
    try startFlowing(&router, cy, to: ada)
    try startFlowing(&router, ada, to: bob)
    #expect(router.subscribe(cy, to: ada, kind: .share, resolution: .auto) == .subscribed)
    _ = router.route(audio(ada, level: 10), now: 0)
    #expect(router.remove(ada) == true)
    #expect(router.remove(ada) == false)
    #expect(!router.isMember(ada))
    #expect(router.subscription(of: bob, to: ada, kind: .video) == nil)
    #expect(router.subscription(of: ada, to: bob, kind: .video) == nil)
    #expect(router.videoSubscriptionCount(of: bob) == 0)
    #expect(router.videoSubscriptionCount(of: cy) == 0)
    #expect(router.shareSubscription(of: cy) == nil)
    #expect(router.route(video(bob, layer: 2, key: true), now: 1).isEmpty)
    let rejected = router.totals.rejectedUnknownPublisher
    #expect(router.route(video(ada, layer: 2, key: true), now: 2).isEmpty)
    #expect(router.route(audio(ada, level: 0), now: 3).isEmpty)
    #expect(router.totals.rejectedUnknownPublisher == rejected + 2)
    #expect(!router.loudestSpeakers.contains(ada))
    #expect(router.counters(of: bob, for: StreamID(user: ada, kind: .audio)) == nil)
    // Others go on: Cy can take Bob now, and Bob's slot count is free.
    try startFlowing(&router, cy, to: bob)
    #expect(router.route(video(bob, layer: 2), now: 4).recipients == [cy])
    // A user who comes back under the same id starts afresh.
    #expect(router.add(ada) == true)
    #expect(router.add(ada) == false)
    #expect(router.videoSubscriptionCount(of: ada) == 0)
    #expect(router.estimate(of: ada) == router.configuration.initialEstimate)
  }

  // MARK: Hostile input

  @Test func hostileInputChangesNothingAndDoesNotTrap() throws {
    var router = makeRouter()
    try announceSimulcast(&router, for: ada)
    try startFlowing(&router, bob, to: ada)
    let before = router.subscription(of: bob, to: ada, kind: .video)
    let estimate = router.estimate(of: bob)

    // Layers out of range, for every kind: video has layers 0–2 (the wire's).
    #expect(MediaRouter.maxVideoLayers == Int(StreamID.maxLayers))
    for layer in [UInt8(3), 4, 200, .max] {
      #expect(throws: MediaRouterError.invalidLayer) {
        try router.announce(
          stream: StreamID(user: ada, kind: .video, layer: layer), bitrate: 1, width: 1, height: 1)
      }
      #expect(router.route(video(ada, layer: layer, key: true), now: 1).isEmpty)
    }
    for kind in [MediaKind.share, .audio] {
      #expect(throws: MediaRouterError.invalidLayer) {
        try router.announce(
          stream: StreamID(user: ada, kind: kind, layer: 1), bitrate: 1, width: 1, height: 1)
      }
      #expect(throws: MediaRouterError.invalidLayer) {
        try router.withdraw(stream: StreamID(user: ada, kind: kind, layer: 9))
      }
    }
    #expect(router.route(audio(ada, level: 0), now: 1).recipients.count == 2)  // layer 0: fine
    var badAudio = audio(ada, level: 0)
    badAudio.stream.layer = 3
    #expect(router.route(badAudio, now: 1).isEmpty)
    // Unknown users and streams.
    #expect(throws: MediaRouterError.unknownUser) {
      try router.announce(
        stream: StreamID(user: 99, kind: .video, layer: 0), bitrate: 1, width: 1, height: 1)
    }
    #expect(throws: MediaRouterError.unknownUser) {
      try router.withdraw(stream: StreamID(user: 99, kind: .video, layer: 0))
    }
    #expect(throws: MediaRouterError.invalidBitrate) {
      try router.announce(
        stream: StreamID(user: ada, kind: .video, layer: 0), bitrate: -1, width: 1, height: 1)
    }
    #expect(router.route(video(99, layer: 0, key: true), now: 1).isEmpty)
    #expect(router.route(video(cy, layer: 0, key: true, kind: .share), now: 1).isEmpty)
    // Reports for unknown subscribers, and losses that are not fractions.
    #expect(throws: MediaRouterError.unknownUser) {
      try router.report(subscriber: 99, lossFraction: 0, now: 0)
    }
    for loss in [Double.nan, -0.1, -.infinity, 1.5, .infinity, -.leastNonzeroMagnitude, 1.nextUp] {
      #expect(throws: MediaRouterError.invalidLossFraction) {
        try router.report(subscriber: bob, lossFraction: loss, now: 10)
      }
    }
    try router.report(subscriber: bob, lossFraction: 0, now: 1_000)
    #expect(throws: MediaRouterError.timeWentBackwards) {
      try router.report(subscriber: bob, lossFraction: 1, now: 999)
    }
    #expect(router.subscription(of: bob, to: ada, kind: .video) == before)
    #expect(router.estimate(of: bob) == estimate)
    #expect(router.totals.rejectedUnknownPublisher == 1)
    #expect(router.totals.rejectedUnknownStream == 6)
    #expect(router.counters(of: bob, for: StreamID(user: ada, kind: .video, layer: 200)) == nil)
    #expect(router.counters(of: bob, for: StreamID(user: ada, kind: .audio, layer: 7)) == nil)
  }

  @Test func extremeTimesAndNumbersDoNotTrap() throws {
    var router = makeRouter()
    try router.announce(
      stream: StreamID(user: ada, kind: .video, layer: 2), bitrate: .max, width: .max,
      height: .max)
    try startFlowing(&router, bob, to: ada, now: .min)
    for now in [Int64.min, -1, 0, .max, .min, .max] {
      _ = router.route(video(ada, layer: 2), now: now)
      _ = router.route(audio(ada, level: .max), now: now)
      _ = router.route(audio(bob, level: 0), now: now)
    }
    try router.report(subscriber: bob, lossFraction: 1, now: .min)
    try router.report(subscriber: bob, lossFraction: 0, now: .max)
    try router.report(subscriber: bob, lossFraction: 1, now: .max)
    #expect(router.estimate(of: bob).map { $0.isFinite && $0 > 0 } == true)
    let wild = MediaRouter(
      configuration: MediaRouter.Configuration(
        initialEstimate: .nan, minimumEstimate: -1, maximumEstimate: .infinity,
        estimateHeadroom: .nan, keyFrameRequestInterval: -5, loudestSpeakers: .max,
        talkingLevel: .max))
    #expect(
      wild.configuration
        == MediaRouter.Configuration(loudestSpeakers: 64, talkingLevel: 127)
        .withInterval(0))
  }
}

extension MediaRouter.Configuration {
  fileprivate func withInterval(_ interval: Int64) -> Self {
    var copy = self
    copy.keyFrameRequestInterval = interval
    return copy
  }
}
