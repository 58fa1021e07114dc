import SessionCore

// Cloud recording on the wire (WireProtocol.md §5, §6): one event tag and one command tag,
// each followed by a sub-tag byte, and the recording at the end of a snapshot.

extension RecordingBoard: WireEncodable, WireDecodable {
  /// The status, then who agreed as a set (ascending ids).
  func encode(to writer: inout WireWriter) {
    writer.byte(UInt8(truncatingIfNeeded: status.rawValue))
    writer.userSet(agreed)
  }

  init(from reader: inout WireReader) throws(WireError) {
    let status = try reader.intEnum(RecordingStatus.self, "recording status")
    self.init(status: status, agreed: try reader.userSet("recording agreed"))
  }
}

extension RecordingEvent: WireEncodable, WireDecodable {
  enum WireTag {
    static let statusChanged: UInt8 = 1
    static let agreed: UInt8 = 2
    static let last: UInt8 = 2
  }

  func encode(to writer: inout WireWriter) {
    switch self {
    case .statusChanged(let status):
      writer.byte(WireTag.statusChanged)
      writer.byte(UInt8(truncatingIfNeeded: status.rawValue))
    case .agreed(let user):
      writer.byte(WireTag.agreed)
      writer.user(user)
    }
  }

  init(from reader: inout WireReader) throws(WireError) {
    switch try reader.tag("recording event tag", last: WireTag.last) {
    case WireTag.statusChanged:
      self = .statusChanged(try reader.intEnum(RecordingStatus.self, "recording status"))
    case WireTag.agreed:
      self = .agreed(try reader.user("recording agreed user"))
    case let tag:
      throw reader.unknownTag("recording event tag", tag, at: reader.offset - 1)
    }
  }
}

extension RecordingCommand: WireEncodable, WireDecodable {
  enum WireTag {
    static let start: UInt8 = 1
    static let stop: UInt8 = 2
    static let pause: UInt8 = 3
    static let resume: UInt8 = 4
    static let agree: UInt8 = 5
    static let last: UInt8 = 5
  }

  func encode(to writer: inout WireWriter) {
    switch self {
    case .start: writer.byte(WireTag.start)
    case .stop: writer.byte(WireTag.stop)
    case .pause: writer.byte(WireTag.pause)
    case .resume: writer.byte(WireTag.resume)
    case .agree: writer.byte(WireTag.agree)
    }
  }

  init(from reader: inout WireReader) throws(WireError) {
    switch try reader.tag("recording command tag", last: WireTag.last) {
    case WireTag.start: self = .start
    case WireTag.stop: self = .stop
    case WireTag.pause: self = .pause
    case WireTag.resume: self = .resume
    case WireTag.agree: self = .agree
    case let tag:
      throw reader.unknownTag("recording command tag", tag, at: reader.offset - 1)
    }
  }
}
