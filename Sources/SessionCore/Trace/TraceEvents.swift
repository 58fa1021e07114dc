// Version 2's events and records. An event is an object with exactly one key, its case name,
// whose value is an object of the case's fields by name: the Swift labels, and for a value
// without a label the name Docs/TraceFormat.md gives it (`snapshot`, `users`, `setting`,
// `message`, `privilege`). A subsession or recording event's value holds its own case the same
// way: `{"subSession":{"userMoved":{"user":4,"to":"1-2"}}}`.

extension SessionEvent: TraceCodable {
  init(traceFrom decoder: any Decoder) throws {
    var event = TraceFields(decoder, what: "an event")
    let (name, caseFields) = try event.onlyCase(of: "event")
    var fields = caseFields
    switch name {
    case "initialized": self = .initialized
    case "cleanedUp": self = .cleanedUp
    case "joinRequested":
      self = .joinRequested(
        sessionName: try fields("sessionName"), userName: try fields("userName"))
    case "sessionJoined": self = .sessionJoined(try fields("snapshot"))
    case "joinFailed": self = .joinFailed(error: try fields("error"))
    case "leaveRequested": self = .leaveRequested
    case "sessionLeft": self = .sessionLeft(reason: try fields("reason"))
    case "usersJoined": self = .usersJoined(try fields("users"))
    case "usersLeft": self = .usersLeft(try fields("users"))
    case "videoStatusChanged":
      self = .videoStatusChanged(user: try fields("user"), isOn: try fields("isOn"))
    case "audioStatusChanged":
      self = .audioStatusChanged(
        user: try fields("user"), type: try fields("type"), isMuted: try fields("isMuted"))
    case "activeSpeakersChanged": self = .activeSpeakersChanged(try fields("users"))
    case "hostAskedUnmute": self = .hostAskedUnmute(by: try fields("by"))
    case "shareStatusChanged":
      self = .shareStatusChanged(
        user: try fields("user"), status: try fields("status"), kind: try fields("kind"))
    case "shareSettingChanged": self = .shareSettingChanged(try fields("setting"))
    case "hostChanged": self = .hostChanged(newHost: try fields("newHost"))
    case "managerChanged":
      self = .managerChanged(user: try fields("user"), isManager: try fields("isManager"))
    case "nameChanged": self = .nameChanged(user: try fields("user"), name: try fields("name"))
    case "annotationStarted":
      self = .annotationStarted(user: try fields("user"), shareOwner: try fields("shareOwner"))
    case "annotationStopped":
      self = .annotationStopped(user: try fields("user"), shareOwner: try fields("shareOwner"))
    case "annotationCleared":
      self = .annotationCleared(
        user: try fields("user"), shareOwner: try fields("shareOwner"), type: try fields("type"))
    case "annotationPrivilegeChanged":
      self = .annotationPrivilegeChanged(
        shareOwner: try fields("shareOwner"),
        isViewerAnnotationDisabled: try fields("isViewerAnnotationDisabled"))
    case "chatMessageReceived": self = .chatMessageReceived(try fields("message"))
    case "chatMessageDeleted":
      self = .chatMessageDeleted(
        messageID: try fields("messageID"), deletedBy: try fields("deletedBy"))
    case "chatPrivilegeChanged": self = .chatPrivilegeChanged(try fields("privilege"))
    case "networkStatusChanged":
      self = .networkStatusChanged(user: try fields("user"), quality: try fields("quality"))
    case "spotlightChanged": self = .spotlightChanged(try fields("users"))
    case "commandReceived":
      self = .commandReceived(sender: try fields("sender"), content: try fields("content"))
    case "subSession":
      self = .subSession(try SubSessionEvent(traceCase: fields))
      return
    case "recording":
      self = .recording(try RecordingEvent(traceCase: fields))
      return
    case "errorOccurred":
      self = .errorOccurred(error: try fields("error"), detail: try fields("detail"))
    default:
      throw TraceProblem(at: decoder.codingPath, "unknown event case \"\(name)\"")
    }
    try fields.finish()
  }

  func encodeTrace(to encoder: any Encoder) throws {
    var event = TraceFieldWriter(encoder)
    var fields = event.nested(name)
    switch self {
    case .initialized, .cleanedUp, .leaveRequested: break
    case .joinRequested(let sessionName, let userName):
      try fields("sessionName", sessionName)
      try fields("userName", userName)
    case .sessionJoined(let snapshot): try fields("snapshot", snapshot)
    case .joinFailed(let error): try fields("error", error)
    case .sessionLeft(let reason): try fields("reason", reason)
    case .usersJoined(let users): try fields("users", users)
    case .usersLeft(let users), .activeSpeakersChanged(let users), .spotlightChanged(let users):
      try fields("users", users)
    case .videoStatusChanged(let user, let isOn):
      try fields("user", user)
      try fields("isOn", isOn)
    case .audioStatusChanged(let user, let type, let isMuted):
      try fields("user", user)
      try fields("type", type)
      try fields("isMuted", isMuted)
    case .hostAskedUnmute(let by): try fields("by", by)
    case .shareStatusChanged(let user, let status, let kind):
      try fields("user", user)
      try fields("status", status)
      try fields("kind", kind)
    case .shareSettingChanged(let setting): try fields("setting", setting)
    case .hostChanged(let newHost): try fields("newHost", newHost)
    case .managerChanged(let user, let isManager):
      try fields("user", user)
      try fields("isManager", isManager)
    case .nameChanged(let user, let name):
      try fields("user", user)
      try fields("name", name)
    case .annotationStarted(let user, let shareOwner), .annotationStopped(let user, let shareOwner):
      try fields("user", user)
      try fields("shareOwner", shareOwner)
    case .annotationCleared(let user, let shareOwner, let type):
      try fields("user", user)
      try fields("shareOwner", shareOwner)
      try fields("type", type)
    case .annotationPrivilegeChanged(let shareOwner, let isViewerAnnotationDisabled):
      try fields("shareOwner", shareOwner)
      try fields("isViewerAnnotationDisabled", isViewerAnnotationDisabled)
    case .chatMessageReceived(let message): try fields("message", message)
    case .chatMessageDeleted(let messageID, let deletedBy):
      try fields("messageID", messageID)
      try fields("deletedBy", deletedBy)
    case .chatPrivilegeChanged(let privilege): try fields("privilege", privilege)
    case .networkStatusChanged(let user, let quality):
      try fields("user", user)
      try fields("quality", quality)
    case .commandReceived(let sender, let content):
      try fields("sender", sender)
      try fields("content", content)
    case .subSession(let subSessionEvent): try subSessionEvent.writeTraceCase(to: &fields)
    case .recording(let recordingEvent): try recordingEvent.writeTraceCase(to: &fields)
    case .errorOccurred(let error, let detail):
      try fields("error", error)
      try fields("detail", detail)
    }
  }
}

extension SubSessionEvent {
  /// Reads the one-case object that is a `subSession` event's value.
  init(traceCase value: TraceFields) throws {
    var object = value
    let (name, caseFields) = try object.onlyCase(of: "subSession event")
    var fields = caseFields
    switch name {
    case "statusChanged":
      self = .statusChanged(try fields("status"), try fields("list", default: []))
    case "userMoved": self = .userMoved(try fields("user"), to: try fields.optional("to"))
    case "broadcast": self = .broadcast(from: try fields("from"), message: try fields("message"))
    case "helpRequested":
      self = .helpRequested(by: try fields("by"), subSessionID: try fields("subSessionID"))
    case "helpResult": self = .helpResult(try fields("result"))
    default:
      throw TraceProblem(at: object.codingPath, "unknown subSession case \"\(name)\"")
    }
    try fields.finish()
  }

  /// Writes the case under its name.
  func writeTraceCase(to object: inout TraceFieldWriter) throws {
    switch self {
    case .statusChanged(let status, let list):
      var fields = object.nested("statusChanged")
      try fields("status", status)
      try fields("list", list, default: [])
    case .userMoved(let user, let to):
      var fields = object.nested("userMoved")
      try fields("user", user)
      try fields.optional("to", to)
    case .broadcast(let from, let message):
      var fields = object.nested("broadcast")
      try fields("from", from)
      try fields("message", message)
    case .helpRequested(let by, let subSessionID):
      var fields = object.nested("helpRequested")
      try fields("by", by)
      try fields("subSessionID", subSessionID)
    case .helpResult(let result):
      var fields = object.nested("helpResult")
      try fields("result", result)
    }
  }
}

extension RecordingEvent {
  /// Reads the one-case object that is a `recording` event's value.
  init(traceCase value: TraceFields) throws {
    var object = value
    let (name, caseFields) = try object.onlyCase(of: "recording event")
    var fields = caseFields
    switch name {
    case "statusChanged": self = .statusChanged(try fields("status"))
    case "agreed": self = .agreed(try fields("user"))
    default:
      throw TraceProblem(at: object.codingPath, "unknown recording case \"\(name)\"")
    }
    try fields.finish()
  }

  /// Writes the case under its name.
  func writeTraceCase(to object: inout TraceFieldWriter) throws {
    switch self {
    case .statusChanged(let status):
      var fields = object.nested("statusChanged")
      try fields("status", status)
    case .agreed(let user):
      var fields = object.nested("agreed")
      try fields("user", user)
    }
  }
}

/// One record line of a version-2 trace: an event, its sequence number and its time. A reader
/// gives an absent `sequence` one more than the record before's (1 for the first) and an
/// absent `timestamp` the record before's (0 for the first), so that a hand-written trace can
/// leave both out.
///
/// > Important: A value; `Sendable`.
struct TraceRecord: TraceObject, Sendable {
  var sequence: UInt64?
  var timestamp: Int64?
  var event: SessionEvent

  static var traceDescription: String { "a record" }

  init(_ applied: AppliedEvent) {
    sequence = applied.sequence
    timestamp = applied.timestamp
    event = applied.event
  }

  init(traceFields fields: inout TraceFields) throws {
    sequence = try fields.optional("sequence")
    timestamp = try fields.optional("timestamp")
    event = try fields("event")
  }

  func writeTraceFields(to fields: inout TraceFieldWriter) throws {
    try fields.optional("sequence", sequence)
    try fields.optional("timestamp", timestamp)
    try fields("event", event)
  }
}

/// One entry of a version-2 header's `users`: a user's id and name.
///
/// > Important: A value; `Sendable`.
struct TraceUserName: TraceObject, Sendable {
  var id: UserID
  var name: String

  static var traceDescription: String { "a user" }

  init(id: UserID, name: String) {
    self.id = id
    self.name = name
  }

  init(traceFields fields: inout TraceFields) throws {
    id = try fields("id")
    name = try fields("name")
  }

  func writeTraceFields(to fields: inout TraceFieldWriter) throws {
    try fields("id", id)
    try fields("name", name)
  }
}
