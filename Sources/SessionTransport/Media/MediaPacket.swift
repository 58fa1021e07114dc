/// What every synthetic media packet carries: its stream, its place in the stream and in its
/// frame, and the frame's properties. The payload is only a length: on the wire it is that
/// many zero bytes, so a datagram has the size a real one would.
///
/// Encode with ``encode()`` and decode with `decode(_:)`; the format is
/// `Docs/WireProtocol.md`, "Media datagrams".
///
/// > Important: A value; `Sendable`.
public struct MediaPacket: Sendable, Hashable {
  /// The stream the packet belongs to.
  public var stream: StreamID
  /// The packet's number in its stream, one more than the previous packet's (wrapping).
  public var sequence: UInt32
  /// The frame's number in its stream; the packets of one frame share it (wrapping).
  public var frameID: UInt32
  /// Whether the frame decodes without earlier frames (every audio packet does).
  public var isKeyFrame: Bool
  /// When the frame was sent, in microseconds on the sender's clock.
  public var sendTime: Int64
  /// The synthetic payload's length in bytes, at most ``maxPayloadBytes``.
  public var payloadBytes: UInt16
  /// The audio level, 0 (loudest) to 127 (silence) as in RFC 6464; 127 for video and share.
  public var audioLevel: UInt8
  /// The frame's width in pixels; 0 for audio.
  public var width: UInt16
  /// The frame's height in pixels; 0 for audio.
  public var height: UInt16
  /// How many packets the frame has, at least 1.
  public var framePackets: UInt16

  /// The largest payload of one packet, in bytes.
  public static let maxPayloadBytes = 1_200
  /// The size of the fixed header before the payload, in bytes.
  public static let headerSize = 34
  /// The size of the largest packet datagram, in bytes.
  public static let maxDatagramSize = headerSize + maxPayloadBytes

  /// The flags bit saying the frame is a key frame; the other bits are reserved (zero).
  static let keyFrameFlag: UInt8 = 0x01

  /// Creates a packet.
  ///
  /// - Parameters:
  ///   - stream: The stream.
  ///   - sequence: The packet's number in its stream.
  ///   - frameID: The frame's number in its stream.
  ///   - isKeyFrame: Whether the frame is a key frame.
  ///   - sendTime: When the frame was sent, in microseconds on the sender's clock.
  ///   - payloadBytes: The payload length, at most ``maxPayloadBytes``.
  ///   - audioLevel: 0 (loudest) to 127 (silence); 127 (the default) for video and share.
  ///   - width: The frame width; 0 (the default) for audio.
  ///   - height: The frame height; 0 (the default) for audio.
  ///   - framePackets: The frame's packet count; 1 by default.
  public init(
    stream: StreamID, sequence: UInt32, frameID: UInt32, isKeyFrame: Bool, sendTime: Int64,
    payloadBytes: UInt16, audioLevel: UInt8 = 127, width: UInt16 = 0, height: UInt16 = 0,
    framePackets: UInt16 = 1
  ) {
    self.stream = stream
    self.sequence = sequence
    self.frameID = frameID
    self.isKeyFrame = isKeyFrame
    self.sendTime = sendTime
    self.payloadBytes = payloadBytes
    self.audioLevel = audioLevel
    self.width = width
    self.height = height
    self.framePackets = framePackets
  }

  /// The size of the packet's datagram: the header and the payload.
  public var datagramSize: Int { Self.headerSize + Int(payloadBytes) }

  /// The refusal `decode(_:)` would give the packet's datagram, or `nil`
  /// when the packet keeps every rule (a layer allowed for its kind, an audio level up to 127,
  /// at least one packet per frame, a payload up to ``maxPayloadBytes``).
  public var ruleBroken: MediaDecodingError? {
    if datagramSize > Self.maxDatagramSize {
      return .tooLong(count: datagramSize, maximum: Self.maxDatagramSize)
    }
    if !stream.hasValidLayer { return .badLayer(kind: stream.kind, layer: stream.layer) }
    if audioLevel > 127 { return .badAudioLevel(audioLevel) }
    if framePackets == 0 { return .badFramePackets(framePackets) }
    return nil
  }
}
