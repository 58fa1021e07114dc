/// Server messages longer than one frame, as `fragment` frames (`Docs/WireProtocol.md` §4.5).
///
/// A `joined` snapshot lists every member, so a session of thousands outgrows a frame (with the
/// longest names allowed, about 1,036 members fill 1 MiB). The server cuts such a message's
/// payload into consecutive `fragment` frames, each `0x99`, a more-follows byte (1, or 0 on
/// the last) and the next bytes of the payload; nothing else is sent on the connection in
/// between. The client joins the bytes and decodes them as the one frame they were.
package enum WireFragments {
  /// Whether a payload is a `fragment` frame.
  ///
  /// - Parameter payload: One frame's payload.
  /// - Returns: Whether its type byte is `fragment`.
  package static func isFragment(_ payload: UnsafeRawBufferPointer) -> Bool {
    payload.first == WireMessageType.fragment
  }

  /// How many `fragment` frames a payload of `count` bytes takes.
  ///
  /// - Parameters:
  ///   - count: The payload's length in bytes.
  ///   - maxFrameSize: The largest frame payload.
  /// - Returns: The number of frames ``split(_:maxFrameSize:_:)`` hands out.
  package static func frameCount(of count: Int, maxFrameSize: Int) -> Int {
    let share = share(maxFrameSize)
    return (max(0, count) + share - 1) / share
  }

  /// The bytes of the message each fragment carries.
  private static func share(_ maxFrameSize: Int) -> Int {
    max(1, maxFrameSize - WireProtocol.fragmentHeaderSize)
  }

  /// Cuts a server payload longer than a frame into `fragment` frames and hands each to
  /// `body` in order.
  ///
  /// - Parameters:
  ///   - payload: A whole server payload (its type byte first).
  ///   - maxFrameSize: The largest frame payload; more than ``WireProtocol/fragmentHeaderSize``.
  ///   - body: Gets each fragment's payload, valid during the call.
  package static func split(
    _ payload: [UInt8], maxFrameSize: Int, _ body: (UnsafeRawBufferPointer) -> Void
  ) {
    let share = share(maxFrameSize)
    var frame: [UInt8] = []
    frame.reserveCapacity(min(payload.count, share) + WireProtocol.fragmentHeaderSize)
    var start = 0
    while start < payload.count {
      let end = min(payload.count, start + share)
      frame.removeAll(keepingCapacity: true)
      frame.append(WireMessageType.fragment)
      frame.append(end < payload.count ? 1 : 0)
      frame.append(contentsOf: payload[start..<end])
      frame.withUnsafeBytes(body)
      start = end
    }
  }
}

/// A client's reassembly of one fragmented server message.
///
/// > Important: A value, owned by one link on its loop.
package struct WireReassembly {
  /// The largest message it joins, in bytes; a longer one is an error.
  package let maxMessageSize: Int
  private var bytes: [UInt8] = []

  /// Makes an empty reassembly.
  ///
  /// - Parameter maxMessageSize: The largest message joined, in bytes.
  package init(maxMessageSize: Int = WireProtocol.defaultMaxMessageSize) {
    self.maxMessageSize = max(0, maxMessageSize)
  }

  /// Whether fragments of a message have arrived and its last has not: any other frame now
  /// breaks the protocol.
  package var isAssembling: Bool { !bytes.isEmpty }

  /// Forgets the fragments so far (the message they began is broken).
  package mutating func reset() { bytes = [] }

  /// Takes one `fragment` frame.
  ///
  /// - Parameter payload: The frame's payload (``WireFragments/isFragment(_:)`` holds).
  /// - Returns: The whole message's payload once its last fragment arrived, else `nil`.
  /// - Throws: A ``WireError`` for a fragment without its flag or bytes, a flag other than 0
  ///   or 1, or a message longer than ``maxMessageSize``; the reassembly is then empty again.
  package mutating func take(_ payload: UnsafeRawBufferPointer) throws(WireError) -> [UInt8]? {
    let header = WireProtocol.fragmentHeaderSize
    guard payload.count > header else {
      bytes = []
      throw WireError(
        .truncated, offset: payload.count, detail: "a fragment carries no bytes of its message")
    }
    let more = payload[1]
    guard more <= 1 else {
      bytes = []
      throw WireError(
        .invalidValue, offset: 1, detail: "a fragment's more-follows flag is \(more), not 0 or 1")
    }
    let share = payload.count - header
    guard share <= maxMessageSize - bytes.count else {
      let total = bytes.count + share
      bytes = []
      throw WireError(
        .frameTooLarge, offset: 0,
        detail: "a fragmented message of more than \(total) bytes exceeds the "
          + "\(maxMessageSize)-byte limit")
    }
    if bytes.isEmpty { bytes.reserveCapacity(more == 1 ? share * 2 : share) }
    bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: payload[header...]))
    guard more == 0 else { return nil }
    defer { bytes = [] }
    return bytes
  }
}
