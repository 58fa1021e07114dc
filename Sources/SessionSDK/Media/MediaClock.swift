/// The schedule of a periodic source: tick `n` falls at `start + ⌊n · 10⁶ / rate⌋` µs, so the
/// ticks never drift however long the source runs.
///
/// A source polled late gets the ticks it missed, but at most one second of them: older ticks
/// are skipped, as a stalled encoder drops the frames it had no time for. Times far in the
/// future (up to `Int64.max`) neither trap nor produce more than one second of ticks.
///
/// > Important: A value; owned by the source that holds it.
struct MediaClock: Sendable, Hashable {
  /// Ticks per second.
  let rate: Int64
  /// The time of tick 0, in microseconds.
  private(set) var start: Int64
  /// The next tick not yet taken.
  private(set) var next: Int64 = 0

  /// Creates a clock whose first tick is at `start`.
  ///
  /// - Parameters:
  ///   - rate: Ticks per second, at least 1.
  ///   - start: The time of the first tick, in microseconds.
  init(rate: Int, start: Int64) {
    self.rate = Int64(max(rate, 1))
    self.start = start
  }

  /// The time of tick `n` (at least 0), or `nil` when it is beyond `Int64.max`.
  func time(ofTick n: Int64) -> Int64? {
    let (quotient, remainder) = n.quotientAndRemainder(dividingBy: rate)
    let (whole, overflow) = quotient.multipliedReportingOverflow(by: 1_000_000)
    let (offset, past) = whole.addingReportingOverflow(remainder * 1_000_000 / rate)
    let (time, late) = start.addingReportingOverflow(offset)
    return overflow || past || late ? nil : time
  }

  /// Starts the schedule again with its first tick at `now`.
  mutating func restart(at now: Int64) {
    start = now
    next = 0
  }

  /// Takes the ticks due at or before `now` that were not taken yet, the newest second of
  /// them at most.
  ///
  /// - Parameter now: The current time, in microseconds.
  /// - Returns: The tick numbers, in order; empty when none is due.
  mutating func take(until now: Int64) -> Range<Int64> {
    guard now >= start else { return next..<next }
    let (elapsed, overflow) = now.subtractingReportingOverflow(start)
    let span = overflow ? Int64.max : elapsed
    // ⌊span · rate / 10⁶⌋ without overflow; flooring the times can put one more tick in.
    let (seconds, micros) = span.quotientAndRemainder(dividingBy: 1_000_000)
    var last = seconds * rate + micros * rate / 1_000_000
    while let time = time(ofTick: last + 1), time <= now { last += 1 }
    guard last >= next else { return next..<next }
    let first = max(next, last - rate + 1)
    next = last + 1
    return first..<(last + 1)
  }
}
