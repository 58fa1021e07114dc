import Dispatch
import LoopbackTransport
import SessionCore
import SessionSDK
import SessionService
import SessionTransport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// A client loop turn that lasts several heartbeat timeouts (a backlog of frames, each slow to
/// handle) neither starves the link's heartbeats (the service would close the member) nor
/// looks like a silent server (the link would fail itself). Decision 0011.
///
/// The member is a bare link on its own loop whose handler sleeps 10 ms per event batch; a
/// burst of 600 chat messages makes its loop spend 6 s in one turn, four times the 1.5 s
/// timeouts. Frames keep the link's clock checks coming (one every 32 frames, 320 ms here).
@Suite("Long loop turns")
struct LongTurnTests {
  static let timeout: UInt64 = 1_500
  static let burst = 600
  static let handlingMicroseconds: UInt32 = 10_000

  /// When an event batch reached the slow handler: the loop's (cached) time and the real one.
  struct Stamp: Sendable {
    var loopNow: UInt64
    var uptimeNanoseconds: UInt64
  }

  /// The link heard nothing from the service for its own timeout: with a short service
  /// timeout and a long link one, this checks that heartbeats go out from inside the turn.
  @Test func aLongTurnStillSendsHeartbeats() throws {
    try run(serviceTimeout: Int64(Self.timeout), linkTimeout: 60_000)
  }

  /// With a short link timeout and a long service one, this checks that the link doesn't take
  /// the frames it hasn't had the chance to read yet for a silent server.
  @Test func aLongTurnIsNotTakenForASilentServer() throws {
    try run(serviceTimeout: 60_000, linkTimeout: Self.timeout)
  }

  private func run(serviceTimeout: Int64, linkTimeout: UInt64) throws {
    let harness = try LoopbackHarness(
      service: { $0.heartbeatTimeout = serviceTimeout },
      server: LoopbackServerConfiguration(tickInterval: 20),
      link: LoopbackLinkConfiguration(heartbeatInterval: 250))
    let ada = try harness.join("Ada", role: .host)

    let slow = try EventLoop(name: "slow-member")
    let stamps = Recorder<Stamp>()
    let closes = Recorder<LinkCloseReason>()
    let joined = Latch()
    let token = harness.token()
    let port = harness.port
    let factory = try slow.sync {
      let factory = LoopbackLinkFactory(
        loop: slow, port: port,
        configuration: LoopbackLinkConfiguration(
          heartbeatInterval: 250, heartbeatTimeout: linkTimeout, clientName: "slow"))
      let link = factory.makeLoopbackLink()
      link.start { event in
        switch event {
        case .message(.joined): joined.signal()
        case .message(.events):
          stamps.append(Stamp(loopNow: slow.now, uptimeNanoseconds: uptime()))
          usleep(Self.handlingMicroseconds)
        case .closed(let reason): closes.append(reason)
        case .message: break
        }
      }
      link.send(.join(JoinRequest(sessionName: "Room", userName: "Slow", token: token)))
      return LoopBound(factory, loop: slow)
    }
    #expect(joined.wait())

    let burst = Self.burst
    try ada.run { sdk in
      for index in 0..<burst { sdk.getChatHelper().SendChatToAll("message \(index)") }
    }
    #expect(stamps.wait(forCount: burst, timeoutSeconds: 60), "\(stamps.count) batches handled")

    // The scenario held: most of the burst was handled in one loop turn (the loop's cached
    // time did not move) lasting more than three timeouts.
    let turn = Self.longestTurnSeconds(stamps.values)
    #expect(turn >= 3 * Double(Self.timeout) / 1_000, "the longest turn lasted \(turn) s")

    // Nobody gave up on anybody. The proof is a message sent after the turn reaching the slow
    // member: a link that had given up (during the turn, or at its first check after it)
    // would have closed before it, and a service that had closed the member (its sweeps come
    // well within the turn's three timeouts) would not have sent it.
    try ada.run { sdk in sdk.getChatHelper().SendChatToAll("after the turn") }
    #expect(stamps.wait(forCount: burst + 1), "the slow member heard nothing more")
    #expect(closes.values.isEmpty, "the link closed: \(closes.values)")
    #expect(harness.serverLog.closes.isEmpty, "\(harness.serverLog.closes)")
    #expect(try harness.onService { $0.connectionCount } == 2)

    try slow.sync { factory.value.severAll() }
    #expect(slow.shutdown().isClean)
    harness.shutdown()
  }

  /// The longest run of consecutive batches handled at one loop time, in seconds.
  static func longestTurnSeconds(_ stamps: [Stamp]) -> Double {
    var longest: UInt64 = 0
    var first = 0
    for index in stamps.indices {
      if stamps[index].loopNow != stamps[first].loopNow { first = index }
      longest = max(longest, stamps[index].uptimeNanoseconds - stamps[first].uptimeNanoseconds)
    }
    return Double(longest) / 1e9
  }
}

/// Monotonic nanoseconds.
private func uptime() -> UInt64 { DispatchTime.now().uptimeNanoseconds }
