/// One line an SDK instance logged.
public struct SDKLogRecord: Sendable, Hashable, CustomStringConvertible {
  /// How much the line matters.
  public enum Level: String, Sendable, Hashable, Codable, Comparable {
    /// Routine detail.
    case debug
    /// Something noteworthy that is not a problem.
    case info
    /// Something unexpected that the instance handled (a duplicate or rejected event).
    case warning

    /// Orders levels by severity.
    public static func < (lhs: Level, rhs: Level) -> Bool { lhs.rank < rhs.rank }

    private var rank: Int {
      switch self {
      case .debug: 0
      case .info: 1
      case .warning: 2
      }
    }
  }

  /// How much the line matters.
  public var level: Level
  /// The text.
  public var message: String
  /// When, in milliseconds of the instance's clock.
  public var timestamp: Int64

  /// Creates a record.
  public init(level: Level, message: String, timestamp: Int64) {
    self.level = level
    self.message = message
    self.timestamp = timestamp
  }

  /// The level and message, for people.
  public var description: String { "[\(level.rawValue)] \(message)" }
}
