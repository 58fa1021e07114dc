#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Wall-clock time in Unix milliseconds that advances with an event loop's cached time.
///
/// The session service needs Unix time (tokens carry `iat` and `exp`), and everything on a loop
/// should agree on one "now" per loop turn. This clock reads the wall clock once, when it is
/// created, and from then on adds the loop's monotonic time (``EventLoop/now``) to it: cheap,
/// monotonic, updated at the start of every loop turn, and never jumping when the system clock
/// is set.
///
/// > Important: A `Sendable` value, but create it and call ``now()`` on its loop's thread only
/// > (``EventLoop/now`` asserts it).
public struct LoopWallClock: Sendable {
  /// The loop whose time the clock follows.
  public let loop: EventLoop
  private let offset: Int64

  /// Creates a clock anchored at the current wall-clock time.
  ///
  /// - Parameter loop: The loop; the caller must be on its thread.
  public init(loop: EventLoop) {
    loop.preconditionInEventLoop()
    self.loop = loop
    self.offset = wallClockMilliseconds() - Int64(loop.now)
  }

  /// Unix milliseconds at the start of the current loop turn.
  ///
  /// - Returns: The wall-clock time the clock was made at plus the loop's time since, in Unix
  ///   milliseconds.
  /// > Important: Loop thread only.
  public func now() -> Int64 {
    offset + Int64(loop.now)
  }
}

/// The system's wall clock in Unix milliseconds (`CLOCK_REALTIME`).
func wallClockMilliseconds() -> Int64 {
  var time = timespec()
  clock_gettime(CLOCK_REALTIME, &time)
  return Int64(time.tv_sec) * 1_000 + Int64(time.tv_nsec) / 1_000_000
}
