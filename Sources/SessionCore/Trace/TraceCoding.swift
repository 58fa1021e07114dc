import Foundation

// The machinery of version 2's JSON (`Docs/TraceFormat.md`): objects read field by field by
// name, so that an optional field can be omitted and an unknown one (a typo) is an error, and
// the errors a trace reader reports. It is a coding layer of its own: the value types keep
// their synthesized `Codable`, which snapshots, states and version-1 traces use.

/// A value as version 2 of the trace format writes it.
///
/// > Important: Implementations are values or pure functions: `Sendable` where the value is.
protocol TraceCodable {
  /// Reads the value from version-2 JSON.
  init(traceFrom decoder: any Decoder) throws
  /// Writes the value as version-2 JSON.
  func encodeTrace(to encoder: any Encoder) throws
}

/// Any ``TraceCodable`` value as a `Codable` one, to pass to `JSONEncoder`, `JSONDecoder` and
/// their containers.
///
/// > Important: A value.
struct TraceBox<Value: TraceCodable>: Codable {
  var value: Value

  init(_ value: Value) { self.value = value }

  init(from decoder: any Decoder) throws { value = try Value(traceFrom: decoder) }

  func encode(to encoder: any Encoder) throws { try value.encodeTrace(to: encoder) }
}

/// A key of a version-2 object: any string, so that a reader sees every key there is.
struct TraceKey: CodingKey {
  var stringValue: String
  var intValue: Int? { nil }

  init(_ string: String) { stringValue = string }
  init?(stringValue: String) { self.stringValue = stringValue }
  init?(intValue: Int) { nil }
}

/// What is wrong with a version-2 value that JSON decoding alone does not catch: an unknown
/// case name or key, a duplicate, a value of the wrong kind.
///
/// > Important: A value; `Sendable`.
struct TraceProblem: Error {
  /// Where, and what: `event.usersJoined.users[0].role: unknown Role "hots"; …`.
  var message: String

  /// - Parameters:
  ///   - codingPath: Where the bad value is.
  ///   - text: What is wrong with it.
  init(at codingPath: [any CodingKey], _ text: String) {
    message = codingPath.isEmpty ? text : "\(TraceProblem.path(codingPath)): \(text)"
  }

  /// - Parameters:
  ///   - codingPath: Where the bad value is.
  ///   - predicate: What is wrong with it, as the rest of a sentence whose subject is the
  ///     value: `is not an object`.
  init(_ codingPath: [any CodingKey], predicate: String) {
    message = "\(TraceProblem.path(codingPath)) \(predicate)"
  }

  /// A coding path as a trace error names it: keys joined by dots, array indices in brackets
  /// (`event.usersJoined.users[0].role`), or "the line" for the line itself.
  static func path(_ keys: [any CodingKey]) -> String {
    var text = ""
    for key in keys {
      if let index = key.intValue {
        text += "[\(index)]"
      } else {
        text += text.isEmpty ? key.stringValue : ".\(key.stringValue)"
      }
    }
    return text.isEmpty ? "the line" : text
  }

  /// A Swift type as JSON calls it, for "is not a …" messages.
  static func kind(_ type: Any.Type) -> String {
    let name = String(describing: type)
    if type == String.self { return "a string" }
    if name.hasPrefix("Dictionary<") { return "an object" }
    if name.hasPrefix("Array<") { return "an array" }
    return "a \(name)"
  }

  /// What is wrong with a line that did not decode, in the trace's own terms.
  ///
  /// - Parameter error: What decoding threw.
  /// - Returns: The message of the line's ``TraceError``.
  static func describe(_ error: any Error) -> String {
    if let problem = error as? TraceProblem { return problem.message }
    guard let error = error as? DecodingError else { return "\(error)" }
    switch error {
    case .dataCorrupted(let context) where context.codingPath.isEmpty:
      return "not valid JSON"
    case .dataCorrupted(let context):
      return "\(path(context.codingPath)): \(context.debugDescription)"
    case .keyNotFound(let key, let context):
      return "missing \(path(context.codingPath + [key]))"
    case .typeMismatch(let type, let context):
      return "\(path(context.codingPath)) is not \(kind(type))"
    case .valueNotFound(let type, let context):
      return "\(path(context.codingPath)) is null; expected \(kind(type))"
    @unknown default:
      return "\(error)"
    }
  }
}

// MARK: - Objects

/// The fields of one version-2 object, read by name. It remembers which names were read, so
/// that ``finish()`` can refuse a key nobody asked for.
///
/// It opens the object on first use, so that a case's name is checked before its value.
///
/// > Important: A value, used on one thread while one object is read.
struct TraceFields {
  private let decoder: any Decoder
  private var opened: KeyedDecodingContainer<TraceKey>?
  private var known: [String] = []
  private let what: String

  /// Prepares to read an object.
  ///
  /// - Parameters:
  ///   - decoder: The decoder at the object.
  ///   - what: What the object is, for errors: `a participant`.
  init(_ decoder: any Decoder, what: String) {
    self.decoder = decoder
    self.what = what
  }

  /// The object, opened on first use.
  ///
  /// - Throws: ``TraceProblem`` if the value is not an object.
  private mutating func container() throws -> KeyedDecodingContainer<TraceKey> {
    if let opened { return opened }
    do {
      let container = try decoder.container(keyedBy: TraceKey.self)
      opened = container
      return container
    } catch DecodingError.typeMismatch, DecodingError.valueNotFound {
      throw TraceProblem(decoder.codingPath, predicate: "is not an object (\(what))")
    }
  }

  /// A required field.
  ///
  /// - Parameter key: The field's name.
  /// - Returns: Its value.
  /// - Throws: `DecodingError.keyNotFound` if it is absent, or what reading it throws.
  mutating func callAsFunction<Value: TraceCodable>(_ key: String) throws -> Value {
    known.append(key)
    return try container().decode(TraceBox<Value>.self, forKey: TraceKey(key)).value
  }

  /// An optional field: absent or `null` is `value`.
  ///
  /// - Parameters:
  ///   - key: The field's name.
  ///   - value: The value when the field is absent.
  /// - Returns: Its value, or `value`.
  /// - Throws: What reading a present field throws.
  mutating func callAsFunction<Value: TraceCodable>(
    _ key: String, default value: Value
  ) throws -> Value {
    try optional(key) ?? value
  }

  /// An optional field without a default.
  ///
  /// - Parameter key: The field's name.
  /// - Returns: Its value, or `nil` if it is absent or `null`.
  /// - Throws: What reading a present field throws.
  mutating func optional<Value: TraceCodable>(_ key: String) throws -> Value? {
    known.append(key)
    return try container().decodeIfPresent(TraceBox<Value>.self, forKey: TraceKey(key))?.value
  }

  /// The one key of an object that holds a case, such as the `event` object.
  ///
  /// - Parameter what: The kind of case, for errors: `event`.
  /// - Returns: The case name and the fields of its value, not yet opened.
  /// - Throws: ``TraceProblem`` if the value is not an object, or has no key or several.
  mutating func onlyCase(of what: String) throws -> (name: String, fields: TraceFields) {
    let container = try container()
    let keys = container.allKeys
    guard keys.count == 1, let key = keys.first else {
      throw TraceProblem(
        container.codingPath,
        predicate: "must have exactly one key, the case name; found \(keys.count)")
    }
    let value = try container.superDecoder(forKey: key)
    return (key.stringValue, TraceFields(value, what: "the \(key.stringValue) \(what)"))
  }

  /// Refuses any key the reader did not ask for.
  ///
  /// - Throws: ``TraceProblem`` naming the first unknown key, in sorted order, or if the value
  ///   is not an object.
  mutating func finish() throws {
    let container = try container()
    let unknown = container.allKeys.filter { !known.contains($0.stringValue) }
    guard let key = unknown.min(by: { $0.stringValue < $1.stringValue }) else { return }
    let keys = known.isEmpty ? "no keys" : known.sorted().joined(separator: ", ")
    throw TraceProblem(at: container.codingPath + [key], "unknown key; \(what) has \(keys)")
  }

  /// Where the object is.
  var codingPath: [any CodingKey] { decoder.codingPath }
}

/// The fields of one version-2 object, written by name.
///
/// > Important: A value, used on one thread while one object is written.
struct TraceFieldWriter {
  private var container: KeyedEncodingContainer<TraceKey>

  init(_ container: KeyedEncodingContainer<TraceKey>) { self.container = container }

  init(_ encoder: any Encoder) { container = encoder.container(keyedBy: TraceKey.self) }

  /// Writes a field.
  mutating func callAsFunction<Value: TraceCodable>(_ key: String, _ value: Value) throws {
    try container.encode(TraceBox(value), forKey: TraceKey(key))
  }

  /// Writes a field unless it has its default value, which readers assume when it is absent.
  mutating func callAsFunction<Value: TraceCodable & Equatable>(
    _ key: String, _ value: Value, default defaultValue: Value
  ) throws {
    if value != defaultValue { try self(key, value) }
  }

  /// Writes a field unless it is `nil`.
  mutating func optional<Value: TraceCodable>(_ key: String, _ value: Value?) throws {
    if let value { try self(key, value) }
  }

  /// The fields of a case, under its name: `{"name": {…}}`.
  mutating func nested(_ key: String) -> TraceFieldWriter {
    TraceFieldWriter(container.nestedContainer(keyedBy: TraceKey.self, forKey: TraceKey(key)))
  }
}

/// A structure that version 2 writes as an object of named fields.
protocol TraceObject: TraceCodable {
  /// What it is, for errors: `a participant`.
  static var traceDescription: String { get }
  /// Reads the fields; ``TraceFields/finish()`` runs after.
  init(traceFields fields: inout TraceFields) throws
  /// Writes the fields.
  func writeTraceFields(to fields: inout TraceFieldWriter) throws
}

extension TraceObject {
  init(traceFrom decoder: any Decoder) throws {
    var fields = TraceFields(decoder, what: Self.traceDescription)
    try self.init(traceFields: &fields)
    try fields.finish()
  }

  func encodeTrace(to encoder: any Encoder) throws {
    var fields = TraceFieldWriter(encoder)
    try writeTraceFields(to: &fields)
  }
}

// MARK: - Plain values and arrays

/// A value version 2 writes as its own `Codable` does: numbers, strings, booleans, user ids.
protocol TracePlain: TraceCodable, Codable {}

extension TracePlain {
  init(traceFrom decoder: any Decoder) throws {
    self = try decoder.singleValueContainer().decode(Self.self)
  }

  func encodeTrace(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(self)
  }
}

extension String: TracePlain {}
extension Bool: TracePlain {}

/// An integer: a JSON number that is a whole number within the type's range.
protocol TraceInteger: TracePlain, FixedWidthInteger {}

extension TraceInteger {
  init(traceFrom decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    do {
      self = try container.decode(Self.self)
    } catch let error as DecodingError {
      throw error
    } catch {
      // Foundation reports a number that is no `Self` (too large, negative, fractional) with
      // an error of its own, which the decoder turns into "not JSON" without a path: say
      // where, and what the number is.
      let range = "expected a whole number from \(Self.min) to \(Self.max)"
      guard let number = try? container.decode(Double.self), number.isFinite else {
        throw TraceProblem(decoder.codingPath, predicate: "is too large a number; \(range)")
      }
      let text =
        number == number.rounded() && abs(number) < 1e18 ? "\(Int64(number))" : "\(number)"
      throw TraceProblem(decoder.codingPath, predicate: "is \(text); \(range)")
    }
  }
}

extension Int: TraceInteger {}
extension Int64: TraceInteger {}
extension UInt32: TraceInteger {}
extension UInt64: TraceInteger {}

extension UserID: TraceCodable {
  init(traceFrom decoder: any Decoder) throws {
    self.init(rawValue: try UInt32(traceFrom: decoder))
  }

  func encodeTrace(to encoder: any Encoder) throws { try rawValue.encodeTrace(to: encoder) }
}

extension Array: TraceCodable where Element: TraceCodable {
  init(traceFrom decoder: any Decoder) throws {
    var container: any UnkeyedDecodingContainer
    do {
      container = try decoder.unkeyedContainer()
    } catch DecodingError.typeMismatch, DecodingError.valueNotFound {
      throw TraceProblem(decoder.codingPath, predicate: "is not an array")
    }
    var elements: [Element] = []
    while !container.isAtEnd {
      elements.append(try container.decode(TraceBox<Element>.self).value)
    }
    self = elements
  }

  func encodeTrace(to encoder: any Encoder) throws {
    var container = encoder.unkeyedContainer()
    for element in self { try container.encode(TraceBox(element)) }
  }
}

// MARK: - Enumerations by case name

/// An enumeration without payload that version 2 writes as its case name: `"host"`.
protocol TraceName: TraceCodable, CaseIterable, Equatable {
  /// The type's name, for errors: `Role`.
  static var traceTypeName: String { get }
  /// The case's name in traces: the Swift case name.
  var traceName: String { get }
}

extension TraceName {
  init(traceFrom decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    let expected: String
    if Self.allCases.count <= 12 {
      expected = "expected " + Self.allCases.map(\.traceName).joined(separator: ", ")
    } else {
      expected = "expected a \(Self.traceTypeName) case name (Docs/TraceFormat.md)"
    }
    if container.decodeNil() {
      throw TraceProblem(decoder.codingPath, predicate: "is null; \(expected)")
    }
    guard let name = try? container.decode(String.self) else {
      throw TraceProblem(
        decoder.codingPath,
        predicate: "is not a \(Self.traceTypeName) name (a string); \(expected)")
    }
    guard let value = Self.allCases.first(where: { $0.traceName == name }) else {
      throw TraceProblem(
        at: decoder.codingPath, "unknown \(Self.traceTypeName) \"\(name)\"; \(expected)")
    }
    self = value
  }

  func encodeTrace(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(traceName)
  }
}
