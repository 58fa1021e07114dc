import SessionCore

extension Participant: WireEncodable, WireDecodable {
  /// The fewest bytes a participant encodes to.
  static let minimumWireSize = 11

  func encode(to writer: inout WireWriter) {
    writer.user(id)
    writer.string(name)
    writer.byte(role.rawValue)
    writer.bool(isVideoOn)
    writer.byte(audio.type.rawValue)
    writer.bool(audio.isMuted)
    writer.bool(audio.isTalking)
    writer.byte(shareStatus.rawValue)
    writer.byte(networkQuality.rawValue)
    writer.varint(joinOrder)
    writer.optional(customUserKey) { $0.string($1) }
  }

  init(from reader: inout WireReader) throws(WireError) {
    let id = try reader.user("participant id")
    let name = try reader.string("participant name")
    let role = try reader.rawEnum(Role.self, "participant role")
    let isVideoOn = try reader.bool("participant isVideoOn")
    let audioType = try reader.rawEnum(AudioType.self, "participant audio type")
    let isMuted = try reader.bool("participant audio isMuted")
    let isTalking = try reader.bool("participant audio isTalking")
    let shareStatus = try reader.rawEnum(ShareStatus.self, "participant share status")
    let quality = try reader.rawEnum(NetworkQuality.self, "participant network quality")
    let joinOrder = try reader.varint("participant join order")
    let customUserKey = try reader.optional("participant custom user key") {
      (reader: inout WireReader) throws(WireError) in
      try reader.string("participant custom user key")
    }
    self.init(
      id: id, name: name, role: role, isVideoOn: isVideoOn,
      audio: AudioStatus(type: audioType, isMuted: isMuted, isTalking: isTalking),
      shareStatus: shareStatus, networkQuality: quality, joinOrder: joinOrder,
      customUserKey: customUserKey)
  }
}

extension ActiveShare: WireEncodable, WireDecodable {
  /// The fewest bytes a share encodes to.
  static let minimumWireSize = 7

  func encode(to writer: inout WireWriter) {
    writer.user(owner)
    writer.byte(status.rawValue)
    writer.byte(kind.rawValue)
    writer.bool(isViewerAnnotationDisabled)
    writer.userSet(annotators)
    writer.signed(clearCount)
    writer.varint(startOrder)
  }

  init(from reader: inout WireReader) throws(WireError) {
    let owner = try reader.user("share owner")
    let status = try reader.rawEnum(ShareStatus.self, "share status")
    let kind = try reader.rawEnum(ShareKind.self, "share kind")
    let disabled = try reader.bool("share isViewerAnnotationDisabled")
    let annotators = try reader.userSet("share annotators")
    let clearCount = try reader.signed("share clear count")
    let startOrder = try reader.varint("share start order")
    self.init(
      owner: owner, status: status, kind: kind, isViewerAnnotationDisabled: disabled,
      annotators: annotators, clearCount: clearCount, startOrder: startOrder)
  }
}

extension SessionSnapshot: WireEncodable, WireDecodable {
  func encode(to writer: inout WireWriter) {
    writer.string(sessionName)
    writer.string(sessionID)
    writer.user(myself)
    writer.array(participants) { $1.encode(to: &$0) }
    writer.byte(shareSetting.rawValue)
    writer.array(shares) { $1.encode(to: &$0) }
    writer.byte(chatPrivilege.rawValue)
    writer.array(activeSpeakers) { $0.user($1) }
    writer.array(spotlighted) { $0.user($1) }
    subSessions.encode(to: &writer)
    recording.encode(to: &writer)
    writer.varint(sequence)
  }

  init(from reader: inout WireReader) throws(WireError) {
    let sessionName = try reader.string("snapshot session name")
    let sessionID = try reader.string("snapshot session id")
    let myself = try reader.user("snapshot myself")
    let participants = try reader.array(
      "snapshot participants", minimumElementSize: Participant.minimumWireSize
    ) { (reader: inout WireReader) throws(WireError) in try Participant(from: &reader) }
    let shareSetting = try reader.rawEnum(ShareSetting.self, "snapshot share setting")
    let shares = try reader.array(
      "snapshot shares", minimumElementSize: ActiveShare.minimumWireSize
    ) { (reader: inout WireReader) throws(WireError) in try ActiveShare(from: &reader) }
    let chatPrivilege = try reader.rawEnum(ChatPrivilege.self, "snapshot chat privilege")
    let activeSpeakers = try reader.array("snapshot active speakers", minimumElementSize: 1) {
      (reader: inout WireReader) throws(WireError) in try reader.user("snapshot active speaker")
    }
    let spotlighted = try reader.array("snapshot spotlighted", minimumElementSize: 1) {
      (reader: inout WireReader) throws(WireError) in try reader.user("snapshot spotlighted user")
    }
    let subSessions = try SubSessionBoard(from: &reader)
    let recording = try RecordingBoard(from: &reader)
    let sequence = try reader.varint("snapshot sequence")
    self.init(
      sessionName: sessionName, sessionID: sessionID, myself: myself, participants: participants,
      shareSetting: shareSetting, shares: shares, chatPrivilege: chatPrivilege,
      activeSpeakers: activeSpeakers, spotlighted: spotlighted, subSessions: subSessions,
      recording: recording, sequence: sequence)
  }
}

extension ChatMessage: WireEncodable, WireDecodable {
  func encode(to writer: inout WireWriter) {
    writer.string(id)
    writer.user(sender)
    writer.optional(receiver) { $0.user($1) }
    writer.string(content)
    writer.signed(timestamp)
  }

  init(from reader: inout WireReader) throws(WireError) {
    let id = try reader.string("chat message id")
    let sender = try reader.user("chat sender")
    let receiver = try reader.optional("chat receiver") {
      (reader: inout WireReader) throws(WireError) in try reader.user("chat receiver")
    }
    let content = try reader.string("chat content")
    let timestamp = try reader.signed64("chat timestamp")
    self.init(id: id, sender: sender, receiver: receiver, content: content, timestamp: timestamp)
  }
}

extension VideoSDKError {
  /// Reads an error code: a varint holding one of the raw values.
  static func read(_ what: StaticString, from reader: inout WireReader) throws(WireError) -> Self {
    let start = reader.offset
    let raw = try reader.varint(what)
    guard raw <= UInt64(Int.max), let error = VideoSDKError(rawValue: Int(raw)) else {
      throw WireError(
        .invalidEnumValue, offset: start, detail: "\(what): no error has code \(raw)")
    }
    return error
  }

  /// Writes the error code as a varint.
  func write(to writer: inout WireWriter) {
    writer.varint(UInt64(truncatingIfNeeded: rawValue))
  }
}
