extension WireHello: WireEncodable {
  /// Writes the type byte, the magic, the version (big-endian) and the optional name.
  func encode(to writer: inout WireWriter) {
    writer.byte(WireMessageType.hello)
    for byte in WireProtocol.magic {
      writer.byte(byte)
    }
    writer.uint16BigEndian(version)
    writer.optional(clientName) { $0.string($1) }
  }

  /// Reads the body after the type byte. The layout after the version is version 1's; for any
  /// other version the rest of the body is skipped unread, so the server can answer
  /// `wrongVersion` to a future client instead of `malformed`.
  init(from reader: inout WireReader) throws(WireError) {
    let start = reader.offset
    guard reader.remaining >= 4 else {
      throw WireError(
        .truncated, offset: start, detail: "hello magic needs 4 bytes, \(reader.remaining) remain")
    }
    for expected in WireProtocol.magic {
      guard try reader.byte("hello magic") == expected else {
        throw WireError(.badMagic, offset: start, detail: "a hello must start with \"SESN\"")
      }
    }
    let version = try reader.uint16BigEndian("hello version")
    guard version == 1 else {
      reader.skipToEnd()
      self.init(version: version, clientName: nil)
      return
    }
    let clientName = try reader.optional("hello client name") {
      (reader: inout WireReader) throws(WireError) in try reader.string("hello client name")
    }
    self.init(version: version, clientName: clientName)
  }
}

extension WireHelloAck: WireEncodable, WireDecodable {
  /// Writes the type byte and the version (big-endian).
  func encode(to writer: inout WireWriter) {
    writer.byte(WireMessageType.helloAck)
    writer.uint16BigEndian(version)
  }

  init(from reader: inout WireReader) throws(WireError) {
    self.init(version: try reader.uint16BigEndian("hello ack version"))
  }
}

extension WireGoodbye: WireDecodable {
  /// Writes the body (the caller writes the direction's type byte): reason, text.
  func encode(to writer: inout WireWriter) {
    writer.byte(reason.rawValue)
    writer.string(text)
  }

  init(from reader: inout WireReader) throws(WireError) {
    let reason = try reader.rawEnum(Reason.self, "goodbye reason")
    self.init(reason: reason, text: try reader.string("goodbye text"))
  }
}
