// Version 2's structures: objects of named fields. A field is optional exactly when the Swift
// initializer gives it a default (or it is an optional); writers leave out a field that has its
// default, readers put the default back. Sets are written as sorted arrays, so that a trace is
// the same text every time.

extension AudioStatus: TraceObject {
  static var traceDescription: String { "an audio status" }

  init(traceFields fields: inout TraceFields) throws {
    let defaults = AudioStatus()
    self.init(
      type: try fields("type", default: defaults.type),
      isMuted: try fields("isMuted", default: defaults.isMuted),
      isTalking: try fields("isTalking", default: defaults.isTalking))
  }

  func writeTraceFields(to fields: inout TraceFieldWriter) throws {
    let defaults = AudioStatus()
    try fields("type", type, default: defaults.type)
    try fields("isMuted", isMuted, default: defaults.isMuted)
    try fields("isTalking", isTalking, default: defaults.isTalking)
  }
}

extension Participant: TraceObject {
  static var traceDescription: String { "a participant" }

  init(traceFields fields: inout TraceFields) throws {
    self.init(
      id: try fields("id"),
      name: try fields("name"),
      role: try fields("role", default: .participant),
      isVideoOn: try fields("isVideoOn", default: false),
      audio: try fields("audio", default: .disconnected),
      shareStatus: try fields("shareStatus", default: .none),
      networkQuality: try fields("networkQuality", default: .none),
      joinOrder: try fields("joinOrder"),
      customUserKey: try fields.optional("customUserKey"))
  }

  func writeTraceFields(to fields: inout TraceFieldWriter) throws {
    try fields("id", id)
    try fields("name", name)
    try fields("role", role, default: .participant)
    try fields("isVideoOn", isVideoOn, default: false)
    try fields("audio", audio, default: .disconnected)
    try fields("shareStatus", shareStatus, default: .none)
    try fields("networkQuality", networkQuality, default: .none)
    try fields("joinOrder", joinOrder)
    try fields.optional("customUserKey", customUserKey)
  }
}

extension ActiveShare: TraceObject {
  static var traceDescription: String { "a share" }

  init(traceFields fields: inout TraceFields) throws {
    let annotators: [UserID] = try fields("annotators", default: [])
    self.init(
      owner: try fields("owner"),
      status: try fields("status", default: .started),
      kind: try fields("kind", default: .view),
      isViewerAnnotationDisabled: try fields("isViewerAnnotationDisabled", default: false),
      annotators: Set(annotators),
      clearCount: try fields("clearCount", default: 0),
      startOrder: try fields("startOrder", default: 0))
  }

  func writeTraceFields(to fields: inout TraceFieldWriter) throws {
    try fields("owner", owner)
    try fields("status", status, default: .started)
    try fields("kind", kind, default: .view)
    try fields("isViewerAnnotationDisabled", isViewerAnnotationDisabled, default: false)
    try fields("annotators", annotators.sorted(), default: [])
    try fields("clearCount", clearCount, default: 0)
    try fields("startOrder", startOrder, default: 0)
  }
}

extension ChatMessage: TraceObject {
  static var traceDescription: String { "a chat message" }

  init(traceFields fields: inout TraceFields) throws {
    self.init(
      id: try fields("id"),
      sender: try fields("sender"),
      receiver: try fields.optional("receiver"),
      content: try fields("content"),
      timestamp: try fields("timestamp"))
  }

  func writeTraceFields(to fields: inout TraceFieldWriter) throws {
    try fields("id", id)
    try fields("sender", sender)
    try fields.optional("receiver", receiver)
    try fields("content", content)
    try fields("timestamp", timestamp)
  }
}

extension SubSession: TraceObject {
  static var traceDescription: String { "a subsession" }

  init(traceFields fields: inout TraceFields) throws {
    self.init(id: try fields("id"), name: try fields("name"))
  }

  func writeTraceFields(to fields: inout TraceFieldWriter) throws {
    try fields("id", id)
    try fields("name", name)
  }
}

/// One member in a subsession, as a ``SubSessionBoard``'s `rooms` lists it in version 2.
///
/// > Important: A value; `Sendable`.
private struct TraceRoom: TraceObject, Equatable {
  var user: UserID
  var subSessionID: String

  static var traceDescription: String { "a subsession member" }

  init(user: UserID, subSessionID: String) {
    self.user = user
    self.subSessionID = subSessionID
  }

  init(traceFields fields: inout TraceFields) throws {
    user = try fields("user")
    subSessionID = try fields("subSessionID")
  }

  func writeTraceFields(to fields: inout TraceFieldWriter) throws {
    try fields("user", user)
    try fields("subSessionID", subSessionID)
  }
}

extension SubSessionBoard: TraceObject {
  static var traceDescription: String { "a subsession board" }

  init(traceFields fields: inout TraceFields) throws {
    let rooms: [TraceRoom] = try fields("rooms", default: [])
    var byUser: [UserID: String] = [:]
    for room in rooms {
      guard byUser[room.user] == nil else {
        throw TraceProblem(at: fields.codingPath, "rooms lists user \(room.user.rawValue) twice")
      }
      byUser[room.user] = room.subSessionID
    }
    self.init(
      status: try fields("status", default: .none), list: try fields("list", default: []),
      rooms: byUser)
  }

  func writeTraceFields(to fields: inout TraceFieldWriter) throws {
    try fields("status", status, default: .none)
    try fields("list", list, default: [])
    let rooms = self.rooms.sorted { $0.key < $1.key }.map {
      TraceRoom(user: $0.key, subSessionID: $0.value)
    }
    try fields("rooms", rooms, default: [])
  }
}

extension RecordingBoard: TraceObject {
  static var traceDescription: String { "a recording board" }

  init(traceFields fields: inout TraceFields) throws {
    let agreed: [UserID] = try fields("agreed", default: [])
    self.init(status: try fields("status", default: .none), agreed: Set(agreed))
  }

  func writeTraceFields(to fields: inout TraceFieldWriter) throws {
    try fields("status", status, default: .none)
    try fields("agreed", agreed.sorted(), default: [])
  }
}

extension SessionSnapshot: TraceObject {
  static var traceDescription: String { "a session snapshot" }

  init(traceFields fields: inout TraceFields) throws {
    self.init(
      sessionName: try fields("sessionName"),
      sessionID: try fields("sessionID"),
      myself: try fields("myself"),
      participants: try fields("participants"),
      shareSetting: try fields("shareSetting", default: .single),
      shares: try fields("shares", default: []),
      chatPrivilege: try fields("chatPrivilege", default: .everyonePubliclyAndPrivately),
      activeSpeakers: try fields("activeSpeakers", default: []),
      spotlighted: try fields("spotlighted", default: []),
      subSessions: try fields("subSessions", default: SubSessionBoard()),
      recording: try fields("recording", default: RecordingBoard()),
      sequence: try fields("sequence", default: 0))
  }

  func writeTraceFields(to fields: inout TraceFieldWriter) throws {
    try fields("sessionName", sessionName)
    try fields("sessionID", sessionID)
    try fields("myself", myself)
    try fields("participants", participants)
    try fields("shareSetting", shareSetting, default: .single)
    try fields("shares", shares, default: [])
    try fields("chatPrivilege", chatPrivilege, default: .everyonePubliclyAndPrivately)
    try fields("activeSpeakers", activeSpeakers, default: [])
    try fields("spotlighted", spotlighted, default: [])
    try fields("subSessions", subSessions, default: SubSessionBoard())
    try fields("recording", recording, default: RecordingBoard())
    try fields("sequence", sequence, default: 0)
  }
}
