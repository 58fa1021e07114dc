import SessionCore
import SessionTransport
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A token bucket for one connection's log lines: `burst` lines at once, then `perSecond`
/// lines a second; lines beyond it are counted, not logged.
///
/// A peer decides how often the server has something to say about it (a bad resume every
/// millisecond is a line every millisecond): the bucket keeps one peer from flooding the log,
/// and the count of what it held back is logged once lines flow again.
///
/// > Important: A value; owned by whoever logs about the connection (a ``ServerConnection``
/// > on the server's loop, or a ``LoopbackLogLimiter`` under its lock).
package struct LogTokenBucket: Sendable, Hashable {
  /// The most lines logged at once.
  package let burst: Int
  /// Lines the bucket refills per second.
  package let perSecond: Int
  /// Tokens, in thousandths of a line.
  private var milliTokens: Int
  /// When the tokens were last counted (milliseconds, any monotonic clock).
  private var last: UInt64
  /// Lines held back since the last one logged.
  package private(set) var suppressed = 0

  /// A full bucket at time `now`.
  ///
  /// - Parameters:
  ///   - burst: The most lines at once; at least 1.
  ///   - perSecond: The lines a second after the burst; at least 1.
  ///   - now: The time, in milliseconds.
  package init(burst: Int, perSecond: Int, now: UInt64) {
    self.burst = max(burst, 1)
    self.perSecond = max(perSecond, 1)
    self.milliTokens = self.burst * 1_000
    self.last = now
  }

  /// Whether a line may be logged at `now`.
  ///
  /// - Parameter now: The time, in milliseconds, on the clock `init` got.
  /// - Returns: `nil` if the line is held back (and counted); otherwise the number of lines
  ///   held back before it (0 mostly), which the caller reports before the line.
  package mutating func admit(now: UInt64) -> Int? {
    if now > last {
      let elapsed = min(now - last, UInt64(burst) * 1_000)
      milliTokens = min(milliTokens + Int(elapsed) * perSecond, burst * 1_000)
      last = now
    }
    guard milliTokens >= 1_000 else {
      suppressed += 1
      return nil
    }
    milliTokens -= 1_000
    defer { suppressed = 0 }
    return suppressed
  }

  /// Whether the bucket is full and holds nothing back at `now`: it can be forgotten.
  package func isIdle(now: UInt64) -> Bool {
    suppressed == 0
      && milliTokens + Int(min(now &- last, UInt64(burst) * 1_000)) * perSecond
        >= burst * 1_000
  }

  /// The summary line for `count` held-back lines.
  package static func summary(_ count: Int) -> String {
    "\(count) log line\(count == 1 ? "" : "s") about this connection suppressed (rate limit)"
  }
}

/// Rate-limits log records per connection, for a log a peer can make grow: the service's
/// (`sessionsim serve` puts its records through one), or any host's that names connections.
///
/// A record is about a connection when its metadata says so (`connection`: `c7`, as
/// `LoopbackLogRecord/connection`), or its message starts with the connection's name and a
/// colon (`c7: resume of u3 refused`, as the service writes them). Each connection has a
/// `LogTokenBucket`; records about no connection pass unchanged. When a connection's lines
/// flow again after some were held back, one line says how many first. Connections whose
/// buckets are full and hold nothing back are forgotten once more than 1,024 are tracked, so
/// the limiter's memory stays bounded.
///
/// > Important: `Sendable`: callable from any thread (a lock guards its state); forwards to
/// > its downstream handler on the caller's thread, outside the lock.
public final class LoopbackLogLimiter: Sendable {
  private struct State {
    var buckets: [ConnectionID: LogTokenBucket] = [:]
    var pruneAt = 1_024
  }

  private let state = Mutex(State())
  private let downstream: LoopbackLogHandler
  private let burst: Int
  private let perSecond: Int
  private let now: @Sendable () -> UInt64

  /// A limiter forwarding to `downstream`.
  ///
  /// - Parameters:
  ///   - burst: The most lines about one connection at once. Default 10.
  ///   - perSecond: The lines a second about one connection after the burst. Default 1.
  ///   - now: A monotonic clock in milliseconds; default the system's uptime.
  ///   - downstream: Where records go.
  public init(
    burst: Int = 10, perSecond: Int = 1,
    now: (@Sendable () -> UInt64)? = nil,
    downstream: @escaping LoopbackLogHandler
  ) {
    self.burst = burst
    self.perSecond = perSecond
    self.now = now ?? { logClockMilliseconds() }
    self.downstream = downstream
  }

  /// A log handler that puts records through the limiter.
  public var handler: LoopbackLogHandler { { [self] record in log(record) } }

  /// Logs `record` if its connection's bucket allows, after a summary of what was held back.
  ///
  /// - Parameter record: The record.
  public func log(_ record: LoopbackLogRecord) {
    guard let connection = Self.connection(of: record) else {
      downstream(record)
      return
    }
    let time = now()
    let admitted = state.withLock { state -> Int? in
      if state.buckets.count >= state.pruneAt {
        state.buckets = state.buckets.filter { !$0.value.isIdle(now: time) }
        state.pruneAt = max(1_024, state.buckets.count * 2)
      }
      var bucket =
        state.buckets[connection] ?? LogTokenBucket(burst: burst, perSecond: perSecond, now: time)
      let admitted = bucket.admit(now: time)
      state.buckets[connection] = bucket
      return admitted
    }
    guard let held = admitted else { return }
    if held > 0 {
      var summary = record
      summary.level = .notice
      summary.message = "\(connection): \(LogTokenBucket.summary(held))"
      downstream(summary)
    }
    downstream(record)
  }

  /// The connection a record is about: its metadata, or its message's `cN:` prefix.
  static func connection(of record: LoopbackLogRecord) -> ConnectionID? {
    if let connection = record.connection { return connection }
    let message = record.message.utf8
    guard message.first == UInt8(ascii: "c"),
      let colon = message.firstIndex(of: UInt8(ascii: ":"))
    else { return nil }
    let digits = message[message.index(after: message.startIndex)..<colon]
    guard !digits.isEmpty, digits.count <= 20,
      digits.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
      let raw = UInt64(Substring(digits))
    else { return nil }
    return ConnectionID(raw)
  }
}

/// Milliseconds of the system's monotonic clock.
func logClockMilliseconds() -> UInt64 {
  var time = timespec()
  clock_gettime(CLOCK_MONOTONIC, &time)
  return UInt64(time.tv_sec) &* 1_000 &+ UInt64(time.tv_nsec) / 1_000_000
}
