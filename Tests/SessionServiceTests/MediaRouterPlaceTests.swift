import SessionCore
import SessionService
import SessionTransport
import Testing

/// Subsessions in the media router: media crosses no border between places (the main session
/// and each subsession), in either direction, and audio reaches everyone in the talker's
/// place while anyone is away.
@Suite struct MediaRouterPlaceTests {
  let ada: UserID = 1
  let bob: UserID = 2
  let cy: UserID = 3
  let di: UserID = 4

  func router() throws -> MediaRouter {
    var router = MediaRouter()
    for user in [ada, bob, cy, di] { router.add(user) }
    for user in [ada, bob, cy, di] {
      try router.announce(
        stream: StreamID(user: user, kind: .video, layer: 0), bitrate: 150_000, width: 320,
        height: 180)
    }
    try router.announce(
      stream: StreamID(user: ada, kind: .share, layer: 0), bitrate: 500_000, width: 1280,
      height: 720)
    return router
  }

  func packet(_ user: UserID, _ kind: MediaKind, key: Bool = true, level: UInt8 = 10)
    -> MediaPacket
  {
    MediaPacket(
      stream: StreamID(user: user, kind: kind, layer: 0), sequence: 1, frameID: 1,
      isKeyFrame: key, sendTime: 0, payloadBytes: 100, audioLevel: level, width: 320,
      height: 180, framePackets: 1)
  }

  func recipients(_ outputs: [RouterOutput]) -> Set<UserID> {
    Set(
      outputs.compactMap {
        if case .forward(let user, _) = $0 { user } else { nil }
      })
  }

  @Test func aMoveEndsTheSubscriptionsThatWouldCrossTheBorderBothWays() throws {
    var router = try router()
    #expect(router.subscribe(bob, to: ada, kind: .video, resolution: .auto) == .subscribed)
    #expect(router.subscribe(bob, to: ada, kind: .share, resolution: .auto) == .subscribed)
    #expect(router.subscribe(ada, to: cy, kind: .video, resolution: .auto) == .subscribed)
    #expect(router.subscribe(di, to: cy, kind: .video, resolution: .auto) == .subscribed)
    // Ada and Di move to subsession 1: Bob loses Ada's video and share, Ada loses Cy's; Di
    // loses Cy too.
    router.setPlace(1, of: ada)
    router.setPlace(1, of: di)
    #expect(router.membersAway == 2)
    #expect(router.place(of: ada) == 1 && router.place(of: bob) == 0)
    #expect(router.subscription(of: bob, to: ada, kind: .video) == nil)
    #expect(router.shareSubscription(of: bob) == nil)
    #expect(router.subscription(of: ada, to: cy, kind: .video) == nil)
    #expect(router.subscription(of: di, to: cy, kind: .video) == nil)
    #expect(recipients(router.route(packet(ada, .video), now: 1_000)).isEmpty)
    #expect(recipients(router.route(packet(cy, .video), now: 1_000)).isEmpty)
    // Refused across the border, allowed within a place.
    #expect(
      router.subscribe(bob, to: ada, kind: .video, resolution: .auto) == .failed(.unknownPublisher))
    #expect(router.subscribe(di, to: ada, kind: .video, resolution: .auto) == .subscribed)
    #expect(recipients(router.route(packet(ada, .video), now: 2_000)) == [di])
    // Back in the main session together: what Ada and Di had in their subsession stays, and
    // subscriptions are possible again.
    router.returnEveryoneToMain()
    #expect(router.subscription(of: di, to: ada, kind: .video) != nil)
    #expect(router.membersAway == 0)
    #expect(router.subscribe(bob, to: ada, kind: .video, resolution: .auto) == .subscribed)
  }

  @Test func audioStaysInItsPlace() throws {
    var router = try router()
    // Everyone in the main session: the loudest reach everyone else.
    #expect(recipients(router.route(packet(ada, .audio, key: false), now: 0)) == [bob, cy, di])
    router.setPlace(1, of: ada)
    router.setPlace(1, of: bob)
    router.setPlace(2, of: cy)
    #expect(recipients(router.route(packet(ada, .audio, key: false), now: 20_000)) == [bob])
    #expect(recipients(router.route(packet(cy, .audio, key: false), now: 20_000)).isEmpty)
    #expect(recipients(router.route(packet(di, .audio, key: false), now: 20_000)).isEmpty)
    router.setPlace(0, of: cy)
    #expect(recipients(router.route(packet(di, .audio, key: false), now: 40_000)) == [cy])
    // A member who leaves while away is no longer counted away.
    router.remove(ada)
    #expect(router.membersAway == 1)
  }
}
