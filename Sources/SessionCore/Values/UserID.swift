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
  ///
  /// - Parameter rawValue: The number the service gave the user.
  public init(rawValue: UInt32) { self.rawValue = rawValue }

  /// Creates an id from its numeric value.
  ///
  /// - Parameter rawValue: The number the service gave the user.
  public init(_ rawValue: UInt32) { self.rawValue = rawValue }

  /// Creates an id from an integer literal, which keeps tests and traces readable.
  ///
  /// - Parameter value: The number the service gave the user.
  public init(integerLiteral value: UInt32) { self.rawValue = value }

  /// Decodes an id from a bare number.
  ///
  /// - Parameter decoder: The decoder to read from.
  public init(from decoder: any Decoder) throws {
    rawValue = try decoder.singleValueContainer().decode(UInt32.self)
  }

  /// Encodes the id as a bare number.
  ///
  /// - Parameter encoder: The encoder to write to.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(rawValue)
  }

  /// Hashes the numeric value.
  ///
  /// - Parameter hasher: The hasher to feed the number to.
  public func hash(into hasher: inout Hasher) { hasher.combine(rawValue) }

  /// Hashes the numeric value in one step, as `UInt32` does: dictionaries keyed by user call
  /// this on every lookup, and the default (a `Hasher` fed by ``hash(into:)``) costs twice as
  /// much.
  ///
  /// - Parameter seed: The per-process seed the standard library passes.
  /// - Returns: The numeric value's hash for `seed`.
  public func _rawHashValue(seed: Int) -> Int { rawValue._rawHashValue(seed: seed) }

  /// Orders ids by their numeric value.
  ///
  /// - Parameters:
  ///   - lhs: An id.
  ///   - rhs: Another id.
  /// - Returns: `true` if `lhs` has the smaller number.
  public static func < (lhs: UserID, rhs: UserID) -> Bool { lhs.rawValue < rhs.rawValue }

  /// The id as `#` and its number, for logs.
  public var description: String { "#\(rawValue)" }
}
