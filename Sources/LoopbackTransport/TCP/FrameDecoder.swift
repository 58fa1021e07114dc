/// Splits a byte stream into frames: a 4-byte big-endian payload length, then the payload.
///
/// Pure and synchronous; fed whatever each read returned, in order. A frame that lies entirely
/// within one read is delivered in place, as a view of the read's bytes (nothing is copied or
/// allocated); a frame spread over several reads is assembled in a buffer the decoder keeps and
/// reuses. That buffer grows with the bytes that arrived, never to the length a header
/// announced, so its capacity stays within about twice what it holds (or the
/// ``keptPartialCapacity`` kept from an earlier frame).
///
/// > Important: A value owned by one ``TCPConnection``; loop-confined with it.
struct FrameDecoder {
  /// How `decode` ended.
  enum Outcome: Equatable {
    /// All bytes were consumed; a partial frame, if any, is kept for the next call.
    case needMoreBytes
    /// `emit` asked to stop; the rest of the bytes were dropped.
    case stopped
    /// A header announced `length` bytes, more than the maximum; the decoder is unusable now.
    case frameTooLarge(length: Int)
  }

  /// The largest payload accepted.
  let maxFrameSize: Int
  /// Header bytes gathered so far (0 to 3) when a header straddles reads.
  private var headerBytes = 0
  private var headerValue: UInt32 = 0
  /// The payload of a frame straddling reads, and its announced length (nil when none).
  private var partial: [UInt8] = []
  /// The largest assembly buffer kept for the next straddling frame; a larger one (a big
  /// snapshot) is let go once delivered.
  static let keptPartialCapacity = 64 * 1024
  private var partialLength: Int?

  init(maxFrameSize: Int) {
    self.maxFrameSize = maxFrameSize
  }

  /// Whether bytes of an incomplete frame are buffered.
  var hasPartialFrame: Bool { headerBytes > 0 || partialLength != nil }

  /// Payload bytes of the incomplete frame held in the assembly buffer (0 when none).
  var bufferedByteCount: Int { partial.count }

  /// The assembly buffer's capacity in bytes: what the decoder holds, for tests.
  var assemblyCapacity: Int { partial.capacity }

  /// Drops the unfinished frame and lets go of its buffer; the stream can't be decoded after
  /// this (its framing is lost), so only a connection that reads no more may call it.
  mutating func discardPartialFrame() {
    partial = []
    partialLength = nil
    headerBytes = 0
    headerValue = 0
  }

  /// ``decode(_:emit:)``, and whether it changed ``bufferedByteCount``: one access to the
  /// decoder for a read, where reading the count before and after would take two more (the
  /// connection's decoder is a class property, each access checked for exclusivity).
  ///
  /// - Parameters:
  ///   - bytes: The next bytes of the stream, as for ``decode(_:emit:)``.
  ///   - emit: Receives each frame's payload, as for ``decode(_:emit:)``.
  /// - Returns: Why decoding ended, and whether the assembly buffer's byte count changed.
  mutating func decodeNotingBuffered(
    _ bytes: UnsafeRawBufferPointer, emit: (UnsafeRawBufferPointer) -> Bool
  ) -> (outcome: Outcome, bufferedChanged: Bool) {
    let before = partial.count
    let outcome = decode(bytes, emit: emit)
    return (outcome, partial.count != before)
  }

  /// Consumes `bytes`, calling `emit` once per complete frame, in order.
  ///
  /// - Parameters:
  ///   - bytes: The next bytes of the stream. Not retained: what outlives the call is copied.
  ///   - emit: Receives each frame's payload, valid only during that call (copy it to keep
  ///     it); returns `false` to stop decoding.
  /// - Returns: Why decoding ended.
  /// - Complexity: O(`bytes.count`).
  mutating func decode(
    _ bytes: UnsafeRawBufferPointer, emit: (UnsafeRawBufferPointer) -> Bool
  ) -> Outcome {
    let end = bytes.count
    var index = 0
    while index < end {
      if let length = partialLength {
        let take = min(length - partial.count, end - index)
        partial.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[index..<index + take]))
        index += take
        guard partial.count == length else { return .needMoreBytes }
        partialLength = nil
        // `emit` can't reach the decoder, so `partial` is not touched while it is lent out.
        let carryOn = partial.withUnsafeBytes { emit($0) }
        partial.removeAll(keepingCapacity: partial.capacity <= Self.keptPartialCapacity)
        guard carryOn else { return .stopped }
        continue
      }

      let length: Int
      if headerBytes == 0 && end - index >= 4 {
        length = Int(UInt32(bigEndian: bytes.loadUnaligned(fromByteOffset: index, as: UInt32.self)))
        index += 4
      } else {
        while headerBytes < 4 && index < end {
          headerValue = headerValue << 8 | UInt32(bytes[index])
          headerBytes += 1
          index += 1
        }
        guard headerBytes == 4 else { return .needMoreBytes }
        length = Int(headerValue)
        headerBytes = 0
        headerValue = 0
      }
      guard length <= maxFrameSize else { return .frameTooLarge(length: length) }

      if end - index >= length {
        let frame = UnsafeRawBufferPointer(rebasing: bytes[index..<index + length])
        index += length
        guard emit(frame) else { return .stopped }
      } else {
        // Nothing is reserved for the announced length: the buffer grows with what arrives
        // (an append at most doubles it), so a header alone costs nothing and a frame's
        // buffer is never much more than twice the bytes it holds (WireProtocol §7).
        partialLength = length
      }
    }
    return .needMoreBytes
  }
}
