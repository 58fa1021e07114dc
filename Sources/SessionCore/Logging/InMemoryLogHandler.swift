import Foundation

/// Keeps every record it is handed, for tests: `handler` is the ``LogHandler`` to install.
///
/// > Important: Thread-safe: records may arrive from any thread (a lock guards them).
public final class InMemoryLogHandler: @unchecked Sendable {
  // Unchecked Sendable: `records` is only touched under `lock`.
  private let lock = NSLock()
  private var stored: [LogRecord] = []

  /// An empty log.
  public init() {}

  /// The handler to install: it appends each record.
  public var handler: LogHandler {
    { [self] record in
      lock.lock()
      stored.append(record)
      lock.unlock()
    }
  }

  /// Every record so far, oldest first.
  public var records: [LogRecord] {
    lock.lock()
    defer { lock.unlock() }
    return stored
  }

  /// Returns the records so far and forgets them.
  ///
  /// - Returns: Every record since the last `take()` (or since creation), oldest first.
  public func take() -> [LogRecord] {
    lock.lock()
    defer {
      stored.removeAll()
      lock.unlock()
    }
    return stored
  }
}
