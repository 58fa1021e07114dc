import InProcessTransport
import SessionCore
@_spi(Testing) import SessionSDK
import SessionService
import SessionTransport
import Testing

/// Reconnect with resume (Decision 0004), over the in-process network with the real service.
@MainActor
struct ReconnectTests {
  final class Clock {
    var now: Int64 = 1_700_000_000_000
  }

  let clock = Clock()
  let service: SessionService
  let network: InProcessNetwork
  let minter = TokenMinter(appKey: "key", secret: "secret")

  init() {
    service = SessionService(
      configuration: ServiceConfiguration(
        credentials: ["key": "secret"], reconnectGrace: 5_000))
    let clock = clock
    network = InProcessNetwork(host: service, now: { clock.now })
  }

  func member(_ name: String, role: TokenRole = .participant)
    -> (VideoSDK, [VideoSDKCallback].Box)
  {
    let sdk = VideoSDK()
    let box = [VideoSDKCallback].Box()
    sdk.callbackObserver = { box.items.append($0) }
    let clock = clock
    #expect(
      sdk.initialize(InitParams(domain: "test", transport: network, clock: { clock.now }))
        == .success)
    let context = SessionContext()
    context.sessionName = "Room"
    context.userName = name
    context.token = minter.mint(
      sessionName: "Room", role: role, issuedAt: clock.now / 1_000 - 30)
    #expect(sdk.joinSession(context) != nil)
    return (sdk, box)
  }

  @Test func severedLinkResumesWithoutDuplicateJoinCallbacks() throws {
    let (alice, aliceLog) = member("Alice", role: .host)
    let (bob, bobLog) = member("Bob")
    #expect(bob.isInSession())
    aliceLog.items.removeAll()
    bobLog.items.removeAll()

    let link = try #require(bob.currentLinkForTesting)
    network.sever(link)
    #expect(bob.isInSession())
    #expect(bob.diagnostics.resumes == 1)
    #expect(!bobLog.items.contains(.onSessionJoin))
    #expect(!bobLog.items.contains { if case .onUserJoin = $0 { true } else { false } })
    #expect(aliceLog.items.isEmpty, "others see nothing during the grace")

    // Events after the resume reach Bob on the new link.
    #expect(alice.getVideoHelper().startVideo() == .success)
    #expect(bobLog.items.contains(.onUserVideoStatusChanged([alice.store.state.myselfID!])))
    #expect(bob.store.state.sharedFacts == service.state(ofSession: "room")?.sharedFacts)
  }

  @Test func changesWhileAwayArriveAsCallbacksOnResume() throws {
    let (alice, _) = member("Alice", role: .host)
    let (bob, bobLog) = member("Bob")
    let link = try #require(bob.currentLinkForTesting)
    // Bob's link drops without the SDK noticing yet: the service keeps his place.
    bob.suspendLinkForTesting()
    network.sever(link)
    #expect(alice.getVideoHelper().startVideo() == .success)
    let (carol, _) = member("Carol")
    bobLog.items.removeAll()
    bob.resumeLinkForTesting()
    let aliceID = try #require(alice.store.state.myselfID)
    let carolID = try #require(carol.store.state.myselfID)
    #expect(bobLog.items.contains(.onUserJoin([carolID])))
    #expect(bobLog.items.contains(.onUserVideoStatusChanged([aliceID])))
    #expect(!bobLog.items.contains(.onSessionJoin))
    #expect(bob.store.state.sharedFacts == service.state(ofSession: "room")?.sharedFacts)
  }

  @Test func graceExpiryLeavesTheOthersAndHandsHostOver() throws {
    let (alice, _) = member("Alice", role: .host)
    let (bob, bobLog) = member("Bob")
    let aliceID = try #require(alice.store.state.myselfID)
    let bobID = try #require(bob.store.state.myselfID)
    alice.suspendLinkForTesting()
    network.sever(try #require(alice.currentLinkForTesting))
    clock.now += 6_000
    network.tick()
    #expect(bobLog.items.contains(.onUserLeave([aliceID])))
    #expect(bobLog.items.contains(.onUserHostChanged(bobID)))
    // Alice comes back too late: the service refuses the resume.
    alice.resumeLinkForTesting()
    #expect(alice.store.state.phase == .left(.networkError))
  }

  @Test func restartedServiceEndsTheSessionWithNetworkError() throws {
    let (alice, aliceLog) = member("Alice", role: .host)
    // A fresh service knows no sessions: every resume fails.
    let fresh = SessionService(configuration: ServiceConfiguration(credentials: ["key": "secret"]))
    let freshNetwork = InProcessNetwork(host: fresh)
    alice.replaceTransportForTesting(freshNetwork)
    network.sever(try #require(alice.currentLinkForTesting))
    #expect(alice.store.state.phase == .left(.networkError))
    #expect(aliceLog.items.contains(.onSessionLeave(.networkError)))
  }
}

extension Array {
  /// A reference box so closures can append to a shared list.
  final class Box {
    var items: [Element] = []
  }
}
