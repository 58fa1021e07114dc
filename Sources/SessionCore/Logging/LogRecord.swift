/// How much a log record matters: swift-log's levels.
public enum LogLevel: Int, Sendable, Hashable, Codable, Comparable, CaseIterable,
  CustomStringConvertible
{
  /// Finest detail.
  case trace
  /// Detail for debugging.
  case debug
  /// Ordinary events.
  case info
  /// Events worth a look: a peer timed out, a connection was closed on purpose.
  case notice
  /// Something went wrong that the engine handled: bad input refused, a peer cut off.
  case warning
  /// Something went wrong that the engine could not handle.
  case error
  /// The engine cannot go on.
  case critical

  /// Whether `lhs` matters less than `rhs`.
  ///
  /// - Parameters:
  ///   - lhs: A level.
  ///   - rhs: Another level.
  /// - Returns: `true` if `lhs` is less severe than `rhs` (`trace` is the least severe).
  public static func < (lhs: LogLevel, rhs: LogLevel) -> Bool { lhs.rawValue < rhs.rawValue }

  /// The level's name, as swift-log spells it.
  public var description: String {
    switch self {
    case .trace: "trace"
    case .debug: "debug"
    case .info: "info"
    case .notice: "notice"
    case .warning: "warning"
    case .error: "error"
    case .critical: "critical"
    }
  }
}

/// One line of a log: the shape every part of the engine logs in (the service, the SDK, the
/// loopback transport), like a swift-log message, so that a real logger plugs in with one
/// closure and tests read records, not text.
///
/// > Important: A plain `Sendable` value.
public struct LogRecord: Sendable, Hashable, CustomStringConvertible {
  /// How much it matters.
  public var level: LogLevel
  /// What happened, in a sentence. Text a peer chose is escaped before it gets here.
  public var message: String
  /// Who logged it: `"service"`, `"sdk"`, `"loopback.server"`, `"loopback.link"`.
  public var label: String
  /// Structured context, for example `["connection": "c3"]`.
  public var metadata: [String: String]
  /// The logger's clock in milliseconds when the record was made, if it has one.
  public var timestamp: Int64?

  /// Creates a record.
  ///
  /// - Parameters:
  ///   - level: How much it matters.
  ///   - message: What happened.
  ///   - label: Who logged it.
  ///   - metadata: Structured context.
  ///   - timestamp: The logger's clock, in milliseconds.
  public init(
    level: LogLevel, message: String, label: String, metadata: [String: String] = [:],
    timestamp: Int64? = nil
  ) {
    self.level = level
    self.message = message
    self.label = label
    self.metadata = metadata
    self.timestamp = timestamp
  }

  /// `level label [key=value …]: message`.
  public var description: String {
    let context = metadata.keys.sorted().map { "\($0)=\(metadata[$0] ?? "")" }
    let head = ([level.description, label] + context).joined(separator: " ")
    return "\(head): \(message)"
  }
}

/// Receives log records. It may be called from any thread (a loop, a simulation), so it is
/// `@Sendable`; keep it fast or hand records off.
public typealias LogHandler = @Sendable (LogRecord) -> Void
