import Foundation

/// A recorded sequence of applied events in JSON Lines: a versioned header line, then one
/// ``AppliedEvent`` per line. See `Docs/TraceFormat.md`.
///
/// A value: build it by recording a store (``TraceRecorder``) or parsing text (``parse(_:)``),
/// replay it into any store (``replay(into:)``).
public struct Trace: Sendable, Hashable {
  /// The first line of every trace.
  public struct Header: Sendable, Codable, Hashable {
    /// Always ``Trace/formatName``.
    public var format: String
    /// The format version; readers refuse versions they do not know.
    public var version: Int
    /// Free text: what recorded the trace.
    public var source: String?

    /// Creates a header for the current version.
    ///
    /// - Parameter source: Free text naming what records the trace, or `nil` for none.
    public init(source: String? = nil) {
      format = Trace.formatName
      version = Trace.currentVersion
      self.source = source
    }
  }

  /// The `format` value of the header line.
  public static let formatName = "sessionengine-trace"
  /// The version this library writes and reads.
  public static let currentVersion = 1

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

  /// The trace as JSON Lines text, ending with a newline.
  ///
  /// - Returns: The header line, then one line per event, each line a JSON object.
  public func jsonLines() -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    var lines: [String] = []
    lines.reserveCapacity(events.count + 1)
    // Encoding these value types cannot fail: every field is a plain JSON value.
    lines.append(Self.line(encoder, header))
    for event in events { lines.append(Self.line(encoder, event)) }
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
  public struct ParseResult: Sendable {
    /// The events read (all of them, or those before ``error``).
    public var trace: Trace
    /// The first bad line, if any.
    public var error: TraceError?
  }

  /// Reads JSON Lines text. Blank lines are skipped. Reading stops at the first bad line; the
  /// events before it are kept.
  ///
  /// - Parameter text: The trace's JSON Lines text, with `\n` or `\r\n` line endings.
  /// - Returns: The trace read so far, and the first bad line's error (`nil` if none).
  public static func parse(_ text: String) -> ParseResult {
    let decoder = JSONDecoder()
    var trace = Trace()
    var sawHeader = false
    var lastSequence: UInt64 = 0
    var lineNumber = 0
    // `\r\n` is one Character, so splitting on newlines handles both line endings.
    for rawLine in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline) {
      lineNumber += 1
      let line = rawLine.trimmingCharacters(in: .whitespaces)
      if line.isEmpty { continue }
      let data = Data(line.utf8)
      if !sawHeader {
        guard let header = try? decoder.decode(Header.self, from: data),
          header.format == formatName
        else {
          return ParseResult(
            trace: trace,
            error: TraceError(line: lineNumber, message: "expected a \(formatName) header"))
        }
        guard header.version == currentVersion else {
          return ParseResult(
            trace: trace,
            error: TraceError(
              line: lineNumber,
              message: "unsupported version \(header.version) (reads \(currentVersion))"))
        }
        trace.header = header
        sawHeader = true
        continue
      }
      let event: AppliedEvent
      do {
        event = try decoder.decode(AppliedEvent.self, from: data)
      } catch {
        return ParseResult(
          trace: trace,
          error: TraceError(line: lineNumber, message: describe(error, line: data)))
      }
      guard event.sequence > lastSequence else {
        return ParseResult(
          trace: trace,
          error: TraceError(
            line: lineNumber,
            message: "sequence \(event.sequence) does not follow \(lastSequence)"))
      }
      lastSequence = event.sequence
      trace.events.append(event)
    }
    if !sawHeader {
      return ParseResult(trace: trace, error: TraceError(line: 1, message: "empty trace"))
    }
    return ParseResult(trace: trace, error: nil)
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

  /// What is wrong with a line that did not decode, in the trace's own terms.
  private static func describe(_ error: any Error, line: Data) -> String {
    guard let error = error as? DecodingError else { return "\(error)" }
    switch error {
    case .dataCorrupted(let context) where context.codingPath.isEmpty:
      return "not valid JSON"
    case .dataCorrupted(let context):
      return "\(path(context.codingPath)): \(context.debugDescription)"
    case .keyNotFound(let key, let context):
      return "missing \(path(context.codingPath + [key]))"
    case .typeMismatch(let type, let context):
      if type == SessionEvent.self, let keys = eventKeys(in: line) {
        return keys.count == 1
          ? "unknown event case \"\(keys[0])\""
          : "event must have exactly one key, the case name; found \(keys.count)"
      }
      return "\(path(context.codingPath)) is not a \(type)"
    case .valueNotFound(let type, let context):
      return "\(path(context.codingPath)) is null; expected a \(type)"
    @unknown default:
      return "\(error)"
    }
  }

  /// The keys of the line's `event` object, to name an unknown case.
  private static func eventKeys(in line: Data) -> [String]? {
    guard let object = try? JSONSerialization.jsonObject(with: line) as? [String: Any],
      let event = object["event"] as? [String: Any]
    else { return nil }
    return event.keys.sorted()
  }

  private static func path(_ keys: [any CodingKey]) -> String {
    keys.isEmpty ? "the line" : keys.map(\.stringValue).joined(separator: ".")
  }
}

/// Records what a store applies, as a ``Trace``.
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
    self.store = store
    token = store.addObserver { [weak self] applied, _ in self?.trace.events.append(applied) }
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
