import SessionCore
import SessionTransport
import Testing

/// `decodeServerFrame(_:reusing:)`: the same frames as a plain decode, event batches refilling
/// the caller's storage once the last message is gone, and a message that is kept never
/// changing.
@Suite struct WireReuseTests {
  private let decoder = WireDecoder()

  private func batch(_ first: UInt64, _ events: [SessionEvent]) -> [UInt8] {
    WireEncoder.payload(.events(EventBatch(firstSequence: first, events: events)))
  }

  private func events(of frame: WireServerFrame) -> [SessionEvent]? {
    guard case .message(.events(let batch)) = frame else { return nil }
    return batch.events
  }

  private func address(_ events: [SessionEvent]) -> UnsafeRawPointer? {
    events.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) }
  }

  @Test func decodesTheSameFramesAsAPlainDecode() throws {
    var storage: [SessionEvent] = []
    let payloads = [
      batch(1, [.videoStatusChanged(user: 4, isOn: true)]),
      WireEncoder.payload(.notice(.hostAskedUnmute(by: 1))),
      batch(2, [.nameChanged(user: 4, name: "Ben"), .usersLeft([5]), .hostChanged(newHost: 2)]),
      WireEncoder.payload(ServerMessage.heartbeat),
      batch(5, [.audioStatusChanged(user: 2, type: .voip, isMuted: true)]),
    ]
    for payload in payloads {
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
}
