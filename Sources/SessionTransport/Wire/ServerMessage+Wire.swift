import SessionCore

extension EventBatch: WireEncodable, WireDecodable {
  func encode(to writer: inout WireWriter) {
    writer.varint(firstSequence)
    writer.array(events) { $1.encode(to: &$0) }
  }

  init(from reader: inout WireReader) throws(WireError) {
    if var storage = reader.eventStorage.take() {
      defer { reader.eventStorage = storage }
      try self.init(from: &reader, reusing: &storage)
      return
    }
    let firstSequence = try reader.varint("batch first sequence")
    let countOffset = reader.offset
    let events = try reader.array("batch events", minimumElementSize: 1) {
      (reader: inout WireReader) throws(WireError) in try SessionEvent(from: &reader)
    }
    try self.init(checking: firstSequence, events, countOffset: countOffset)
  }

  /// Decodes a batch into `storage`, overwriting it in place when nothing else holds it (the
  /// last batch decoded into it is gone); copy-on-write gives it new storage otherwise. On
  /// failure `storage` holds some of the events read so far.
  init(from reader: inout WireReader, reusing storage: inout [SessionEvent]) throws(WireError) {
    let firstSequence = try reader.varint("batch first sequence")
    let countOffset = reader.offset
    let count = try reader.count("batch events", minimumElementSize: 1)
    if count == 1 && storage.count == 1 {
      // The common case, a batch of one event, overwrites the one element (about 23
      // instructions fewer per frame than the loop below; callgrind, links-only fan-out).
      storage[0] = try SessionEvent(from: &reader)
    } else {
      for index in 0..<count {
        let event = try SessionEvent(from: &reader)
        if index < storage.count { storage[index] = event } else { storage.append(event) }
      }
      if storage.count > count { storage.removeLast(storage.count - count) }
    }
    try self.init(checking: firstSequence, storage, countOffset: countOffset)
  }

  /// Makes a decoded batch, refusing an empty one and one whose sequences overflow.
  @inline(__always)
  private init(checking firstSequence: UInt64, _ events: [SessionEvent], countOffset: Int)
    throws(WireError)
  {
    guard !events.isEmpty, UInt64.max - firstSequence >= UInt64(events.count - 1) else {
      throw Self.invalid(firstSequence, count: events.count, countOffset: countOffset)
    }
    self.init(firstSequence: firstSequence, events: events)
  }

  /// The error for an empty batch or one whose sequences overflow (out of line).
  @inline(never)
  private static func invalid(_ firstSequence: UInt64, count: Int, countOffset: Int)
    -> WireError
  {
    guard count > 0 else {
      return WireError(.invalidValue, offset: countOffset, detail: "an event batch is empty")
    }
    return WireError(
      .invalidValue, offset: countOffset,
      detail: "\(count) events from sequence \(firstSequence) overflow 64 bits")
  }
}

extension ServerMessage: WireMessage {
  /// Enough for a batch of small events, so the common case encodes in one pass.
  /// A guess at the payload's size, for the encoder's first pass.
  package var wireSizeEstimate: Int {
    switch self {
    case .events(let batch): 16 + 8 * batch.events.count
    case .joined(let snapshot, _): 64 + 48 * snapshot.participants.count
    default: 64
    }
  }

  /// Appends the payload: the type byte, then the body.
  package func encode(to writer: inout WireWriter) {
    switch self {
    case .joined(let snapshot, let resumeToken):
      writer.byte(WireMessageType.joined)
      snapshot.encode(to: &writer)
      writer.varint(resumeToken)
    case .joinRefused(let error):
      writer.byte(WireMessageType.joinRefused)
      error.write(to: &writer)
    case .passwordRequired(let wrong):
      writer.byte(WireMessageType.passwordRequired)
      writer.bool(wrong)
    case .events(let batch):
      writer.byte(WireMessageType.events)
      batch.encode(to: &writer)
    case .notice(let event):
      writer.byte(WireMessageType.notice)
      event.encode(to: &writer)
    case .commandFailed(let id, let error):
      writer.byte(WireMessageType.commandFailed)
      writer.varint(UInt64(id))
      error.write(to: &writer)
    case .left(let reason):
      writer.byte(WireMessageType.left)
      writer.byte(reason.rawValue)
    case .heartbeat:
      writer.byte(WireMessageType.serverHeartbeat)
    case .media(let notice):
      writer.byte(WireMessageType.mediaNotice)
      notice.encode(to: &writer)
    }
  }
}

extension WireServerFrame: WireMessage, WireDecodable {
  /// A guess at the payload's size, for the encoder's first pass.
  package var wireSizeEstimate: Int {
    switch self {
    case .message(let message): message.wireSizeEstimate
    default: 64
    }
  }

  /// Appends the payload: the type byte, then the body.
  package func encode(to writer: inout WireWriter) {
    switch self {
    case .helloAck(let ack): ack.encode(to: &writer)
    case .goodbye(let goodbye):
      writer.byte(WireMessageType.serverGoodbye)
      goodbye.encode(to: &writer)
    case .message(let message): message.encode(to: &writer)
    }
  }

  init(from reader: inout WireReader) throws(WireError) {
    let start = reader.offset
    switch try reader.byte("message type") {
    case WireMessageType.helloAck:
      self = .helloAck(try WireHelloAck(from: &reader))
    case WireMessageType.serverGoodbye:
      self = .goodbye(try WireGoodbye(from: &reader))
    case WireMessageType.joined:
      let snapshot = try SessionSnapshot(from: &reader)
      self = .message(.joined(snapshot, resumeToken: try reader.varint("resume token")))
    case WireMessageType.joinRefused:
      self = .message(.joinRefused(try VideoSDKError.read("joinRefused error", from: &reader)))
    case WireMessageType.passwordRequired:
      self = .message(.passwordRequired(wrong: try reader.bool("passwordRequired wrong")))
    case WireMessageType.events:
      self = .message(.events(try EventBatch(from: &reader)))
    case WireMessageType.notice:
      self = .message(.notice(try SessionEvent(from: &reader)))
    case WireMessageType.commandFailed:
      let id = try reader.uint32("commandFailed id")
      let error = try VideoSDKError.read("commandFailed error", from: &reader)
      self = .message(.commandFailed(id, error))
    case WireMessageType.left:
      self = .message(.left(try reader.rawEnum(LeaveReason.self, "left reason")))
    case WireMessageType.serverHeartbeat:
      self = .message(.heartbeat)
    case WireMessageType.mediaNotice:
      self = .message(.media(try MediaNotice(from: &reader)))
    case let type:
      throw WireError(
        .unknownMessageType, offset: start,
        detail: "no server-to-client message has type byte \(hex(type))")
    }
  }
}
