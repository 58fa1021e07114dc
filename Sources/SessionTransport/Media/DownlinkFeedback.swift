import SessionCore

/// A subscriber's feedback on its whole downlink, the input of the service's downlink
/// estimate (as REMB and transport-wide feedback are for an SFU): the packets received and
/// lost of every video and share stream together since the previous feedback, the rate at
/// which bytes arrived, and what its delay-based detector reads of the queue in front of it.
///
/// The Swift SDK sends one every 500 ms while it receives anything, and one at once when its
/// detector starts to read overuse, so the service cuts the estimate on queue growth before
/// anything is lost. The format is `Docs/WireProtocol.md` §13.3.
///
/// > Important: A value; `Sendable`.
public struct DownlinkFeedback: Sendable, Hashable {
  /// What the receiver's delay-based detector reads (GCC's overuse detector): the trend of the
  /// queueing delay against its adaptive threshold.
  public enum DelaySignal: UInt8, Sendable, Hashable, CaseIterable {
    /// The queueing delay holds: the downlink carries what is sent.
    case normal = 0
    /// The queueing delay grows past the threshold: more is sent than the downlink carries.
    case overusing = 1
    /// The queueing delay falls: a queue is draining.
    case underusing = 2
  }

  /// The subscriber sending the feedback.
  public var subscriber: UserID
  /// Packets of its video and share streams received since its previous feedback.
  public var packetsReceived: UInt32
  /// Packets of them lost since then (gaps in the sequence numbers).
  public var packetsLost: UInt32
  /// The rate at which media bytes arrived over the last half second, bits per second.
  public var receiveRate: UInt32
  /// The queueing delay the receiver reads now (its one-way delays above the least it saw,
  /// smoothed), µs.
  public var queueDelay: UInt32
  /// The delay-based detector's signal.
  public var signal: DelaySignal

  /// The size of a feedback datagram's body, in bytes; every feedback has exactly this size.
  public static let datagramSize = 24

  /// The interval between two feedbacks, µs (500 ms); one more goes at once on overuse.
  public static let interval: Int64 = 500_000

  private static let subscriberOffset = 2
  private static let receivedOffset = 6
  private static let lostOffset = 10
  private static let rateOffset = 14
  private static let queueOffset = 18
  private static let signalOffset = 22
  private static let reservedOffset = 23

  /// Creates feedback.
  ///
  /// - Parameters:
  ///   - subscriber: The subscriber sending it.
  ///   - packetsReceived: Packets received since the previous feedback.
  ///   - packetsLost: Packets lost since then.
  ///   - receiveRate: Bits per second arriving.
  ///   - queueDelay: The queueing delay read now, µs.
  ///   - signal: The delay-based detector's signal.
  public init(
    subscriber: UserID, packetsReceived: UInt32, packetsLost: UInt32, receiveRate: UInt32,
    queueDelay: UInt32, signal: DelaySignal
  ) {
    self.subscriber = subscriber
    self.packetsReceived = packetsReceived
    self.packetsLost = packetsLost
    self.receiveRate = receiveRate
    self.queueDelay = queueDelay
    self.signal = signal
  }

  /// The fraction of the interval's packets that were lost, 0 when none were expected.
  public var lossFraction: Double {
    let expected = UInt64(packetsReceived) + UInt64(packetsLost)
    return expected == 0 ? 0 : Double(packetsLost) / Double(expected)
  }

  /// The feedback's body, ``datagramSize`` bytes.
  ///
  /// - Returns: The bytes.
  public func encode() -> [UInt8] {
    var bytes = [UInt8](repeating: 0, count: Self.datagramSize)
    bytes.withUnsafeMutableBytes { buffer in
      buffer[0] = MediaDatagram.version
      buffer[1] = MediaDatagram.Kind.feedback.rawValue
      MediaBytes.put(subscriber.rawValue, buffer, Self.subscriberOffset)
      MediaBytes.put(packetsReceived, buffer, Self.receivedOffset)
      MediaBytes.put(packetsLost, buffer, Self.lostOffset)
      MediaBytes.put(receiveRate, buffer, Self.rateOffset)
      MediaBytes.put(queueDelay, buffer, Self.queueOffset)
      buffer[Self.signalOffset] = signal.rawValue
    }
    return bytes
  }

  /// Decodes a body whose version and type bytes were checked.
  ///
  /// - Throws: ``MediaDecodingError``: not exactly ``datagramSize`` bytes
  ///   (``MediaDecodingError/truncated(count:needed:)``,
  ///   ``MediaDecodingError/tooLong(count:maximum:)``), a signal byte over 2 or a reserved byte
  ///   that is not 0 (``MediaDecodingError/badFlags(_:)``).
  static func decodeBody(
    _ buffer: UnsafeRawBufferPointer
  ) throws(MediaDecodingError) -> DownlinkFeedback {
    try MediaBytes.checkSize(buffer, exactly: datagramSize)
    let signalByte = buffer[signalOffset]
    guard let signal = DelaySignal(rawValue: signalByte) else { throw .badFlags(signalByte) }
    let reserved = buffer[reservedOffset]
    guard reserved == 0 else { throw .badFlags(reserved) }
    return DownlinkFeedback(
      subscriber: UserID(rawValue: MediaBytes.u32(buffer, subscriberOffset)),
      packetsReceived: MediaBytes.u32(buffer, receivedOffset),
      packetsLost: MediaBytes.u32(buffer, lostOffset),
      receiveRate: MediaBytes.u32(buffer, rateOffset),
      queueDelay: MediaBytes.u32(buffer, queueOffset), signal: signal)
  }
}
