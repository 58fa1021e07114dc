import SessionCore

extension StreamID: WireEncodable, WireDecodable {
  func encode(to writer: inout WireWriter) {
    writer.user(user)
    writer.byte(kind.rawValue)
    writer.byte(layer)
  }

  init(from reader: inout WireReader) throws(WireError) {
    let user = try reader.user("stream user")
    let kind = try reader.rawEnum(MediaKind.self, "stream kind")
    let start = reader.offset
    let layer = try reader.byte("stream layer")
    let stream = StreamID(user: user, kind: kind, layer: layer)
    guard stream.hasValidLayer else {
      throw WireError(
        .invalidValue, offset: start, detail: "stream layer \(layer) is not allowed for \(kind)")
    }
    self = stream
  }
}

extension MediaRequest: WireEncodable, WireDecodable {
  /// Tag bytes, one per case: the case's position in the declaration, from 1.
  enum WireTag {
    static let subscribe: UInt8 = 1
    static let unsubscribe: UInt8 = 2
    static let announce: UInt8 = 3
    static let withdraw: UInt8 = 4
    static let last: UInt8 = 4
  }

  func encode(to writer: inout WireWriter) {
    switch self {
    case .subscribe(let publisher, let kind, let maxLines):
      writer.byte(WireTag.subscribe)
      writer.user(publisher)
      writer.byte(kind.rawValue)
      writer.varint(UInt64(maxLines))
    case .unsubscribe(let publisher, let kind):
      writer.byte(WireTag.unsubscribe)
      writer.user(publisher)
      writer.byte(kind.rawValue)
    case .announce(let stream, let bitrate, let width, let height):
      writer.byte(WireTag.announce)
      stream.encode(to: &writer)
      writer.varint(UInt64(bitrate))
      writer.varint(UInt64(width))
      writer.varint(UInt64(height))
    case .withdraw(let stream):
      writer.byte(WireTag.withdraw)
      stream.encode(to: &writer)
    }
  }

  init(from reader: inout WireReader) throws(WireError) {
    switch try reader.tag("media request tag", last: WireTag.last) {
    case WireTag.subscribe:
      let publisher = try reader.user("subscribe publisher")
      let kind = try reader.rawEnum(MediaKind.self, "subscribe kind")
      let maxLines = try reader.uint16("subscribe max lines")
      self = .subscribe(publisher: publisher, kind: kind, maxLines: maxLines)
    case WireTag.unsubscribe:
      let publisher = try reader.user("unsubscribe publisher")
      self = .unsubscribe(
        publisher: publisher, kind: try reader.rawEnum(MediaKind.self, "unsubscribe kind"))
    case WireTag.announce:
      let stream = try StreamID(from: &reader)
      let bitrate = try reader.uint32("announce bitrate")
      let width = try reader.uint16("announce width")
      let height = try reader.uint16("announce height")
      self = .announce(stream, bitrate: bitrate, width: width, height: height)
    case WireTag.withdraw:
      self = .withdraw(try StreamID(from: &reader))
    case let tag:
      throw reader.unknownTag("media request tag", tag, at: reader.offset - 1)
    }
  }
}

extension MediaNotice: WireEncodable, WireDecodable {
  /// Tag bytes, one per case: the case's position in the declaration, from 1.
  enum WireTag {
    static let bound: UInt8 = 1
    static let subscribeRefused: UInt8 = 2
    static let keyFrameRequested: UInt8 = 3
    static let downlinkEstimate: UInt8 = 4
    static let credential: UInt8 = 5
    static let unbound: UInt8 = 6
    static let streamPaused: UInt8 = 7
    static let streamResumed: UInt8 = 8
    static let last: UInt8 = 8
  }

  func encode(to writer: inout WireWriter) {
    switch self {
    case .bound:
      writer.byte(WireTag.bound)
    case .subscribeRefused(let publisher, let kind, let reason):
      writer.byte(WireTag.subscribeRefused)
      writer.user(publisher)
      writer.byte(kind.rawValue)
      writer.byte(reason.rawValue)
    case .keyFrameRequested(let stream):
      writer.byte(WireTag.keyFrameRequested)
      stream.encode(to: &writer)
    case .downlinkEstimate(let bitrate):
      writer.byte(WireTag.downlinkEstimate)
      writer.varint(UInt64(bitrate))
    case .credential(let credential):
      writer.byte(WireTag.credential)
      writer.varint(credential.id)
      writer.varint(UInt64(credential.key.count))
      for byte in credential.key { writer.byte(byte) }
    case .unbound(let reason):
      writer.byte(WireTag.unbound)
      writer.byte(reason.rawValue)
    case .streamPaused(let publisher, let kind, let reason):
      writer.byte(WireTag.streamPaused)
      writer.user(publisher)
      writer.byte(kind.rawValue)
      writer.byte(reason.rawValue)
    case .streamResumed(let publisher, let kind):
      writer.byte(WireTag.streamResumed)
      writer.user(publisher)
      writer.byte(kind.rawValue)
    }
  }

  init(from reader: inout WireReader) throws(WireError) {
    switch try reader.tag("media notice tag", last: WireTag.last) {
    case WireTag.bound:
      self = .bound
    case WireTag.subscribeRefused:
      let publisher = try reader.user("subscribeRefused publisher")
      let kind = try reader.rawEnum(MediaKind.self, "subscribeRefused kind")
      let reason = try reader.rawEnum(MediaRefusalReason.self, "subscribeRefused reason")
      self = .subscribeRefused(publisher: publisher, kind: kind, reason: reason)
    case WireTag.keyFrameRequested:
      self = .keyFrameRequested(try StreamID(from: &reader))
    case WireTag.downlinkEstimate:
      self = .downlinkEstimate(try reader.uint32("downlinkEstimate bitrate"))
    case WireTag.credential:
      let id = try reader.varint("credential id")
      let start = reader.offset
      let count = try reader.varint("credential key length")
      guard count == UInt64(MediaCredential.keySize) else {
        throw WireError(
          .invalidValue, offset: start,
          detail: "credential key of \(count) bytes; keys have \(MediaCredential.keySize)")
      }
      var key: [UInt8] = []
      key.reserveCapacity(MediaCredential.keySize)
      for _ in 0..<MediaCredential.keySize { key.append(try reader.byte("credential key")) }
      self = .credential(MediaCredential(id: id, key: key))
    case WireTag.unbound:
      self = .unbound(try reader.rawEnum(MediaUnboundReason.self, "unbound reason"))
    case WireTag.streamPaused:
      let publisher = try reader.user("streamPaused publisher")
      let kind = try reader.rawEnum(MediaKind.self, "streamPaused kind")
      let reason = try reader.rawEnum(MediaPauseReason.self, "streamPaused reason")
      self = .streamPaused(publisher: publisher, kind: kind, reason: reason)
    case WireTag.streamResumed:
      let publisher = try reader.user("streamResumed publisher")
      let kind = try reader.rawEnum(MediaKind.self, "streamResumed kind")
      self = .streamResumed(publisher: publisher, kind: kind)
    case let tag:
      throw reader.unknownTag("media notice tag", tag, at: reader.offset - 1)
    }
  }
}
