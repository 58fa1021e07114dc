import Foundation
import Testing

@testable import SessionCore

/// `Docs/TraceFormat.md` opens with a hand-written trace; it must read and replay as the
/// document says. The document's value names and its complete example are checked here too;
/// its event examples are pinned by `TraceV2Tests`.
@Suite("Docs/TraceFormat.md: the opening example replays, the names and examples are true")
struct TraceFormatDocTests {
  /// `Docs/TraceFormat.md`, found from this file's path.
  static func documentText() throws -> String {
    let url = URL(fileURLWithPath: #filePath)
      .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("Docs/TraceFormat.md")
    return try String(contentsOf: url, encoding: .utf8)
  }

  /// The first ```jsonl (or ```json) block after the document's top heading.
  static func openingExample() throws -> String {
    let lines = try documentText().split(separator: "\n", omittingEmptySubsequences: false)
    let heading = try #require(lines.firstIndex { $0.hasPrefix("# ") })
    let fence = try #require(
      lines[heading...].firstIndex { $0 == "```jsonl" || $0 == "```json" })
    let end = try #require(lines[(fence + 1)...].firstIndex { $0.hasPrefix("```") })
    return lines[(fence + 1)..<end].joined(separator: "\n") + "\n"
  }

  @Test func theOpeningExampleIsTheFirstBlockAndAVersion2Trace() throws {
    let document = try Self.documentText()
    #expect(document.hasPrefix("# SessionEngine trace format, version 2\n"))
    let example = try Self.openingExample()
    let lines = example.split(separator: "\n")
    #expect((8...12).contains(lines.count))
    let parsed = Trace.parse(example)
    #expect(parsed.error == nil, "\(parsed.error.map(String.init(describing:)) ?? "")")
    #expect(parsed.trace.header.version == 2)
    #expect(parsed.trace.header.users == [1: "Ms. Rivera", 2: "Ada", 3: "Ben", 4: "Cleo"])
    // Written by hand: no sequence numbers, and not the writer's sorted keys.
    #expect(!example.contains(#""sequence""#))
    #expect(parsed.trace.events.map(\.sequence) == Array(1...UInt64(lines.count - 1)))
    #expect(example != parsed.trace.jsonLines())
  }

  @Test func theOpeningExampleReplaysIntoAStoreAsTheDocumentSays() throws {
    let parsed = Trace.parse(try Self.openingExample())
    let store = SessionStore()
    #expect(parsed.trace.replay(into: store) == nil)
    let state = store.state
    #expect(state.phase == .inSession)
    #expect(state.sessionName == "Algebra101")
    #expect(state.myselfID == 2)
    // Who is in: Ms. Rivera, Ada and Ben; Cleo joined and left.
    #expect(Set(state.participants.keys) == [1, 2, 3])
    #expect(state.participants[2]?.name == "Ada")
    #expect(state.hostID == 1)
    #expect(state.participants[1]?.role == .host)
    #expect(state.participants[1]?.isVideoOn == true)
    #expect(state.participants[3]?.isVideoOn == true)
    #expect(state.participants[2]?.isVideoOn == false)
    #expect(state.participants[3]?.audio == AudioStatus(type: .voip, isMuted: true))
    #expect(state.chatMessages.map(\.content) == ["Open the worksheet, question 3."])
    #expect(store.appliedCount == 8)
    #expect(state.checkInvariants().isEmpty)
  }

  /// Checks that §4's row for an enumeration lists every one of its names.
  static func expectDocumentedNames<Value: TraceName>(_ type: Value.Type) throws {
    let document = try documentText()
    let row = try #require(
      document.split(separator: "\n").first { $0.hasPrefix("| `\(Value.traceTypeName)` | ") },
      "Docs/TraceFormat.md §4 has no row for \(Value.traceTypeName)")
    for value in Value.allCases {
      #expect(row.contains("`\(value.traceName)`"), "\(Value.traceTypeName).\(value.traceName)")
    }
  }

  @Test func everyEnumerationValueIsListedByName() throws {
    try Self.expectDocumentedNames(Role.self)
    try Self.expectDocumentedNames(AudioType.self)
    try Self.expectDocumentedNames(ShareStatus.self)
    try Self.expectDocumentedNames(ShareSetting.self)
    try Self.expectDocumentedNames(ShareKind.self)
    try Self.expectDocumentedNames(AnnotationClearType.self)
    try Self.expectDocumentedNames(NetworkQuality.self)
    try Self.expectDocumentedNames(ChatPrivilege.self)
    try Self.expectDocumentedNames(ChatDeleteBy.self)
    try Self.expectDocumentedNames(LeaveReason.self)
    try Self.expectDocumentedNames(RecordingStatus.self)
    try Self.expectDocumentedNames(SubSessionStatus.self)
    try Self.expectDocumentedNames(SubSessionHelpResult.self)
  }

  @Test func theCompleteExampleIsTheStartOfTheBundledTrace() throws {
    // §9 shows the bundled trace's first lines wrapped for reading: a line that starts with a
    // space continues the one before.
    let document = try Self.documentText()
    let section = try #require(document.range(of: "## 9. A complete example"))
    let lines = document[section.upperBound...].split(separator: "\n")
    let fence = try #require(lines.firstIndex { $0 == "```" })
    let end = try #require(lines[(fence + 1)...].firstIndex { $0.hasPrefix("```") })
    var unwrapped: [String] = []
    for line in lines[(fence + 1)..<end] {
      if line.hasPrefix(" "), !unwrapped.isEmpty {
        unwrapped[unwrapped.count - 1] += line.dropFirst()
      } else {
        unwrapped.append(String(line))
      }
    }
    let bundled = try BundledTraceTests.classroomText().split(separator: "\n").map(String.init)
    #expect(unwrapped.count == 5)
    #expect(unwrapped == Array(bundled.prefix(unwrapped.count)))
  }
}
