import SessionTransport

/// Client frames as bytes, and server frames parsed from bytes, for raw POSIX clients.
enum RawWire {
  /// One client frame, length-prefixed.
  static func bytes(_ frame: WireClientFrame) -> [UInt8] {
    encodeFrames([WireEncoder.payload(frame)])
  }

  /// A hello for `version`.
  static func hello(version: UInt16 = WireProtocol.version) -> [UInt8] {
    bytes(.hello(WireHello(version: version, clientName: "raw")))
  }

  /// The complete server frames at the start of `bytes`, decoded; stops at the first that
  /// doesn't decode or is incomplete.
  static func serverFrames(in bytes: [UInt8]) -> [WireServerFrame] {
    decodeServerFrames(bytes).frames
  }

  /// The complete server frames at the start of `bytes`, decoded, the index of the first
  /// complete frame that does not decode, if any (an incomplete tail is not an error: the
  /// stream may have been cut by a reset), and the bytes the decoded frames take.
  static func decodeServerFrames(
    _ bytes: [UInt8]
  ) -> (frames: [WireServerFrame], undecodable: Int?, consumed: Int) {
    var frames: [WireServerFrame] = []
    var offset = 0
    let decoder = WireDecoder()
    while bytes.count - offset >= 4 {
      let length =
        Int(bytes[offset]) << 24 | Int(bytes[offset + 1]) << 16 | Int(bytes[offset + 2]) << 8
        | Int(bytes[offset + 3])
      guard bytes.count - offset - 4 >= length else { break }
      let payload = bytes[(offset + 4)..<(offset + 4 + length)]
      guard let frame = try? decoder.decodeServerFrame(payload) else {
        return (frames, frames.count, offset)
      }
      frames.append(frame)
      offset += 4 + length
    }
    return (frames, nil, offset)
  }

  /// The reason of the goodbye among `frames`, if any.
  static func goodbye(in frames: [WireServerFrame]) -> WireGoodbye? {
    for frame in frames {
      if case .goodbye(let goodbye) = frame { return goodbye }
    }
    return nil
  }
}
