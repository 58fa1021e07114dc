@_spi(Package) import SessionCore
import SessionTransport
import Synchronization

/// The engine's log.
extension SDKEngine {
  func log(_ level: LogLevel, _ message: @autoclosure () -> String) {
    let keep = configuration?.enableLog ?? false
    guard keep || logHandler != nil else { return }
    let record = LogRecord(
      level: level, message: message(), label: "sdk", timestamp: clock.now())
    logHandler?(record)
    if keep {
      if recentLogs.count >= 256 { recentLogs.removeFirst(recentLogs.count - 255) }
      recentLogs.append(record)
    }
  }
}
