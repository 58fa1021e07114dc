/// A fixed window of time and what it admitted: the service's rate limits (return-path checks
/// and control datagrams per member, command-channel commands per session).
///
/// A new window starts at the first event after the last one ended, or when time went back;
/// so a flood costs a comparison and an increment per event, and nothing grows.
///
/// > Important: A value; owned by whoever holds it, in the service's isolation domain.
struct RateWindow: Sendable {
  /// When the current window started, in the caller's unit.
  private var start: Int64?
  /// What the current window admitted.
  private var count = 0

  /// Admits one more event at `now` if the window holding `now` admitted fewer than `limit`.
  ///
  /// - Parameters:
  ///   - now: The event's time.
  ///   - length: The window's length, in the same unit.
  ///   - limit: The most events a window admits.
  /// - Returns: Whether the event is admitted (and counted).
  mutating func admit(at now: Int64, length: Int64, limit: Int) -> Bool {
    if let start, now >= start, now &- start < length {
      // Still in the current window.
    } else {
      start = now
      count = 0
    }
    guard count < limit else { return false }
    count += 1
    return true
  }
}
