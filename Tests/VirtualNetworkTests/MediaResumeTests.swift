import SessionCore
import SessionSDK
import SessionService
import SessionTransport
import Testing
import VirtualNetwork

/// Media subscriptions through a resume, with the service and SDK instances on a virtual
/// network.
@Suite("Media subscriptions through a resume")
struct MediaResumeTests {
  /// What a canvas renders into.
  final class View {}

  /// Bob wakes from a pause that outlived his connection and, reading what waited (Ada turned
  /// her camera off), takes Ada's video off his screen. The unsubscription leaves on the dead
  /// connection and is lost with it, while the service kept his subscriptions through the
  /// resume: the resume must end it again, or it holds one of his 25 places (and its share of
  /// his downlink) for the rest of the session. (The swarm classroom with media, seed 29: four
  /// such leftovers made the service refuse four of the subscriptions that followed.)
  @Test func anUnsubscriptionLostWithTheConnectionIsSentAgainAfterTheResume() throws {
    let scenario = Scenario(reconnectGrace: 30_000, media: true)
    let ada = scenario.join("ada", role: .host)
    let bob = scenario.join("bob")
    scenario.run(for: 2_000)
    #expect(ada.sdk.getVideoHelper().startVideo() == .success)
    scenario.run(for: 1_000)
    let adaID = try #require(ada.id)
    let bobID = try #require(bob.id)
    let view = View()
    let canvas = try #require(bob.sdk.getSession()?.user(withID: adaID)?.getVideoCanvas())
    #expect(canvas.subscribe(with: view, aspectMode: .panAndScan, andResolution: .auto) == .success)
    scenario.run(for: 1_000)
    let router = { scenario.service.mediaRouter(ofSession: "Room") }
    #expect(router()?.subscription(of: bobID, to: adaID, kind: .video) != nil)

    // Bob's app takes a camera that goes off off the screen.
    bob.sdk.callbackObserver = { [unowned bob] callback in
      bob.callbacks.append(callback)
      guard case .onUserVideoStatusChanged(let users) = callback, users.contains(adaID),
        bob.sdk.store.state.participants[adaID]?.isVideoOn == false
      else { return }
      _ = canvas.unSubscribe(with: view)
    }
    scenario.network.pause(peer: "bob")
    #expect(ada.sdk.getVideoHelper().stopVideo() == .success)
    scenario.run(for: 20_000)
    #expect(scenario.service.connectionCount == 1, "the service closed the silent connection")
    scenario.network.resume(peer: "bob")
    scenario.run(for: 2_000)
    #expect(bob.sdk.diagnostics.resumes == 1)
    #expect(bob.sdk.videoSubscriptionCount == 0)
    #expect(
      router()?.subscription(of: bobID, to: adaID, kind: .video) == nil,
      "the service still holds the subscription Bob ended")
    #expect(router()?.videoSubscriptionCount(of: bobID) == 0)
  }
}
