import Dispatch
import LoopbackTransport
import SessionCore
import SessionSDK
import SessionService
import SessionTransport
import Testing

/// Hostile and broken clients, each on a raw POSIX socket: each loses its own connection with
/// a logged reason within a bounded time, and a well-behaved SDK peer in the same session
/// carries on (a command and its callback after each abuse).
@Suite("Bad input from raw sockets")
struct BadInputTests {
  enum Abuse: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case garbagePayload
    case unframedGarbage
    case emptyFrame
    case truncatedFrameThenClose
    case lengthBeyondMaximum
    case unknownMessageType
    case wrongProtocolVersion
    case messageBeforeHello
    case secondHello
    case neverSpeaks
    case neverReads

    var testDescription: String { rawValue }
  }

  /// What the server is expected to do.
  struct Expectation {
    /// The goodbye the raw client reads before the close, if the server can send one.
    var goodbye: WireGoodbye.Reason?
    /// Text the close's log line contains.
    var logged: String
  }

  static func expectation(for abuse: Abuse) -> Expectation {
    switch abuse {
    case .garbagePayload: Expectation(goodbye: .malformed, logged: "badMagic")
    case .unframedGarbage: Expectation(goodbye: nil, logged: "frame too large")
    case .emptyFrame: Expectation(goodbye: .malformed, logged: "truncated")
    case .truncatedFrameThenClose:
      Expectation(goodbye: nil, logged: "peer closed in the middle of a frame")
    case .lengthBeyondMaximum: Expectation(goodbye: nil, logged: "frame too large")
    case .unknownMessageType: Expectation(goodbye: .malformed, logged: "unknownMessageType")
    case .wrongProtocolVersion: Expectation(goodbye: .wrongVersion, logged: "wrong version")
    case .messageBeforeHello: Expectation(goodbye: .malformed, logged: "expected a hello first")
    case .secondHello: Expectation(goodbye: .malformed, logged: "a second hello")
    case .neverSpeaks: Expectation(goodbye: .idleTimeout, logged: "idle timeout")
    case .neverReads: Expectation(goodbye: nil, logged: "write queue overflow")
    }
  }

  static let helloTimeout: UInt64 = 300

  @Test(arguments: Abuse.allCases)
  func anAbusiveClientLosesOnlyItsOwnConnection(abuse: Abuse) throws {
    let harness = try LoopbackHarness(
      server: LoopbackServerConfiguration(
        tcp: TCPConfiguration(maxFrameSize: 64 * 1_024, maxQueuedWriteBytes: 256 * 1_024),
        helloTimeout: Self.helloTimeout, drainTimeout: 500))
    let good = try harness.join("Ada", role: .host)
    let goodID = try #require(try good.myID())
    let goodConnection = try #require(harness.serverLog.all.compactMap(\.connection).first)
    try expectStillWorking(good, id: goodID, toggle: 1)

    let started = DispatchTime.now()
    let raw = try RawClient(
      port: harness.port, receiveBufferSize: abuse == .neverReads ? 4_096 : nil)
    let expected = Self.expectation(for: abuse)
    var received: (bytes: [UInt8], closed: Bool) = ([], false)
    switch abuse {
    case .garbagePayload:
      try raw.write(encodeFrames([[0x01] + Array("GARBAGE!".utf8)]))  // a "hello" of junk
      received = raw.readUntilClosed()
    case .unframedGarbage:
      try raw.write(Array("GET / HTTP/1.1\r\nHost: localhost\r\n\r\n".utf8))
      received = raw.readUntilClosed()
    case .emptyFrame:
      try raw.write([0, 0, 0, 0])
      received = raw.readUntilClosed()
    case .truncatedFrameThenClose:
      try raw.write(RawWire.hello() + [0, 0, 0, 100] + Array(repeating: 0x12, count: 10))
      raw.close()
    case .lengthBeyondMaximum:
      try raw.write(RawWire.hello() + [0x00, 0x01, 0x00, 0x01] + [0x10])  // 65,537 bytes
      received = raw.readUntilClosed()
    case .unknownMessageType:
      try raw.write(RawWire.hello() + encodeFrames([[0x7F, 1, 2, 3]]))
      received = raw.readUntilClosed()
    case .wrongProtocolVersion:
      try raw.write(RawWire.hello(version: 2))
      received = raw.readUntilClosed()
    case .messageBeforeHello:
      try raw.write(RawWire.bytes(.message(.heartbeat)))
      received = raw.readUntilClosed()
    case .secondHello:
      try raw.write(RawWire.hello() + RawWire.hello())
      received = raw.readUntilClosed()
    case .neverSpeaks:
      received = raw.readUntilClosed()
    case .neverReads:
      try joinAsRawMember(raw, harness: harness)
      try flood(
        from: good,
        until: { harness.serverLog.closes.contains { $0.message.contains("write queue overflow") } }
      )
    }

    // That connection closed, with the reason logged, within a bounded time.
    #expect(
      waitUntil { harness.serverLog.closes.contains { $0.message.contains(expected.logged) } },
      "no close logged with \"\(expected.logged)\": \(harness.serverLog.closes)")
    let elapsed = Double(DispatchTime.now().uptimeNanoseconds - started.uptimeNanoseconds) / 1e9
    #expect(elapsed < 10, "the abusive connection took \(elapsed) s to close")
    if abuse != .truncatedFrameThenClose, abuse != .neverReads {
      #expect(received.closed, "the server did not close the raw connection")
    }
    if let reason = expected.goodbye {
      let goodbye = RawWire.goodbye(in: RawWire.serverFrames(in: received.bytes))
      #expect(goodbye?.reason == reason, "goodbye: \(String(describing: goodbye))")
    }
    let closes = harness.serverLog.closes
    #expect(!closes.contains { $0.connection == goodConnection }, "\(closes)")

    // The well-behaved peer carries on.
    try expectStillWorking(good, id: goodID, toggle: 2)
    #expect(
      !good.callbacks.values.contains { if case .onSessionLeave = $0 { true } else { false } })
    raw.close()
    harness.shutdown()
  }

  @Test func everyAbuseAtOnceLeavesAWellBehavedPeerWorking() throws {
    let harness = try LoopbackHarness(
      server: LoopbackServerConfiguration(
        tcp: TCPConfiguration(maxFrameSize: 64 * 1_024), helloTimeout: Self.helloTimeout))
    let good = try harness.join("Ada", role: .host)
    let goodID = try #require(try good.myID())
    var raws: [RawClient] = []
    let abuses: [[UInt8]] = [
      encodeFrames([Array("GARBAGE!".utf8)]),
      Array("GET / HTTP/1.1\r\n\r\n".utf8),
      [0, 0, 0, 0],
      RawWire.hello() + [0x00, 0x01, 0x00, 0x01],
      RawWire.hello() + encodeFrames([[0x7F]]),
      RawWire.hello(version: 9),
      RawWire.bytes(.message(.heartbeat)),
      [],  // never speaks
    ]
    for bytes in abuses {
      let raw = try RawClient(port: harness.port)
      if !bytes.isEmpty { try raw.write(bytes) }
      raws.append(raw)
    }
    for raw in raws { #expect(raw.readUntilClosed().closed) }
    #expect(waitUntil { harness.serverLog.closes.count == abuses.count })
    try expectStillWorking(good, id: goodID, toggle: 1)
    harness.shutdown()
  }

  // MARK: Helpers

  /// The peer toggles its video and sees its own callback: the `toggle`-th such callback.
  private func expectStillWorking(
    _ peer: Peer, id: UserID, toggle: Int, sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    try peer.run { sdk in
      if sdk.store.state.myself?.isVideoOn == true {
        sdk.getVideoHelper().stopVideo()
      } else {
        sdk.getVideoHelper().startVideo()
      }
    }
    #expect(
      peer.waitFor(.onUserVideoStatusChanged([id]), count: toggle),
      "the well-behaved peer got no callback", sourceLocation: sourceLocation)
  }

  /// Does the handshake and joins the session on a raw socket, then never reads.
  private func joinAsRawMember(_ raw: RawClient, harness: LoopbackHarness) throws {
    let join = JoinRequest(sessionName: "Room", userName: "Sloth", token: harness.token())
    try raw.write(RawWire.hello() + RawWire.bytes(.message(.join(join))))
    #expect(
      try waitUntil { try harness.serviceFacts()?.participants.count == 2 },
      "the raw member was not admitted")
  }

  /// Sends big chat messages from `peer`, a burst at a time, until `done`: each burst only once
  /// the peer received its own previous one, so that the well-behaved peer never has more than
  /// a burst (80 KB) queued while the member that doesn't read falls further behind.
  private func flood(from peer: Peer, until done: () -> Bool) throws {
    let content = String(repeating: "x", count: 8_000)
    var sent = 0
    for _ in 0..<300 where !done() {
      try peer.run { sdk in
        for _ in 0..<10 { sdk.getChatHelper().SendChatToAll(content) }
      }
      sent += 10
      let echoed = waitUntil {
        peer.callbacks.values.filter {
          if case .onChatNewMessageNotify = $0 { true } else { false }
        }.count >= sent
      }
      #expect(echoed, "the well-behaved peer stopped receiving its own messages")
    }
  }
}
