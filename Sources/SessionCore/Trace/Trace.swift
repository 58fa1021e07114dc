import Foundation

/// A recorded sequence of applied events in JSON Lines: a versioned header line, then one
/// ``AppliedEvent`` per line. See `Docs/TraceFormat.md`.
///
/// ``jsonLines()`` writes version 2, which people can read and write by hand: named fields,
/// enumeration values by case name, the users' names in the header. ``parse(_:)`` reads
/// versions 1 and 2.
///
/// > Important: A value; `Sendable`. Build it by recording a store (``TraceRecorder``) or
/// > parsing text (``parse(_:)``), replay it into any store (``replay(into:)``).
public struct Trace: Sendable, Hashable {
  /// The first line of every trace.
  ///
  /// > Important: A value; `Sendable`.
  public struct Header: Sendable, Codable, Hashable {
    /// Always ``Trace/formatName``.
    public var format: String
    /// The format version: the one a parsed trace was written in, ``Trace/currentVersion``
    /// for a new trace. ``Trace/jsonLines()`` always writes the current version.
    public var version: Int
    /// Free text: what recorded the trace.
    public var source: String?
    /// The names of the users the trace mentions, by id, so that a person reading `"user": 4`
    /// can find who that is: each user's name when the recorder first saw them (present when
    /// recording started, or joining). Renames are events in the trace; replaying does not
    /// read this. Version 2 writes it in the header; a version-1 header has none.
    public var users: [UserID: String]

    /// Creates a header for the current version.
    ///
    /// - Parameter source: Free text naming what records the trace, or `nil` for none.
    public init(source: String? = nil) {
      format = Trace.formatName
      version = Trace.currentVersion
      self.source = source
      users = [:]
    }

    private enum CodingKeys: String, CodingKey {
      case format, version, source, users
    }

    /// Decodes a header line. A header of version 2 or later may list `users`, each id once;
    /// keys a header does not know are ignored.
    ///
    /// - Parameter decoder: The decoder to read from.
    /// - Throws: What the decoder throws for a missing or mistyped key, or
    ///   `DecodingError.dataCorrupted` for a user listed twice.
    public init(from decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: CodingKeys.self)
      format = try container.decode(String.self, forKey: .format)
      version = try container.decode(Int.self, forKey: .version)
      source = try container.decodeIfPresent(String.self, forKey: .source)
      users = [:]
      guard version >= 2,
        let list = try container.decodeIfPresent(TraceBox<[TraceUserName]>.self, forKey: .users)
      else { return }
      for user in list.value {
        guard users[user.id] == nil else {
          throw DecodingError.dataCorruptedError(
            forKey: .users, in: container,
            debugDescription: "user \(user.id.rawValue) is listed twice")
        }
        users[user.id] = user.name
      }
    }

    /// Encodes the header line: `source` when there is one, `users` (sorted by id) when there
    /// are any and the version is 2 or later.
    ///
    /// - Parameter encoder: The encoder to write to.
    /// - Throws: What the encoder throws.
    public func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(format, forKey: .format)
      try container.encode(version, forKey: .version)
      try container.encodeIfPresent(source, forKey: .source)
      if version >= 2, !users.isEmpty {
        let list = users.sorted { $0.key < $1.key }.map {
          TraceUserName(id: $0.key, name: $0.value)
        }
        try container.encode(TraceBox(list), forKey: .users)
      }
    }

    /// Notes the names of the users a join brings in, keeping names already known.
    mutating func learnNames(from event: SessionEvent) {
      switch event {
      case .sessionJoined(let snapshot): for user in snapshot.participants { learnName(of: user) }
      case .usersJoined(let users): for user in users { learnName(of: user) }
      default: break
      }
    }

    /// Notes a user's name unless one is known.
    mutating func learnName(of participant: Participant) {
      if users[participant.id] == nil { users[participant.id] = participant.name }
    }
  }

  /// The `format` value of the header line.
  public static let formatName = "sessionengine-trace"
  /// The version ``jsonLines()`` writes. ``parse(_:)`` reads this one and version 1.
  public static let currentVersion = 2
  /// The versions ``parse(_:)`` reads.
  static let readableVersions = 1...currentVersion

  /// The header.
  public var header: Header
  /// The events, in order.
  public var events: [AppliedEvent]

  /// Creates a trace.
  ///
  /// - Parameters:
  ///   - header: The header line; by default one for the current version with no source.
  ///   - events: The applied events, in order of their sequence numbers.
  public init(header: Header = Header(), events: [AppliedEvent] = []) {
    self.header = header
    self.events = events
  }

  /// The trace as JSON Lines text of the current version (2), ending with a newline.
  ///
  /// A trace parsed from version-1 text is written as version 2: this is how to convert one.
  /// The header's `users` gets the name of every user a join in the trace brings in that it
  /// does not name yet.
  ///
  /// - Returns: The header line, then one line per event, each line a JSON object.
  public func jsonLines() -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    var header = self.header
    header.version = Self.currentVersion
    for applied in events { header.learnNames(from: applied.event) }
    var lines: [String] = []
    lines.reserveCapacity(events.count + 1)
    // Encoding these value types cannot fail: every field is a plain JSON value.
    lines.append(Self.line(encoder, header))
    for applied in events { lines.append(Self.line(encoder, TraceBox(TraceRecord(applied)))) }
    return lines.joined(separator: "\n") + "\n"
  }

  private static func line(_ encoder: JSONEncoder, _ value: some Encodable) -> String {
    do {
      return String(decoding: try encoder.encode(value), as: UTF8.self)
    } catch {
      preconditionFailure("trace values always encode: \(error)")
    }
  }
}

/// A line of a trace that could not be read or applied.
///
/// > Important: A value; `Sendable`.
public struct TraceError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The 1-based line number.
  public var line: Int
  /// What is wrong with it.
  public var message: String

  /// Creates an error.
  ///
  /// - Parameters:
  ///   - line: The 1-based number of the bad line.
  ///   - message: What is wrong with it.
  public init(line: Int, message: String) {
    self.line = line
    self.message = message
  }

  /// The line number and message, for people.
  public var description: String { "trace line \(line): \(message)" }
}

extension Trace {
  /// The result of reading a trace: everything read before the first bad line, and that line's
  /// error if there was one.
  ///
  /// > Important: A value; `Sendable`.
  public struct ParseResult: Sendable {
    /// The events read (all of them, or those before ``error``).
    public var trace: Trace
    /// The first bad line, if any.
    public var error: TraceError?
  }

  /// Reads JSON Lines text of version 1 or 2. Blank lines are skipped. Reading stops at the
  /// first bad line; the events before it are kept.
  ///
  /// - Parameter text: The trace's JSON Lines text, with `\n` or `\r\n` line endings.
  /// - Returns: The trace read so far, and the first bad line's error (`nil` if none).
  public static func parse(_ text: String) -> ParseResult {
    var reader = Reader()
    var lineNumber = 0
    // Lines end at `\n` alone (a `\r` before it is dropped): the other characters Unicode calls
    // line breaks (U+2028, U+2029, U+0085) are text, which JSON strings hold unescaped, so a
    // chat message or a name with one in it stays on its line.
    let newline = UInt8(ascii: "\n")
    for rawLine in text.utf8.split(separator: newline, omittingEmptySubsequences: false) {
      lineNumber += 1
      let ending = rawLine.last == UInt8(ascii: "\r") ? rawLine.dropLast() : rawLine[...]
      let line = Substring(ending).trimmingCharacters(in: .whitespaces)
      if line.isEmpty { continue }
      if let message = reader.read(Data(line.utf8)) {
        return ParseResult(
          trace: reader.trace, error: TraceError(line: lineNumber, message: message))
      }
    }
    if reader.version == nil {
      return ParseResult(trace: reader.trace, error: TraceError(line: 1, message: "empty trace"))
    }
    return ParseResult(trace: reader.trace, error: nil)
  }

  /// Applies every event to a store, in order.
  ///
  /// - Parameter store: The store to send the events to.
  /// - Returns: The first event the store rejected, as a ``TraceError`` whose line is that
  ///   event's line in ``jsonLines()`` (the header is line 1); `nil` when all applied. Events
  ///   before it stay applied.
  @discardableResult
  public func replay(into store: SessionStore) -> TraceError? {
    for (index, applied) in events.enumerated() {
      if case .rejected(let rejection) = store.send(applied.event) {
        return TraceError(line: index + 2, message: rejection.description)
      }
    }
    return nil
  }

  /// Reads a trace's lines one at a time: the header, then records of its version.
  ///
  /// > Important: A value, used by one ``Trace/parse(_:)`` call.
  private struct Reader {
    var trace = Trace()
    /// The header's version, once the header is read.
    var version: Int?
    private var lastSequence: UInt64 = 0
    private var lastTimestamp: Int64 = 0
    private let decoder = JSONDecoder()

    /// Reads one non-blank line.
    ///
    /// - Parameter line: The line's UTF-8 text, without its line ending.
    /// - Returns: What is wrong with the line, or `nil` if it was read.
    mutating func read(_ line: Data) -> String? {
      guard let version else { return readHeader(line) }
      let applied: AppliedEvent
      do {
        if version == 1 {
          applied = try decoder.decode(AppliedEvent.self, from: line)
        } else {
          let record = try decoder.decode(TraceBox<TraceRecord>.self, from: line).value
          guard let sequence = record.sequence ?? nextSequence else {
            return "missing sequence, and no sequence follows \(lastSequence)"
          }
          applied = AppliedEvent(
            sequence: sequence, timestamp: record.timestamp ?? lastTimestamp, event: record.event)
        }
      } catch {
        return Self.describe(error, line: line, version: version)
      }
      guard applied.sequence > lastSequence else {
        return "sequence \(applied.sequence) does not follow \(lastSequence)"
      }
      lastSequence = applied.sequence
      lastTimestamp = applied.timestamp
      trace.events.append(applied)
      return nil
    }

    /// The sequence number an unnumbered record gets: one more than the last.
    private var nextSequence: UInt64? {
      lastSequence == .max ? nil : lastSequence + 1
    }

    /// Reads the header line.
    private mutating func readHeader(_ line: Data) -> String? {
      /// The keys that make a line a header, read before the rest.
      struct Probe: Decodable {
        var format: String
        var version: Int
      }
      guard let probe = try? decoder.decode(Probe.self, from: line), probe.format == formatName
      else { return "expected a \(formatName) header" }
      guard readableVersions.contains(probe.version) else {
        let readable = readableVersions.map(String.init).joined(separator: " and ")
        return "unsupported version \(probe.version) (reads \(readable))"
      }
      do {
        trace.header = try decoder.decode(Header.self, from: line)
      } catch {
        return TraceProblem.describe(error)
      }
      version = probe.version
      return nil
    }

    /// What is wrong with a record line that did not decode.
    private static func describe(_ error: any Error, line: Data, version: Int) -> String {
      // Version 1 decodes events with their synthesized `Codable`, which reports an unknown
      // case, or an event object with several keys, as a type mismatch on the event.
      if version == 1, case DecodingError.typeMismatch(let type, _) = error,
        type == SessionEvent.self, let keys = eventKeys(in: line)
      {
        return keys.count == 1
          ? "unknown event case \"\(keys[0])\""
          : "event must have exactly one key, the case name; found \(keys.count)"
      }
      return TraceProblem.describe(error)
    }

    /// The keys of the line's `event` object, to name an unknown case.
    private static func eventKeys(in line: Data) -> [String]? {
      struct Keys: Decodable {
        var event: [String: AnyDecodable]
      }
      struct AnyDecodable: Decodable {
        init(from decoder: any Decoder) throws {}
      }
      return (try? JSONDecoder().decode(Keys.self, from: line))?.event.keys.sorted()
    }
  }
}

/// Records what a store applies, as a ``Trace``, and the names of the users it mentions (those
/// present when recording starts and those who join after) in the trace's header.
///
/// > Important: Confined to the store's isolation domain, like the store.
public final class TraceRecorder {
  /// The trace so far.
  public private(set) var trace: Trace
  private weak var store: SessionStore?
  private var token: Int?

  /// Starts recording every event the store applies from now on.
  ///
  /// - Parameters:
  ///   - store: The store to record; the recorder does not keep it alive.
  ///   - source: Free text for the trace's header naming what recorded it, or `nil`.
  public init(store: SessionStore, source: String? = nil) {
    trace = Trace(header: Trace.Header(source: source))
    for participant in store.state.participants.values {
      trace.header.learnName(of: participant)
    }
    self.store = store
    token = store.addObserver { [weak self] applied, _ in self?.record(applied) }
  }

  private func record(_ applied: AppliedEvent) {
    trace.header.learnNames(from: applied.event)
    trace.events.append(applied)
  }

  /// Stops recording.
  public func stop() {
    if let token { store?.removeObserver(token) }
    token = nil
  }

  deinit {
    if let token { store?.removeObserver(token) }
  }
}
