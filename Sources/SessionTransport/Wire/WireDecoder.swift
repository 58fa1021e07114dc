import SessionCore

/// Decodes payloads into frames, enforcing size limits; never traps on hostile input.
///
/// Every read is bounds-checked; every problem (truncation, unknown type or tag bytes, enum
/// raw values out of range, malformed UTF-8, overlong varints, oversize strings and counts,
/// trailing bytes) is a ``WireError`` naming the byte offset. Collection counts are checked
/// against the bytes that remain before anything is allocated, so a payload of `n` bytes never
/// allocates more than a small constant times `n`.
///
/// Decoding reads the payload in place, from a raw buffer or an array slice, without copying
/// it. A value; `Sendable`.
public struct WireDecoder: Sendable, Hashable {
  /// The largest payload accepted, in bytes.
  public var maxFrameSize: Int
  /// The largest string accepted, in UTF-8 bytes.
  public var maxStringLength: Int
  /// The largest element count of one array or set.
  public var maxCollectionCount: Int

  /// Creates a decoder.
  ///
  /// - Parameters:
  ///   - maxFrameSize: The largest payload, in bytes; default 1 MiB.
  ///   - maxStringLength: The largest string, in UTF-8 bytes; default 64 KiB.
  ///   - maxCollectionCount: The largest element count of one array or set; default 65,536.
  public init(
    maxFrameSize: Int = WireProtocol.defaultMaxFrameSize,
    maxStringLength: Int = WireProtocol.defaultMaxStringLength,
    maxCollectionCount: Int = WireProtocol.defaultMaxCollectionCount
  ) {
    precondition(maxFrameSize >= 0 && maxStringLength >= 0 && maxCollectionCount >= 0)
    self.maxFrameSize = maxFrameSize
    self.maxStringLength = maxStringLength
    self.maxCollectionCount = maxCollectionCount
  }

  // MARK: Server side: frames from a client

  /// Decodes a payload a client sent: a hello, a goodbye or a ``ClientMessage``.
  ///
  /// - Parameter payload: One frame's payload (without its length prefix). Only read during
  ///   the call.
  /// - Returns: The frame.
  /// - Throws: A ``WireError`` if the payload is not exactly one well-formed client frame.
  public func decodeClientFrame(_ payload: UnsafeRawBufferPointer) throws(WireError)
    -> WireClientFrame
  {
    try decode(WireClientFrame.self, payload)
  }

  /// Decodes a payload a client sent, from an array slice, without copying it.
  ///
  /// - Parameter payload: One frame's payload (without its length prefix).
  /// - Returns: The frame.
  /// - Throws: A ``WireError`` if the payload is not exactly one well-formed client frame.
  public func decodeClientFrame(_ payload: ArraySlice<UInt8>) throws(WireError)
    -> WireClientFrame
  {
    try decode(WireClientFrame.self, payload)
  }

  /// Decodes a payload a client sent, from an array, without copying it.
  ///
  /// - Parameter payload: One frame's payload (without its length prefix).
  /// - Returns: The frame.
  /// - Throws: A ``WireError`` if the payload is not exactly one well-formed client frame.
  public func decodeClientFrame(_ payload: [UInt8]) throws(WireError) -> WireClientFrame {
    try decode(WireClientFrame.self, payload[...])
  }

  // MARK: Client side: frames from the server

  /// Decodes a payload the server sent: a hello acknowledgement, a goodbye or a
  /// ``ServerMessage``.
  ///
  /// - Parameter payload: One frame's payload (without its length prefix). Only read during
  ///   the call.
  /// - Returns: The frame.
  /// - Throws: A ``WireError`` if the payload is not exactly one well-formed server frame.
  public func decodeServerFrame(_ payload: UnsafeRawBufferPointer) throws(WireError)
    -> WireServerFrame
  {
    try decode(WireServerFrame.self, payload)
  }

  /// Decodes a payload the server sent, from an array slice, without copying it.
  ///
  /// - Parameter payload: One frame's payload (without its length prefix).
  /// - Returns: The frame.
  /// - Throws: A ``WireError`` if the payload is not exactly one well-formed server frame.
  public func decodeServerFrame(_ payload: ArraySlice<UInt8>) throws(WireError)
    -> WireServerFrame
  {
    try decode(WireServerFrame.self, payload)
  }

  /// Decodes a payload the server sent, from an array slice, decoding an event batch into
  /// `events` rather than a new array.
  ///
  /// For a receive loop that hands each message on and lets go of it before the next: the
  /// batch shares `events`' storage, so once the message is gone the next batch refills that
  /// storage in place, and a fan-out allocates nothing per frame. A message that is kept keeps
  /// its events: copy-on-write gives the next batch new storage.
  ///
  /// - Parameters:
  ///   - payload: One frame's payload (without its length prefix).
  ///   - events: Storage kept by the caller from one frame to the next; start with `[]`.
  /// - Returns: The frame.
  /// - Throws: A ``WireError`` if the payload is not exactly one well-formed server frame.
  package func decodeServerFrame(
    _ payload: ArraySlice<UInt8>, reusing events: inout [SessionEvent]
  ) throws(WireError) -> WireServerFrame {
    try reusing(&events) { storage throws(WireError) in
      try decode(WireServerFrame.self, payload, eventStorage: &storage)
    }
  }

  /// Decodes a payload the server sent, in place, decoding an event batch into `events` rather
  /// than a new array (see ``decodeServerFrame(_:reusing:)-(ArraySlice<UInt8>,_)``).
  ///
  /// - Parameters:
  ///   - payload: One frame's payload (without its length prefix). Only read during the call.
  ///   - events: Storage kept by the caller from one frame to the next; start with `[]`.
  /// - Returns: The frame.
  /// - Throws: A ``WireError`` if the payload is not exactly one well-formed server frame.
  package func decodeServerFrame(
    _ payload: UnsafeRawBufferPointer, reusing events: inout [SessionEvent]
  ) throws(WireError) -> WireServerFrame {
    try reusing(&events) { storage throws(WireError) in
      try decode(WireServerFrame.self, payload, eventStorage: &storage)
    }
  }

  /// Lends `events` to `body` as the storage a batch decodes into, unique while it decodes,
  /// and keeps what the batch leaves there.
  private func reusing(
    _ events: inout [SessionEvent],
    _ body: (inout [SessionEvent]?) throws(WireError) -> WireServerFrame
  ) throws(WireError) -> WireServerFrame {
    var storage: [SessionEvent]? = events
    events = []  // so that the storage is unique while a batch decodes into it
    defer { events = storage ?? [] }
    return try body(&storage)
  }

  /// Decodes a payload the server sent if it is an event batch, into `events`: the receive
  /// loop's fast path for the frames that matter most.
  ///
  /// Decodes what ``decodeServerFrame(_:reusing:)-(UnsafeRawBufferPointer,_)`` would decode as
  /// `.message(.events(batch))`, and fails where it would fail, but returns the batch itself
  /// and decodes straight into `events`, which the batch then shares.
  ///
  /// - Parameters:
  ///   - payload: One frame's payload (without its length prefix). Only read during the call.
  ///   - events: Storage kept by the caller from one frame to the next; start with `[]`. On
  ///     failure it holds some of the events read so far.
  /// - Returns: The batch, or `nil` if the payload is another kind of frame: decode that one
  ///   with ``decodeServerFrame(_:reusing:)-(UnsafeRawBufferPointer,_)``.
  /// - Throws: A ``WireError`` if the payload is an event batch but not a well-formed one.
  package func decodeEventBatch(
    _ payload: UnsafeRawBufferPointer, reusing events: inout [SessionEvent]
  ) throws(WireError) -> EventBatch? {
    guard payload.first == WireMessageType.events else { return nil }
    guard payload.count <= maxFrameSize else { throw tooLarge(payload.count) }
    var reader = WireReader(payload, limits: self)
    reader.skip(1)
    let batch = try EventBatch(from: &reader, reusing: &events)
    try reader.finish()
    return batch
  }

  /// Decodes a payload the server sent, from an array, without copying it.
  ///
  /// - Parameter payload: One frame's payload (without its length prefix).
  /// - Returns: The frame.
  /// - Throws: A ``WireError`` if the payload is not exactly one well-formed server frame.
  public func decodeServerFrame(_ payload: [UInt8]) throws(WireError) -> WireServerFrame {
    try decode(WireServerFrame.self, payload[...])
  }

  // MARK: Framing

  /// Finds the first complete frame at the start of `bytes`.
  ///
  /// For simple clients and tests; a socket layer usually splits frames itself.
  ///
  /// - Parameter bytes: Buffered stream bytes, starting at a frame boundary.
  /// - Returns: The payload's range in `bytes` (after the 4-byte header), or `nil` if the
  ///   frame is not complete yet. The next frame starts at the range's upper bound.
  /// - Throws: ``WireError/Code/frameTooLarge`` if the header announces more than
  ///   ``maxFrameSize`` bytes.
  public func nextFrame(in bytes: UnsafeRawBufferPointer) throws(WireError) -> Range<Int>? {
    let header = WireProtocol.frameHeaderSize
    guard bytes.count >= header else { return nil }
    var length = 0
    for index in 0..<header {
      length = length << 8 | Int(bytes[index])
    }
    guard length <= maxFrameSize else { throw tooLarge(length) }
    guard bytes.count - header >= length else { return nil }
    return header..<header + length
  }

  // MARK: Implementation

  /// Decodes one frame; an event batch decodes into `eventStorage` when it holds storage, and
  /// leaves it there (see ``decodeServerFrame(_:reusing:)``).
  private func decode<Frame: WireDecodable>(
    _: Frame.Type, _ payload: UnsafeRawBufferPointer,
    eventStorage: inout [SessionEvent]?
  ) throws(WireError) -> Frame {
    guard payload.count <= maxFrameSize else { throw tooLarge(payload.count) }
    var reader = WireReader(payload, limits: self)
    reader.eventStorage = eventStorage.take()
    defer { eventStorage = reader.eventStorage }
    let frame = try Frame(from: &reader)
    try reader.finish()
    return frame
  }

  private func decode<Frame: WireDecodable>(
    _: Frame.Type, _ payload: UnsafeRawBufferPointer
  ) throws(WireError) -> Frame {
    var noStorage: [SessionEvent]?
    return try decode(Frame.self, payload, eventStorage: &noStorage)
  }

  private func decode<Frame: WireDecodable>(
    _: Frame.Type, _ payload: ArraySlice<UInt8>
  ) throws(WireError) -> Frame {
    var noStorage: [SessionEvent]?
    return try decode(Frame.self, payload, eventStorage: &noStorage)
  }

  private func decode<Frame: WireDecodable>(
    _: Frame.Type, _ payload: ArraySlice<UInt8>, eventStorage: inout [SessionEvent]?
  ) throws(WireError) -> Frame {
    // `withUnsafeBytes` rethrows untyped errors, so the outcome leaves the closure as values.
    var failure: WireError?
    var frame: Frame?
    payload.withUnsafeBytes { bytes in
      do throws(WireError) {
        frame = try decode(Frame.self, bytes, eventStorage: &eventStorage)
      } catch {
        failure = error
      }
    }
    if let failure { throw failure }
    guard let frame else { preconditionFailure("decoding neither returned nor threw") }
    return frame
  }

  private func tooLarge(_ length: Int) -> WireError {
    WireError(
      .frameTooLarge, offset: 0,
      detail: "the payload is \(length) bytes, more than the maximum \(maxFrameSize)")
  }
}
