import SessionCore
import SessionTransport
import Testing

/// `decodeServerFrame(_:reusing:)`: the same frames as a plain decode, event batches refilling
/// the caller's storage once the last message is gone, and a message that is kept never
/// changing.
@Suite struct WireReuseTests {
  private let decoder = WireDecoder()

  private func batch(_ first: UInt64, _ events: [SessionEvent]) -> [UInt8] {
    WireEncoder.payload(ServerMessage.events(EventBatch(firstSequence: first, events: events)))
  }

  private func events(of frame: WireServerFrame) -> [SessionEvent]? {
    guard case .message(.events(let batch)) = frame else { return nil }
    return batch.events
  }

  private func address(_ events: [SessionEvent]) -> UnsafeRawPointer? {
    events.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) }
  }

  /// Batches of one and of several events, with other frames between them.
  private var mixedPayloads: [[UInt8]] {
    [
      batch(1, [.videoStatusChanged(user: 4, isOn: true)]),
      WireEncoder.payload(ServerMessage.notice(.hostAskedUnmute(by: 1))),
      batch(2, [.nameChanged(user: 4, name: "Ben"), .usersLeft([5]), .hostChanged(newHost: 2)]),
      WireEncoder.payload(ServerMessage.heartbeat),
      WireEncoder.payload(WireServerFrame.helloAck(WireHelloAck(version: WireProtocol.version))),
      batch(5, [.audioStatusChanged(user: 2, type: .voip, isMuted: true)]),
      batch(6, [.hostChanged(newHost: 3)]),
    ]
  }

  @Test func decodesTheSameFramesAsAPlainDecode() throws {
    var storage: [SessionEvent] = []
    for payload in mixedPayloads {
      let reused = try decoder.decodeServerFrame(payload[...], reusing: &storage)
      #expect(reused == (try decoder.decodeServerFrame(payload)))
    }
  }

  @Test func aBatchRefillsTheStorageOnceTheLastMessageIsGone() throws {
    var storage: [SessionEvent] = []
    let first = batch(1, [.videoStatusChanged(user: 4, isOn: true)])
    let second = batch(2, [.videoStatusChanged(user: 4, isOn: false)])
    var seen: UnsafeRawPointer?
    do {
      let frame = try decoder.decodeServerFrame(first[...], reusing: &storage)
      seen = events(of: frame).flatMap(address)
    }
    let frame = try decoder.decodeServerFrame(second[...], reusing: &storage)
    #expect(events(of: frame) == [.videoStatusChanged(user: 4, isOn: false)])
    #expect(seen != nil)
    #expect(events(of: frame).flatMap(address) == seen, "the second batch allocated")
    #expect(address(storage) == seen, "the caller's storage is not the batch's")
  }

  @Test func aMessageThatIsKeptNeverChanges() throws {
    var storage: [SessionEvent] = []
    let kept = try decoder.decodeServerFrame(
      batch(1, [.videoStatusChanged(user: 4, isOn: true)])[...], reusing: &storage)
    let next = try decoder.decodeServerFrame(
      batch(2, [.nameChanged(user: 4, name: "Ben"), .usersLeft([5])])[...], reusing: &storage)
    #expect(events(of: kept) == [.videoStatusChanged(user: 4, isOn: true)])
    #expect(events(of: next) == [.nameChanged(user: 4, name: "Ben"), .usersLeft([5])])
  }

  @Test func aFailedDecodeKeepsTheStorageAndReportsTheSameError() throws {
    var storage: [SessionEvent] = []
    var truncated = batch(1, [.nameChanged(user: 4, name: "Benjamin")])
    truncated.removeLast(3)
    var plainError: WireError?
    do { _ = try decoder.decodeServerFrame(truncated) } catch { plainError = error }
    var reusedError: WireError?
    do {
      _ = try decoder.decodeServerFrame(truncated[...], reusing: &storage)
    } catch {
      reusedError = error
    }
    #expect(plainError != nil)
    #expect(reusedError?.code == plainError?.code)
    #expect(reusedError?.offset == plainError?.offset)
    let frame = try decoder.decodeServerFrame(
      batch(2, [.videoStatusChanged(user: 4, isOn: true)])[...], reusing: &storage)
    #expect(events(of: frame) == [.videoStatusChanged(user: 4, isOn: true)])
  }

  // MARK: decodeEventBatch(_:reusing:), the receive loop's fast path

  private func fastBatch(_ payload: [UInt8], _ storage: inout [SessionEvent]) throws
    -> EventBatch?
  {
    try payload.withUnsafeBytes { try decoder.decodeEventBatch($0, reusing: &storage) }
  }

  @Test func theFastPathDecodesBatchesAsTheFrameDecodeDoesAndLeavesTheRest() throws {
    var storage: [SessionEvent] = []
    for payload in mixedPayloads {
      let fast = try fastBatch(payload, &storage)
      switch try decoder.decodeServerFrame(payload) {
      case .message(.events(let expected)): #expect(fast == expected)
      default: #expect(fast == nil)
      }
    }
  }

  @Test func theFastPathRefusesWhatTheFrameDecodeRefusesWithTheSameError() throws {
    var truncated = batch(1, [.nameChanged(user: 4, name: "Benjamin")])
    truncated.removeLast(3)
    // type, first sequence, count, event tag, user, isOn
    let video = batch(1, [.videoStatusChanged(user: 4, isOn: true)])
    func changing(_ index: Int, to value: UInt8) -> [UInt8] {
      var bytes = video
      bytes[index] = value
      return bytes
    }
    let overflow = batch(
      .max, [.videoStatusChanged(user: 4, isOn: true), .videoStatusChanged(user: 4, isOn: false)])
    let malformed: [(String, [UInt8])] = [
      ("truncated", truncated),
      ("trailing bytes", video + [0]),
      ("empty batch", [video[0], 1, 0]),
      ("count beyond the bytes", changing(2, to: 9)),
      ("unknown event tag", changing(3, to: 0xEE)),
      ("bad bool", changing(5, to: 7)),
      ("sequence overflow", overflow),
      ("type byte alone", [video[0]]),
    ]
    for (name, payload) in malformed {
      var plain: WireError?
      do { _ = try decoder.decodeServerFrame(payload) } catch { plain = error }
      var fast: WireError?
      var storage: [SessionEvent] = [.videoStatusChanged(user: 1, isOn: false)]
      do { _ = try fastBatch(payload, &storage) } catch let error as WireError { fast = error }
      #expect(plain != nil, "\(name)")
      #expect(fast?.code == plain?.code, "\(name)")
      #expect(fast?.offset == plain?.offset, "\(name)")
    }
    let small = WireDecoder(maxFrameSize: 4)
    var storage: [SessionEvent] = []
    let long = batch(1, [.nameChanged(user: 4, name: "Benjamin")])
    #expect(throws: WireError.self) {
      try long.withUnsafeBytes { try small.decodeEventBatch($0, reusing: &storage) }
    }
  }

  @Test func theFastPathRefillsOneEventInPlaceAndNeverChangesAKeptBatch() throws {
    var storage: [SessionEvent] = []
    var seen: UnsafeRawPointer?
    do {
      let first = try fastBatch(batch(1, [.videoStatusChanged(user: 4, isOn: true)]), &storage)
      seen = first.map(\.events).flatMap(address)
    }
    let second = try fastBatch(batch(2, [.videoStatusChanged(user: 4, isOn: false)]), &storage)
    #expect(second?.events == [.videoStatusChanged(user: 4, isOn: false)])
    #expect(second.map(\.events).flatMap(address) == seen, "the second batch allocated")
    let third = try fastBatch(
      batch(3, [.nameChanged(user: 4, name: "Ben"), .usersLeft([5])]), &storage)
    #expect(second?.events == [.videoStatusChanged(user: 4, isOn: false)], "a kept batch changed")
    #expect(third?.events == [.nameChanged(user: 4, name: "Ben"), .usersLeft([5])])
    #expect(third?.firstSequence == 3)
  }
}
