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

/// Peers that vanish (a socket closed without a goodbye, a silent connection, a killed
/// process) and a service that restarts, with small timers: reconnect grace 200 ms, service
/// heartbeat timeout 1 s, link heartbeats every 200 ms.
@Suite("Dead peers and restarts")
struct DeadPeerTests {
  static let grace: Int64 = 200

  static func makeHarness() throws -> LoopbackHarness {
    try LoopbackHarness(
      service: { configuration in
        configuration.reconnectGrace = grace
        configuration.heartbeatTimeout = 1_000
      },
      server: LoopbackServerConfiguration(tickInterval: 20),
      link: LoopbackLinkConfiguration(heartbeatInterval: 200, heartbeatTimeout: 1_000))
  }

  /// Drops the peer's connection without a goodbye, and points its factory at a port where
  /// nobody listens, so that it can't come back.
  static func cutOff(_ peer: Peer) throws {
    let port = try unusedPort()
    let factory = peer.factory
    try peer.loop.sync {
      factory.value.port = port
      factory.value.severAll()
    }
  }

  @Test func aParticipantWhoseSocketClosesAbruptlyLeavesAfterTheGrace() throws {
    let harness = try Self.makeHarness()
    let grace = try harness.join("Grace", role: .host)
    let ada = try harness.join("Ada")
    let alan = try harness.join("Alan")
    let alanID = try #require(try alan.myID())
    try harness.waitForConvergence([grace, ada, alan])

    let cut = DispatchTime.now()
    try Self.cutOff(alan)
    #expect(grace.waitFor(.onUserLeave([alanID])))
    #expect(ada.waitFor(.onUserLeave([alanID])))
    let elapsed = Double(DispatchTime.now().uptimeNanoseconds - cut.uptimeNanoseconds) / 1e9
    #expect(elapsed >= Double(Self.grace) / 1_000 - 0.01, "left after \(elapsed) s")
    try harness.waitForConvergence([grace, ada])
    #expect(try harness.serviceFacts()?.participants[alanID] == nil)
    #expect(
      harness.serverLog.closes.contains { $0.message.contains("peer closed") },
      "\(harness.serverLog.closes)")
    harness.shutdown()
  }

  /// The app lets go of an instance in a session on a thread that is not the instance's
  /// loop: its link closes on the loop (not here, where closing would trap), the service sees
  /// the connection close, and the member leaves after the grace.
  @Test func anInstanceLetGoOfOffItsLoopClosesItsLinkOnTheLoop() throws {
    let harness = try Self.makeHarness()
    let grace = try harness.join("Grace", role: .host)
    var alan: Peer? = try harness.join("Alan")
    let alanID = try #require(try alan?.myID())
    try harness.waitForConvergence([grace] + (alan.map { [$0] } ?? []))
    alan = nil  // the last reference to Alan's instance goes here, off the client loop
    #expect(grace.waitFor(.onUserLeave([alanID])))
    try harness.waitForConvergence([grace])
    #expect(try harness.serviceFacts()?.participants[alanID] == nil)
    harness.shutdown()
  }

  @Test func aHostWhoseSocketClosesAbruptlyHandsHostToTheEarliestManager() throws {
    let harness = try Self.makeHarness()
    let grace = try harness.join("Grace", role: .host)
    let alan = try harness.join("Alan")
    let ada = try harness.join("Ada")
    let (graceID, adaID) = (try #require(try grace.myID()), try #require(try ada.myID()))
    #expect(try grace.run { $0.getUserHelper().makeManager($0.getSession()?.user(withID: adaID)) })
    #expect(alan.waitFor(.onUserManagerChanged(adaID)))

    try Self.cutOff(grace)
    for peer in [alan, ada] {
      #expect(peer.waitFor(.onUserLeave([graceID])))
      #expect(peer.waitFor(.onUserHostChanged(adaID)))
    }
    try harness.waitForConvergence([alan, ada])
    #expect(try harness.serviceFacts()?.hostID == adaID)
    harness.shutdown()
  }

  @Test func aSilentConnectionIsClosedByTheServiceAndItsMemberLeavesAfterTheGrace() throws {
    let harness = try Self.makeHarness()
    let grace = try harness.join("Grace", role: .host)
    // A raw member: it joins, then neither speaks nor closes.
    let raw = try RawClient(port: harness.port)
    let join = JoinRequest(sessionName: "Room", userName: "Ghost", token: harness.token())
    try raw.write(RawWire.hello() + RawWire.bytes(.message(.join(join))))
    #expect(try waitUntil { try harness.serviceFacts()?.participants.count == 2 })
    let ghost = try #require(
      try harness.serviceFacts()?.participants.values.first { $0.name == "Ghost" }?.id)

    #expect(grace.waitFor(.onUserLeave([ghost])))
    #expect(raw.readUntilClosed().closed)
    #expect(
      harness.serverLog.closes.contains { $0.message.contains("closed by the host") },
      "\(harness.serverLog.closes)")
    try harness.waitForConvergence([grace])
    harness.shutdown()
  }

  /// WireProtocol §3: a member silent past the service's heartbeat timeout hears
  /// `goodbye(idleTimeout)` before the close, and the close is logged as a notice.
  @Test func aSilentMemberHearsGoodbyeIdleTimeoutBeforeTheClose() throws {
    let harness = try Self.makeHarness()
    let raw = try RawClient(port: harness.port)
    let join = JoinRequest(sessionName: "Room", userName: "Ghost", token: harness.token())
    try raw.write(RawWire.hello() + RawWire.bytes(.message(.join(join))))

    let received = raw.readUntilClosed()
    #expect(received.closed, "the server did not close the silent connection")
    let frames = RawWire.serverFrames(in: received.bytes)
    guard case .goodbye(let goodbye)? = frames.last else {
      Issue.record("the last frame before the close is not a goodbye: \(frames)")
      harness.shutdown()
      return
    }
    #expect(goodbye.reason == .idleTimeout)
    #expect(goodbye.text == "no frame for 1000 ms")
    #expect(
      waitUntil {
        harness.serverLog.closes.contains {
          $0.level == .notice && $0.message.hasPrefix("closed: idle timeout")
            && $0.message.contains("no frame for 1000 ms")
        }
      }, "\(harness.serverLog.closes)")
    harness.shutdown()
  }

  @Test func aLinkWhoseServerFallsSilentFailsWithHeartbeatTimeout() throws {
    // A server that acknowledges the hello and then says nothing, ever.
    let mute = try EventLoop(name: "mute-server")
    let listener = try mute.sync {
      let listener = try TCPListener(loop: mute) { connection in
        var answered = false
        connection.onFrame = { _ in
          guard !answered else { return }
          answered = true
          connection.send(frame: WireEncoder.payload(WireServerFrame.helloAck(WireHelloAck())))
        }
      }
      return LoopBound(listener, loop: mute)
    }
    let port = try mute.sync { listener.value.localPort }
    let client = try EventLoop(name: "link")
    let events = Recorder<LinkEvent>()
    let started = DispatchTime.now()
    try client.sync {
      let factory = LoopbackLinkFactory(
        loop: client, port: port,
        configuration: LoopbackLinkConfiguration(heartbeatInterval: 50, heartbeatTimeout: 300))
      let link = factory.makeLink()
      link.start { events.append($0) }
      link.send(.heartbeat)
    }
    #expect(events.wait(forCount: 1))
    #expect(events.values == [.closed(.failed("heartbeat timeout"))])
    let elapsed = Double(DispatchTime.now().uptimeNanoseconds - started.uptimeNanoseconds) / 1e9
    #expect(elapsed >= 0.29, "timed out after \(elapsed) s")
    #expect(client.shutdown().isClean)
    #expect(mute.shutdown().isClean)
  }

  @Test func aLinkToAPortNobodyListensOnFails() throws {
    let port = try unusedPort()
    let client = try EventLoop(name: "link")
    let events = Recorder<LinkEvent>()
    try client.sync {
      let link = LoopbackLinkFactory(loop: client, port: port).makeLink()
      link.start { events.append($0) }
      link.send(.heartbeat)
    }
    #expect(events.wait(forCount: 1))
    guard case .closed(.failed(let text)) = events.values.first else {
      Issue.record("expected a failure, got \(events.values)")
      return
    }
    #expect(text.contains("ECONNREFUSED"))
    #expect(client.shutdown().isClean)
  }

  @Test func theServiceRestartingEndsTheSessionWithNetworkError() throws {
    let harness = try Self.makeHarness()
    let grace = try harness.join("Grace", role: .host)
    let ada = try harness.join("Ada")
    try harness.waitForConvergence([grace, ada])

    let report = try harness.restartServer()
    #expect(report.connectionsClosed == 2)
    #expect(report.isClean)
    for peer in [grace, ada] {
      #expect(peer.waitFor(.onSessionLeave(.networkError)))
    }
    // The new service knows no session; the peers may join it afresh.
    #expect(try harness.onService { $0.liveSessionNames } == [])
    try grace.join(session: "Room", token: harness.token(role: .host))
    #expect(grace.waitFor(.onSessionJoin, count: 2))
    try harness.waitForConvergence([grace])
    harness.shutdown()
  }

  @Test func aKilledServiceResetsItsMembersAndAFreshOneServesOnTheSamePorts() throws {
    let harness = try Self.makeHarness()
    let grace = try harness.join("Grace", role: .host)
    let ada = try harness.join("Ada")
    try harness.waitForConvergence([grace, ada])
    let old = harness.server
    let (port, mediaPort) = (old.port, old.mediaPort)

    let report = try harness.killAndRestartServer()
    #expect(report.connectionsClosed == 2)
    #expect(report.isClean)
    // Killing again, or shutting down after, answers the first report.
    #expect(old.kill() == report)
    #expect(old.shutdown() == report)
    // The fresh server holds the same ports, and knows no session.
    #expect(harness.server.port == port)
    #expect(harness.server.mediaPort == mediaPort)
    #expect(try harness.onService { $0.liveSessionNames } == [])
    for peer in [grace, ada] {
      #expect(peer.waitFor(.onSessionLeave(.networkError)))
    }
    try grace.join(session: "Room", token: harness.token(role: .host))
    #expect(grace.waitFor(.onSessionJoin, count: 2))
    try harness.waitForConvergence([grace])
    harness.shutdown()
  }

  @Test
  func aKilledPeerProcessLeavesAndHandsHostOver() throws {
    let harness = try Self.makeHarness()
    let executable = try ChildProcess.requireSessionsim()
    let child = try ChildProcess(
      executable,
      [
        "peer", "--port", "\(harness.port)", "--session", "Room", "--count", "1", "--role",
        "host", "--seconds", "120", "--heartbeat", "200", "--name", "victim", "--key",
        LoopbackHarness.appKey, "--secret", LoopbackHarness.secret,
      ])
    #expect(child.waitForLine(startingWith: "joined") != nil, "\(child.output)")
    let ada = try harness.join("Ada", role: .host)  // a second role_type 1 joiner: manager
    let alan = try harness.join("Alan")
    let victim = try #require(
      try harness.serviceFacts()?.participants.values.first { $0.name == "victim-1" }?.id)
    let adaID = try #require(try ada.myID())
    #expect(try harness.serviceFacts()?.participants[adaID]?.role == .manager)

    child.kill(SIGKILL)
    #expect(child.waitForExit() != nil)
    #expect(child.wasKilledBySignal)
    for peer in [ada, alan] {
      #expect(peer.waitFor(.onUserLeave([victim])))
      #expect(peer.waitFor(.onUserHostChanged(adaID)))
    }
    try harness.waitForConvergence([ada, alan])
    harness.shutdown()
  }
}

/// A port on 127.0.0.1 nobody listens on (bound, then released).
func unusedPort() throws -> UInt16 {
  let loop = try EventLoop(name: "port-probe")
  defer { loop.shutdown() }
  return try loop.sync {
    let listener = try TCPListener(loop: loop) { _ in }
    defer { listener.close() }
    return listener.localPort
  }
}
