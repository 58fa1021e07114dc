import Foundation
import Testing

@testable import SessionCore

@Suite("Trace: JSON Lines record, parse (versions 1 and 2), replay, errors")
struct TraceTests {
  /// A short classroom session recorded from a store, with one rejected event in the middle
  /// (which is not recorded).
  static func recordedClassroom() -> (Trace, SessionState) {
    var clock: Int64 = 1_700_000_000_000
    let store = SessionStore {
      clock += 250
      return clock
    }
    let recorder = TraceRecorder(store: store, source: "TraceTests")
    var builder = SessionBuilder(participants: [participant(3, "Ada")])
    builder.myself = 3
    let events: [SessionEvent] = [
      .initialized,
      .joinRequested(sessionName: "Algebra101", userName: "Ada"),
      .sessionJoined(builder.snapshot),
      .usersJoined([participant(1, "Teacher", role: .host, joinOrder: 4)]),
      .usersJoined([participant(4, "Ben", joinOrder: 5), participant(5, "Cy", joinOrder: 6)]),
      .managerChanged(user: 4, isManager: true),
      .videoStatusChanged(user: 9, isOn: true),  // rejected: unknown user
      .shareStatusChanged(user: 1, status: .started, kind: .view),
      .annotationStarted(user: 3, shareOwner: 1),
      .chatMessageReceived(
        ChatMessage(id: "m1", sender: 1, receiver: nil, content: "Page 2 \"now\"", timestamp: 9)),
      .activeSpeakersChanged([1]),
      .usersLeft([1]),
      .hostChanged(newHost: 4),
    ]
    let rejections = store.send(contentsOf: events)
    #expect(rejections.map(\.0) == [6])
    return (recorder.trace, store.state)
  }

  @Test func recordThenWriteThenParseThenReplayGivesAnEqualState() {
    let (trace, state) = Self.recordedClassroom()
    #expect(trace.events.count == 12)
    #expect(trace.events.map(\.sequence) == Array(1...12))
    #expect(trace.events.first?.timestamp == 1_700_000_000_250)
    let text = trace.jsonLines()
    let parsed = Trace.parse(text)
    #expect(parsed.error == nil)
    #expect(parsed.trace == trace)
    let replica = SessionStore()
    #expect(parsed.trace.replay(into: replica) == nil)
    #expect(replica.state == state)
    #expect(replica.state.orderedUserIDs == state.orderedUserIDs)
    #expect(replica.appliedCount == 12)
  }

  @Test func jsonLinesIsAVersion2HeaderThenOneEventPerLine() throws {
    let (trace, _) = Self.recordedClassroom()
    let lines = trace.jsonLines().split(separator: "\n", omittingEmptySubsequences: false)
    #expect(lines.count == 14)  // header, 12 events, and the empty rest after the final newline
    #expect(lines.last == "")
    #expect(
      lines[0]
        == #"{"format":"sessionengine-trace","source":"TraceTests","users":[{"id":1,"#
        + #""name":"Teacher"},{"id":3,"name":"Ada"},{"id":4,"name":"Ben"},{"id":5,"name":"Cy"}],"#
        + #""version":2}"#)
    #expect(
      lines[1] == #"{"event":{"initialized":{}},"sequence":1,"timestamp":1700000000250}"#)
    #expect(
      lines[4]
        == #"{"event":{"usersJoined":{"users":[{"id":1,"joinOrder":4,"name":"Teacher","#
        + #""role":"host"}]}},"sequence":4,"timestamp":1700000001000}"#)
    #expect(
      lines[6]
        == #"{"event":{"managerChanged":{"isManager":true,"user":4}},"sequence":6,"#
        + #""timestamp":1700000001500}"#)
    #expect(
      lines[7]
        == #"{"event":{"shareStatusChanged":{"kind":"view","status":"started","user":1}},"#
        + #""sequence":7,"timestamp":1700000001750}"#)
  }

  @Test func theRecorderNamesEveryUserItSawInTheHeader() {
    let (trace, _) = Self.recordedClassroom()
    // Ada from the snapshot, the others from joins; the teacher stays named after leaving.
    #expect(trace.header.users == [1: "Teacher", 3: "Ada", 4: "Ben", 5: "Cy"])
    #expect(trace.header.version == 2)
  }

  @Test func aRecorderStartedMidSessionNamesThosePresentAndKeepsFirstNames() {
    var builder = SessionBuilder.classroom
    builder.myself = 3
    let store = SessionStore()
    store.send(contentsOf: [
      .initialized, .joinRequested(sessionName: "Algebra101", userName: "Ada"),
      .sessionJoined(builder.snapshot),
    ])
    let recorder = TraceRecorder(store: store)
    store.send(contentsOf: [
      .nameChanged(user: 4, name: "Benjamin"), .usersJoined([participant(9, "Nia")]),
    ])
    #expect(
      recorder.trace.header.users
        == [1: "Teacher", 2: "Assistant", 3: "Ada", 4: "Ben", 5: "Cy", 9: "Nia"])
    #expect(recorder.trace.events.count == 2)
  }

  @Test func version1BlankLinesAndWindowsLineEndingsAreAccepted() {
    let text = """
      {"format":"sessionengine-trace","version":1}\r
      \r

      {"event":{"initialized":{}},"sequence":1,"timestamp":0}\r
      {"event":{"errorOccurred":{"detail":0,"error":3000}},"sequence":2,"timestamp":5}
      """
    let parsed = Trace.parse(text)
    #expect(parsed.error == nil)
    #expect(parsed.trace.events.map(\.sequence) == [1, 2])
    #expect(parsed.trace.header.source == nil)
    #expect(parsed.trace.header.version == 1)
    #expect(parsed.trace.events.last?.event == .errorOccurred(error: .sessionAudioError, detail: 0))
  }

  @Test func version1GapsInSequenceNumbersAreAccepted() {
    let text = """
      {"format":"sessionengine-trace","version":1}
      {"event":{"initialized":{}},"sequence":10,"timestamp":0}
      {"event":{"joinRequested":{"sessionName":"A","userName":"B"}},"sequence":12,"timestamp":0}
      """
    #expect(Trace.parse(text).error == nil)
  }

  // Version 1 lines: the bad-line cases below read them exactly as before version 2.
  static let header = #"{"format":"sessionengine-trace","source":"t","version":1}"#
  static let first = #"{"event":{"initialized":{}},"sequence":1,"timestamp":0}"#
  static let second = #"{"event":{"cleanedUp":{}},"sequence":2,"timestamp":0}"#

  /// A trace with a bad line, where it is, what the error must say, and how many events
  /// before it survive.
  struct BadLine: CustomTestStringConvertible, Sendable {
    var name: String
    var lines: [String]
    var line: Int
    var message: String
    var kept: Int
    var testDescription: String { name }
  }

  static let badLines: [BadLine] = [
    BadLine(
      name: "garbage", lines: [header, first, "this is not json", second], line: 3,
      message: "not valid JSON", kept: 1),
    BadLine(
      name: "unknown version",
      lines: [#"{"format":"sessionengine-trace","version":3}"#, first], line: 1,
      message: "unsupported version 3 (reads 1 and 2)", kept: 0),
    BadLine(
      name: "version 0",
      lines: [#"{"format":"sessionengine-trace","version":0}"#, first], line: 1,
      message: "unsupported version 0 (reads 1 and 2)", kept: 0),
    BadLine(
      name: "missing header", lines: [first, second], line: 1,
      message: "expected a sessionengine-trace header", kept: 0),
    BadLine(
      name: "another format's header", lines: [#"{"format":"other","version":1}"#, first],
      line: 1, message: "expected a sessionengine-trace header", kept: 0),
    BadLine(
      name: "empty text", lines: [""], line: 1, message: "empty trace", kept: 0),
    BadLine(
      name: "sequence going backwards",
      lines: [header, second, first], line: 3, message: "sequence 1 does not follow 2", kept: 1),
    BadLine(
      name: "sequence repeated", lines: [header, first, first], line: 3,
      message: "sequence 1 does not follow 1", kept: 1),
    BadLine(
      name: "unknown event case",
      lines: [header, first, #"{"event":{"teleported":{}},"sequence":2,"timestamp":0}"#],
      line: 3, message: #"unknown event case "teleported""#, kept: 1),
    BadLine(
      name: "two event cases",
      lines: [header, #"{"event":{"initialized":{},"cleanedUp":{}},"sequence":1,"timestamp":0}"#],
      line: 2, message: "event must have exactly one key, the case name; found 2", kept: 0),
    BadLine(
      name: "missing timestamp",
      lines: [header, first, #"{"event":{"cleanedUp":{}},"sequence":2}"#], line: 3,
      message: "missing timestamp", kept: 1),
    BadLine(
      name: "missing event field",
      lines: [
        header, first, #"{"event":{"videoStatusChanged":{"user":4}},"sequence":2,"timestamp":0}"#,
      ],
      line: 3, message: "missing event.videoStatusChanged.isOn", kept: 1),
    BadLine(
      name: "wrong type",
      lines: [header, #"{"event":{"initialized":{}},"sequence":"one","timestamp":0}"#], line: 2,
      message: "sequence is not a UInt64", kept: 0),
    BadLine(
      name: "null field",
      lines: [
        header, first,
        #"{"event":{"hostChanged":{"newHost":null}},"sequence":2,"timestamp":0}"#,
      ],
      line: 3, message: "event.hostChanged.newHost is null; expected a UInt32", kept: 1),
    BadLine(
      name: "value out of range",
      lines: [
        header, first, #"{"event":{"shareSettingChanged":{"_0":9}},"sequence":2,"timestamp":0}"#,
      ],
      line: 3, message: "event.shareSettingChanged._0: Cannot initialize ShareSetting", kept: 1),
  ]

  @Test(arguments: badLines)
  func aBadVersion1LineIsReportedWithItsNumberAndTheEventsBeforeItAreKept(bad: BadLine) {
    let parsed = Trace.parse(bad.lines.joined(separator: "\n"))
    guard let error = parsed.error else {
      Issue.record("no error for \(bad.name)")
      return
    }
    #expect(error.line == bad.line)
    #expect(error.message.contains(bad.message), "message: \(error.message)")
    #expect(error.description.hasPrefix("trace line \(bad.line): "))
    #expect(parsed.trace.events.count == bad.kept)
  }

  @Test func aBadLineAfterBlankLinesKeepsItsRealLineNumber() {
    let parsed = Trace.parse([Self.header, "", Self.first, "", "", "{"].joined(separator: "\n"))
    #expect(parsed.error?.line == 6)
    #expect(parsed.trace.events.count == 1)
  }

  @Test func replayStopsAtARejectedEventAndReportsItsLine() {
    let trace = Trace(events: [
      AppliedEvent(sequence: 1, timestamp: 0, event: .initialized),
      AppliedEvent(
        sequence: 2, timestamp: 0, event: .joinRequested(sessionName: "A", userName: "B")),
      AppliedEvent(sequence: 3, timestamp: 0, event: .leaveRequested),
      AppliedEvent(sequence: 4, timestamp: 0, event: .cleanedUp),
    ])
    let store = SessionStore()
    let error = trace.replay(into: store)
    #expect(error?.line == 4)
    #expect(error?.message.contains("leaveRequested rejected (outOfPhase)") == true)
    #expect(store.appliedCount == 2)
    #expect(store.state.phase == .joining)
  }

  @Test func aParsedTraceWithARejectedEventReportsTheLineOfItsText() {
    let text = [
      Self.header, Self.first,
      #"{"event":{"initialized":{}},"sequence":2,"timestamp":0}"#,
    ].joined(separator: "\n")
    let parsed = Trace.parse(text)
    #expect(parsed.error == nil)
    let error = parsed.trace.replay(into: SessionStore())
    #expect(error?.line == 3)
  }
}

@Suite("Codable: states and events as JSON")
struct CodingTests {
  static func roundTrip<T: Codable>(_ value: T) throws -> T {
    try JSONDecoder().decode(T.self, from: JSONEncoder().encode(value))
  }

  @Test func aRichStateSurvivesARoundTrip() throws {
    let (_, state) = TraceTests.recordedClassroom()
    var rich = state
    applyAll(
      [
        .hostAskedUnmute(by: 4),
        .errorOccurred(error: .sessionAudioError, detail: 1),
        .shareSettingChanged(.multi),
        .shareStatusChanged(user: 5, status: .started, kind: .camera),
        .annotationPrivilegeChanged(shareOwner: 5, isViewerAnnotationDisabled: true),
        .chatPrivilegeChanged(.everyonePublicly),
      ], to: &rich)
    let decoded = try Self.roundTrip(rich)
    #expect(decoded == rich)
    #expect(decoded.orderedUserIDs == rich.orderedUserIDs)
    expectSound(decoded)
  }

  @Test(arguments: Phase.allCases)
  func everyPhaseSurvivesARoundTrip(phase: Phase) throws {
    let state = phase.state
    #expect(try Self.roundTrip(state) == state)
  }

  @Test func aDecodedStateBehavesLikeTheOriginal() throws {
    let original = SessionBuilder.classroom(sharing: 4).build()
    var decoded = try Self.roundTrip(original)
    var copy = original
    let events: [SessionEvent] = [
      .usersJoined([participant(6, role: .manager)]), .managerChanged(user: 4, isManager: true),
      .usersLeft([2]), .shareStatusChanged(user: 4, status: .stopped, kind: .view),
      .shareStatusChanged(user: 6, status: .started, kind: .view),
      .usersJoined([participant(7, joinOrder: 6)]),
    ]
    for event in events {
      #expect(copy.apply(event)?.code == decoded.apply(event)?.code)
      #expect(copy == decoded)
      #expect(copy.orderedUserIDs == decoded.orderedUserIDs)
    }
  }

  /// Breaks a valid encoded classroom state in one way.
  static let corruptions: [(String, @Sendable (inout [String: Any]) -> Void)] = [
    ("two hosts", { json in CodingTests.editParticipant(&json, 1) { $0["role"] = 0 } }),
    ("hostID naming a participant", { json in json["hostID"] = 4 }),
    ("myself absent while in session", { json in json["myselfID"] = 9 }),
    ("a speaker who is absent", { json in json["activeSpeakers"] = [9] }),
    (
      "a user listed twice",
      { json in
        var list = json["participants"] as? [[String: Any]] ?? []
        list.append(list[3])
        json["participants"] = list
      }
    ),
    (
      "two users with one join order",
      { json in CodingTests.editParticipant(&json, 4) { $0["joinOrder"] = 2 } }
    ),
    (
      "a sharer without a share",
      { json in CodingTests.editParticipant(&json, 4) { $0["shareStatus"] = 1 } }
    ),
    (
      "a chat message id twice",
      { json in
        let message: [String: Any] = ["id": "m", "sender": 1, "content": "x", "timestamp": 0]
        json["chatMessages"] = [message, message]
      }
    ),
  ]

  static func editParticipant(
    _ json: inout [String: Any], _ index: Int, _ edit: (inout [String: Any]) -> Void
  ) {
    var list = json["participants"] as? [[String: Any]] ?? []
    edit(&list[index])
    json["participants"] = list
  }

  @Test(arguments: corruptions.map(\.0))
  func decodingAnInconsistentStateFails(name: String) throws {
    let state = SessionBuilder.classroom.build()
    var json = try #require(
      try JSONSerialization.jsonObject(with: JSONEncoder().encode(state)) as? [String: Any])
    let corrupt = try #require(Self.corruptions.first { $0.0 == name }?.1)
    corrupt(&json)
    let data = try JSONSerialization.data(withJSONObject: json)
    #expect(throws: DecodingError.self) { try JSONDecoder().decode(SessionState.self, from: data) }
  }

  @Test func twoSharesOfOneOwnerFailToDecode() throws {
    var builder = SessionBuilder.classroom
    builder.shareSetting = .multi
    builder.startShare(of: 4)
    var json = try #require(
      try JSONSerialization.jsonObject(with: JSONEncoder().encode(builder.build()))
        as? [String: Any])
    let shares = json["shares"] as? [Any] ?? []
    json["shares"] = shares + shares
    let data = try JSONSerialization.data(withJSONObject: json)
    #expect(throws: DecodingError.self) { try JSONDecoder().decode(SessionState.self, from: data) }
  }

  @Test func userIDsAreBareNumbers() throws {
    #expect(String(decoding: try JSONEncoder().encode(UserID(42)), as: UTF8.self) == "42")
    #expect(try JSONDecoder().decode(UserID.self, from: Data("7".utf8)) == 7)
    #expect(UserID(5).description == "#5")
    #expect(UserID(3) < UserID(4))
  }

  /// Version 1 of the trace format: every event case the random generator exercises and its
  /// JSON, Swift's synthesized `Codable` (`Docs/TraceFormat.md` §8). Version-2 shapes are in
  /// `TraceV2Tests.eventJSON`.
  static let eventJSONVersion1: [(SessionEvent, String)] = [
    (.initialized, #"{"initialized":{}}"#),
    (.cleanedUp, #"{"cleanedUp":{}}"#),
    (
      .joinRequested(sessionName: "Algebra101", userName: "Ada"),
      #"{"joinRequested":{"sessionName":"Algebra101","userName":"Ada"}}"#
    ),
    (
      .sessionJoined(
        SessionSnapshot(
          sessionName: "Algebra101", sessionID: "s-1", myself: 3,
          participants: [participant(3, "Ada")], sequence: 12)),
      #"{"sessionJoined":{"_0":{"activeSpeakers":[],"chatPrivilege":1,"myself":3,"#
        + #""participants":[{"audio":{"isMuted":true,"isTalking":false,"type":0},"id":3,"#
        + #""isVideoOn":false,"joinOrder":3,"name":"Ada","networkQuality":0,"role":2,"#
        + #""shareStatus":0}],"sequence":12,"sessionID":"s-1","sessionName":"Algebra101","#
        + #""shareSetting":2,"shares":[]}}}"#
    ),
    (.joinFailed(error: .joinSessionInvalidPassword), #"{"joinFailed":{"error":1504}}"#),
    (.leaveRequested, #"{"leaveRequested":{}}"#),
    (.sessionLeft(reason: .endByHost), #"{"sessionLeft":{"reason":3}}"#),
    (
      .usersJoined([participant(6, "Dee", network: .good, customUserKey: "k")]),
      #"{"usersJoined":{"_0":[{"audio":{"isMuted":true,"isTalking":false,"type":0},"#
        + #""customUserKey":"k","id":6,"isVideoOn":false,"joinOrder":6,"name":"Dee","#
        + #""networkQuality":3,"role":2,"shareStatus":0}]}}"#
    ),
    (.usersLeft([6, 7]), #"{"usersLeft":{"_0":[6,7]}}"#),
    (.videoStatusChanged(user: 4, isOn: true), #"{"videoStatusChanged":{"isOn":true,"user":4}}"#),
    (
      .audioStatusChanged(user: 4, type: .voip, isMuted: false),
      #"{"audioStatusChanged":{"isMuted":false,"type":1,"user":4}}"#
    ),
    (.activeSpeakersChanged([1, 4]), #"{"activeSpeakersChanged":{"_0":[1,4]}}"#),
    (.hostAskedUnmute(by: 1), #"{"hostAskedUnmute":{"by":1}}"#),
    (
      .shareStatusChanged(user: 1, status: .started, kind: .view),
      #"{"shareStatusChanged":{"kind":0,"status":1,"user":1}}"#
    ),
    (.shareSettingChanged(.multi), #"{"shareSettingChanged":{"_0":3}}"#),
    (.hostChanged(newHost: 2), #"{"hostChanged":{"newHost":2}}"#),
    (
      .managerChanged(user: 4, isManager: true),
      #"{"managerChanged":{"isManager":true,"user":4}}"#
    ),
    (.nameChanged(user: 4, name: "Ben"), #"{"nameChanged":{"name":"Ben","user":4}}"#),
    (
      .annotationStarted(user: 3, shareOwner: 1),
      #"{"annotationStarted":{"shareOwner":1,"user":3}}"#
    ),
    (
      .annotationStopped(user: 3, shareOwner: 1),
      #"{"annotationStopped":{"shareOwner":1,"user":3}}"#
    ),
    (
      .annotationCleared(user: 1, shareOwner: 1, type: .all),
      #"{"annotationCleared":{"shareOwner":1,"type":0,"user":1}}"#
    ),
    (
      .annotationPrivilegeChanged(shareOwner: 1, isViewerAnnotationDisabled: true),
      #"{"annotationPrivilegeChanged":{"isViewerAnnotationDisabled":true,"shareOwner":1}}"#
    ),
    (
      .chatMessageReceived(
        ChatMessage(id: "m2", sender: 4, receiver: 1, content: "ok", timestamp: 5)),
      #"{"chatMessageReceived":{"_0":{"content":"ok","id":"m2","receiver":1,"sender":4,"#
        + #""timestamp":5}}}"#
    ),
    (
      .chatMessageDeleted(messageID: "m1", deletedBy: .host),
      #"{"chatMessageDeleted":{"deletedBy":2,"messageID":"m1"}}"#
    ),
    (.chatPrivilegeChanged(.everyonePublicly), #"{"chatPrivilegeChanged":{"_0":3}}"#),
    (
      .networkStatusChanged(user: 4, quality: .bad),
      #"{"networkStatusChanged":{"quality":1,"user":4}}"#
    ),
    (
      .errorOccurred(error: .sessionAudioError, detail: 3),
      #"{"errorOccurred":{"detail":3,"error":3000}}"#
    ),
    (
      .subSession(.userMoved(4, to: "1-2")),
      #"{"subSession":{"_0":{"userMoved":{"_0":4,"to":"1-2"}}}}"#
    ),
    (.recording(.agreed(4)), #"{"recording":{"_0":{"agreed":{"_0":4}}}}"#),
  ]

  @Test func everyVersion1ExampleIsOfAnotherCase() {
    let names = Self.eventJSONVersion1.map(\.0.name)
    #expect(Set(names).count == names.count)
    #expect(names.count == 29)
  }

  /// The synthesized `Codable` is version 1's JSON, and a version-1 trace line holding it
  /// reads as the event.
  @Test(arguments: eventJSONVersion1)
  func version1EventsEncodeAndReadAsBefore(event: SessionEvent, json: String) throws {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    #expect(String(decoding: try encoder.encode(event), as: UTF8.self) == json)
    #expect(try JSONDecoder().decode(SessionEvent.self, from: Data(json.utf8)) == event)
    let text = """
      {"format":"sessionengine-trace","version":1}
      {"event":\(json),"sequence":7,"timestamp":-3}
      """
    let parsed = Trace.parse(text)
    #expect(parsed.error == nil)
    #expect(parsed.trace.events == [AppliedEvent(sequence: 7, timestamp: -3, event: event)])
  }
}

@Suite("The classroom trace that sessionsim demo bundles")
struct BundledTraceTests {
  /// `Sources/sessionsim/Resources/classroom.jsonl`, found from this file's path.
  static func classroomText() throws -> String {
    let url = URL(fileURLWithPath: #filePath)
      .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("Sources/sessionsim/Resources/classroom.jsonl")
    return try String(contentsOf: url, encoding: .utf8)
  }

  @Test func theClassroomTraceParsesAndReplaysCleanly() throws {
    let parsed = Trace.parse(try Self.classroomText())
    #expect(parsed.error == nil)
    #expect(parsed.trace.header.source == "sessionsim classroom-trace")
    #expect(parsed.trace.header.version == 2)
    #expect(parsed.trace.header.users[101] == "Ms. Rivera")
    #expect(parsed.trace.header.users.count == 6)
    let store = SessionStore()
    var hosts: [UserID?] = []
    var sawAnnotation = false
    var sawChat = false
    store.addObserver { applied, state in
      if hosts.last != state.hostID { hosts.append(state.hostID) }
      if case .annotationStarted = applied.event { sawAnnotation = true }
      if case .chatMessageReceived = applied.event { sawChat = true }
    }
    #expect(parsed.trace.replay(into: store) == nil)
    #expect(store.appliedCount == UInt64(parsed.trace.events.count))
    #expect(store.state.phase == .left(.bySelf))
    // The teacher hosts, leaves, and the manager takes over; then I leave.
    #expect(hosts == [nil, 101, nil, 104, nil])
    #expect(sawAnnotation && sawChat)
  }

  @Test func theClassroomTraceIsWhatWritingItAgainGives() throws {
    // `sessionsim classroom-trace` writes it; writing the parsed trace gives the same text.
    let text = try Self.classroomText()
    #expect(Trace.parse(text).trace.jsonLines() == text)
  }
}
