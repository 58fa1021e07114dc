import SessionCore

/// The trace reader's harness: the input as the text of a trace (its bytes read as UTF-8, bad
/// sequences repaired), versions 1 and 2.
///
/// Whatever ``SessionCore/Trace/parse(_:)`` reads (a whole trace, or the events before the
/// first bad line): a bad line's number is one of the text's lines; the events' sequence
/// numbers increase; written again with ``SessionCore/Trace/jsonLines()`` it reads back with no
/// error to the same events and the same header, and writing that gives the same text. The
/// events are then applied to a fresh state: a rejected one changes nothing, and every state
/// keeps its invariants.
///
/// > Important: Stateless; each call works on the calling thread.
enum TraceFuzz {
  static func run(_ bytes: UnsafeRawBufferPointer) throws(FuzzFailure) {
    let text = String(decoding: bytes, as: UTF8.self)
    let result = Trace.parse(text)
    if let error = result.error {
      let lines = text.utf8.split(separator: 10, omittingEmptySubsequences: false).count
      try require(
        error.line >= 1 && error.line <= max(1, lines),
        "error on line \(error.line) of \(lines): \(error)")
      try require(!error.message.isEmpty, "an error without words")
    }
    let trace = result.trace
    var last: UInt64 = 0
    for applied in trace.events {
      try require(applied.sequence > last, "sequence \(applied.sequence) after \(last)")
      last = applied.sequence
    }

    // Written and read back.
    let written = trace.jsonLines()
    let again = Trace.parse(written)
    try require(
      again.error == nil,
      "written trace does not read back: \(String(describing: again.error))\n\(written.prefix(2_000))"
    )
    try require(
      again.trace.events == trace.events,
      "written trace reads back with other events:\n\(written.prefix(2_000))")
    var header = trace.header
    header.version = Trace.currentVersion
    for applied in trace.events {
      // The names a join brings in that the header does not know yet (as `jsonLines` adds).
      let joined: [Participant]
      switch applied.event {
      case .sessionJoined(let snapshot): joined = snapshot.participants
      case .usersJoined(let users): joined = users
      default: joined = []
      }
      for user in joined where header.users[user.id] == nil { header.users[user.id] = user.name }
    }
    try require(
      again.trace.header == header,
      "written trace reads back with header \(again.trace.header), not \(header)")
    try require(again.trace.jsonLines() == written, "writing a trace again changes it")

    // Applied to a state.
    var state = SessionState(chatHistoryLimit: 8)
    for applied in trace.events.prefix(200) {
      try ReducerFuzz.apply(applied.event, to: &state)
    }
  }
}
