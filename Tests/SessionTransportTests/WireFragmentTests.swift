import Testing

@testable import SessionTransport

/// `fragment` frames (WireProtocol.md §4.5): a payload cut by the server joins back to itself,
/// whatever its length against the frame size; a reassembly refuses what breaks the rules and
/// is empty again afterwards.
@Suite struct WireFragmentTests {
  private func cut(_ payload: [UInt8], maxFrameSize: Int) -> [[UInt8]] {
    var frames: [[UInt8]] = []
    WireFragments.split(payload, maxFrameSize: maxFrameSize) { frames.append(Array($0)) }
    return frames
  }

  @Test(arguments: [1, 9, 10, 11, 100])
  func aCutPayloadJoinsBackToItself(length: Int) throws {
    let payload = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ 1) }
    let frames = cut(payload, maxFrameSize: 7)  // five bytes of the message per frame
    #expect(frames.count == (length + 4) / 5)
    #expect(frames.allSatisfy { $0.count <= 7 && $0[0] == WireMessageType.fragment })
    #expect(frames.dropLast().allSatisfy { $0[1] == 1 } && frames.last?[1] == 0)
    var reassembly = WireReassembly(maxMessageSize: 1_000)
    var joined: [UInt8]?
    for frame in frames {
      #expect(joined == nil)
      joined = try frame.withUnsafeBytes { try reassembly.take($0) }
    }
    #expect(joined == payload)
    #expect(!reassembly.isAssembling)
  }

  @Test func aMessageOverTheLimitIsRefusedAndForgotten() throws {
    var reassembly = WireReassembly(maxMessageSize: 8)
    let five: [UInt8] = [0x99, 1, 1, 2, 3, 4, 5]
    #expect(try five.withUnsafeBytes { try reassembly.take($0) } == nil)
    #expect(reassembly.isAssembling)
    #expect(throws: WireError.self) { try five.withUnsafeBytes { try reassembly.take($0) } }
    #expect(!reassembly.isAssembling)
    // Exactly at the limit is fine.
    let three: [UInt8] = [0x99, 0, 6, 7, 8]
    _ = try five.withUnsafeBytes { try reassembly.take($0) }
    #expect(try three.withUnsafeBytes { try reassembly.take($0) } == [1, 2, 3, 4, 5, 6, 7, 8])
  }

  @Test func aFragmentWithoutBytesOrWithABadFlagIsRefused() {
    var reassembly = WireReassembly()
    for bad: [UInt8] in [[0x99], [0x99, 0], [0x99, 1], [0x99, 2, 5], [0x99, 255, 5]] {
      #expect(throws: WireError.self) { try bad.withUnsafeBytes { try reassembly.take($0) } }
      #expect(!reassembly.isAssembling)
    }
  }
}
