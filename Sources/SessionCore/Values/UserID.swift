/// The identifier the session service gives a user for the lifetime of one membership.
///
/// It mirrors `ZoomVideoSDKUser.getUserID()`. A user who leaves and joins again gets a new id.
/// Values are plain numbers; they encode as a bare JSON number.
public struct UserID: RawRepresentable, Hashable, Comparable, Sendable, Codable,
  ExpressibleByIntegerLiteral, CustomStringConvertible
{
  /// The numeric id.
  public var rawValue: UInt32

  /// Creates an id from its numeric value.
  public init(rawValue: UInt32) { self.rawValue = rawValue }

  /// Creates an id from its numeric value.
  public init(_ rawValue: UInt32) { self.rawValue = rawValue }

  /// Creates an id from an integer literal, which keeps tests and traces readable.
  public init(integerLiteral value: UInt32) { self.rawValue = value }

  /// Decodes an id from a bare number.
  public init(from decoder: any Decoder) throws {
    rawValue = try decoder.singleValueContainer().decode(UInt32.self)
  }

  /// Encodes the id as a bare number.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(rawValue)
  }

  /// Hashes the numeric value.
  public func hash(into hasher: inout Hasher) { hasher.combine(rawValue) }

  /// Hashes the numeric value in one step, as `UInt32` does: dictionaries keyed by user call
  /// this on every lookup, and the default (a `Hasher` fed by ``hash(into:)``) costs twice as
  /// much.
  public func _rawHashValue(seed: Int) -> Int { rawValue._rawHashValue(seed: seed) }

  /// Orders ids by their numeric value.
  public static func < (lhs: UserID, rhs: UserID) -> Bool { lhs.rawValue < rhs.rawValue }

  /// The id as `#` and its number, for logs.
  public var description: String { "#\(rawValue)" }
}
