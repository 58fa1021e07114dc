import Dispatch
import LoopbackTransport
import SessionCore
import SessionSDK
import SessionService
import SessionTransport
import Testing

/// Server messages longer than a frame travel as `fragment` frames (WireProtocol.md §4.5): a
/// snapshot of a large session reaches its joiner whole, and a server that breaks the rules
/// of fragments fails the link, nothing else.
@Suite(.serialized) struct FragmentTests {
  /// Frames of 2 KiB, so that a session of a few dozen members with long names needs
  /// fragments for its snapshot.
  static let smallFrames = TCPConfiguration(maxFrameSize: 2_048)

  @Test func aSnapshotLongerThanAFrameReachesTheJoinerWhole() throws {
    let harness = try LoopbackHarness(
      server: LoopbackServerConfiguration(tcp: Self.smallFrames),
      link: LoopbackLinkConfiguration(tcp: Self.smallFrames))
    let long = String(repeating: "x", count: 60)
    var peers = [try harness.join("host-\(long)", role: .host)]
    for index in 1..<40 { peers.append(try harness.join("member-\(index)-\(long)")) }
    // The last joiner's snapshot held 39 others with 70-byte names: over 2 KiB.
    let size = try peers[39].run { sdk in
      let state = sdk.store.state
      let snapshot = state.snapshot(for: state.myselfID ?? 0, sequence: 1)
      return WireEncoder.payload(ServerMessage.joined(snapshot, resumeToken: 1)).count
    }
    #expect(size > 2_048)
    #expect(try harness.waitForConvergence(peers))
    let roster = try peers[39].run { $0.store.state.participants.count }
    #expect(roster == 40)
    harness.shutdown()
  }

  /// A server that acknowledges the hello, then sends `frames`; the link's first event.
  private func linkEvent(
    after frames: [[UInt8]], link tcp: TCPConfiguration = smallFrames
  ) throws -> LinkEvent? {
    let server = try EventLoop(name: "fragment-server")
    let listener = try server.sync {
      let listener = try TCPListener(loop: server, configuration: tcp) { connection in
        var answered = false
        connection.onFrame = { _ in
          guard !answered else { return }
          answered = true
          connection.send(frame: WireEncoder.payload(WireServerFrame.helloAck(WireHelloAck())))
          for frame in frames { connection.send(frame: frame) }
        }
      }
      return LoopBound(listener, loop: server)
    }
    let port = try server.sync { listener.value.localPort }
    let client = try EventLoop(name: "fragment-link")
    let events = Recorder<LinkEvent>()
    try client.sync {
      let factory = LoopbackLinkFactory(
        loop: client, port: port, configuration: LoopbackLinkConfiguration(tcp: tcp))
      let link = factory.makeLink()
      link.start { events.append($0) }
      link.send(.heartbeat)
    }
    #expect(events.wait(forCount: 1))
    let first = events.values.first
    #expect(client.shutdown().isClean)
    #expect(server.shutdown().isClean)
    return first
  }

  private func expectFailure(_ event: LinkEvent?, containing words: String) {
    guard case .closed(.failed(let text)) = event else {
      Issue.record("expected the link to fail, got \(String(describing: event))")
      return
    }
    #expect(text.contains(words), "\(text)")
  }

  /// The `fragment` frames of a whole payload, as a server cuts them.
  private func fragments(of payload: [UInt8], maxFrameSize: Int = 2_048) -> [[UInt8]] {
    var frames: [[UInt8]] = []
    WireFragments.split(payload, maxFrameSize: maxFrameSize) { frames.append(Array($0)) }
    return frames
  }

  @Test func aFragmentedMessageFromARawServerArrivesAsOne() throws {
    let message = ServerMessage.joinRefused(.sessionJoinFailed)
    let frames = fragments(of: WireEncoder.payload(message), maxFrameSize: 3)
    #expect(frames.count > 1)
    #expect(try linkEvent(after: frames) == .message(message))
  }

  @Test func aFrameBetweenTwoFragmentsFailsTheLink() throws {
    let frames = fragments(
      of: WireEncoder.payload(ServerMessage.heartbeat) + [0, 0], maxFrameSize: 3)
    let heartbeat = WireEncoder.payload(ServerMessage.heartbeat)
    expectFailure(
      try linkEvent(after: [frames[0], heartbeat]), containing: "came between the fragments")
  }

  @Test func aFragmentWithABadFlagOrNoBytesFailsTheLink() throws {
    expectFailure(try linkEvent(after: [[0x99, 2, 0x97]]), containing: "more-follows flag")
    expectFailure(try linkEvent(after: [[0x99, 0]]), containing: "no bytes")
  }

  @Test func aMessageOverTheLimitFailsTheLink() throws {
    let tcp = TCPConfiguration(maxFrameSize: 2_048, maxMessageSize: 4_096)
    let chunk = [UInt8](repeating: 0x97, count: 2_000)
    let frames = (0..<3).map { _ in [0x99, 1] + chunk }
    expectFailure(try linkEvent(after: frames, link: tcp), containing: "4096-byte limit")
  }

  @Test func aFragmentInsideAFragmentedMessageFailsTheLink() throws {
    let inner: [UInt8] = [0x99, 0, 0x97]
    expectFailure(
      try linkEvent(after: fragments(of: inner, maxFrameSize: 3)), containing: "type byte 0x99")
  }
}
