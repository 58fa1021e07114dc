import SessionCore

/// A media endpoint's claim to belong to a member: the first datagram a peer sends on the media
/// channel, repeated until the service answers ``MediaNotice/bound`` on the signalling channel.
///
/// The token is the member's current resume token (from
/// ``ServerMessage/joined(_:resumeToken:)``), so only the member can bind an endpoint to
/// itself. Format: `Docs/WireProtocol.md`, "Media datagrams" (type 3).
///
/// > Important: A value; `Sendable`.
public struct MediaBind: Sendable, Hashable {
  /// The member the endpoint claims to be.
  public var user: UserID
  /// The member's current resume token.
  public var token: UInt64

  /// The size of a bind datagram, in bytes; every bind has exactly this size.
  public static let datagramSize = 14

  /// Creates a bind.
  ///
  /// - Parameters:
  ///   - user: The member.
  ///   - token: The member's current resume token.
  public init(user: UserID, token: UInt64) {
    self.user = user
    self.token = token
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
      MediaBytes.put(token, buffer, 6)
    }
    return bytes
  }

  /// Decodes a datagram whose version and type bytes were checked.
  static func decodeBody(_ buffer: UnsafeRawBufferPointer) throws(MediaDecodingError) -> MediaBind {
    try MediaBytes.checkSize(buffer, exactly: datagramSize)
    return MediaBind(
      user: UserID(rawValue: MediaBytes.u32(buffer, 2)), token: MediaBytes.u64(buffer, 6))
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
