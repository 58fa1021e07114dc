/// Encodes messages into payloads and length-prefixed frames.
///
/// A payload is one type byte and the message's body (`Docs/WireProtocol.md`). A frame is a
/// 4-byte big-endian payload length, then the payload. The `append` functions write into a
/// caller-owned buffer, so many frames can be batched into one buffer for one write without
/// intermediate copies.
///
/// - Complexity: O(size of the encoding). No Foundation, no existentials; the only allocations
///   are the buffer's growth (none if its capacity suffices) and sorting a share's annotator set.
package enum WireEncoder {
  // MARK: Messages

  /// The payload of a message.
  ///
  /// - Parameter message: A ``ServerMessage``, ``WireServerFrame``, ``ClientMessage`` or
  ///   ``WireClientFrame``: any ``WireMessage``.
  /// - Returns: Its type byte and body.
  package static func payload(_ message: some WireMessage) -> [UInt8] { makePayload(message) }

  /// Appends the payload of a message (no length prefix) to `buffer`.
  ///
  /// - Parameters:
  ///   - message: The message.
  ///   - buffer: Where to append.
  package static func appendPayload(_ message: some WireMessage, to buffer: inout [UInt8]) {
    appendBody(message, to: &buffer)
  }

  /// Appends a whole frame for a message to `buffer`: the 4-byte big-endian length, then the
  /// payload, written in place.
  ///
  /// - Parameters:
  ///   - message: The message.
  ///   - buffer: Where to append; on failure it is left as it was.
  ///   - maxFrameSize: The largest payload the receiver accepts.
  /// - Returns: The payload's length in bytes (the frame is 4 bytes longer).
  /// - Throws: ``WireError/Code/frameTooLarge`` if the payload would exceed `maxFrameSize`.
  @discardableResult
  package static func appendFrame(
    _ message: some WireMessage, to buffer: inout [UInt8],
    maxFrameSize: Int = WireProtocol.defaultMaxFrameSize
  ) throws(WireError) -> Int {
    try appendFramed(message, to: &buffer, maxFrameSize: maxFrameSize)
  }

  // MARK: Concrete entries for the package's hot paths

  // The generic entries above are public and not inlinable, so a caller in another module runs
  // their unspecialized body: the message's metadata and witness table are looked up and the
  // encoding is reached through them on every call. The loopback server encodes each broadcast
  // and the client link each command through these overloads instead, which the compiler
  // specializes here (Swift prefers them to the generic entry wherever they are visible).

  /// ``appendPayload(_:to:)`` for a server message, specialized.
  package static func appendPayload(_ message: ServerMessage, to buffer: inout [UInt8]) {
    appendBody(message, to: &buffer)
  }

  /// ``appendPayload(_:to:)`` for a server frame, specialized.
  package static func appendPayload(_ frame: WireServerFrame, to buffer: inout [UInt8]) {
    appendBody(frame, to: &buffer)
  }

  /// ``appendPayload(_:to:)`` for a client message, specialized.
  package static func appendPayload(_ message: ClientMessage, to buffer: inout [UInt8]) {
    appendBody(message, to: &buffer)
  }

  /// ``appendPayload(_:to:)`` for a client frame, specialized.
  package static func appendPayload(_ frame: WireClientFrame, to buffer: inout [UInt8]) {
    appendBody(frame, to: &buffer)
  }

  // MARK: Shared

  /// Appends a frame header for a payload of `length` bytes: its length as 4 big-endian bytes.
  ///
  /// Use it to frame a payload encoded once and sent to many connections.
  ///
  /// - Parameters:
  ///   - length: The payload's length; at most `UInt32.max`.
  ///   - buffer: Where to append.
  package static func appendFrameHeader(length: Int, to buffer: inout [UInt8]) {
    precondition(length >= 0 && UInt64(length) <= UInt64(UInt32.max), "frame length out of range")
    let value = UInt32(length)
    buffer.append(UInt8(truncatingIfNeeded: value >> 24))
    buffer.append(UInt8(truncatingIfNeeded: value >> 16))
    buffer.append(UInt8(truncatingIfNeeded: value >> 8))
    buffer.append(UInt8(truncatingIfNeeded: value))
  }

  private static func makePayload(_ value: some WireMessage) -> [UInt8] {
    var size = max(value.wireSizeEstimate, 1)
    while true {
      var needed = 0
      let payload = [UInt8](unsafeUninitializedCapacity: size) { bytes, count in
        guard let base = bytes.baseAddress else { return }
        var writer = WireWriter(base, start: 0, end: bytes.count)
        value.encode(to: &writer)
        if writer.fits {
          count = writer.position
        } else {
          needed = writer.position
        }
      }
      guard needed > 0 else { return payload }
      size = needed
    }
  }

  /// Encodes `value` into scratch memory after `headerRoom` bytes and calls `body` with the
  /// header room and the encoding.
  ///
  /// The scratch is a temporary allocation (on the stack when small) of the estimated size; if
  /// the encoding doesn't fit, the first pass has counted its exact size and a second pass
  /// encodes into that much.
  private static func withEncoding<Outcome>(
    of value: some WireMessage, headerRoom: Int,
    _ body: (UnsafeMutableBufferPointer<UInt8>) -> Outcome
  ) -> Outcome {
    var size = headerRoom + max(value.wireSizeEstimate, 1)
    while true {
      let (outcome, needed) = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: size) {
        scratch -> (Outcome?, Int) in
        guard let base = scratch.baseAddress else { preconditionFailure("no scratch memory") }
        var writer = WireWriter(base, start: headerRoom, end: scratch.count)
        value.encode(to: &writer)
        guard writer.fits else { return (nil, writer.position) }
        return (body(UnsafeMutableBufferPointer(start: base, count: writer.position)), 0)
      }
      if let outcome { return outcome }
      size = needed
    }
  }

  private static func appendBody(_ value: some WireMessage, to buffer: inout [UInt8]) {
    withEncoding(of: value, headerRoom: 0) { encoding in
      buffer.append(contentsOf: UnsafeBufferPointer(encoding))
    }
  }

  private static func appendFramed(
    _ value: some WireMessage, to buffer: inout [UInt8], maxFrameSize: Int
  ) throws(WireError) -> Int {
    let header = WireProtocol.frameHeaderSize
    let (length, appended) = withEncoding(of: value, headerRoom: header) { frame -> (Int, Bool) in
      let length = frame.count - header
      guard length <= maxFrameSize, UInt64(length) <= UInt64(UInt32.max) else {
        return (length, false)
      }
      let value = UInt32(length)
      frame[0] = UInt8(truncatingIfNeeded: value >> 24)
      frame[1] = UInt8(truncatingIfNeeded: value >> 16)
      frame[2] = UInt8(truncatingIfNeeded: value >> 8)
      frame[3] = UInt8(truncatingIfNeeded: value)
      buffer.append(contentsOf: UnsafeBufferPointer(frame))
      return (length, true)
    }
    guard appended else {
      throw WireError(
        .frameTooLarge, offset: 0,
        detail: "the payload is \(length) bytes, more than the maximum \(maxFrameSize)")
    }
    return length
  }
}
