import SessionCore

/// A datagram on the media channel: a ``MediaPacket``, a ``ReceiverReport``, a
/// ``DownlinkFeedback``, or one of the
/// channel's control datagrams (a ``MediaBind``, a return-path check and its reply, a ping or a
/// pong).
///
/// Every media datagram starts with the version byte (``version``) and a type byte
/// (``Kind``), and on the wire ends with a 24-byte authentication trailer (a nonce and a tag) under a
/// member's media key; ``encode()`` and ``decode(_:)-([UInt8])`` read and write the datagram without its
/// tag (the *body*), and ``body(ofSealed:)`` strips it. `Docs/WireProtocol.md`, "Media
/// datagrams", has the byte layouts. Use ``decode(_:)-(UnsafeRawBufferPointer)`` where several
/// kinds arrive on one socket.
///
/// > Important: A value; `Sendable`.
public enum MediaDatagram: Sendable, Hashable {
  /// Synthetic media from a sender.
  case packet(MediaPacket)
  /// A subscriber's statistics for one stream.
  case report(ReceiverReport)
  /// A subscriber's feedback on its whole downlink (peer to service).
  case feedback(DownlinkFeedback)
  /// A peer binds its endpoint to a member (peer to service).
  case bind(MediaBind)
  /// A round-trip probe, peer to service: `sendTime` µs on the peer's clock.
  case ping(sendTime: Int64)
  /// The service's answer to a ping, sent at once with the ping's `sendTime`.
  case pong(sendTime: Int64)
  /// The service's return-path check of an address a bind came from (service to peer): the
  /// peer answers with ``checkReply(credential:nonce:)`` carrying the same nonce.
  case check(nonce: UInt64)
  /// A peer's answer to a ``check(nonce:)``: its credential's public id and the nonce.
  case checkReply(credential: UInt64, nonce: UInt64)

  /// The media datagram version this build speaks: 2, the authenticated datagrams (version 1
  /// had no tags and bound with the resume token).
  public static let version: UInt8 = 2

  /// The bytes of the authentication trailer every datagram ends with on the wire: a 64-bit
  /// nonce and a 16-byte tag.
  public static let trailerSize = 24

  /// The type byte, the second byte of every media datagram.
  public enum Kind: UInt8, Sendable, Hashable, CaseIterable {
    /// A ``MediaPacket``.
    case packet = 1
    /// A ``ReceiverReport``.
    case report = 2
    /// A ``MediaBind``.
    case bind = 3
    /// A ping.
    case ping = 4
    /// A pong.
    case pong = 5
    /// A return-path check.
    case check = 6
    /// A check reply.
    case checkReply = 7
    /// A ``DownlinkFeedback``.
    case feedback = 8
  }

  /// The size of the largest media datagram body of any type, in bytes (the tag adds
  /// ``trailerSize``).
  public static let maxSize = MediaPacket.maxDatagramSize

  /// The datagram's type.
  public var kind: Kind {
    switch self {
    case .packet: .packet
    case .report: .report
    case .feedback: .feedback
    case .bind: .bind
    case .ping: .ping
    case .pong: .pong
    case .check: .check
    case .checkReply: .checkReply
    }
  }

  /// The body of a datagram as it came off the wire: every byte but the trailer, or `nil`
  /// for a datagram shorter than a trailer.
  ///
  /// - Parameter sealed: The whole datagram.
  /// - Returns: The bytes before the tag, in the same memory.
  public static func body(ofSealed sealed: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer? {
    guard sealed.count >= trailerSize else { return nil }
    return UnsafeRawBufferPointer(rebasing: sealed[..<(sealed.count - trailerSize)])
  }

  /// The datagram's bytes.
  ///
  /// - Returns: The encoding of the packet, report, feedback, bind, ping or pong.
  public func encode() -> [UInt8] {
    switch self {
    case .packet(let packet): packet.encode()
    case .report(let report): report.encode()
    case .feedback(let feedback): feedback.encode()
    case .bind(let bind): bind.encode()
    case .ping(let sendTime): MediaProbe.encode(.ping, sendTime: sendTime)
    case .pong(let sendTime): MediaProbe.encode(.pong, sendTime: sendTime)
    case .check(let nonce): MediaCheck.encodeCheck(nonce: nonce)
    case .checkReply(let credential, let nonce):
      MediaCheck.encodeReply(credential: credential, nonce: nonce)
    }
  }

  /// Decodes a datagram of any type.
  ///
  /// - Parameter bytes: The whole datagram.
  /// - Returns: The datagram.
  /// - Throws: ``MediaDecodingError`` for a datagram that breaks any rule.
  public static func decode(_ bytes: [UInt8]) throws(MediaDecodingError) -> MediaDatagram {
    let result = bytes.withUnsafeBytes { buffer in
      Result { () throws(MediaDecodingError) in try decode(buffer) }
    }
    return try result.get()
  }

  /// Decodes a datagram of any type from memory the caller owns (a receive buffer).
  ///
  /// - Parameter buffer: The whole datagram; read only during the call.
  /// - Returns: The datagram.
  /// - Throws: ``MediaDecodingError`` for a datagram that breaks any rule.
  public static func decode(
    _ buffer: UnsafeRawBufferPointer
  ) throws(MediaDecodingError) -> MediaDatagram {
    let type = try MediaBytes.checkPreamble(buffer)
    switch Kind(rawValue: type) {
    case .packet: return .packet(try MediaPacket.decodeBody(buffer))
    case .report: return .report(try ReceiverReport.decodeBody(buffer))
    case .feedback: return .feedback(try DownlinkFeedback.decodeBody(buffer))
    case .bind: return .bind(try MediaBind.decodeBody(buffer))
    case .ping: return .ping(sendTime: try MediaProbe.decodeBody(buffer))
    case .pong: return .pong(sendTime: try MediaProbe.decodeBody(buffer))
    case .check: return .check(nonce: try MediaCheck.decodeCheck(buffer))
    case .checkReply:
      let (credential, nonce) = try MediaCheck.decodeReply(buffer)
      return .checkReply(credential: credential, nonce: nonce)
    case nil: throw .wrongType(type)
    }
  }
}

/// Big-endian reads and writes of the media datagrams' fixed-width fields.
///
/// > Important: Stateless; the buffers are the caller's and only used during a call.
enum MediaBytes {
  /// The size of the version and type bytes every media datagram starts with.
  static let preambleSize = 2

  /// Checks the version byte and returns the type byte.
  static func checkPreamble(_ buffer: UnsafeRawBufferPointer) throws(MediaDecodingError) -> UInt8 {
    guard buffer.count >= preambleSize else {
      if buffer.count == 1, buffer[0] != MediaDatagram.version {
        throw .wrongVersion(buffer[0])
      }
      throw .truncated(count: buffer.count, needed: preambleSize)
    }
    guard buffer[0] == MediaDatagram.version else { throw .wrongVersion(buffer[0]) }
    return buffer[1]
  }

  /// The big-endian integer at `offset`.
  @inline(__always)
  static func load<Integer: FixedWidthInteger>(
    _ buffer: UnsafeRawBufferPointer, _ offset: Int, as _: Integer.Type = Integer.self
  ) -> Integer {
    Integer(bigEndian: buffer.loadUnaligned(fromByteOffset: offset, as: Integer.self))
  }

  @inline(__always)
  static func u16(_ buffer: UnsafeRawBufferPointer, _ offset: Int) -> UInt16 {
    load(buffer, offset)
  }

  @inline(__always)
  static func u32(_ buffer: UnsafeRawBufferPointer, _ offset: Int) -> UInt32 {
    load(buffer, offset)
  }

  @inline(__always)
  static func u64(_ buffer: UnsafeRawBufferPointer, _ offset: Int) -> UInt64 {
    load(buffer, offset)
  }

  @inline(__always)
  static func i64(_ buffer: UnsafeRawBufferPointer, _ offset: Int) -> Int64 {
    load(buffer, offset)
  }

  /// Stores `value` big-endian at `offset`.
  @inline(__always)
  static func put<Integer: FixedWidthInteger>(
    _ value: Integer, _ buffer: UnsafeMutableRawBufferPointer, _ offset: Int
  ) {
    buffer.storeBytes(of: value.bigEndian, toByteOffset: offset, as: Integer.self)
  }

  /// Fails unless a fixed-size datagram has exactly `size` bytes.
  static func checkSize(
    _ buffer: UnsafeRawBufferPointer, exactly size: Int
  ) throws(MediaDecodingError) {
    guard buffer.count >= size else { throw .truncated(count: buffer.count, needed: size) }
    guard buffer.count == size else { throw .tooLong(count: buffer.count, maximum: size) }
  }

  /// The stream id at `offset` (user u32, kind u8, layer u8), checked.
  static func stream(
    _ buffer: UnsafeRawBufferPointer, _ offset: Int
  ) throws(MediaDecodingError) -> StreamID {
    let kindByte = buffer[offset + 4]
    guard let kind = MediaKind(rawValue: kindByte) else { throw .badKind(kindByte) }
    let stream = StreamID(
      user: .init(rawValue: u32(buffer, offset)), kind: kind, layer: buffer[offset + 5])
    guard stream.hasValidLayer else { throw .badLayer(kind: kind, layer: stream.layer) }
    return stream
  }

  /// Writes a stream id at `offset` (6 bytes).
  static func put(_ stream: StreamID, _ buffer: UnsafeMutableRawBufferPointer, _ offset: Int) {
    put(stream.user.rawValue, buffer, offset)
    buffer[offset + 4] = stream.kind.rawValue
    buffer[offset + 5] = stream.layer
  }
}
