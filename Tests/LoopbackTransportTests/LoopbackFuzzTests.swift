import LoopbackTransport
import SessionCore
import SessionSDK
import SessionService
import SessionTransport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// Raw connections send valid frames and mutations of them (bit flips, truncations, length
/// headers that lie, splices, random type bytes, huge counts, hoarded partial frames) to a real
/// server whose service hosts two honest SDK members. After every step: the server answers,
/// every raw connection ended with a goodbye that names a reason or a close it caused, every
/// byte the server sent decodes, the bytes held for unfinished frames stayed within the bound,
/// no log line was forged, and the honest members still converge with the service.
///
/// Seeded and bounded (40 steps, a few seconds). `SESSIONENGINE_FUZZ_ITERATIONS=N` runs N
/// steps, `SESSIONENGINE_FUZZ_SEED=S` another seed.
@Suite("Fuzzing the loopback server")
struct LoopbackFuzzTests {
  static let maxFrameSize = 16 * 1_024
  /// Two hoarders can pass it, so the server sheds some.
  static let bufferLimit = 20 * 1_024
  static let helloTimeout: UInt64 = 300

  static var iterations: Int {
    environment("SESSIONENGINE_FUZZ_ITERATIONS").flatMap(Int.init) ?? 40
  }
  static var seed: UInt64 {
    environment("SESSIONENGINE_FUZZ_SEED").flatMap { UInt64($0) } ?? 0x5EED_F022_0003
  }

  /// What happened to the raw connections, for the summary line.
  struct Tally {
    var connections = 0
    var mutated = 0
    var goodbyes: [WireGoodbye.Reason: Int] = [:]
    var closes: [String: Int] = [:]
    var refusals = 0
    var maxBufferedBytes = 0
  }

  @Test func mutatedFramesNeverHurtTheServerOrHonestMembers() throws {
    let harness = try LoopbackHarness(
      service: { configuration in
        configuration.reconnectGrace = 0
        configuration.heartbeatTimeout = 3_000
      },
      server: LoopbackServerConfiguration(
        tcp: TCPConfiguration(maxFrameSize: Self.maxFrameSize),
        maxBufferedBytes: Self.bufferLimit, helloTimeout: Self.helloTimeout, drainTimeout: 300,
        tickInterval: 20),
      link: LoopbackLinkConfiguration(heartbeatInterval: 250))
    let ada = try harness.join("Ada", role: .host)
    let alan = try harness.join("Alan")
    let adaID = try #require(try ada.myID())
    try harness.waitForConvergence([ada, alan])

    var random = SimulationRandom(seed: Self.seed)
    var tally = Tally()
    let iterations = Self.iterations
    for step in 0..<iterations {
      try runStep(step, harness: harness, random: &random, tally: &tally)
      if !harness.serverLog.all.allSatisfy({ !$0.description.contains(where: \.isNewline) }) {
        Issue.record("a log record holds a line break after step \(step)")
      }
      // The honest members carry on: a command, its callback at both, the same state as the
      // service.
      try ada.run { sdk in
        if sdk.store.state.myself?.isVideoOn == true {
          sdk.getVideoHelper().stopVideo()
        } else {
          sdk.getVideoHelper().startVideo()
        }
      }
      for peer in [ada, alan] {
        #expect(
          peer.waitFor(.onUserVideoStatusChanged([adaID]), count: step + 1),
          "\(peer.name) missed Ada's toggle after step \(step)")
      }
      guard try harness.waitForConvergence([ada, alan]) else {
        Issue.record("the honest members diverged at step \(step) (seed \(Self.seed))")
        break
      }
    }
    for peer in [ada, alan] {
      #expect(
        !peer.callbacks.values.contains { if case .onSessionLeave = $0 { true } else { false } })
    }
    print(
      "fuzz: \(iterations) steps, seed \(Self.seed): \(tally.connections) raw connections "
        + "(\(tally.mutated) mutated), goodbyes \(tally.goodbyes), closes \(tally.closes), "
        + "\(tally.refusals) refusals, at most \(tally.maxBufferedBytes) bytes held")
    harness.shutdown()
  }

  /// One step: a few raw connections at once, each a script of frames, most of them mutated.
  private func runStep(
    _ step: Int, harness: LoopbackHarness, random: inout SimulationRandom, tally: inout Tally
  ) throws {
    let closesBefore = harness.serverLog.closes.count
    let count = Int.random(in: 1...4, using: &random)
    var raws: [(client: RawClient, name: String, mutated: Bool, silent: Bool)] = []
    for index in 0..<count {
      let name = "fuzz-\(step)-\(index)"
      let hello = WireEncoder.payload(WireClientFrame.hello(WireHello(clientName: name)))
      var bytes: [UInt8]
      var mutated = true
      var silent = false
      switch Int.random(in: 0..<24, using: &random) {
      case 0, 1:  // silent: nothing, or part of a hello, and no end of stream
        bytes = Array(encodeFrames([hello]).prefix(Int.random(in: 0...6, using: &random)))
        silent = true
      case 2...8:  // a hoarder: the header of a big frame and part of it, never the rest
        let length = Self.maxFrameSize - Int.random(in: 1...64, using: &random)
        let part = Int.random(in: length / 2...length - 1, using: &random)
        bytes = encodeFrames([hello]) + header(length) + payload(step, count: part)
      case 9:  // a version the server doesn't speak
        bytes = RawWire.hello(version: UInt16.random(in: 2...UInt16.max, using: &random))
      default:  // valid frames, most of them mutated
        var frames = validScript(name: name, harness: harness, random: &random)
        mutated = Int.random(in: 0..<4, using: &random) != 0
        bytes = mutated ? mutate(&frames, random: &random) : encodeFrames(frames)
      }
      let client = try RawClient(port: harness.port)
      try? client.write(bytes)  // the server may close first; what it said is read below
      raws.append((client, name, mutated, silent))
    }

    // While the connections are open, the bytes held for their unfinished frames are bounded.
    let held = try harness.server.statistics().bufferedFrameBytes
    tally.maxBufferedBytes = max(tally.maxBufferedBytes, held)
    #expect(held <= Self.bufferLimit, "step \(step): \(held) bytes held")

    // The silent ones wait for the server's hello timeout; the others end their stream.
    for raw in raws where !raw.silent { raw.client.finishWriting() }
    var received: [(name: String, bytes: [UInt8], end: RawClient.End)] = []
    for raw in raws {
      let (bytes, end) = raw.client.readToEnd(timeoutSeconds: 10)
      #expect(end != .timedOut, "step \(step): \(raw.name) was never closed")
      if raw.silent {
        let goodbye = RawWire.goodbye(in: RawWire.serverFrames(in: bytes))
        #expect(
          end != .endOfStream || goodbye?.reason == .idleTimeout,
          "step \(step): \(raw.name), silent, heard \(String(describing: goodbye))")
      }
      received.append((raw.name, bytes, end))
      tally.connections += 1
      if raw.mutated { tally.mutated += 1 }
    }

    // Every raw connection closed, once, and the server let go of what it held for them.
    #expect(
      waitUntil(timeoutSeconds: 10) { harness.serverLog.closes.count >= closesBefore + count },
      "step \(step): \(harness.serverLog.closes.count - closesBefore) closes of \(count)")
    let closes = Array(harness.serverLog.closes.dropFirst(closesBefore))
    #expect(closes.count == count, "step \(step): \(closes)")
    var statistics = try harness.server.statistics()
    #expect(
      try waitUntil(timeoutSeconds: 10) {
        statistics = try harness.server.statistics()
        return statistics.connectionsOpen == 2 && statistics.bufferedFrameBytes == 0
      }, "step \(step): \(statistics)")

    for (name, bytes, end) in received {
      let close = closes.first { $0.message.hasSuffix("[\(name)]") }
      check(name: name, bytes: bytes, end: end, close: close, step: step, tally: &tally)
    }
    for raw in raws { raw.client.close() }
  }

  /// What one raw connection heard must fit why the server closed it.
  private func check(
    name: String, bytes: [UInt8], end: RawClient.End, close: LoopbackLogRecord?, step: Int,
    tally: inout Tally
  ) {
    let (frames, undecodable, _) = RawWire.decodeServerFrames(bytes)
    #expect(undecodable == nil, "step \(step): \(name) got a frame that doesn't decode")
    let goodbyes = frames.compactMap { frame -> WireGoodbye? in
      if case .goodbye(let goodbye) = frame { goodbye } else { nil }
    }
    #expect(goodbyes.count <= 1, "step \(step): \(name) got \(goodbyes.count) goodbyes")
    if let goodbye = goodbyes.first {
      tally.goodbyes[goodbye.reason, default: 0] += 1
      if case .goodbye = frames.last {
      } else {
        Issue.record("step \(step): \(name) heard more after its goodbye")
      }
      #expect(!goodbye.text.isEmpty)
      let expected: Set<WireGoodbye.Reason> = [.malformed, .wrongVersion, .tooLarge, .idleTimeout]
      #expect(expected.contains(goodbye.reason), "step \(step): \(name): \(goodbye)")
    }
    tally.refusals +=
      frames.filter { frame in
        switch frame {
        case .message(.joinRefused), .message(.commandFailed), .message(.left): true
        default: false
        }
      }.count

    // A close the server chose comes with a goodbye naming its reason, when the stream ended
    // cleanly (a reset can lose the last bytes); a close the client caused needs none.
    guard let close else { return }  // its hello was mutated away: no name to match
    let kinds = [
      "protocol error", "frame too large", "peer closed in the middle of a frame", "peer closed",
      "closed locally", "over the buffer limit", "idle timeout",
    ]
    let kind = kinds.first { close.message.hasPrefix("closed: \($0)") } ?? close.message
    tally.closes[kind, default: 0] += 1
    let heard = goodbyes.first?.reason
    if close.message.hasPrefix("closed: protocol error") {
      if end == .endOfStream {
        #expect(heard == .malformed || heard == .wrongVersion, "step \(step): \(close)")
      }
    } else if close.message.hasPrefix("closed: over the buffer limit") {
      if end == .endOfStream { #expect(heard == .tooLarge, "step \(step): \(close)") }
    } else if close.message.hasPrefix("closed: idle timeout") {
      if end == .endOfStream { #expect(heard == .idleTimeout, "step \(step): \(close)") }
    } else {
      let causedByClient = [
        "closed: peer closed", "closed: frame too large", "closed: closed locally (the client",
      ]
      #expect(
        causedByClient.contains { close.message.hasPrefix($0) },
        "step \(step): an unexpected close: \(close)")
      #expect(heard == nil, "step \(step): \(name) heard \(String(describing: heard)): \(close)")
    }
  }

  // MARK: Scripts and mutations

  /// Valid frames: a hello, a join with a valid token, and a few messages.
  private func validScript(
    name: String, harness: LoopbackHarness, random: inout SimulationRandom
  ) -> [[UInt8]] {
    var frames: [WireClientFrame] = [
      .hello(WireHello(clientName: name)),
      .message(.join(JoinRequest(sessionName: "Room", userName: name, token: harness.token()))),
    ]
    for id in 1...UInt32.random(in: 1...6, using: &random) {
      frames.append(message(id: id, random: &random))
    }
    return frames.map { WireEncoder.payload($0) }
  }

  private func message(id: CommandID, random: inout SimulationRandom) -> WireClientFrame {
    let someone = UserID(rawValue: UInt32.random(in: 1...8, using: &random))
    let command: SessionCommand
    switch Int.random(in: 0..<12, using: &random) {
    case 0: return .message(.heartbeat)
    case 1: return .message(.password(nil))
    case 2:
      return .message(
        .resume(ResumeRequest(sessionID: "S1", user: someone, resumeToken: 7, lastSequence: 3)))
    case 3: return .goodbye(WireGoodbye(reason: .malformed, text: "bye \(id)"))
    case 4: command = .startVideo
    case 5: command = .stopVideo
    case 6: command = .sendChat(receiver: nil, content: "chat \(id)")
    case 7: command = .reportTalking(Bool.random(using: &random))
    case 8: command = .changeName(user: someone, name: "renamed \(id)")
    case 9: command = .muteAudio(user: someone)
    case 10: command = .makeHost(someone)
    default: command = .startAudio
    }
    return .message(.command(id, command))
  }

  /// Mutates the script's frames (one to three times) and returns the bytes to send.
  private func mutate(_ frames: inout [[UInt8]], random: inout SimulationRandom) -> [UInt8] {
    var lies: [Int: UInt32] = [:]  // frame index → the length its header claims
    var cut: Int?  // the stream ends here
    for _ in 0..<Int.random(in: 1...3, using: &random) {
      let index = Int.random(in: frames.indices, using: &random)
      let frame = frames[index]
      switch Int.random(in: 0..<9, using: &random) {
      case 0 where !frame.isEmpty:  // a bit flip
        let bit = Int.random(in: 0..<frame.count * 8, using: &random)
        frames[index][bit / 8] ^= 1 << UInt8(bit % 8)
      case 1 where !frame.isEmpty:  // a truncated payload, its header matching
        frames[index] = Array(frame.prefix(Int.random(in: 0..<frame.count, using: &random)))
      case 2:  // a header that lies, by a little or by a lot
        lies[index] =
          Bool.random(using: &random)
          ? UInt32(max(0, frame.count + Int.random(in: -3...3, using: &random)))
          : UInt32.random(in: 0...UInt32.max, using: &random)
      case 3:  // a splice of two frames
        let other = frames[Int.random(in: frames.indices, using: &random)]
        frames[index] =
          Array(frame.prefix(Int.random(in: 0...frame.count, using: &random)))
          + other.suffix(Int.random(in: 0...other.count, using: &random))
      case 4 where !frame.isEmpty:  // a random type byte
        frames[index][0] = UInt8.random(in: 0...255, using: &random)
      case 5:  // a huge count or string length in the middle
        let at = Int.random(in: 0...frame.count, using: &random)
        let huge: [UInt8] =
          Bool.random(using: &random)
          ? [0xFF, 0xFF, 0xFF, 0xFF, 0x0F]
          : [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01]
        frames[index].insert(contentsOf: huge, at: at)
      case 6:  // random bytes appended to a payload
        frames[index] += (0..<Int.random(in: 1...16, using: &random)).map { _ in
          UInt8.random(in: 0...255, using: &random)
        }
      case 7:  // a frame repeated (a second hello, a second join)
        frames.insert(frame, at: index)
      default:  // the stream cut short
        cut = Int.random(in: 0...encodeFrames(frames).count, using: &random)
      }
    }
    var bytes: [UInt8] = []
    for (index, frame) in frames.enumerated() {
      bytes += header(lies[index].map(Int.init) ?? frame.count) + frame
    }
    if let cut { bytes = Array(bytes.prefix(cut)) }
    return bytes
  }

  private func header(_ length: Int) -> [UInt8] {
    let value = UInt32(truncatingIfNeeded: length)
    return [
      UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF),
    ]
  }
}

/// An environment variable's value, if set.
private func environment(_ name: String) -> String? {
  getenv(name).map { String(cString: $0) }
}
