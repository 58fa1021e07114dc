import Dispatch
import LoopbackTransport
import SessionCore
import SessionSDK
import SessionService
import SessionTransport
import Synchronization
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// "Resource limits" in LoopbackTransport.md: clients that never join, never read or make the
/// server log without end can't exhaust its descriptors, memory or log.
@Suite("Resource limits")
struct ResourceLimitTests {
  // MARK: Connection caps

  /// Idle connections at the pending cap don't lock anyone out: each newcomer evicts the
  /// oldest of them (which hears why), and an honest client handshakes and joins.
  @Test func idleConnectionsAtThePendingCapMakeRoomForAnHonestClient() throws {
    let harness = try LoopbackHarness(
      server: LoopbackServerConfiguration(maxConnections: 40, maxPendingConnections: 10))
    // Ten that never present a token: half say nothing, half say hello and then heartbeats.
    var idle: [RawClient] = []
    for index in 0..<10 {
      let raw = try RawClient(port: harness.port)
      if index.isMultiple(of: 2) {
        try raw.write(RawWire.hello() + RawWire.bytes(.message(.heartbeat)))
      }
      idle.append(raw)
      // One at a time, so that the order of the accepts (the eviction order) is known.
      #expect(try waitUntil { try harness.server.statistics().connectionsPending == index + 1 })
    }

    let ada = try harness.join("Ada", role: .host)
    #expect(try ada.myID() != nil)
    let statistics = try harness.server.statistics()
    #expect(statistics.connectionsInSessions == 1, "\(statistics)")
    #expect(statistics.connectionsPending <= 10, "\(statistics)")
    #expect(statistics.limits.pendingEvicted == 1, "\(statistics)")

    // The oldest idle connection made room, and heard why.
    let evicted = idle[0].readUntilClosed()
    #expect(evicted.closed)
    let goodbye = RawWire.goodbye(in: RawWire.serverFrames(in: evicted.bytes))
    #expect(goodbye?.reason == .idleTimeout, "\(String(describing: goodbye))")
    #expect(goodbye?.text.contains("evicted") == true, "\(String(describing: goodbye))")

    // Nine are left; five more newcomers evict four more, oldest first, and the pending count
    // stays at the cap.
    for _ in 0..<5 { idle.append(try RawClient(port: harness.port)) }
    #expect(try waitUntil { try harness.server.statistics().limits.pendingEvicted == 5 })
    for raw in idle[1..<5] {
      let received = raw.readUntilClosed()
      #expect(received.closed)
      let goodbye = RawWire.goodbye(in: RawWire.serverFrames(in: received.bytes))
      #expect(goodbye?.text.contains("evicted") == true, "\(String(describing: goodbye))")
    }
    #expect(try harness.server.statistics().connectionsPending == 10)
    // And the member is still in its session.
    let bob = try harness.join("Bob")
    try harness.waitForConvergence([ada, bob])
    harness.shutdown()
  }

  /// When every connection is a member, a connection beyond `maxConnections` is told the
  /// server is full and closed; the members carry on.
  @Test func aNewcomerBeyondTheTotalCapIsToldTheServerIsFull() throws {
    let harness = try LoopbackHarness(
      server: LoopbackServerConfiguration(maxConnections: 3, maxPendingConnections: 1))
    let peers = try ["Ada", "Bob", "Cy"].map { try harness.join($0) }
    #expect(try harness.server.statistics().connectionsInSessions == 3)

    let raw = try RawClient(port: harness.port)
    let received = raw.readUntilClosed()
    #expect(received.closed)
    let goodbye = RawWire.goodbye(in: RawWire.serverFrames(in: received.bytes))
    #expect(goodbye?.reason == .shuttingDown, "\(String(describing: goodbye))")
    #expect(goodbye?.text.contains("full") == true, "\(String(describing: goodbye))")
    #expect(try harness.server.statistics().limits.refusedWhenFull == 1)

    try harness.waitForConvergence(peers)
    harness.shutdown()
  }

  /// A handshaken connection that never joins is closed at the admission timeout, with
  /// `goodbye(idleTimeout)` saying why, although it sends heartbeats; a member is not.
  @Test func aConnectionOutOfASessionIsClosedAtTheAdmissionTimeout() throws {
    let admission: UInt64 = 800
    let harness = try LoopbackHarness(
      server: LoopbackServerConfiguration(admissionTimeout: admission),
      link: LoopbackLinkConfiguration(heartbeatInterval: 100, heartbeatTimeout: 15_000))
    let ada = try harness.join("Ada", role: .host)
    let raw = try RawClient(port: harness.port)
    try raw.write(RawWire.hello())
    // Heartbeats every 100 ms until the server gives up on it (bounded at 20 s).
    let started = DispatchTime.now().uptimeNanoseconds
    let closed = try waitUntil(timeoutSeconds: 20) {
      try? raw.write(RawWire.bytes(.message(.heartbeat)))
      return try harness.server.statistics().limits.admissionTimeouts == 1
    }
    #expect(closed)
    let elapsed = (DispatchTime.now().uptimeNanoseconds - started) / 1_000_000
    #expect(elapsed >= admission, "closed after \(elapsed) ms")
    let received = raw.readUntilClosed()
    #expect(received.closed)
    let goodbye = RawWire.goodbye(in: RawWire.serverFrames(in: received.bytes))
    #expect(goodbye?.reason == .idleTimeout, "\(String(describing: goodbye))")
    #expect(
      goodbye?.text == "not in a session within \(admission) ms", "\(String(describing: goodbye))")

    // The member, in its session for longer than the admission timeout, stays.
    let statistics = try harness.server.statistics()
    #expect(statistics.connectionsInSessions == 1, "\(statistics)")
    #expect(statistics.limits.admissionTimeouts == 1, "\(statistics)")
    #expect(
      !ada.callbacks.values.contains { if case .onSessionLeave = $0 { true } else { false } })
    try harness.waitForConvergence([ada])
    harness.shutdown()
  }

  // MARK: Writes

  /// Never-reading members are cut with `goodbye(slowConsumer)` — by the global budget, or by
  /// their own write-queue bound — while another member chats; what they read at the end is
  /// whole frames ending in the goodbye, the honest members go on, and the bytes queued come
  /// back within the budget.
  @Test(arguments: [false, true])
  func neverReadingMembersAreCutWithAWholeGoodbye(byTheirOwnBound: Bool) throws {
    let budget = 2 << 20
    let harness = try LoopbackHarness(
      server: LoopbackServerConfiguration(
        tcp: TCPConfiguration(maxQueuedWriteBytes: byTheirOwnBound ? 256 << 10 : 64 << 20),
        maxQueuedWriteBytesTotal: byTheirOwnBound ? 256 << 20 : budget,
        // Long enough for the readers below to read before the cut.
        drainTimeout: 60_000))
    let ada = try harness.join("Ada", role: .host)
    let bob = try harness.join("Bob")
    let sloths = 8
    var raws: [RawClient] = []
    for index in 0..<sloths {
      let raw = try RawClient(port: harness.port, receiveBufferSize: 4_096)
      let join = JoinRequest(sessionName: "Room", userName: "Sloth\(index)", token: harness.token())
      try raw.write(RawWire.hello() + RawWire.bytes(.message(.join(join))))
      raws.append(raw)
    }
    #expect(try waitUntil { try harness.server.statistics().connectionsInSessions == 2 + sloths })

    // Ada chats, a burst at a time, each once Bob heard the last, until every sloth is cut.
    let content = String(repeating: "x", count: 8_000)
    var sent = 0
    for _ in 0..<3_000 {
      if try harness.server.statistics().limits.slowConsumersCut >= sloths { break }
      try ada.run { sdk in
        for _ in 0..<10 { sdk.getChatHelper().SendChatToAll(content) }
      }
      sent += 10
      #expect(waitUntil { Self.chats(of: bob) >= sent }, "Bob stopped hearing Ada")
    }
    var statistics = try harness.server.statistics()
    #expect(statistics.limits.slowConsumersCut == sloths, "\(statistics)")
    #expect(statistics.queuedWriteBytes <= budget, "\(statistics)")

    // Each sloth now reads: whole frames, the last a goodbye(slowConsumer), then the end.
    for raw in raws {
      let (bytes, end) = raw.readToEnd(timeoutSeconds: 30)
      #expect(end == .endOfStream, "\(end)")
      let (frames, _, consumed) = RawWire.decodeServerFrames(bytes)
      #expect(consumed == bytes.count, "the stream ended mid-frame: \(consumed) of \(bytes.count)")
      guard case .goodbye(let goodbye)? = frames.last else {
        Issue.record("the stream does not end in a goodbye: \(frames.suffix(2))")
        continue
      }
      #expect(goodbye.reason == .slowConsumer, "\(goodbye)")
      #expect(goodbye.text.contains("not reading"), "\(goodbye)")
    }

    // The honest members go on, and the counts settle.
    try ada.run { sdk in sdk.getChatHelper().SendChatToAll("still here") }
    #expect(waitUntil { Self.chats(of: bob) >= sent + 1 }, "Bob stopped hearing Ada")
    #expect(
      try waitUntil {
        statistics = try harness.server.statistics()
        return statistics.connectionsOpen == 2 && statistics.queuedWriteBytes < 64 << 10
      }, "\(statistics)")
    let closes = harness.serverLog.closes.filter { $0.message.contains("write queue overflow") }
    #expect(closes.count == sloths, "\(harness.serverLog.closes)")
    harness.shutdown()
  }

  /// The chat messages `peer` heard.
  static func chats(of peer: Peer) -> Int {
    peer.callbacks.values.filter { if case .onChatNewMessageNotify = $0 { true } else { false } }
      .count
  }

  // MARK: Logs

  @Test func theLogLimiterLetsABurstThroughThenOneLineASecondAndSaysWhatItHeldBack() {
    let clock = Mutex<UInt64>(1_000)
    let lines = LogCapture()
    let limiter = LoopbackLogLimiter(
      burst: 10, perSecond: 1, now: { clock.withLock { $0 } }, downstream: lines.handler)
    for index in 0..<25 {
      limiter.log(
        LogRecord(level: .notice, message: "c7: resume \(index) refused", label: "service"))
    }
    limiter.log(LogRecord(level: .info, message: "about nobody", label: "service"))
    limiter.log(LoopbackLogRecord(level: .info, message: "hello", connection: ConnectionID(8)))
    #expect(lines.all.count == 12, "\(lines.all.map(\.message))")
    clock.withLock { $0 += 1_000 }
    limiter.log(LogRecord(level: .notice, message: "c7: resume 25 refused", label: "service"))
    let messages = lines.all.map(\.message)
    #expect(
      messages.suffix(2) == [
        "c7: 15 log lines about this connection suppressed (rate limit)", "c7: resume 25 refused",
      ])
    #expect(messages.filter { $0.hasPrefix("c7: resume") }.count == 11)
  }

  /// N7 over a real socket: 50 wrong resumes on one connection make two service lines (the
  /// first refusal and the close) and the service closes the connection after the fourth; the
  /// server goes on.
  @Test func refusedResumesCloseTheConnectionAndDoNotFloodTheServiceLog() throws {
    let lines = LogCapture()
    let limiter = LoopbackLogLimiter(downstream: lines.handler)
    let configuration = ServiceConfiguration(
      credentials: [LoopbackHarness.appKey: LoopbackHarness.secret])
    let server = try LoopbackServer(
      log: { _ in },
      makeHost: {
        let service = SessionService(configuration: configuration)
        service.logHandler = limiter.handler
        return service
      })
    let raw = try RawClient(port: server.port)
    let resume = ResumeRequest(sessionID: "nope", user: UserID(1), resumeToken: 42, lastSequence: 0)
    try raw.write(
      RawWire.hello() + (0..<50).flatMap { _ in RawWire.bytes(.message(.resume(resume))) })
    let (_, closed) = raw.readUntilClosed()
    #expect(closed, "the connection is closed after a few wrong resumes")
    let service = lines.all.filter { $0.message.contains("resume") }.map(\.message)
    #expect(service.count == 2, "\(service)")
    #expect(service.last?.contains("closed after 4 wrong resumes") == true, "\(service)")
    // The server still takes an honest connection.
    let honest = try RawClient(port: server.port)
    try honest.write(RawWire.hello())
    honest.close()
    #expect(server.shutdown().isClean)
  }
}
