import SessionCore
import SessionTransport

/// One line of a loopback server's or link's log: the engine's one record shape,
/// ``SessionCore/LogRecord``, labelled `"loopback.server"` or `"loopback.link"`, with the
/// connection it is about (if any) in its metadata.
public typealias LoopbackLogRecord = LogRecord

/// Receives a loopback server's or link's log records. A server logs from its loop thread, a
/// link from its own loop: the handler may be called from any thread, so it is `@Sendable`.
public typealias LoopbackLogHandler = LogHandler

extension LogRecord {
  /// The levels, under the name the loopback transport's records have always used.
  public typealias Level = LogLevel

  /// A loopback record.
  ///
  /// - Parameters:
  ///   - level: How much it matters.
  ///   - message: What happened; text a peer chose is escaped before it gets here.
  ///   - connection: The server connection it is about, if any (metadata `connection`).
  ///   - label: `"loopback.server"` (the default) or `"loopback.link"`.
  public init(
    level: LogLevel, message: String, connection: ConnectionID? = nil,
    label: String = "loopback.server"
  ) {
    self.init(
      level: level, message: message, label: label,
      metadata: connection.map { ["connection": "\($0)"] } ?? [:])
  }

  /// The server connection the record is about, if it names one.
  public var connection: ConnectionID? {
    guard let text = metadata["connection"], text.first == "c",
      let raw = UInt64(text.dropFirst())
    else { return nil }
    return ConnectionID(raw)
  }
}
