/// Milliseconds from `start` to `end` on a loop clock, or 0 if `end` is not later.
///
/// Loop times come from two readings of one monotonic clock (the turn's cached ``EventLoop/now``
/// and the fresh ``EventLoop/currentTime``), so a time taken inside a turn can be a little
/// ahead of a later turn's cached one; this never wraps around for that.
///
/// - Parameters:
///   - start: The earlier time, in milliseconds.
///   - end: The later time, in milliseconds.
/// - Returns: `end - start`, at least 0.
func millisecondsElapsed(from start: UInt64, to end: UInt64) -> UInt64 {
  end > start ? end - start : 0
}
