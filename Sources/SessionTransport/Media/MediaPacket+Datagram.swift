extension MediaPacket {
  // Byte offsets of the fixed header (Docs/WireProtocol.md, "Media datagrams").
  private static let streamOffset = 2
  private static let sequenceOffset = 8
  private static let frameIDOffset = 12
  private static let flagsOffset = 16
  private static let audioLevelOffset = 17
  private static let sendTimeOffset = 18
  private static let widthOffset = 26
  private static let heightOffset = 28
  private static let framePacketsOffset = 30
  private static let payloadBytesOffset = 32

  /// The packet's datagram: the 34-byte header, then ``payloadBytes`` zero bytes.
  ///
  /// A packet that breaks a rule (see ``ruleBroken``) still encodes, to a datagram that
  /// `decode(_:)` refuses; a sender checks ``ruleBroken`` first if its packets can be
  /// wrong.
  ///
  /// - Returns: The datagram, ``datagramSize`` bytes.
  public func encode() -> [UInt8] {
    var bytes = [UInt8](repeating: 0, count: datagramSize)
    bytes.withUnsafeMutableBytes { writeHeader(into: $0) }
    return bytes
  }

  /// Writes the packet's datagram into memory the caller owns (a send buffer).
  ///
  /// - Parameter buffer: Where to write; at least ``datagramSize`` bytes.
  /// - Returns: The number of bytes written, or `nil` (and nothing written) when the buffer is
  ///   too small.
  package func encode(into buffer: UnsafeMutableRawBufferPointer) -> Int? {
    guard buffer.count >= datagramSize else { return nil }
    writeHeader(into: buffer)
    UnsafeMutableRawBufferPointer(rebasing: buffer[Self.headerSize..<datagramSize])
      .initializeMemory(as: UInt8.self, repeating: 0)
    return datagramSize
  }

  /// Writes `sequence` over a packet datagram's sequence number (bytes 8–11, big-endian),
  /// changing nothing else: how a forwarder numbers one copy of a packet for its receiver.
  ///
  /// - Parameters:
  ///   - datagram: A packet datagram (at least its fixed header); anything shorter is left
  ///     unchanged.
  ///   - sequence: The copy's sequence number.
  public static func replacingSequence(
    in datagram: UnsafeMutableRawBufferPointer, with sequence: UInt32
  ) {
    guard datagram.count >= sequenceOffset + 4 else { return }
    MediaBytes.put(sequence, datagram, sequenceOffset)
  }

  private func writeHeader(into buffer: UnsafeMutableRawBufferPointer) {
    buffer[0] = MediaDatagram.version
    buffer[1] = MediaDatagram.Kind.packet.rawValue
    MediaBytes.put(stream, buffer, Self.streamOffset)
    MediaBytes.put(sequence, buffer, Self.sequenceOffset)
    MediaBytes.put(frameID, buffer, Self.frameIDOffset)
    buffer[Self.flagsOffset] = isKeyFrame ? Self.keyFrameFlag : 0
    buffer[Self.audioLevelOffset] = audioLevel
    MediaBytes.put(sendTime, buffer, Self.sendTimeOffset)
    MediaBytes.put(width, buffer, Self.widthOffset)
    MediaBytes.put(height, buffer, Self.heightOffset)
    MediaBytes.put(framePackets, buffer, Self.framePacketsOffset)
    MediaBytes.put(payloadBytes, buffer, Self.payloadBytesOffset)
  }

  /// Decodes a packet datagram.
  ///
  /// - Parameter bytes: The whole datagram.
  /// - Returns: A packet that keeps every rule (``ruleBroken`` is `nil`).
  /// - Throws: ``MediaDecodingError``: a datagram that is short, long, of another version or
  ///   type, with a bad kind, layer, flag, audio level or frame packet count, or whose payload
  ///   length is not the number of bytes after the header.
  public static func decode(_ bytes: [UInt8]) throws(MediaDecodingError) -> MediaPacket {
    let result = bytes.withUnsafeBytes { buffer in
      Result { () throws(MediaDecodingError) in try decode(buffer) }
    }
    return try result.get()
  }

  /// Decodes a packet datagram from memory the caller owns (a receive buffer).
  ///
  /// - Parameter buffer: The whole datagram; read only during the call.
  /// - Returns: A packet that keeps every rule.
  /// - Throws: ``MediaDecodingError``, as ``decode(_:)``.
  public static func decode(
    _ buffer: UnsafeRawBufferPointer
  ) throws(MediaDecodingError) -> MediaPacket {
    let type = try MediaBytes.checkPreamble(buffer)
    guard type == MediaDatagram.Kind.packet.rawValue else { throw .wrongType(type) }
    return try decodeBody(buffer)
  }

  /// Decodes a datagram whose version and type bytes were checked.
  static func decodeBody(
    _ buffer: UnsafeRawBufferPointer
  ) throws(MediaDecodingError) -> MediaPacket {
    guard buffer.count >= headerSize else {
      throw .truncated(count: buffer.count, needed: headerSize)
    }
    guard buffer.count <= maxDatagramSize else {
      throw .tooLong(count: buffer.count, maximum: maxDatagramSize)
    }
    let stream = try MediaBytes.stream(buffer, streamOffset)
    let flags = buffer[flagsOffset]
    guard flags & ~keyFrameFlag == 0 else { throw .badFlags(flags) }
    let audioLevel = buffer[audioLevelOffset]
    guard audioLevel <= 127 else { throw .badAudioLevel(audioLevel) }
    let framePackets = MediaBytes.u16(buffer, framePacketsOffset)
    guard framePackets > 0 else { throw .badFramePackets(framePackets) }
    let payloadBytes = MediaBytes.u16(buffer, payloadBytesOffset)
    guard Int(payloadBytes) == buffer.count - headerSize else {
      throw .lengthMismatch(declared: Int(payloadBytes), actual: buffer.count - headerSize)
    }
    return MediaPacket(
      stream: stream,
      sequence: MediaBytes.u32(buffer, sequenceOffset),
      frameID: MediaBytes.u32(buffer, frameIDOffset),
      isKeyFrame: flags == keyFrameFlag,
      sendTime: MediaBytes.i64(buffer, sendTimeOffset),
      payloadBytes: payloadBytes,
      audioLevel: audioLevel,
      width: MediaBytes.u16(buffer, widthOffset),
      height: MediaBytes.u16(buffer, heightOffset),
      framePackets: framePackets)
  }
}
