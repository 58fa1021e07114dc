import SessionCore

extension JoinRequest: WireEncodable, WireDecodable {
  func encode(to writer: inout WireWriter) {
    writer.string(sessionName)
    writer.string(userName)
    writer.string(token)
    writer.optional(password) { $0.string($1) }
    writer.bool(connectAudio)
    writer.bool(muteAudio)
    writer.bool(videoOn)
    writer.optional(idleTimeoutMinutes) { $0.signed($1) }
  }

  init(from reader: inout WireReader) throws(WireError) {
    let sessionName = try reader.string("join session name")
    let userName = try reader.string("join user name")
    let token = try reader.string("join token")
    let password = try reader.optional("join password") {
      (reader: inout WireReader) throws(WireError) in try reader.string("join password")
    }
    let connectAudio = try reader.bool("join connectAudio")
    let muteAudio = try reader.bool("join muteAudio")
    let videoOn = try reader.bool("join videoOn")
    let idleTimeoutMinutes = try reader.optional("join idle timeout") {
      (reader: inout WireReader) throws(WireError) in try reader.signed("join idle timeout")
    }
    self.init(
      sessionName: sessionName, userName: userName, token: token, password: password,
      connectAudio: connectAudio, muteAudio: muteAudio, videoOn: videoOn,
      idleTimeoutMinutes: idleTimeoutMinutes)
  }
}

extension ResumeRequest: WireEncodable, WireDecodable {
  func encode(to writer: inout WireWriter) {
    writer.string(sessionID)
    writer.user(user)
    writer.varint(resumeToken)
    writer.varint(lastSequence)
  }

  init(from reader: inout WireReader) throws(WireError) {
    let sessionID = try reader.string("resume session id")
    let user = try reader.user("resume user")
    let resumeToken = try reader.varint("resume token")
    let lastSequence = try reader.varint("resume last sequence")
    self.init(
      sessionID: sessionID, user: user, resumeToken: resumeToken, lastSequence: lastSequence)
  }
}

extension ClientMessage: WireMessage {
  /// Appends the payload: the type byte, then the body.
  package func encode(to writer: inout WireWriter) {
    switch self {
    case .join(let request):
      writer.byte(WireMessageType.join)
      request.encode(to: &writer)
    case .password(let password):
      writer.byte(WireMessageType.password)
      writer.optional(password) { $0.string($1) }
    case .command(let id, let command):
      writer.byte(WireMessageType.command)
      writer.varint(UInt64(id))
      command.encode(to: &writer)
    case .resume(let request):
      writer.byte(WireMessageType.resume)
      request.encode(to: &writer)
    case .heartbeat:
      writer.byte(WireMessageType.clientHeartbeat)
    case .media(let request):
      writer.byte(WireMessageType.mediaRequest)
      request.encode(to: &writer)
    }
  }
}

extension WireClientFrame: WireMessage, WireDecodable {
  /// Appends the payload: the type byte, then the body.
  package func encode(to writer: inout WireWriter) {
    switch self {
    case .hello(let hello): hello.encode(to: &writer)
    case .goodbye(let goodbye):
      writer.byte(WireMessageType.clientGoodbye)
      goodbye.encode(to: &writer)
    case .message(let message): message.encode(to: &writer)
    }
  }

  init(from reader: inout WireReader) throws(WireError) {
    let start = reader.offset
    switch try reader.byte("message type") {
    case WireMessageType.hello:
      self = .hello(try WireHello(from: &reader))
    case WireMessageType.clientGoodbye:
      self = .goodbye(try WireGoodbye(from: &reader))
    case WireMessageType.join:
      self = .message(.join(try JoinRequest(from: &reader)))
    case WireMessageType.password:
      let password = try reader.optional("password") {
        (reader: inout WireReader) throws(WireError) in try reader.string("password")
      }
      self = .message(.password(password))
    case WireMessageType.command:
      let id = try reader.uint32("command id")
      self = .message(.command(id, try SessionCommand(from: &reader)))
    case WireMessageType.resume:
      self = .message(.resume(try ResumeRequest(from: &reader)))
    case WireMessageType.clientHeartbeat:
      self = .message(.heartbeat)
    case WireMessageType.mediaRequest:
      self = .message(.media(try MediaRequest(from: &reader)))
    case let type:
      throw WireError(
        .unknownMessageType, offset: start,
        detail: "no client-to-server message has type byte \(hex(type))")
    }
  }
}

/// `0x` and two hex digits.
func hex(_ byte: UInt8) -> String {
  let digits = String(byte, radix: 16, uppercase: true)
  return byte < 0x10 ? "0x0" + digits : "0x" + digits
}
