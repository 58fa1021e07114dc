import SessionCore
import SessionSDK
import SessionService
import SessionTransport
import Testing
import VirtualNetwork

/// A camera turned off and on again, with the service and SDK instances on a virtual network:
/// its subscribers see it again. (Found by `sessionbench soak`: instances whose churn step
/// turned the camera off and on in one call stayed dark for their subscribers for good, while
/// every replica said their camera was on.)
@Suite("A camera turned off and on")
struct MediaCameraToggleTests {
  final class View {}

  private func packets(from user: UserID, at peer: Scenario.Member) -> Int64 {
    peer.sdk.mediaFigures.streams.first { $0.publisher == user && $0.kind == .video }?
      .packetsReceived ?? 0
  }

  @Test(arguments: [0, 1, 40, 500])
  func itsSubscribersSeeItAgain(afterMilliseconds gap: Int64) throws {
    let scenario = Scenario(media: true)
    let ada = scenario.join("ada", role: .host)
    let bob = scenario.join("bob")
    scenario.run(for: 2_000)
    #expect(ada.sdk.getVideoHelper().startVideo() == .success)
    scenario.run(for: 1_000)
    let adaID = try #require(ada.id)
    let view = View()
    let canvas = try #require(bob.sdk.getSession()?.user(withID: adaID)?.getVideoCanvas())
    #expect(canvas.subscribe(with: view, aspectMode: .panAndScan, andResolution: .auto) == .success)
    scenario.run(for: 2_000)
    #expect(packets(from: adaID, at: bob) > 0)

    #expect(ada.sdk.getVideoHelper().stopVideo() == .success)
    if gap > 0 { scenario.run(for: gap) }
    #expect(ada.sdk.getVideoHelper().startVideo() == .success)
    scenario.run(for: 3_000)
    let before = packets(from: adaID, at: bob)
    scenario.run(for: 2_000)
    #expect(bob.sdk.store.state.participants[adaID]?.isVideoOn == true)
    #expect(packets(from: adaID, at: bob) > before, "Ada's video reaches Bob again")
    withExtendedLifetime(view) {}
  }
}

extension MediaCameraToggleTests {
  /// Gap 0: Ada starts again the moment her replica has the stop (the SDK refuses a start
  /// before), within the same millisecond, as an app that restarts from the callback does.
  @Test(arguments: [0, 500])
  func aShareStoppedAndStartedAgainReachesItsViewers(afterMilliseconds gap: Int64) throws {
    let scenario = Scenario(media: true)
    let ada = scenario.join("ada", role: .host)
    let bob = scenario.join("bob")
    scenario.run(for: 2_000)
    let screen = View()
    #expect(ada.sdk.getShareHelper()?.startShare(with: screen) == .success)
    scenario.run(for: 1_000)
    let adaID = try #require(ada.id)
    func sharePackets() -> Int64 {
      bob.sdk.mediaFigures.streams.first { $0.publisher == adaID && $0.kind == .share }?
        .packetsReceived ?? 0
    }
    let view = View()
    let canvas = try #require(
      bob.sdk.getSession()?.user(withID: adaID)?.getShareActionList()?.first?.getShareCanvas())
    #expect(canvas.subscribe(with: view, aspectMode: .panAndScan, andResolution: .auto) == .success)
    scenario.run(for: 2_000)
    #expect(sharePackets() > 0)

    #expect(ada.sdk.getShareHelper()?.stopShare() == .success)
    var waited = 0
    while ada.sdk.store.state.shares[adaID]?.status == .started, waited < 2_000 {
      scenario.run(for: 1)
      waited += 1
    }
    if gap > 0 { scenario.run(for: gap) }
    #expect(ada.sdk.getShareHelper()?.startShare(with: screen) == .success)
    scenario.run(for: 3_000)
    // The share is a new one: Bob's app subscribes its canvas again, as after any new share.
    let again = try #require(
      bob.sdk.getSession()?.user(withID: adaID)?.getShareActionList()?.first?.getShareCanvas())
    _ = again.subscribe(with: view, aspectMode: .panAndScan, andResolution: .auto)
    scenario.run(for: 2_000)
    let before = sharePackets()
    scenario.run(for: 2_000)
    #expect(sharePackets() > before, "Ada's share reaches Bob again")
  }
}
