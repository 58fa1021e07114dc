import SessionCore

/// A subscriber's statistics for one stream it receives, sent every 500 ms: what arrived and
/// what was lost since its previous report, the interarrival jitter, and the newest packet.
///
/// The sender's loss-based rate control reads the loss fraction
/// `packetsLost / (packetsReceived + packetsLost)` of each interval. The format is
/// `Docs/WireProtocol.md`, "Media datagrams".
///
/// > Important: A value; `Sendable`.
public struct ReceiverReport: Sendable, Hashable {
  /// The subscriber sending the report.
  public var subscriber: UserID
  /// The stream reported on.
  public var stream: StreamID
  /// The highest sequence number received so far (wrapping, as the packets' numbers).
  public var highestSequence: UInt32
  /// The packets received since the previous report.
  public var packetsReceived: UInt32
  /// The packets lost since the previous report: the gaps in the sequence numbers.
  public var packetsLost: UInt32
  /// The interarrival jitter in microseconds (RFC 3550, section 6.4.1, in microseconds).
  public var jitter: UInt32
  /// The send time of the newest packet received, in microseconds on the sender's clock.
  public var lastSendTime: Int64

  /// The size of a report datagram, in bytes; every report has exactly this size.
  public static let datagramSize = 36

  /// The interval between two reports of one stream, in microseconds (1 s): the SDK reports
  /// each video and share stream it receives once a second.
  public static let interval: Int64 = 1_000_000

  // Byte offsets (Docs/WireProtocol.md, "Media datagrams").
  private static let subscriberOffset = 2
  private static let streamOffset = 6
  private static let highestSequenceOffset = 12
  private static let packetsReceivedOffset = 16
  private static let packetsLostOffset = 20
  private static let jitterOffset = 24
  private static let lastSendTimeOffset = 28

  /// Creates a report.
  ///
  /// - Parameters:
  ///   - subscriber: The subscriber sending it.
  ///   - stream: The stream reported on.
  ///   - highestSequence: The highest sequence number received.
  ///   - packetsReceived: The packets received since the previous report.
  ///   - packetsLost: The packets lost since the previous report.
  ///   - jitter: The interarrival jitter in microseconds.
  ///   - lastSendTime: The newest packet's send time, in microseconds.
  public init(
    subscriber: UserID, stream: StreamID, highestSequence: UInt32, packetsReceived: UInt32,
    packetsLost: UInt32, jitter: UInt32, lastSendTime: Int64
  ) {
    self.subscriber = subscriber
    self.stream = stream
    self.highestSequence = highestSequence
    self.packetsReceived = packetsReceived
    self.packetsLost = packetsLost
    self.jitter = jitter
    self.lastSendTime = lastSendTime
  }

  /// The fraction of the interval's packets that were lost, 0 when none were expected.
  public var lossFraction: Double {
    let expected = UInt64(packetsReceived) + UInt64(packetsLost)
    return expected == 0 ? 0 : Double(packetsLost) / Double(expected)
  }

  /// The report's datagram, ``datagramSize`` bytes.
  ///
  /// A report whose stream has a layer its kind does not allow still encodes, to a datagram
  /// that `decode(_:)` refuses.
  ///
  /// - Returns: The datagram.
  public func encode() -> [UInt8] {
    var bytes = [UInt8](repeating: 0, count: Self.datagramSize)
    bytes.withUnsafeMutableBytes { buffer in
      buffer[0] = MediaDatagram.version
      buffer[1] = MediaDatagram.Kind.report.rawValue
      MediaBytes.put(subscriber.rawValue, buffer, Self.subscriberOffset)
      MediaBytes.put(stream, buffer, Self.streamOffset)
      MediaBytes.put(highestSequence, buffer, Self.highestSequenceOffset)
      MediaBytes.put(packetsReceived, buffer, Self.packetsReceivedOffset)
      MediaBytes.put(packetsLost, buffer, Self.packetsLostOffset)
      MediaBytes.put(jitter, buffer, Self.jitterOffset)
      MediaBytes.put(lastSendTime, buffer, Self.lastSendTimeOffset)
    }
    return bytes
  }

  /// Decodes a report datagram.
  ///
  /// - Parameter bytes: The whole datagram.
  /// - Returns: The report.
  /// - Throws: ``MediaDecodingError``: a datagram that is not exactly ``datagramSize`` bytes,
  ///   of another version or type, or with a bad kind or layer.
  public static func decode(_ bytes: [UInt8]) throws(MediaDecodingError) -> ReceiverReport {
    let result = bytes.withUnsafeBytes { buffer in
      Result { () throws(MediaDecodingError) in try decode(buffer) }
    }
    return try result.get()
  }

  /// Decodes a report datagram from memory the caller owns (a receive buffer).
  ///
  /// - Parameter buffer: The whole datagram; read only during the call.
  /// - Returns: The report.
  /// - Throws: ``MediaDecodingError``, as ``decode(_:)``.
  public static func decode(
    _ buffer: UnsafeRawBufferPointer
  ) throws(MediaDecodingError) -> ReceiverReport {
    let type = try MediaBytes.checkPreamble(buffer)
    guard type == MediaDatagram.Kind.report.rawValue else { throw .wrongType(type) }
    return try decodeBody(buffer)
  }

  /// Decodes a datagram whose version and type bytes were checked.
  static func decodeBody(
    _ buffer: UnsafeRawBufferPointer
  ) throws(MediaDecodingError) -> ReceiverReport {
    guard buffer.count >= datagramSize else {
      throw .truncated(count: buffer.count, needed: datagramSize)
    }
    guard buffer.count == datagramSize else {
      throw .tooLong(count: buffer.count, maximum: datagramSize)
    }
    return ReceiverReport(
      subscriber: UserID(rawValue: MediaBytes.u32(buffer, subscriberOffset)),
      stream: try MediaBytes.stream(buffer, streamOffset),
      highestSequence: MediaBytes.u32(buffer, highestSequenceOffset),
      packetsReceived: MediaBytes.u32(buffer, packetsReceivedOffset),
      packetsLost: MediaBytes.u32(buffer, packetsLostOffset),
      jitter: MediaBytes.u32(buffer, jitterOffset),
      lastSendTime: MediaBytes.i64(buffer, lastSendTimeOffset))
  }
}
