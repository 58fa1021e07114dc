import Foundation
import Testing

@testable import SessionCore

/// Version 2 of the trace format (`Docs/TraceFormat.md`): every event case's JSON, enumeration
/// values by name, what a hand-written trace may leave out, and what a reader refuses.
@Suite("Trace format version 2: named fields, values by name, hand-written and hostile input")
struct TraceV2Tests {
  static let richSnapshot = SessionSnapshot(
    sessionName: "Algebra101", sessionID: "s-2", myself: 3,
    participants: [participant(1, "Teacher", role: .host), participant(3, "Ada")],
    shareSetting: .multi,
    shares: [
      ActiveShare(
        owner: 1, status: .paused, kind: .camera, isViewerAnnotationDisabled: true,
        annotators: [3, 1], clearCount: 2, startOrder: 1)
    ],
    chatPrivilege: .noOne, activeSpeakers: [1], spotlighted: [3],
    subSessions: SubSessionBoard(
      status: .started, list: [SubSession(id: "1-1", name: "Room A")], rooms: [3: "1-1"]),
    recording: RecordingBoard(status: .start, agreed: [3, 1]), sequence: 40)

  /// Every event case (and every subsession and recording case) and its version-2 JSON, as
  /// `Docs/TraceFormat.md` §5 shows them; some twice, with and without optional fields.
  static let eventJSON: [(SessionEvent, String)] = [
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
      #"{"sessionJoined":{"snapshot":{"myself":3,"participants":[{"id":3,"joinOrder":3,"#
        + #""name":"Ada"}],"sequence":12,"sessionID":"s-1","sessionName":"Algebra101"}}}"#
    ),
    (
      .sessionJoined(richSnapshot),
      #"{"sessionJoined":{"snapshot":{"activeSpeakers":[1],"chatPrivilege":"noOne","myself":3,"#
        + #""participants":[{"id":1,"joinOrder":1,"name":"Teacher","role":"host"},{"id":3,"#
        + #""joinOrder":3,"name":"Ada"}],"recording":{"agreed":[1,3],"status":"start"},"#
        + #""sequence":40,"sessionID":"s-2","sessionName":"Algebra101","shareSetting":"multi","#
        + #""shares":[{"annotators":[1,3],"clearCount":2,"isViewerAnnotationDisabled":true,"#
        + #""kind":"camera","owner":1,"startOrder":1,"status":"paused"}],"spotlighted":[3],"#
        + #""subSessions":{"list":[{"id":"1-1","name":"Room A"}],"rooms":[{"subSessionID":"1-1","#
        + #""user":3}],"status":"started"}}}}"#
    ),
    (
      .joinFailed(error: .joinSessionInvalidPassword),
      #"{"joinFailed":{"error":"joinSessionInvalidPassword"}}"#
    ),
    (.leaveRequested, #"{"leaveRequested":{}}"#),
    (.sessionLeft(reason: .endByHost), #"{"sessionLeft":{"reason":"endByHost"}}"#),
    (
      .usersJoined([participant(6, "Dee", network: .good, customUserKey: "k")]),
      #"{"usersJoined":{"users":[{"customUserKey":"k","id":6,"joinOrder":6,"name":"Dee","#
        + #""networkQuality":"good"}]}}"#
    ),
    (.usersLeft([6, 7]), #"{"usersLeft":{"users":[6,7]}}"#),
    (.videoStatusChanged(user: 4, isOn: true), #"{"videoStatusChanged":{"isOn":true,"user":4}}"#),
    (
      .audioStatusChanged(user: 4, type: .voip, isMuted: false),
      #"{"audioStatusChanged":{"isMuted":false,"type":"voip","user":4}}"#
    ),
    (.activeSpeakersChanged([1, 4]), #"{"activeSpeakersChanged":{"users":[1,4]}}"#),
    (.hostAskedUnmute(by: 1), #"{"hostAskedUnmute":{"by":1}}"#),
    (
      .shareStatusChanged(user: 1, status: .started, kind: .view),
      #"{"shareStatusChanged":{"kind":"view","status":"started","user":1}}"#
    ),
    (.shareSettingChanged(.multi), #"{"shareSettingChanged":{"setting":"multi"}}"#),
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
      #"{"annotationCleared":{"shareOwner":1,"type":"all","user":1}}"#
    ),
    (
      .annotationPrivilegeChanged(shareOwner: 1, isViewerAnnotationDisabled: true),
      #"{"annotationPrivilegeChanged":{"isViewerAnnotationDisabled":true,"shareOwner":1}}"#
    ),
    (
      .chatMessageReceived(
        ChatMessage(id: "m2", sender: 4, receiver: 1, content: "ok", timestamp: 5)),
      #"{"chatMessageReceived":{"message":{"content":"ok","id":"m2","receiver":1,"sender":4,"#
        + #""timestamp":5}}}"#
    ),
    (
      .chatMessageReceived(
        ChatMessage(
          id: "m1", sender: 1, receiver: nil, content: "Page 2/3 \"now\" ✓", timestamp: 9)),
      #"{"chatMessageReceived":{"message":{"content":"Page 2/3 \"now\" ✓","id":"m1","#
        + #""sender":1,"timestamp":9}}}"#
    ),
    (
      .chatMessageDeleted(messageID: "m1", deletedBy: .host),
      #"{"chatMessageDeleted":{"deletedBy":"host","messageID":"m1"}}"#
    ),
    (
      .chatPrivilegeChanged(.everyonePublicly),
      #"{"chatPrivilegeChanged":{"privilege":"everyonePublicly"}}"#
    ),
    (
      .networkStatusChanged(user: 4, quality: .bad),
      #"{"networkStatusChanged":{"quality":"bad","user":4}}"#
    ),
    (.spotlightChanged([4, 2]), #"{"spotlightChanged":{"users":[4,2]}}"#),
    (
      .commandReceived(sender: 2, content: "raise-hand"),
      #"{"commandReceived":{"content":"raise-hand","sender":2}}"#
    ),
    (
      .subSession(
        .statusChanged(
          .committed,
          [SubSession(id: "1-1", name: "Room A"), SubSession(id: "1-2", name: "Room B")])),
      #"{"subSession":{"statusChanged":{"list":[{"id":"1-1","name":"Room A"},{"id":"1-2","#
        + #""name":"Room B"}],"status":"committed"}}}"#
    ),
    (
      .subSession(.statusChanged(.withdrawn, [])),
      #"{"subSession":{"statusChanged":{"status":"withdrawn"}}}"#
    ),
    (
      .subSession(.userMoved(4, to: "1-2")),
      #"{"subSession":{"userMoved":{"to":"1-2","user":4}}}"#
    ),
    (.subSession(.userMoved(4, to: nil)), #"{"subSession":{"userMoved":{"user":4}}}"#),
    (
      .subSession(.broadcast(from: 1, message: "back in 5")),
      #"{"subSession":{"broadcast":{"from":1,"message":"back in 5"}}}"#
    ),
    (
      .subSession(.helpRequested(by: 4, subSessionID: "1-2")),
      #"{"subSession":{"helpRequested":{"by":4,"subSessionID":"1-2"}}}"#
    ),
    (
      .subSession(.helpResult(.hostAlreadyInSubSession)),
      #"{"subSession":{"helpResult":{"result":"hostAlreadyInSubSession"}}}"#
    ),
    (.recording(.statusChanged(.pause)), #"{"recording":{"statusChanged":{"status":"pause"}}}"#),
    (.recording(.agreed(4)), #"{"recording":{"agreed":{"user":4}}}"#),
    (
      .errorOccurred(error: .sessionAudioError, detail: 3),
      #"{"errorOccurred":{"detail":3,"error":"sessionAudioError"}}"#
    ),
  ]

  /// The case of an event, and of a subsession or recording event its inner case. A switch
  /// without `default`, so that a new case does not compile until it is counted here (and then
  /// ``everyCaseHasAPinnedExample()`` wants an example of it).
  static func caseName(_ event: SessionEvent) -> String {
    switch event {
    case .initialized, .cleanedUp, .joinRequested, .sessionJoined, .joinFailed, .leaveRequested,
      .sessionLeft, .usersJoined, .usersLeft, .videoStatusChanged, .audioStatusChanged,
      .activeSpeakersChanged, .hostAskedUnmute, .shareStatusChanged, .shareSettingChanged,
      .hostChanged, .managerChanged, .nameChanged, .annotationStarted, .annotationStopped,
      .annotationCleared, .annotationPrivilegeChanged, .chatMessageReceived, .chatMessageDeleted,
      .chatPrivilegeChanged, .networkStatusChanged, .spotlightChanged, .commandReceived,
      .errorOccurred:
      return event.name
    case .subSession(let inner):
      switch inner {
      case .statusChanged: return "subSession.statusChanged"
      case .userMoved: return "subSession.userMoved"
      case .broadcast: return "subSession.broadcast"
      case .helpRequested: return "subSession.helpRequested"
      case .helpResult: return "subSession.helpResult"
      }
    case .recording(let inner):
      switch inner {
      case .statusChanged: return "recording.statusChanged"
      case .agreed: return "recording.agreed"
      }
    }
  }

  static func encode(_ value: some TraceCodable) throws -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    return String(decoding: try encoder.encode(TraceBox(value)), as: UTF8.self)
  }

  static func decode<Value: TraceCodable>(_ json: String, as type: Value.Type) throws -> Value {
    try JSONDecoder().decode(TraceBox<Value>.self, from: Data(json.utf8)).value
  }

  @Test func everyCaseHasAPinnedExample() {
    let names = Set(Self.eventJSON.map { Self.caseName($0.0) })
    // 29 cases, plus subSession's 5 and recording's 2 in place of those two.
    #expect(names.count == 29 + 5 + 2)
    #expect(Set(Self.eventJSON.map(\.1)).count == Self.eventJSON.count)
  }

  @Test(arguments: eventJSON)
  func eventsWriteAndReadAsTheTraceFormatDocuments(event: SessionEvent, json: String) throws {
    #expect(try Self.encode(event) == json)
    #expect(try Self.decode(json, as: SessionEvent.self) == event)
    #expect(!json.contains(#""_0""#) && !json.contains(#""_1""#))
    let document = try TraceFormatDocTests.documentText()
    #expect(document.contains(json), "Docs/TraceFormat.md does not show \(json)")
    // And as a record line of a version-2 trace.
    let parsed = Trace.parse(
      #"{"format":"sessionengine-trace","version":2}"# + "\n"
        + #"{"event":\#(json),"sequence":7,"timestamp":-3}"#)
    #expect(parsed.error == nil)
    #expect(parsed.trace.events == [AppliedEvent(sequence: 7, timestamp: -3, event: event)])
  }

  @Test func participantsAreWrittenWithoutTheirDefaults() throws {
    let document = try TraceFormatDocTests.documentText()
    let plain = participant(6, "Dee", network: .good, customUserKey: "k")
    let full = participant(
      7, "Eve", role: .manager, joinOrder: 9, isVideoOn: true,
      audio: AudioStatus(type: .telephony, isMuted: false, isTalking: true),
      shareStatus: .started)
    for (value, json) in [
      (plain, #"{"customUserKey":"k","id":6,"joinOrder":6,"name":"Dee","networkQuality":"good"}"#),
      (
        full,
        #"{"audio":{"isMuted":false,"isTalking":true,"type":"telephony"},"id":7,"isVideoOn":true,"#
          + #""joinOrder":9,"name":"Eve","role":"manager","shareStatus":"started"}"#
      ),
    ] {
      #expect(try Self.encode(value) == json)
      #expect(try Self.decode(json, as: Participant.self) == value)
      #expect(document.contains(json))
    }
  }

  static func expectSwiftCaseNames<Value: TraceName>(_ type: Value.Type) throws {
    var names: Set<String> = []
    for value in Value.allCases {
      #expect(value.traceName == String(describing: value), "\(Value.self).\(value)")
      #expect(try decode("\"\(value.traceName)\"", as: Value.self) == value)
      #expect(try encode(value) == "\"\(value.traceName)\"")
      names.insert(value.traceName)
    }
    #expect(names.count == Value.allCases.count)
  }

  @Test func everyEnumerationValueIsItsSwiftCaseName() throws {
    try Self.expectSwiftCaseNames(Role.self)
    try Self.expectSwiftCaseNames(AudioType.self)
    try Self.expectSwiftCaseNames(ShareStatus.self)
    try Self.expectSwiftCaseNames(ShareSetting.self)
    try Self.expectSwiftCaseNames(ShareKind.self)
    try Self.expectSwiftCaseNames(AnnotationClearType.self)
    try Self.expectSwiftCaseNames(NetworkQuality.self)
    try Self.expectSwiftCaseNames(ChatPrivilege.self)
    try Self.expectSwiftCaseNames(ChatDeleteBy.self)
    try Self.expectSwiftCaseNames(LeaveReason.self)
    try Self.expectSwiftCaseNames(RecordingStatus.self)
    try Self.expectSwiftCaseNames(SubSessionStatus.self)
    try Self.expectSwiftCaseNames(SubSessionHelpResult.self)
    try Self.expectSwiftCaseNames(VideoSDKError.self)
    #expect(VideoSDKError.allCases.count == 101)
  }

  /// Random sessions, valid and invalid events alike: every generated event survives a
  /// version-2 round trip, and the recorded trace survives writing and reading.
  @Test(arguments: 0..<12)
  func randomEventsAndTracesSurviveARoundTrip(seed: Int) throws {
    var generator = EventGenerator(seed: UInt64(seed) &+ 77)
    var clock: Int64 = -5_000
    let store = SessionStore {
      clock += 7
      return clock
    }
    let recorder = TraceRecorder(store: store, source: "seed \(seed)")
    for _ in 0..<400 {
      let event = generator.next(for: store.state)
      let json = try Self.encode(event)
      #expect(try Self.decode(json, as: SessionEvent.self) == event, "\(json)")
      store.send(event)
    }
    let trace = recorder.trace
    let parsed = Trace.parse(trace.jsonLines())
    #expect(parsed.error == nil)
    #expect(parsed.trace == trace)
    let replica = SessionStore()
    #expect(parsed.trace.replay(into: replica) == nil)
    #expect(replica.state == store.state)
  }

  // MARK: - Hand-written input

  static let header2 = #"{"format":"sessionengine-trace","version":2}"#

  /// Lines a person might write, and the events they read as.
  struct Accepted: CustomTestStringConvertible, Sendable {
    var name: String
    var lines: [String]
    var events: [AppliedEvent]
    var testDescription: String { name }
  }

  static let accepted: [Accepted] = [
    Accepted(
      name: "no sequence or timestamp",
      lines: [#"{"event":{"initialized":{}}}"#, #"{"event":{"cleanedUp":{}}}"#],
      events: [
        AppliedEvent(sequence: 1, timestamp: 0, event: .initialized),
        AppliedEvent(sequence: 2, timestamp: 0, event: .cleanedUp),
      ]),
    Accepted(
      name: "a timestamp carries on; a sequence continues from the last",
      lines: [
        #"{"timestamp":500,"sequence":10,"event":{"initialized":{}}}"#,
        #"{"event":{"cleanedUp":{}}}"#, #"{"timestamp":-2,"event":{"initialized":{}}}"#,
      ],
      events: [
        AppliedEvent(sequence: 10, timestamp: 500, event: .initialized),
        AppliedEvent(sequence: 11, timestamp: 500, event: .cleanedUp),
        AppliedEvent(sequence: 12, timestamp: -2, event: .initialized),
      ]),
    Accepted(
      name: "any key order and spacing",
      lines: [#"  { "event" : { "videoStatusChanged" : { "user" : 4 , "isOn" : true } } }\#t"#],
      events: [
        AppliedEvent(sequence: 1, timestamp: 0, event: .videoStatusChanged(user: 4, isOn: true))
      ]),
    Accepted(
      name: "a participant with only its required fields",
      lines: [#"{"event":{"usersJoined":{"users":[{"name":"Ben","joinOrder":3,"id":3}]}}}"#],
      events: [
        AppliedEvent(
          sequence: 1, timestamp: 0,
          event: .usersJoined([
            Participant(id: 3, name: "Ben", audio: AudioStatus(), joinOrder: 3)
          ]))
      ]),
    Accepted(
      name: "null for an optional field with a default is the default",
      lines: [
        #"{"event":{"usersJoined":{"users":[{"id":3,"name":"Ben","joinOrder":3,"role":null,"#
          + #""audio":null}]}}}"#
      ],
      events: [
        AppliedEvent(
          sequence: 1, timestamp: 0,
          event: .usersJoined([Participant(id: 3, name: "Ben", joinOrder: 3)]))
      ]),
    Accepted(
      name: "audio with only its type is muted",
      lines: [
        #"{"event":{"usersJoined":{"users":[{"id":3,"name":"Ben","joinOrder":3,"#
          + #""audio":{"type":"voip"}}]}}}"#
      ],
      events: [
        AppliedEvent(
          sequence: 1, timestamp: 0,
          event: .usersJoined([
            Participant(
              id: 3, name: "Ben", audio: AudioStatus(type: .voip, isMuted: true), joinOrder: 3)
          ]))
      ]),
    Accepted(
      name: "null for an optional field is absent",
      lines: [
        #"{"event":{"chatMessageReceived":{"message":{"id":"m","sender":1,"receiver":null,"#
          + #""content":"hé \u00e9 \ud83d\ude00","timestamp":0}}}}"#
      ],
      events: [
        AppliedEvent(
          sequence: 1, timestamp: 0,
          event: .chatMessageReceived(
            ChatMessage(id: "m", sender: 1, receiver: nil, content: "hé é 😀", timestamp: 0)))
      ]),
    Accepted(
      name: "a snapshot with only its required fields",
      lines: [
        #"{"event":{"sessionJoined":{"snapshot":{"sessionName":"A","sessionID":"s","myself":2,"#
          + #""participants":[{"id":2,"name":"Ada","joinOrder":1}]}}}}"#
      ],
      events: [
        AppliedEvent(
          sequence: 1, timestamp: 0,
          event: .sessionJoined(
            SessionSnapshot(
              sessionName: "A", sessionID: "s", myself: 2,
              participants: [Participant(id: 2, name: "Ada", joinOrder: 1)])))
      ]),
    Accepted(
      name: "a share with only its owner",
      lines: [
        #"{"event":{"sessionJoined":{"snapshot":{"sessionName":"A","sessionID":"s","myself":2,"#
          + #""participants":[],"shares":[{"owner":2}],"subSessions":{},"#
          + #""recording":{"status":"start"}}}}}"#
      ],
      events: [
        AppliedEvent(
          sequence: 1, timestamp: 0,
          event: .sessionJoined(
            SessionSnapshot(
              sessionName: "A", sessionID: "s", myself: 2, participants: [],
              shares: [ActiveShare(owner: 2)], recording: RecordingBoard(status: .start))))
      ]),
    Accepted(
      name: "a move back to the main session, a status without a list",
      lines: [
        #"{"event":{"subSession":{"userMoved":{"user":4}}}}"#,
        #"{"event":{"subSession":{"statusChanged":{"status":"stopped"}}}}"#,
      ],
      events: [
        AppliedEvent(sequence: 1, timestamp: 0, event: .subSession(.userMoved(4, to: nil))),
        AppliedEvent(sequence: 2, timestamp: 0, event: .subSession(.statusChanged(.stopped, []))),
      ]),
    Accepted(
      name: "the largest numbers that fit",
      lines: [
        #"{"sequence":18446744073709551615,"timestamp":-9223372036854775808,"#
          + #""event":{"hostChanged":{"newHost":4294967295}}}"#
      ],
      events: [
        AppliedEvent(
          sequence: .max, timestamp: .min, event: .hostChanged(newHost: UserID(.max)))
      ]),
  ]

  @Test(arguments: accepted)
  func handWrittenLinesRead(example: Accepted) {
    let parsed = Trace.parse(([Self.header2] + example.lines).joined(separator: "\n"))
    #expect(parsed.error == nil, "\(parsed.error.map(String.init(describing:)) ?? "")")
    #expect(parsed.trace.events == example.events)
  }

  @Test func aHeaderMayLeaveOutUsersAndHaveKeysThisReaderDoesNotKnow() {
    let parsed = Trace.parse(
      #"{"recordedOn":"2026-09-01","version":2,"format":"sessionengine-trace","#
        + #""users":[{"name":"Ada","id":2}]}"#)
    #expect(parsed.error == nil)
    #expect(parsed.trace.header.users == [2: "Ada"])
    #expect(parsed.trace.header.source == nil)
    #expect(Trace.parse(Self.header2).trace.header.users.isEmpty)
  }

  @Test func writingAVersion1TraceConvertsItAndNamesTheUsersItsJoinsBringIn() throws {
    let version1 = """
      {"format":"sessionengine-trace","source":"t","version":1}
      {"event":{"initialized":{}},"sequence":1,"timestamp":0}
      {"event":{"sessionLeft":{"reason":3}},"sequence":2,"timestamp":5}
      {"event":{"usersJoined":{"_0":[{"audio":{"isMuted":true,"isTalking":false,"type":0},\
      "customUserKey":"k","id":6,"isVideoOn":false,"joinOrder":6,"name":"Dee","networkQuality":3,\
      "role":2,"shareStatus":0}]}},"sequence":3,"timestamp":5}

      """
    let version2 = """
      {"format":"sessionengine-trace","source":"t","users":[{"id":6,"name":"Dee"}],"version":2}
      {"event":{"initialized":{}},"sequence":1,"timestamp":0}
      {"event":{"sessionLeft":{"reason":"endByHost"}},"sequence":2,"timestamp":5}
      {"event":{"usersJoined":{"users":[{"customUserKey":"k","id":6,"joinOrder":6,"name":"Dee",\
      "networkQuality":"good"}]}},"sequence":3,"timestamp":5}

      """
    let parsed = Trace.parse(version1)
    #expect(parsed.error == nil)
    #expect(parsed.trace.header.version == 1)
    #expect(parsed.trace.header.users.isEmpty)
    #expect(parsed.trace.jsonLines() == version2)
    let converted = Trace.parse(version2)
    #expect(converted.trace.events == parsed.trace.events)
    #expect(converted.trace.header.version == 2)
    // Docs/TraceFormat.md §8 shows both.
    let document = try TraceFormatDocTests.documentText()
    for line in (version1 + version2).split(separator: "\n") {
      #expect(document.contains(line), "Docs/TraceFormat.md §8 lacks \(line)")
    }
  }

  // MARK: - Refused input

  /// A version-2 trace with a bad line, where it is, and what the error must say.
  struct Refused: CustomTestStringConvertible, Sendable {
    var name: String
    var lines: [String]
    var line: Int
    var message: String
    var testDescription: String { name }

    /// A header, a good record, then `record`: line 3, one event kept.
    init(_ name: String, _ record: String, _ message: String) {
      self.name = name
      lines = [TraceV2Tests.header2, #"{"event":{"initialized":{}}}"#, record]
      line = 3
      self.message = message
    }

    init(_ name: String, lines: [String], line: Int, _ message: String) {
      self.name = name
      self.lines = lines
      self.line = line
      self.message = message
    }
  }

  static func joined(_ participant: String) -> String {
    #"{"event":{"usersJoined":{"users":["# + participant + "]}}}"
  }

  static let refused: [Refused] = [
    Refused(
      "an unknown role", joined(#"{"id":3,"name":"B","joinOrder":3,"role":"hots"}"#),
      #"event.usersJoined.users[0].role: unknown Role "hots"; expected host, manager, participant"#
    ),
    Refused(
      "a role by a different case", joined(#"{"id":3,"name":"B","joinOrder":3,"role":"Host"}"#),
      #"unknown Role "Host""#),
    Refused(
      "a role by version 1's number", joined(#"{"id":3,"name":"B","joinOrder":3,"role":0}"#),
      "event.usersJoined.users[0].role is not a Role name (a string)"),
    Refused(
      "a null setting", #"{"event":{"shareSettingChanged":{"setting":null}}}"#,
      "event.shareSettingChanged.setting is null; expected none, locked, single, multi"),
    Refused(
      "an unknown error code", #"{"event":{"joinFailed":{"error":"sessionOops"}}}"#,
      #"event.joinFailed.error: unknown VideoSDKError "sessionOops"; expected a VideoSDKError"#),
    Refused(
      "a leave reason by number", #"{"event":{"sessionLeft":{"reason":3}}}"#,
      "event.sessionLeft.reason is not a LeaveReason name"),
    Refused(
      "a misspelt participant field",
      joined(#"{"id":3,"name":"B","joinOrder":3,"isvideoOn":true}"#),
      "event.usersJoined.users[0].isvideoOn: unknown key; a participant has audio, "
        + "customUserKey, id, isVideoOn, joinOrder, name, networkQuality, role, shareStatus"),
    Refused(
      "a misspelt event field",
      #"{"event":{"videoStatusChanged":{"user":4,"isOn":true,"isOff":false}}}"#,
      "event.videoStatusChanged.isOff: unknown key; the videoStatusChanged event has isOn, user"),
    Refused(
      "a misspelt record key", #"{"timestmap":4,"event":{"cleanedUp":{}}}"#,
      "timestmap: unknown key; a record has event, sequence, timestamp"),
    Refused(
      "a field in a case without fields", #"{"event":{"initialized":{"now":true}}}"#,
      "event.initialized.now: unknown key; the initialized event has no keys"),
    Refused(
      "version 1's _0 key", #"{"event":{"usersLeft":{"_0":[6]}}}"#,
      "missing event.usersLeft.users"),
    Refused(
      "a missing field", #"{"event":{"videoStatusChanged":{"user":4}}}"#,
      "missing event.videoStatusChanged.isOn"),
    Refused(
      "a missing participant field", joined(#"{"id":3,"name":"B"}"#),
      "missing event.usersJoined.users[0].joinOrder"),
    Refused(
      "a missing event", #"{"sequence":2}"#, "missing event"),
    Refused(
      "a null user", #"{"event":{"hostChanged":{"newHost":null}}}"#,
      "event.hostChanged.newHost is null"),
    Refused(
      "a user as a string", #"{"event":{"hostChanged":{"newHost":"4"}}}"#,
      "event.hostChanged.newHost is not a UInt32"),
    Refused(
      "a participant's name as a number", joined(#"{"id":3,"name":3,"joinOrder":3}"#),
      "event.usersJoined.users[0].name is not a string"),
    Refused(
      "a user too large", #"{"event":{"hostChanged":{"newHost":4294967296}}}"#,
      "event.hostChanged.newHost is 4294967296; expected a whole number from 0 to 4294967295"),
    Refused(
      "a negative user", #"{"event":{"hostChanged":{"newHost":-1}}}"#,
      "event.hostChanged.newHost is -1; expected a whole number from 0 to 4294967295"),
    Refused(
      "a fractional user", #"{"event":{"hostChanged":{"newHost":4.5}}}"#,
      "event.hostChanged.newHost is 4.5; expected a whole number"),
    Refused(
      "a huge user", #"{"event":{"hostChanged":{"newHost":1e400}}}"#,
      "event.hostChanged.newHost is too large a number"),
    Refused(
      "a negative user in a list", #"{"event":{"usersLeft":{"users":[1,-2]}}}"#,
      "event.usersLeft.users[1] is -2; expected a whole number from 0 to 4294967295"),
    Refused(
      "a sequence too large", #"{"sequence":18446744073709551616,"event":{"cleanedUp":{}}}"#,
      "sequence is 1.8446744073709552e+19; expected a whole number from 0 to"),
    Refused(
      "a timestamp too large", #"{"timestamp":9223372036854775808,"event":{"cleanedUp":{}}}"#,
      "timestamp is 9.223372036854776e+18; expected a whole number from -9223372036854775808"),
    Refused(
      "a join order too large", joined(#"{"id":3,"name":"B","joinOrder":1e20}"#),
      "event.usersJoined.users[0].joinOrder is 1e+20; expected a whole number"),
    Refused(
      "a string for a bool", #"{"event":{"videoStatusChanged":{"user":4,"isOn":"yes"}}}"#,
      "event.videoStatusChanged.isOn is not a Bool"),
    Refused(
      "a number for a list", #"{"event":{"usersLeft":{"users":6}}}"#,
      "event.usersLeft.users is not an array"),
    Refused(
      "a number for a participant", joined("3"),
      "event.usersJoined.users[0] is not an object (a participant)"),
    Refused(
      "an unknown event case", #"{"event":{"teleported":{}}}"#,
      #"event: unknown event case "teleported""#),
    Refused(
      "an unknown event case without an object", #"{"event":{"teleported":5}}"#,
      #"event: unknown event case "teleported""#),
    Refused(
      "two event cases", #"{"event":{"initialized":{},"cleanedUp":{}}}"#,
      "event must have exactly one key, the case name; found 2"),
    Refused(
      "no event case", #"{"event":{}}"#,
      "event must have exactly one key, the case name; found 0"),
    Refused(
      "an event by name alone", #"{"event":"initialized"}"#, "event is not an object (an event)"),
    Refused(
      "a case whose fields are not an object", #"{"event":{"initialized":[]}}"#,
      "event.initialized is not an object (the initialized event)"),
    Refused(
      "an unknown subsession case", #"{"event":{"subSession":{"teleported":{}}}}"#,
      #"event.subSession: unknown subSession case "teleported""#),
    Refused(
      "two subsession cases",
      #"{"event":{"subSession":{"helpResult":{"result":"busy"},"userMoved":{"user":1}}}}"#,
      "event.subSession must have exactly one key, the case name; found 2"),
    Refused(
      "a misspelt subsession field",
      #"{"event":{"subSession":{"userMoved":{"user":1,"too":"a"}}}}"#,
      "event.subSession.userMoved.too: unknown key; the userMoved subSession event has to, user"),
    Refused(
      "an unknown recording case", #"{"event":{"recording":{"started":{}}}}"#,
      #"event.recording: unknown recording case "started""#),
    Refused(
      "a user in two subsessions",
      #"{"event":{"sessionJoined":{"snapshot":{"sessionName":"A","sessionID":"s","myself":2,"#
        + #""participants":[],"subSessions":{"rooms":[{"user":3,"subSessionID":"a"},"#
        + #"{"user":3,"subSessionID":"b"}]}}}}}"#,
      "event.sessionJoined.snapshot.subSessions: rooms lists user 3 twice"),
    Refused("a record that is an array", "[1,2]", "the line is not an object (a record)"),
    Refused("a record that is a number", "42", "the line is not an object (a record)"),
    Refused("a record that is null", "null", "the line is not an object (a record)"),
    Refused("not JSON", #"{"event":"#, "not valid JSON"),
    Refused("text after the object", #"{"event":{"cleanedUp":{}}} {}"#, "not valid JSON"),
    Refused(
      "a sequence repeated after a sequence a reader gave",
      #"{"sequence":1,"event":{"cleanedUp":{}}}"#, "sequence 1 does not follow 1"),
    Refused(
      "no sequence after the largest",
      lines: [
        header2, #"{"sequence":18446744073709551615,"event":{"initialized":{}}}"#,
        #"{"event":{"cleanedUp":{}}}"#,
      ], line: 3, "missing sequence, and no sequence follows 18446744073709551615"),
    Refused(
      "a user listed twice in the header",
      lines: [
        #"{"format":"sessionengine-trace","version":2,"users":[{"id":4,"name":"A"},"#
          + #"{"id":4,"name":"B"}]}"#
      ], line: 1, "users: user 4 is listed twice"),
    Refused(
      "a header user without a name",
      lines: [#"{"format":"sessionengine-trace","version":2,"users":[{"id":4}]}"#], line: 1,
      "missing users[0].name"),
    Refused(
      "a misspelt header user key",
      lines: [
        #"{"format":"sessionengine-trace","version":2,"users":[{"id":4,"name":"A","nick":"B"}]}"#
      ],
      line: 1, "users[0].nick: unknown key; a user has id, name"),
    Refused(
      "a header user id too large",
      lines: [
        #"{"format":"sessionengine-trace","version":2,"users":[{"id":4294967296,"name":"A"}]}"#
      ],
      line: 1, "users[0].id is 4294967296; expected a whole number from 0 to 4294967295"),
    Refused(
      "a version as a string",
      lines: [#"{"format":"sessionengine-trace","version":"2"}"#], line: 1,
      "expected a sessionengine-trace header"),
    Refused(
      "an unknown version",
      lines: ["", #"{"format":"sessionengine-trace","version":3}"#], line: 2,
      "unsupported version 3 (reads 1 and 2)"),
  ]

  @Test(arguments: refused)
  func aBadVersion2LineIsReportedWithItsNumberAndWhatIsWrong(bad: Refused) {
    let parsed = Trace.parse(bad.lines.joined(separator: "\n"))
    guard let error = parsed.error else {
      Issue.record("no error for \(bad.name)")
      return
    }
    #expect(error.line == bad.line)
    #expect(error.message.contains(bad.message), "message: \(error.message)")
    #expect(error.description.hasPrefix("trace line \(bad.line): "))
    #expect(parsed.trace.events.count == max(0, bad.line - 2))
  }

  // MARK: - Hostile input

  @Test func deeplyNestedJSONIsAnErrorNotACrash() {
    for depth in [600, 100_000] {
      let nested = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
      for text in [
        nested,
        Self.header2 + "\n" + #"{"event":"# + nested + "}",
        Self.header2 + "\n" + #"{"event":{"usersLeft":{"users":"# + nested + "}}}",
        "{\"format\":\"sessionengine-trace\",\"version\":1}\n{\"event\":{\"x\":" + nested + "}}",
      ] {
        let parsed = Trace.parse(text)
        #expect(parsed.error != nil)
      }
    }
  }

  @Test func invalidUTF8AndControlCharactersAreErrorsNotCrashes() {
    var bytes = Array(Self.header2.utf8) + [0x0A]
    bytes += Array(#"{"event":{"nameChanged":{"user":4,"name":""#.utf8)
    bytes += [0xFF, 0xFE, 0xC3, 0x28, 0xED, 0xA0, 0x80]  // invalid UTF-8, a lone surrogate
    bytes += Array(#""}}}"#.utf8)
    let text = String(decoding: bytes, as: UTF8.self)
    let parsed = Trace.parse(text)
    // The bytes were repaired into U+FFFD when the text became a String: a valid name.
    #expect(parsed.error == nil)
    #expect(parsed.trace.events.count == 1)
    for record in [
      "{\"event\":{\"nameChanged\":{\"user\":4,\"name\":\"a\u{0}b\"}}}",
      #"{"event":{"nameChanged":{"user":4,"name":"\ud800"}}}"#,
      "{\"event\":{\"cleanedUp\":{}}}\u{0}",
      "\u{FEFF}{\"event\":{\"cleanedUp\":{}}}",
    ] {
      // Accepted or refused, but never a crash, and any error names line 2.
      let result = Trace.parse(Self.header2 + "\n" + record)
      #expect(result.error == nil || result.error?.line == 2)
    }
  }

  @Test func hugeValuesAreReadOrRefusedWithoutCrashing() {
    let long = String(repeating: "é", count: 200_000)
    let many = Array(repeating: "1", count: 50_000).joined(separator: ",")
    let records = [
      #"{"event":{"nameChanged":{"user":4,"name":"\#(long)"}}}"#,
      #"{"event":{"usersLeft":{"users":[\#(many)]}}}"#,
      #"{"event":{"hostChanged":{"newHost":\#(String(repeating: "9", count: 5_000))}}}"#,
      #"{"sequence":-0,"event":{"cleanedUp":{}}}"#,
      #"{"sequence":1e3,"event":{"cleanedUp":{}}}"#,
    ]
    for record in records {
      let parsed = Trace.parse(Self.header2 + "\n" + record)
      #expect(parsed.error == nil || parsed.error?.line == 2)
    }
    #expect(Trace.parse(Self.header2 + "\n" + records[0]).trace.events.count == 1)
    #expect(Trace.parse(Self.header2 + "\n" + records[1]).trace.events.count == 1)
  }

  /// Random damage to a recorded trace: whatever the reader makes of it, it does not crash,
  /// it names a line of the text, what it kept is in order, and writing what it kept and
  /// reading that again gives the same events.
  @Test(arguments: 0..<8)
  func damagedTracesAreReadUpToTheDamage(seed: Int) {
    let (trace, _) = TraceTests.recordedClassroom()
    let original = trace.jsonLines()
    var random = SimulationRandom(seed: UInt64(seed) &+ 1_000)
    let pieces: [String] = [
      "{", "}", "[", "]", "\"", ":", ",", "\\", "-", "0", "9", "e", "null", "true", "\"_0\"",
      "\"host\"", "\u{0}", "é", "\n", " ", "18446744073709551616",
    ]
    for _ in 0..<150 {
      var characters = Array(original)
      for _ in 0...random.below(4) {
        let at = random.below(characters.count)
        switch random.below(3) {
        case 0: characters.remove(at: at)
        case 1: characters.insert(contentsOf: pieces[random.below(pieces.count)], at: at)
        default:
          let end = min(characters.count, at + random.below(30))
          characters.removeSubrange(at..<end)
        }
      }
      let text = String(characters)
      let parsed = Trace.parse(text)
      let lineCount = text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)
        .count
      if let error = parsed.error {
        #expect(error.line >= 1 && error.line <= max(1, lineCount))
      }
      let sequences = parsed.trace.events.map(\.sequence)
      #expect(zip(sequences, sequences.dropFirst()).allSatisfy { $0 < $1 })
      let again = Trace.parse(parsed.trace.jsonLines())
      #expect(again.error == nil)
      #expect(again.trace.events == parsed.trace.events)
    }
  }

  /// Found by the trace fuzzer's round-trip check (`Fuzz/Regressions/trace/`): the reader broke
  /// lines at every character Unicode calls a line break, so a trace whose strings held U+2028,
  /// U+2029 or U+0085 (written unescaped, as JSON allows) did not read back.
  @Test(arguments: ["\u{2028}", "\u{2029}", "\u{85}"])
  func unicodeLineBreaksInStringsStayInTheirLine(_ lineBreak: String) {
    let trace = Trace(events: [
      AppliedEvent(sequence: 1, timestamp: 0, event: .initialized),
      AppliedEvent(
        sequence: 2, timestamp: 5,
        event: .joinRequested(sessionName: "a\(lineBreak)b", userName: "Ada\(lineBreak)")),
    ])
    let text = trace.jsonLines()
    #expect(text.contains(lineBreak))
    let parsed = Trace.parse(text)
    #expect(parsed.error == nil)
    #expect(parsed.trace.events == trace.events)
    // Only `\n` ends a line, so an error still names the line it is on.
    let bad = Trace.parse(text + "{\"event\":\"\(lineBreak)\"}\n")
    #expect(bad.error?.line == 4)
  }
}
