/// A subscriber's downlink estimate, moved by receiver reports in the manner of libwebrtc's
/// loss-based controller.
///
/// Under 2% loss the estimate grows 8% per second since the previous report; over 10% it is cut
/// by half the loss fraction, at most once per 300 ms; in between it holds. Growth stops at a
/// ceiling the router derives from what the subscriber's subscriptions could use, so that a long
/// healthy spell does not leave an estimate far above any layer, which a later cap would take
/// many cuts to come down from. Owned by the ``MediaRouter`` that holds it.
struct DownlinkEstimate: Sendable, Hashable {
  /// Loss below which the estimate grows.
  static let increaseBelowLoss = 0.02
  /// Loss above which the estimate is cut.
  static let decreaseAboveLoss = 0.10
  /// Growth factor per second.
  static let increasePerSecond = 1.08
  /// The shortest time between two cuts, in µs.
  static let decreaseInterval: Int64 = 300_000

  /// The estimate, in bits per second.
  var bitrate: Double
  /// When the previous report came, in µs.
  var lastReport: Int64?
  /// When the estimate was last cut, in µs.
  var lastDecrease: Int64?

  /// Applies one receiver report; the caller has checked that `loss` is in 0...1 and `now` is
  /// not before ``lastReport``.
  ///
  /// - Parameters:
  ///   - loss: The fraction of packets lost since the previous report.
  ///   - now: The report's time, µs.
  ///   - ceiling: The most growth may reach (an estimate already above it is not lowered).
  ///   - floor: The least a cut may leave.
  mutating func apply(loss: Double, now: Int64, ceiling: Double, floor: Double) {
    defer { lastReport = now }
    if loss < Self.increaseBelowLoss {
      guard let lastReport else { return }
      let seconds = (Double(now) - Double(lastReport)) / 1_000_000
      let grown = bitrate * Self.growth(over: seconds)
      bitrate = Swift.max(bitrate, Swift.min(grown, ceiling))
    } else if loss > Self.decreaseAboveLoss {
      if let lastDecrease, microseconds(from: lastDecrease, to: now) < Self.decreaseInterval {
        return
      }
      bitrate = Swift.max(floor, bitrate * (1 - 0.5 * loss))
      lastDecrease = now
    }
  }

  /// The growth over `seconds`: 1.08 per whole second, compounded, and the fraction of a
  /// second's growth for the rest (within 0.1% of the exact power, with no libm). Beyond
  /// ten minutes the estimate is at its ceiling whatever it started from.
  static func growth(over seconds: Double) -> Double {
    guard seconds > 0 else { return 1 }
    guard seconds < 600 else { return .infinity }
    let whole = seconds.rounded(.down)
    var factor = 1.0
    for _ in 0..<Int(whole) { factor *= increasePerSecond }
    return factor * (1 + (increasePerSecond - 1) * (seconds - whole))
  }
}

/// `end - start` in µs, saturating instead of trapping for times far apart.
func microseconds(from start: Int64, to end: Int64) -> Int64 {
  let (difference, overflow) = end.subtractingReportingOverflow(start)
  guard overflow else { return difference }
  return end > start ? .max : .min
}
