import SessionCore
import SessionSDK
import SessionService
import SessionTestSupport
import SessionTransport
import Testing
import VirtualNetwork

/// A ``SessionService`` on a virtual network's service node and SDK instances on its peers.
final class Scenario {
  final class Member {
    let sdk: VideoSDK
    var callbacks: [VideoSDKCallback] = []

    init(sdk: VideoSDK) { self.sdk = sdk }

    var id: UserID? { sdk.store.state.myselfID }

    func saw(_ callback: VideoSDKCallback) -> Bool { callbacks.contains(callback) }
  }

  static let fixture = SessionFixture()
  var fixture: SessionFixture { Self.fixture }
  let network: VirtualNetwork
  var service: SessionService
  var members: [String: Member] = [:]
  let serviceConfiguration: ServiceConfiguration

  /// Whether the service node carries media and every member gets a media link.
  let hasMedia: Bool

  init(
    seed: UInt64 = 1, configuration: VirtualNetworkConfiguration = .init(),
    reconnectGrace: Int64 = 10_000, media: Bool = false
  ) {
    network = VirtualNetwork(seed: seed, configuration: configuration)
    serviceConfiguration = Self.fixture.serviceConfiguration { $0.reconnectGrace = reconnectGrace }
    service = SessionService(configuration: serviceConfiguration)
    hasMedia = media
    network.startHost(service)
    if media { network.attachMediaHost(service) }
  }

  /// Kills the service and starts a fresh one, as a restarted process.
  func restartService() {
    service = SessionService(configuration: serviceConfiguration)
    network.startHost(service)
    if hasMedia { network.attachMediaHost(service) }
  }

  /// A member on peer `name` that asked to join (the network has not run yet).
  @discardableResult
  func join(_ name: String, role: TokenRole = .participant) -> Member {
    let peer = network.peer(name)
    let sdk = VideoSDK()
    let member = Member(sdk: sdk)
    sdk.callbackObserver = { [unowned member] in member.callbacks.append($0) }
    let params = InitParams(domain: "vnet", transport: peer, clock: peer.clock)
    if hasMedia { params.media = peer }
    _ = sdk.initialize(params)
    _ = sdk.joinSession(fixture.context(name, role: role, now: peer.clock()))
    members[name] = member
    return member
  }

  /// Runs the network for `milliseconds` of virtual time.
  func run(for milliseconds: Int64) {
    network.run(until: network.now + milliseconds * 1_000)
  }

  var roster: [String] {
    service.state(ofSession: "Room")?.participants.values.map(\.name).sorted() ?? []
  }
}

@Suite("Faults with the service and SDK instances")
struct SDKScenarioTests {
  @Test func membersJoinOverDelayedLinks() throws {
    let scenario = Scenario(
      configuration: VirtualNetworkConfiguration(
        defaultBehavior: LinkBehavior(minimumDelay: 30, jitter: 10)))
    let ada = scenario.join("ada", role: .host)
    let bob = scenario.join("bob")
    #expect(scenario.network.runUntilIdle())
    #expect(ada.sdk.isInSession() && bob.sdk.isInSession())
    #expect(scenario.roster == ["ada", "bob"])
    #expect(ada.sdk.getVideoHelper().startVideo() == .success)
    #expect(scenario.network.runUntilIdle())
    #expect(
      bob.sdk.store.state.sharedFacts == scenario.service.state(ofSession: "Room")?.sharedFacts)
  }

  @Test func aShortPartitionHoldsMessagesAndHealDeliversThem() throws {
    let scenario = Scenario()
    let ada = scenario.join("ada", role: .host)
    let bob = scenario.join("bob")
    scenario.network.runUntilIdle()
    scenario.network.partition(["bob"], [VirtualNetwork.serviceNode])
    #expect(ada.sdk.getVideoHelper().startVideo() == .success)
    scenario.run(for: 3_000)
    let adaID = try #require(ada.id)
    #expect(!bob.saw(.onUserVideoStatusChanged([adaID])), "held behind the partition")
    #expect(scenario.network.messagesHeld > 0 && scenario.network.messagesInFlight == 0)
    scenario.network.heal()
    scenario.network.runUntilIdle()
    #expect(bob.saw(.onUserVideoStatusChanged([adaID])))
    #expect(bob.sdk.diagnostics.resumes == 0)
    #expect(scenario.network.statistics[peer: "bob", direction: .downlink].held > 0)
  }

  @Test func aOneWayPartitionBlocksOnlyItsDirection() throws {
    let scenario = Scenario()
    let ada = scenario.join("ada", role: .host)
    let bob = scenario.join("bob")
    scenario.network.runUntilIdle()
    // Bob hears the service, but the service does not hear Bob.
    scenario.network.partition(["bob"], [VirtualNetwork.serviceNode], oneWay: true)
    #expect(bob.sdk.getVideoHelper().startVideo() == .success)
    #expect(ada.sdk.getVideoHelper().startVideo() == .success)
    scenario.run(for: 2_000)
    let adaID = try #require(ada.id)
    let bobID = try #require(bob.id)
    #expect(bob.saw(.onUserVideoStatusChanged([adaID])))
    #expect(!ada.saw(.onUserVideoStatusChanged([bobID])))
    scenario.network.heal()
    scenario.network.runUntilIdle()
    #expect(ada.saw(.onUserVideoStatusChanged([bobID])))
  }

  @Test func aPartitionLongerThanTheHeartbeatTimeoutEndsTheConnectionAndTheSDKResumes() throws {
    let scenario = Scenario()
    let ada = scenario.join("ada", role: .host)
    let bob = scenario.join("bob")
    scenario.network.runUntilIdle()
    scenario.network.partition(["bob"], [VirtualNetwork.serviceNode])
    scenario.run(for: 20_000)
    // Both ends gave up on the connection; Bob's resume waits behind the partition.
    #expect(scenario.service.connectionCount == 1)
    scenario.network.heal()
    scenario.network.runUntilIdle()
    #expect(bob.sdk.isInSession())
    #expect(bob.sdk.diagnostics.resumes == 1)
    let bobID = try #require(bob.id)
    #expect(!ada.saw(.onUserLeave([bobID])), "back within the grace")
    #expect(scenario.roster == ["ada", "bob"])
    #expect(scenario.service.connectionCount == 2)
  }

  @Test func aPartitionPastTheGraceRemovesTheMember() throws {
    let scenario = Scenario()
    let ada = scenario.join("ada", role: .host)
    let bob = scenario.join("bob")
    scenario.network.runUntilIdle()
    let bobID = try #require(bob.id)
    scenario.network.partition(["bob"], [VirtualNetwork.serviceNode])
    scenario.run(for: 60_000)
    #expect(ada.saw(.onUserLeave([bobID])))
    #expect(bob.saw(.onSessionLeave(.networkError)), "every resume attempt timed out")
    scenario.network.heal()
    scenario.network.runUntilIdle()
    #expect(scenario.roster == ["ada"])
  }

  @Test func aKilledPeerSaysNoGoodbyeAndIsRemovedAfterTimeoutAndGrace() throws {
    let scenario = Scenario()
    let ada = scenario.join("ada", role: .host)
    let bob = scenario.join("bob")
    scenario.network.runUntilIdle()
    let bobID = try #require(bob.id)
    scenario.network.kill(peer: "bob")
    #expect(!scenario.network.peer("bob").isAlive)
    scenario.run(for: 14_000)
    #expect(scenario.service.connectionCount == 2, "nothing told the service yet")
    scenario.run(for: 2_000)
    #expect(scenario.service.connectionCount == 1, "the heartbeat timeout closed it")
    #expect(!ada.saw(.onUserLeave([bobID])))
    scenario.run(for: 10_000)
    #expect(ada.saw(.onUserLeave([bobID])), "the grace ran out")
    #expect(bob.callbacks.allSatisfy { $0 != .onSessionLeave(.networkError) })
    // A restarted node is a fresh incarnation: a new instance joins.
    scenario.network.peer("bob").restart()
    let again = scenario.join("bob")
    scenario.network.runUntilIdle()
    #expect(again.sdk.isInSession())
  }

  @Test func aShortPauseDelaysEverythingAndLosesNothing() throws {
    let scenario = Scenario()
    let ada = scenario.join("ada", role: .host)
    let bob = scenario.join("bob")
    scenario.network.runUntilIdle()
    scenario.network.pause(peer: "bob")
    #expect(scenario.network.peer("bob").isPaused)
    #expect(ada.sdk.getVideoHelper().startVideo() == .success)
    scenario.run(for: 8_000)
    let adaID = try #require(ada.id)
    #expect(!bob.saw(.onUserVideoStatusChanged([adaID])))
    scenario.network.resume(peer: "bob")
    scenario.network.runUntilIdle()
    #expect(bob.saw(.onUserVideoStatusChanged([adaID])))
    #expect(bob.sdk.diagnostics.resumes == 0)
  }

  @Test func aPausePastTheTimeoutEndsTheConnectionAndTheSDKResumesOnWaking() throws {
    let scenario = Scenario(reconnectGrace: 30_000)
    let ada = scenario.join("ada", role: .host)
    let bob = scenario.join("bob")
    scenario.network.runUntilIdle()
    scenario.network.pause(peer: "bob")
    #expect(ada.sdk.getVideoHelper().startVideo() == .success)
    scenario.run(for: 20_000)
    #expect(scenario.service.connectionCount == 1, "the service closed the silent connection")
    scenario.network.resume(peer: "bob")
    scenario.network.runUntilIdle()
    // The close waited for Bob; reading it, the SDK resumed and caught up.
    let adaID = try #require(ada.id)
    #expect(bob.sdk.diagnostics.resumes == 1)
    #expect(bob.saw(.onUserVideoStatusChanged([adaID])))
    #expect(scenario.roster == ["ada", "bob"])
  }

  @Test func aPausePastTheGraceLeavesWithNetworkErrorOnWaking() throws {
    let scenario = Scenario()
    let ada = scenario.join("ada", role: .host)
    let bob = scenario.join("bob")
    scenario.network.runUntilIdle()
    let bobID = try #require(bob.id)
    scenario.network.pause(peer: "bob")
    scenario.run(for: 40_000)
    #expect(ada.saw(.onUserLeave([bobID])))
    scenario.network.resume(peer: "bob")
    scenario.network.runUntilIdle()
    #expect(bob.sdk.store.state.phase == .left(.networkError))
    #expect(bob.saw(.onSessionLeave(.networkError)))
  }

  @Test func aKilledHostResetsEveryLinkAndAFreshOneEndsTheSession() throws {
    let scenario = Scenario(
      configuration: VirtualNetworkConfiguration(
        defaultBehavior: LinkBehavior(minimumDelay: 20)))
    let ada = scenario.join("ada", role: .host)
    scenario.network.runUntilIdle()
    #expect(ada.sdk.isInSession())
    var closes: [String] = []
    scenario.network.observer = { event in
      if case .closed = event.kind, event.to == "ada" { closes.append(event.summary) }
    }
    scenario.restartService()
    scenario.network.runUntilIdle()
    #expect(closes.first == "reset (service down)")
    // The resume reached a service that knows no session.
    #expect(ada.sdk.store.state.phase == .left(.networkError))
    #expect(ada.saw(.onSessionLeave(.networkError)))
  }

  @Test func withNoHostEveryResumeIsRefused() throws {
    let scenario = Scenario()
    let ada = scenario.join("ada", role: .host)
    scenario.network.runUntilIdle()
    scenario.network.killHost()
    #expect(!scenario.network.isHostRunning)
    scenario.network.runUntilIdle()
    #expect(ada.saw(.onSessionLeave(.networkError)))
    #expect(ada.sdk.diagnostics.resumes == 0)
  }

  @Test func aSkewedClockShiftsWhatThePeerReadsAndTokensItMints() {
    let scenario = Scenario()
    scenario.network.setClockSkew(peer: "late", milliseconds: -20_000)
    scenario.network.setClockSkew(peer: "early", milliseconds: 10 * 60_000)
    let now = scenario.network.nowMilliseconds
    #expect(scenario.network.peer("late").clock() == now - 20_000)
    #expect(scenario.network.peer("early").clock() == now + 600_000)
    #expect(scenario.network.peer("exact").clock() == now)
    let late = scenario.join("late", role: .host)
    let early = scenario.join("early")
    scenario.network.runUntilIdle()
    #expect(late.sdk.isInSession(), "20 s behind is within the service's tolerance")
    #expect(!early.sdk.isInSession(), "a token issued 10 minutes ahead is refused")
    scenario.network.setClockSkew(peer: "huge", milliseconds: .max)
    #expect(scenario.network.peer("huge").clock() == .max)
  }
}
