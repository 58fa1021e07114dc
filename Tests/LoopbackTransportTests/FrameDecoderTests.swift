import Testing

@testable import LoopbackTransport

@Suite("FrameDecoder")
struct FrameDecoderTests {
  /// Feeds `chunks` in order; returns the frames and the last outcome.
  private func decode(
    _ chunks: [[UInt8]], maxFrameSize: Int = 1 << 20, stopAfter: Int = .max
  ) -> (frames: [[UInt8]], outcome: FrameDecoder.Outcome) {
    var decoder = FrameDecoder(maxFrameSize: maxFrameSize)
    var frames: [[UInt8]] = []
    var outcome = FrameDecoder.Outcome.needMoreBytes
    for chunk in chunks {
      outcome = chunk.withUnsafeBytes { bytes in
        decoder.decode(bytes) { frame in
          frames.append(Array(frame))
          return frames.count < stopAfter
        }
      }
      if outcome != .needMoreBytes { break }
    }
    return (frames, outcome)
  }

  private let payloads: [[UInt8]] = [
    payload(1, count: 10), [], payload(2, count: 1), payload(3, count: 300),
  ]

  @Test func manyFramesInOneChunkArriveInOrder() {
    let result = decode([encodeFrames(payloads)])
    #expect(result.frames == payloads)
    #expect(result.outcome == .needMoreBytes)
  }

  @Test func framesSplitAtEveryByteBoundaryArriveWhole() {
    let stream = encodeFrames(payloads)
    for split in 0...stream.count {
      let result = decode([Array(stream[..<split]), Array(stream[split...])])
      #expect(result.frames == payloads, "split at \(split)")
    }
  }

  @Test func framesFedOneByteAtATimeArriveWhole() {
    let stream = encodeFrames(payloads)
    let result = decode(stream.map { [$0] })
    #expect(result.frames == payloads)
  }

  @Test func framesFedInEveryChunkSizeArriveWhole() {
    let stream = encodeFrames(payloads + [payload(4, count: 5_000)] + payloads)
    for size in [2, 3, 5, 7, 64, 333, 4_096] {
      let chunks = stride(from: 0, to: stream.count, by: size).map {
        Array(stream[$0..<min($0 + size, stream.count)])
      }
      #expect(decode(chunks).frames == payloads + [payload(4, count: 5_000)] + payloads)
    }
  }

  @Test func framesWithinOneReadAreLentInPlace() {
    var decoder = FrameDecoder(maxFrameSize: 1024)
    var offsets: [Int] = []
    let stream = encodeFrames([[1, 2], [3], [4, 5, 6]])
    _ = stream.withUnsafeBytes { bytes in
      decoder.decode(bytes) { frame in
        offsets.append(frame.baseAddress.map { $0 - bytes.baseAddress! } ?? -1)
        return true
      }
    }
    // Views of the read itself, each just after its 4-byte header: nothing was copied.
    #expect(offsets == [4, 4 + 2 + 4, 4 + 2 + 4 + 1 + 4])
  }

  @Test func anAssembledFrameDoesNotLeakIntoTheNext() {
    // A frame that straddles reads is assembled in a reused buffer; the next straddling frame,
    // shorter, must not carry the first one's tail.
    let stream = encodeFrames([payload(7, count: 9), payload(8, count: 3)])
    let chunks = [Array(stream[..<6]), Array(stream[6..<18]), Array(stream[18...])]
    #expect(decode(chunks).frames == [payload(7, count: 9), payload(8, count: 3)])
  }

  @Test func headerAtTheLimitIsAcceptedAndOneBeyondIsRejected() {
    let atLimit = decode([encodeFrames([payload(5, count: 64)])], maxFrameSize: 64)
    #expect(atLimit.frames.count == 1)
    let beyond = decode([encodeFrames([payload(5, count: 65)])], maxFrameSize: 64)
    #expect(beyond.frames.isEmpty)
    #expect(beyond.outcome == .frameTooLarge(length: 65))
    // Detected from the header alone, before any payload arrives.
    let headerOnly = decode([[0, 0, 0], [65]], maxFrameSize: 64)
    #expect(headerOnly.outcome == .frameTooLarge(length: 65))
  }

  @Test func emitReturningFalseStopsDecoding() {
    let result = decode([encodeFrames(payloads)], stopAfter: 2)
    #expect(result.frames == Array(payloads.prefix(2)))
    #expect(result.outcome == .stopped)
  }

  /// WireProtocol §7: a receiver never allocates more than a small multiple of what arrived.
  /// A header announcing a megabyte costs nothing until the bytes come, and the assembly
  /// buffer grows with them.
  @Test func aHeaderAloneReservesNothingAndTheBufferGrowsWithWhatArrived() {
    let length = 1 << 20 - 1
    var decoder = FrameDecoder(maxFrameSize: 1 << 20)
    let header: [UInt8] = [0, 0x0F, 0xFF, 0xFF]
    _ = header.withUnsafeBytes { decoder.decode($0) { _ in true } }
    #expect(decoder.hasPartialFrame)
    #expect(decoder.assemblyCapacity < 1_024, "\(decoder.assemblyCapacity) bytes reserved")

    var held = 0
    var frames = 0
    for chunk in stride(from: 0, to: length, by: 64 * 1_024) {
      let bytes = payload(chunk, count: min(64 * 1_024, length - chunk))
      _ = bytes.withUnsafeBytes {
        decoder.decode($0) { _ in
          frames += 1
          return true
        }
      }
      held += bytes.count
      guard held < length else { break }
      #expect(decoder.bufferedByteCount == held)
      #expect(
        decoder.assemblyCapacity <= 2 * held + 4_096, "\(decoder.assemblyCapacity) for \(held)")
    }
    #expect(frames == 1)
    #expect(decoder.bufferedByteCount == 0)
  }

  @Test func partialFrameIsReported() {
    var decoder = FrameDecoder(maxFrameSize: 1024)
    #expect(!decoder.hasPartialFrame)
    let outcome = [UInt8]([0, 0, 0, 9, 1, 2]).withUnsafeBytes { bytes in
      decoder.decode(bytes) { _ in true }
    }
    #expect(outcome == .needMoreBytes)
    #expect(decoder.hasPartialFrame)
  }
}
