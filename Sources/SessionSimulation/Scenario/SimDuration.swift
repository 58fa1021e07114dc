/// A span of scenario time in milliseconds, written in scenario files as `"250ms"`, `"5s"`,
/// `"1.5s"`, `"2m"` or a plain number of milliseconds.
///
/// > Important: A value; `Sendable`.
public struct SimDuration: Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
  /// The span in milliseconds; never negative.
  public var milliseconds: Int64

  /// Makes a span.
  ///
  /// - Parameter milliseconds: The span; negative values are clamped to 0.
  public init(milliseconds: Int64) { self.milliseconds = max(0, milliseconds) }

  /// A span of whole milliseconds.
  ///
  /// - Parameter value: Milliseconds.
  /// - Returns: The span.
  public static func ms(_ value: Int64) -> SimDuration { SimDuration(milliseconds: value) }

  /// A span of seconds.
  ///
  /// - Parameter value: Seconds; fractions are kept to the millisecond.
  /// - Returns: The span.
  public static func seconds(_ value: Double) -> SimDuration {
    SimDuration(milliseconds: clampedMilliseconds(value * 1_000))
  }

  /// No time.
  public static let zero = SimDuration(milliseconds: 0)

  /// Whether `lhs` is the shorter span.
  ///
  /// - Parameters:
  ///   - lhs: A span.
  ///   - rhs: Another.
  /// - Returns: `lhs.milliseconds < rhs.milliseconds`.
  public static func < (lhs: SimDuration, rhs: SimDuration) -> Bool {
    lhs.milliseconds < rhs.milliseconds
  }

  /// The shortest text that reads back as this span: `"250ms"`, `"5s"`, `"2m"`.
  public var description: String {
    if milliseconds != 0, milliseconds % 60_000 == 0 { return "\(milliseconds / 60_000)m" }
    if milliseconds % 1_000 == 0 { return "\(milliseconds / 1_000)s" }
    return "\(milliseconds)ms"
  }

  /// Parses `"250ms"`, `"5s"`, `"1.5s"`, `"2m"`, `"1h"` or a bare number of milliseconds.
  ///
  /// - Parameter text: The text.
  /// - Returns: The span, or `nil` when the text is not one (negative, not a number, no unit
  ///   known, or beyond about 290 million years).
  public static func parse(_ text: String) -> SimDuration? {
    let trimmed = text.trimmingWhitespace
    let units: [(suffix: String, scale: Double)] = [
      ("ms", 1), ("s", 1_000), ("m", 60_000), ("h", 3_600_000),
    ]
    for unit in units where trimmed.hasSuffix(unit.suffix) {
      let number = trimmed.dropLast(unit.suffix.count)
      guard let value = Double(number), value.isFinite, value >= 0 else { return nil }
      return SimDuration(milliseconds: clampedMilliseconds(value * unit.scale))
    }
    guard let value = Double(trimmed), value.isFinite, value >= 0 else { return nil }
    return SimDuration(milliseconds: clampedMilliseconds(value))
  }

  /// Decodes the value from a scenario file.
  ///
  /// - Parameter decoder: The decoder.
  /// - Throws: `DecodingError` when the file does not say a valid value.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    if let number = try? container.decode(Double.self) {
      guard number.isFinite, number >= 0 else {
        throw DecodingError.dataCorruptedError(
          in: container, debugDescription: "a duration must be a non-negative number of ms")
      }
      self.init(milliseconds: Self.clampedMilliseconds(number))
      return
    }
    let text = try container.decode(String.self)
    guard let parsed = Self.parse(text) else {
      throw DecodingError.dataCorruptedError(
        in: container,
        debugDescription: "'\(text)' is not a duration (write 250ms, 5s, 1.5s or 2m)")
    }
    self = parsed
  }

  /// Encodes the value as a scenario file says it.
  ///
  /// - Parameter encoder: The encoder.
  /// - Throws: What the encoder throws.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(description)
  }

  /// `value` milliseconds as a whole number, saturating far beyond any run's length.
  static func clampedMilliseconds(_ value: Double) -> Int64 {
    guard value.isFinite else { return value > 0 ? Int64.max / 4 : 0 }
    return Int64(min(max(value.rounded(), 0), Double(Int64.max / 4)))
  }
}

/// A span drawn from a range: `"5s"`, or `{"from": "1s", "to": "20s"}`.
///
/// > Important: A value; `Sendable`.
public struct SimDurationRange: Sendable, Hashable, Codable, CustomStringConvertible {
  /// The shortest span.
  public var from: SimDuration
  /// The longest span; at least `from`.
  public var to: SimDuration

  /// Makes a range.
  ///
  /// - Parameters:
  ///   - from: The shortest span.
  ///   - to: The longest span; raised to `from` when shorter.
  public init(from: SimDuration, to: SimDuration) {
    self.from = from
    self.to = max(from, to)
  }

  /// A range of one span.
  ///
  /// - Parameter value: The span.
  /// - Returns: The range.
  public static func exactly(_ value: SimDuration) -> SimDurationRange {
    SimDurationRange(from: value, to: value)
  }

  /// A short description, for logs and reports.
  public var description: String { from == to ? "\(from)" : "\(from)...\(to)" }

  private enum CodingKeys: String, CodingKey { case from, to }

  /// Decodes the value from a scenario file.
  ///
  /// - Parameter decoder: The decoder.
  /// - Throws: `DecodingError` when the file does not say a valid value.
  public init(from decoder: any Decoder) throws {
    if let single = try? SimDuration(from: decoder) {
      self.init(from: single, to: single)
      return
    }
    let container = try decoder.container(keyedBy: CodingKeys.self)
    let lower = try container.decode(SimDuration.self, forKey: .from)
    let upper = try container.decode(SimDuration.self, forKey: .to)
    guard upper >= lower else {
      throw DecodingError.dataCorruptedError(
        forKey: .to, in: container, debugDescription: "'to' (\(upper)) is before 'from' (\(lower))")
    }
    self.init(from: lower, to: upper)
  }

  /// Encodes the value as a scenario file says it.
  ///
  /// - Parameter encoder: The encoder.
  /// - Throws: What the encoder throws.
  public func encode(to encoder: any Encoder) throws {
    if from == to {
      try from.encode(to: encoder)
    } else {
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(from, forKey: .from)
      try container.encode(to, forKey: .to)
    }
  }
}

extension String {
  var trimmingWhitespace: String {
    var text = Substring(self)
    while let first = text.first, first.isWhitespace { text.removeFirst() }
    while let last = text.last, last.isWhitespace { text.removeLast() }
    return String(text)
  }
}
