import SessionCore

/// A media endpoint's claim to belong to a member: the first datagram a peer sends on the media
/// channel, repeated until the service answers ``MediaNotice/bound`` on the signalling channel.
///
/// It names the member's media credential by its public id (``MediaCredential/id``, from
/// ``MediaNotice/credential(_:)``), and its tag is made with the credential's key, so only the
/// member can bind an endpoint to itself; the service then checks the return path
/// (``MediaDatagram/check(nonce:)``) before it sends anything there. Format:
/// `Docs/WireProtocol.md`, "Media datagrams" (type 3).
///
/// > Important: A value; `Sendable`.
public struct MediaBind: Sendable, Hashable {
  /// The member the endpoint claims to be.
  public var user: UserID
  /// The public id of the member's media credential.
  public var credential: UInt64

  /// The size of a bind datagram, in bytes; every bind has exactly this size.
  public static let datagramSize = 14

  /// Creates a bind.
  ///
  /// - Parameters:
  ///   - user: The member.
  ///   - credential: The public id of the member's media credential.
  public init(user: UserID, credential: UInt64) {
    self.user = user
    self.credential = credential
  }

  /// The bind's datagram, ``datagramSize`` bytes.
  ///
  /// - Returns: The datagram.
  public func encode() -> [UInt8] {
    var bytes = [UInt8](repeating: 0, count: Self.datagramSize)
    bytes.withUnsafeMutableBytes { buffer in
      buffer[0] = MediaDatagram.version
      buffer[1] = MediaDatagram.Kind.bind.rawValue
      MediaBytes.put(user.rawValue, buffer, 2)
      MediaBytes.put(credential, buffer, 6)
    }
    return bytes
  }

  /// Decodes a datagram whose version and type bytes were checked.
  static func decodeBody(_ buffer: UnsafeRawBufferPointer) throws(MediaDecodingError) -> MediaBind {
    try MediaBytes.checkSize(buffer, exactly: datagramSize)
    return MediaBind(
      user: UserID(rawValue: MediaBytes.u32(buffer, 2)), credential: MediaBytes.u64(buffer, 6))
  }
}

/// The round-trip probes of the media channel: a ping's send time, echoed at once in a pong.
///
/// > Important: Stateless; the buffers are the caller's and only used during a call.
enum MediaProbe {
  /// The size of a ping or pong datagram, in bytes.
  static let datagramSize = 10

  /// A ping or pong datagram carrying `sendTime`.
  static func encode(_ kind: MediaDatagram.Kind, sendTime: Int64) -> [UInt8] {
    var bytes = [UInt8](repeating: 0, count: datagramSize)
    bytes.withUnsafeMutableBytes { buffer in
      buffer[0] = MediaDatagram.version
      buffer[1] = kind.rawValue
      MediaBytes.put(sendTime, buffer, 2)
    }
    return bytes
  }

  /// The send time of a ping or pong whose version and type bytes were checked.
  static func decodeBody(_ buffer: UnsafeRawBufferPointer) throws(MediaDecodingError) -> Int64 {
    try MediaBytes.checkSize(buffer, exactly: datagramSize)
    return MediaBytes.i64(buffer, 2)
  }
}

/// The return-path check of the media channel: the service's nonce (type 6, service to peer)
/// and the peer's answer naming its credential and echoing the nonce (type 7).
///
/// > Important: Stateless; the buffers are the caller's and only used during a call.
enum MediaCheck {
  /// The size of a check datagram (before its tag), in bytes.
  static let checkSize = 10
  /// The size of a check reply datagram (before its tag), in bytes.
  static let replySize = 18

  static func encodeCheck(nonce: UInt64) -> [UInt8] {
    var bytes = [UInt8](repeating: 0, count: checkSize)
    bytes.withUnsafeMutableBytes { buffer in
      buffer[0] = MediaDatagram.version
      buffer[1] = MediaDatagram.Kind.check.rawValue
      MediaBytes.put(nonce, buffer, 2)
    }
    return bytes
  }

  static func encodeReply(credential: UInt64, nonce: UInt64) -> [UInt8] {
    var bytes = [UInt8](repeating: 0, count: replySize)
    bytes.withUnsafeMutableBytes { buffer in
      buffer[0] = MediaDatagram.version
      buffer[1] = MediaDatagram.Kind.checkReply.rawValue
      MediaBytes.put(credential, buffer, 2)
      MediaBytes.put(nonce, buffer, 10)
    }
    return bytes
  }

  static func decodeCheck(_ buffer: UnsafeRawBufferPointer) throws(MediaDecodingError) -> UInt64 {
    try MediaBytes.checkSize(buffer, exactly: checkSize)
    return MediaBytes.u64(buffer, 2)
  }

  static func decodeReply(
    _ buffer: UnsafeRawBufferPointer
  ) throws(MediaDecodingError) -> (credential: UInt64, nonce: UInt64) {
    try MediaBytes.checkSize(buffer, exactly: replySize)
    return (MediaBytes.u64(buffer, 2), MediaBytes.u64(buffer, 10))
  }
}
