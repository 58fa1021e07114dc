import SessionCore

// Subsessions on the wire (WireProtocol.md §6): one event tag and one command tag, each
// followed by a sub-tag byte, and the board at the end of a snapshot.

extension SubSession: WireEncodable, WireDecodable {
  func encode(to writer: inout WireWriter) {
    writer.string(id)
    writer.string(name)
  }

  init(from reader: inout WireReader) throws(WireError) {
    let id = try reader.string("subsession id")
    self.init(id: id, name: try reader.string("subsession name"))
  }

  /// Two empty strings.
  static let minimumWireSize = 2
}

extension WireReader {
  /// Reads a subsession list.
  mutating func subSessionList(_ what: StaticString) throws(WireError) -> [SubSession] {
    try array(what, minimumElementSize: SubSession.minimumWireSize) {
      (reader: inout WireReader) throws(WireError) in try SubSession(from: &reader)
    }
  }
}

extension SubSessionBoard: WireEncodable, WireDecodable {
  /// The status, the list, then each member in a subsession (in id order) with the position of
  /// their subsession in the list.
  func encode(to writer: inout WireWriter) {
    writer.byte(UInt8(truncatingIfNeeded: status.rawValue))
    writer.array(list) { $1.encode(to: &$0) }
    let positions = Dictionary(
      list.enumerated().map { ($1.id, $0) }, uniquingKeysWith: { first, _ in first })
    let members = rooms.keys.sorted()
    writer.array(members) { writer, user in
      writer.user(user)
      writer.varint(UInt64(positions[rooms[user] ?? ""] ?? 0))
    }
  }

  init(from reader: inout WireReader) throws(WireError) {
    let status = try reader.intEnum(SubSessionStatus.self, "subsession status")
    let list = try reader.subSessionList("subsession list")
    let members = try reader.array("subsession members", minimumElementSize: 2) {
      (reader: inout WireReader) throws(WireError) -> (UserID, UInt64) in
      (try reader.user("subsession member"), try reader.varint("subsession position"))
    }
    var rooms: [UserID: String] = [:]
    rooms.reserveCapacity(members.count)
    for (user, position) in members {
      guard position < UInt64(list.count), rooms[user] == nil else {
        throw WireError(
          .invalidValue, offset: reader.offset,
          detail: "subsession member \(user) is listed twice or in no listed subsession")
      }
      rooms[user] = list[Int(position)].id
    }
    self.init(status: status, list: list, rooms: rooms)
  }
}

extension SubSessionEvent: WireEncodable, WireDecodable {
  enum WireTag {
    static let statusChanged: UInt8 = 1
    static let userMoved: UInt8 = 2
    static let broadcast: UInt8 = 3
    static let helpRequested: UInt8 = 4
    static let helpResult: UInt8 = 5
    static let last: UInt8 = 5
  }

  func encode(to writer: inout WireWriter) {
    switch self {
    case .statusChanged(let status, let list):
      writer.byte(WireTag.statusChanged)
      writer.byte(UInt8(truncatingIfNeeded: status.rawValue))
      writer.array(list) { $1.encode(to: &$0) }
    case .userMoved(let user, let destination):
      writer.byte(WireTag.userMoved)
      writer.user(user)
      writer.optional(destination) { $0.string($1) }
    case .broadcast(let sender, let message):
      writer.byte(WireTag.broadcast)
      writer.user(sender)
      writer.string(message)
    case .helpRequested(let user, let subSessionID):
      writer.byte(WireTag.helpRequested)
      writer.user(user)
      writer.string(subSessionID)
    case .helpResult(let result):
      writer.byte(WireTag.helpResult)
      writer.byte(UInt8(truncatingIfNeeded: result.rawValue))
    }
  }

  init(from reader: inout WireReader) throws(WireError) {
    switch try reader.tag("subsession event tag", last: WireTag.last) {
    case WireTag.statusChanged:
      let status = try reader.intEnum(SubSessionStatus.self, "subsession status")
      self = .statusChanged(status, try reader.subSessionList("subsession list"))
    case WireTag.userMoved:
      let user = try reader.user("subsession mover")
      let destination = try reader.optional("subsession destination") {
        (reader: inout WireReader) throws(WireError) in
        try reader.string("subsession destination")
      }
      self = .userMoved(user, to: destination)
    case WireTag.broadcast:
      let sender = try reader.user("subsession broadcast sender")
      self = .broadcast(from: sender, message: try reader.string("subsession broadcast message"))
    case WireTag.helpRequested:
      let user = try reader.user("subsession help requester")
      self = .helpRequested(by: user, subSessionID: try reader.string("subsession help id"))
    case WireTag.helpResult:
      self = .helpResult(try reader.intEnum(SubSessionHelpResult.self, "subsession help result"))
    case let tag:
      throw reader.unknownTag("subsession event tag", tag, at: reader.offset - 1)
    }
  }
}

extension SubSessionCommand: WireEncodable, WireDecodable {
  enum WireTag {
    static let commit: UInt8 = 1
    static let withdraw: UInt8 = 2
    static let start: UInt8 = 3
    static let stop: UInt8 = 4
    static let join: UInt8 = 5
    static let returnToMain: UInt8 = 6
    static let broadcast: UInt8 = 7
    static let requestHelp: UInt8 = 8
    static let answerHelp: UInt8 = 9
    static let last: UInt8 = 9
  }

  func encode(to writer: inout WireWriter) {
    switch self {
    case .commit(let names):
      writer.byte(WireTag.commit)
      writer.array(names) { $0.string($1) }
    case .withdraw:
      writer.byte(WireTag.withdraw)
    case .start:
      writer.byte(WireTag.start)
    case .stop:
      writer.byte(WireTag.stop)
    case .join(let id):
      writer.byte(WireTag.join)
      writer.string(id)
    case .returnToMain:
      writer.byte(WireTag.returnToMain)
    case .broadcast(let message):
      writer.byte(WireTag.broadcast)
      writer.string(message)
    case .requestHelp:
      writer.byte(WireTag.requestHelp)
    case .answerHelp(let requester, let join):
      writer.byte(WireTag.answerHelp)
      writer.user(requester)
      writer.bool(join)
    }
  }

  init(from reader: inout WireReader) throws(WireError) {
    switch try reader.tag("subsession command tag", last: WireTag.last) {
    case WireTag.commit:
      self = .commit(
        try reader.array("subsession names", minimumElementSize: 1) {
          (reader: inout WireReader) throws(WireError) in try reader.string("subsession name")
        })
    case WireTag.withdraw:
      self = .withdraw
    case WireTag.start:
      self = .start
    case WireTag.stop:
      self = .stop
    case WireTag.join:
      self = .join(subSessionID: try reader.string("subsession id"))
    case WireTag.returnToMain:
      self = .returnToMain
    case WireTag.broadcast:
      self = .broadcast(try reader.string("subsession broadcast message"))
    case WireTag.requestHelp:
      self = .requestHelp
    case WireTag.answerHelp:
      let requester = try reader.user("subsession help requester")
      self = .answerHelp(requester: requester, join: try reader.bool("subsession help join"))
    case let tag:
      throw reader.unknownTag("subsession command tag", tag, at: reader.offset - 1)
    }
  }
}
