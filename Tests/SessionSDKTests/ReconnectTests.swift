import Foundation
import InProcessTransport
import SessionCore
import SessionSDK
import SessionService
import SessionTestSupport
import SessionTransport
import Testing

/// Reconnect with resume (Decision 0004), over the in-process network with the real service.
@MainActor
struct ReconnectTests {
  final class Clock {
    var now: Int64 = SessionFixture.startTime
  }

  let clock = Clock()
  let service: SessionService
  let network: InProcessNetwork
  static let fixture = SessionFixture()
  var fixture: SessionFixture { Self.fixture }

  init() {
    service = Self.fixture.makeService { $0.reconnectGrace = 5_000 }
    let clock = clock
    network = InProcessNetwork(host: service, now: { clock.now })
  }

  /// Each member's links, wrapped so that a test can sever, hold and redirect them.
  final class Links {
    var byMember: [ObjectIdentifier: TestLinkFactory] = [:]
  }
  let links = Links()

  /// The links `sdk` makes.
  func links(of sdk: VideoSDK) throws -> TestLinkFactory {
    try #require(links.byMember[ObjectIdentifier(sdk)])
  }

  func member(_ name: String, role: TokenRole = .participant)
    -> (VideoSDK, [VideoSDKCallback].Box)
  {
    let sdk = VideoSDK()
    let wrapped = TestLinkFactory(wrapping: network)
    links.byMember[ObjectIdentifier(sdk)] = wrapped
    let box = [VideoSDKCallback].Box()
    sdk.callbackObserver = { box.items.append($0) }
    let clock = clock
    #expect(
      sdk.initialize(InitParams(domain: "test", transport: wrapped, clock: { clock.now }))
        == .success)
    let context = fixture.context(name, role: role, now: clock.now)
    #expect(sdk.joinSession(context) != nil)
    return (sdk, box)
  }

  @Test func severedLinkResumesWithoutDuplicateJoinCallbacks() throws {
    let (alice, aliceLog) = member("Alice", role: .host)
    let (bob, bobLog) = member("Bob")
    #expect(bob.isInSession())
    aliceLog.items.removeAll()
    bobLog.items.removeAll()

    let link = try #require(try links(of: bob).currentLink)
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
    let bobLinks = try links(of: bob)
    let link = try #require(bobLinks.currentLink)
    // Bob's link drops without the SDK noticing yet: the service keeps his place.
    bobLinks.holdCloses()
    network.sever(link)
    #expect(alice.getVideoHelper().startVideo() == .success)
    let (carol, _) = member("Carol")
    bobLog.items.removeAll()
    bobLinks.releaseCloses()
    let aliceID = try #require(alice.store.state.myselfID)
    let carolID = try #require(carol.store.state.myselfID)
    #expect(bobLog.items.contains(.onUserJoin([carolID])))
    #expect(bobLog.items.contains(.onUserVideoStatusChanged([aliceID])))
    #expect(!bobLog.items.contains(.onSessionJoin))
    #expect(bob.store.state.sharedFacts == service.state(ofSession: "room")?.sharedFacts)
  }

  /// A newcomer who joined, became a manager and started sharing while Bob was away reaches
  /// Bob's catch-up as it reached Alice, who was there: its join with its audio, the role and
  /// the share.
  @Test func aNewcomerCaughtUpOnComesWithWhatEveryoneElseHeard() throws {
    let (alice, aliceLog) = member("Alice", role: .host)
    let (bob, bobLog) = member("Bob")
    let bobLinks = try links(of: bob)
    let link = try #require(bobLinks.currentLink)
    bobLinks.holdCloses()
    network.sever(link)
    aliceLog.items.removeAll()
    let (carol, _) = member("Carol")
    let carolID = try #require(carol.store.state.myselfID)
    let carolUser = try #require(
      alice.getSession()?.getRemoteUsers()?.first { $0.getUserID() == Int(carolID.rawValue) })
    #expect(alice.getUserHelper().makeManager(carolUser))
    let view = NSObject()
    #expect(carol.getShareHelper().startShare(with: view) == .success)
    let heardByAlice = aliceLog.items.filter { $0.mentions(carolID) }
    #expect(heardByAlice.contains(.onUserAudioStatusChanged([carolID])))
    #expect(heardByAlice.contains(.onUserManagerChanged(carolID)))
    bobLog.items.removeAll()
    bobLinks.releaseCloses()
    let heardByBob = bobLog.items.filter { $0.mentions(carolID) }
    for callback in heardByAlice {
      #expect(heardByBob.contains(callback), "Bob's catch-up lacks \(callback)")
    }
    #expect(heardByBob.first == .onUserJoin([carolID]))
  }

  @Test func graceExpiryLeavesTheOthersAndHandsHostOver() throws {
    let (alice, _) = member("Alice", role: .host)
    let (bob, bobLog) = member("Bob")
    let aliceID = try #require(alice.store.state.myselfID)
    let bobID = try #require(bob.store.state.myselfID)
    let aliceLinks = try links(of: alice)
    aliceLinks.holdCloses()
    network.sever(try #require(aliceLinks.currentLink))
    clock.now += 6_000
    network.tick()
    #expect(bobLog.items.contains(.onUserLeave([aliceID])))
    #expect(bobLog.items.contains(.onUserHostChanged(bobID)))
    // Alice comes back too late: the service refuses the resume.
    aliceLinks.releaseCloses()
    #expect(alice.store.state.phase == .left(.networkError))
  }

  @Test func restartedServiceEndsTheSessionWithNetworkError() throws {
    let (alice, aliceLog) = member("Alice", role: .host)
    // A fresh service knows no sessions: every resume fails.
    let fresh = fixture.makeService()
    let freshNetwork = InProcessNetwork(host: fresh)
    let aliceLinks = try links(of: alice)
    aliceLinks.target = freshNetwork
    network.sever(try #require(aliceLinks.currentLink))
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

extension VideoSDKCallback {
  /// Whether the callback names `user` (alone or in its list).
  fileprivate func mentions(_ user: UserID) -> Bool {
    switch self {
    case .onUserJoin(let ids), .onUserVideoStatusChanged(let ids),
      .onUserAudioStatusChanged(let ids):
      ids.contains(user)
    case .onUserManagerChanged(let id), .onUserHostChanged(let id): id == user
    case .onUserShareStatusChanged(let owner, _, _): owner == user
    default: false
    }
  }
}
