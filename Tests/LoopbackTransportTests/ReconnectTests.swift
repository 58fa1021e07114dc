import LoopbackTransport
import SessionCore
@_spi(Testing) import SessionSDK
import SessionService
import SessionTestSupport
import Testing

/// A member whose connection drops resumes on a fresh loopback link within the grace: the
/// others see nothing, the member gets a fresh snapshot and only the callbacks for what changed
/// while it was away.
@Suite("Reconnect over loopback")
struct ReconnectTests {
  static func makeHarness() throws -> LoopbackHarness {
    try LoopbackHarness(
      service: { configuration in
        configuration.reconnectGrace = 10_000
        configuration.heartbeatTimeout = 5_000
      },
      server: LoopbackServerConfiguration(tickInterval: 20))
  }

  @Test func aDroppedLinkResumesWithoutAnyoneNoticing() throws {
    let harness = try Self.makeHarness()
    let grace = try harness.join("Grace", role: .host)
    let alan = try harness.join("Alan")
    let alanID = try #require(try alan.myID())
    try harness.waitForConvergence([grace, alan])
    let closesBefore = harness.serverLog.closes.count

    let factory = alan.factory
    try alan.loop.sync { factory.value.severAll() }
    #expect(waitUntil { harness.serverLog.closes.count > closesBefore })
    #expect(waitUntil { (try? alan.run { $0.diagnostics.resumes }) == 1 })
    // After the resume, Alan's commands work again.
    try alan.run { _ = $0.getVideoHelper().startVideo() }
    #expect(grace.waitFor(.onUserVideoStatusChanged([alanID])))
    try harness.waitForConvergence([grace, alan])
    #expect(!grace.callbacks.values.contains { if case .onUserLeave = $0 { true } else { false } })
    #expect(
      !alan.callbacks.values.contains { if case .onSessionLeave = $0 { true } else { false } })
    #expect(alan.callbacks.values.filter { $0 == .onSessionJoin }.count == 1)
    #expect(try harness.serviceFacts()?.participants[alanID] != nil)
    harness.shutdown()
  }

  @Test func whatChangedWhileAwayArrivesAsCallbacksAfterTheResyncAndNothingTwice() throws {
    let harness = try Self.makeHarness()
    let grace = try harness.join("Grace", role: .host)
    let alan = try harness.join("Alan")
    let graceID = try #require(try grace.myID())
    try harness.waitForConvergence([grace, alan])

    // Alan's connection drops, but his instance doesn't notice yet.
    let factory = alan.factory
    let links = alan.links
    try alan.loop.sync { links.value.holdCloses() }
    try alan.loop.sync { factory.value.severAll() }
    #expect(try waitUntil { try harness.onService { $0.connectionCount } == 1 })
    // Meanwhile Grace turns her camera on and a newcomer joins.
    try grace.run { _ = $0.getVideoHelper().startVideo() }
    let ada = try harness.join("Ada")
    let adaID = try #require(try ada.myID())
    let before = alan.callbacks.count

    try alan.loop.sync { links.value.releaseCloses() }
    try harness.waitForConvergence([grace, alan, ada])
    let resync = Array(alan.callbacks.values.dropFirst(before))
    #expect(resync.contains(.onUserJoin([adaID])))
    #expect(resync.contains(.onUserVideoStatusChanged([graceID])))
    #expect(!resync.contains(.onSessionJoin))
    #expect(
      !resync.contains {
        if case .onUserJoin(let users) = $0 { users.contains(graceID) } else { false }
      })
    #expect(!grace.callbacks.values.contains { if case .onUserLeave = $0 { true } else { false } })
    harness.shutdown()
  }
}
