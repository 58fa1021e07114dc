import SessionTransport

/// One line of a loopback server's or link's log: a level, a message, and the connection it is
/// about.
///
/// Shaped like a swift-log record so that a real logger can be plugged in with a one-line
/// adapter; tests collect records in memory.
///
/// A value; `Sendable`.
public struct LoopbackLogRecord: Sendable, Hashable, CustomStringConvertible {
  /// How much a record matters, as swift-log's levels.
  public enum Level: Int, Sendable, Hashable, Comparable, CustomStringConvertible {
    /// Detail for debugging.
    case debug
    /// Normal life: a connection opened or closed cleanly.
    case info
    /// Worth noticing: a connection closed for a protocol reason the peer caused.
    case notice
    /// A peer misbehaved or was too slow and was disconnected.
    case warning
    /// The transport itself failed (for example the listener could not accept).
    case error

    /// Orders levels from ``debug`` to ``error``.
    public static func < (lhs: Level, rhs: Level) -> Bool { lhs.rawValue < rhs.rawValue }

    /// The level's name, for example `"warning"`.
    public var description: String {
      switch self {
      case .debug: "debug"
      case .info: "info"
      case .notice: "notice"
      case .warning: "warning"
      case .error: "error"
      }
    }
  }

  /// How much the record matters.
  public var level: Level
  /// What happened, as a sentence for people.
  public var message: String
  /// The connection the record is about, if any.
  public var connection: ConnectionID?

  /// Creates a record.
  ///
  /// - Parameters:
  ///   - level: How much it matters.
  ///   - message: What happened.
  ///   - connection: The connection it is about, if any.
  public init(level: Level, message: String, connection: ConnectionID? = nil) {
    self.level = level
    self.message = message
    self.connection = connection
  }

  /// `"warning c3: closed: protocol error: …"`.
  public var description: String {
    if let connection { return "\(level) \(connection): \(message)" }
    return "\(level) \(message)"
  }
}

/// Receives a loopback server's or link's log records.
///
/// Called on the loop thread that produced the record; it must be quick (hand the record to a
/// buffer or a logger) and may be called from any loop, so it is `@Sendable`.
public typealias LoopbackLogHandler = @Sendable (LoopbackLogRecord) -> Void
