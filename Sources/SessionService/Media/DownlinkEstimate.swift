/// A subscriber's downlink estimate, moved by receiver reports in the manner of libwebrtc's
/// loss-based controller.
///
/// Under 2% loss the estimate grows 8% per second since the previous report; over 10% it is cut
/// by half the loss fraction, at most once per 300 ms, from what was flowing when the estimate
/// stood above that (an estimate no traffic tested says nothing of the link); in between it
/// holds. Growth stops at a
/// ceiling the router derives from what the subscriber's subscriptions could use, so that a long
/// healthy spell does not leave an estimate far above any layer, which a later cap would take
/// many cuts to come down from.
///
/// A cut also remembers what the subscriber was receiving when the loss showed (its *hold*):
/// for a while the estimate grows to just below it and no further, so a subscriber moved down
/// a layer by a capped link does not climb straight back into the same loss. The hold lasts
/// 10 s after the first cut; a cut soon after a hold ended (the climb found the cap again)
/// doubles it, up to 60 s; a clean spell as long as the last hold resets it to 10 s. Probing
/// upward once per hold is how the estimate finds a link that has recovered, as an SFU's
/// probe backoff does. Owned by the ``MediaRouter`` that holds it.
struct DownlinkEstimate: Sendable, Hashable {
  /// Loss below which the estimate grows.
  static let increaseBelowLoss = 0.02
  /// Loss above which the estimate is cut.
  static let decreaseAboveLoss = 0.10
  /// Loss above which a cut marks the downlink congested (a cap or a full queue, not the
  /// random loss of a noisy link): only then may the stream allocator pause anything.
  static let congestionLoss = 0.5
  /// Growth factor per second.
  static let increasePerSecond = 1.08
  /// The shortest time between two cuts, in µs.
  static let decreaseInterval: Int64 = 300_000
  /// The first hold after a cut, µs.
  static let baseHold: Int64 = 10_000_000
  /// The longest hold, µs.
  static let maxHold: Int64 = 60_000_000

  /// The estimate, in bits per second.
  var bitrate: Double
  /// When the previous report came, in µs.
  var lastReport: Int64?
  /// When the estimate was last cut, in µs.
  var lastDecrease: Int64?
  /// What was flowing at the last cut, bits per second; growth stays below it until
  /// ``holdUntil``.
  var hold: Double?
  /// When the hold ends, µs.
  var holdUntil: Int64 = .min
  /// How long the next hold lasts, µs.
  var holdLength: Int64 = DownlinkEstimate.baseHold
  /// Whether a cut found the downlink congested (loss over ``congestionLoss``), until growth
  /// reaches the ceiling again: the estimate is then a measured limit, and the stream
  /// allocator pauses what it cannot carry. An untested estimate (a new member's) or one
  /// moved only by random loss pauses nothing.
  var congested = false
  /// The reports of the last second, added up: congestion is judged on them together (one
  /// stream's report of three packets, one lost, says little; twenty-five streams' do).
  var window = LossWindowSum()

  /// Packet counts of a subscriber's reports over about a second.
  struct LossWindowSum: Sendable, Hashable {
    /// When the window began, µs.
    var start: Int64 = .min
    var received: UInt64 = 0
    var lost: UInt64 = 0

    /// The least packets a window must count before its loss is believed.
    static let minimumPackets: UInt64 = 30

    /// The loss of the window before, when it counted enough packets.
    var previousLoss: Double?

    /// Adds a report at `now`, starting a new window a second after the last began (the
    /// last one's loss kept as ``previousLoss`` when it ended within the second before).
    mutating func add(received: UInt64, lost: UInt64, now: Int64) {
      if start == .min || microseconds(from: start, to: now) >= 1_000_000 {
        let recent = start != .min && microseconds(from: start, to: now) < 2_000_000
        self = LossWindowSum(
          start: now, received: 0, lost: 0, previousLoss: recent ? loss : nil)
      }
      self.received &+= received
      self.lost &+= lost
    }

    /// The lower of this window's loss and the one's before, when both counted enough.
    var sustainedLoss: Double? {
      guard let loss, let previousLoss else { return nil }
      return Swift.min(loss, previousLoss)
    }

    /// The window's loss when it counts enough packets to say, else `nil`.
    var loss: Double? {
      let expected = received &+ lost
      guard expected >= Self.minimumPackets else { return nil }
      return Double(lost) / Double(expected)
    }
  }

  /// Applies one receiver report; the caller has checked that `loss` is in 0...1 and `now` is
  /// not before ``lastReport``.
  ///
  /// - Parameters:
  ///   - loss: The fraction of packets lost since the previous report.
  ///   - packets: The report's counts, when the caller has them: congestion is judged on the
  ///     last second's counts together.
  ///   - now: The report's time, µs.
  ///   - ceiling: The most growth may reach (an estimate already above it is not lowered).
  ///   - floor: The least a cut may leave.
  ///   - flowing: What the subscriber receives now, bits per second: the hold if this
  ///     report cuts.
  mutating func apply(
    loss: Double, packets: (received: UInt64, lost: UInt64)? = nil, now: Int64,
    ceiling: Double, floor: Double, flowing: Double
  ) {
    defer { lastReport = now }
    if let packets { window.add(received: packets.received, lost: packets.lost, now: now) }
    let holding = now < holdUntil
    if loss < Self.increaseBelowLoss {
      if !holding, hold != nil, microseconds(from: holdUntil, to: now) >= holdLength {
        hold = nil
        holdLength = Self.baseHold
      }
      guard let lastReport else { return }
      let seconds = (Double(now) - Double(lastReport)) / 1_000_000
      var limit = ceiling
      if holding, let hold { limit = Swift.min(limit, hold - 1) }
      let grown = bitrate * Self.growth(over: seconds)
      bitrate = Swift.max(bitrate, Swift.min(grown, limit))
      if congested, bitrate >= ceiling { congested = false }
    } else if loss > Self.decreaseAboveLoss {
      if let lastDecrease, microseconds(from: lastDecrease, to: now) < Self.decreaseInterval {
        return
      }
      // The cut starts from what was flowing when that is less: an estimate above the traffic
      // was never tested, and cutting it would leave the subscriber in the loss for several
      // reports.
      let tested = flowing > 0 ? Swift.min(bitrate, flowing) : bitrate
      bitrate = Swift.max(floor, tested * (1 - 0.5 * loss))
      lastDecrease = now
      // Congested when the reports of the last second together lost over half, and those of
      // the second before did too: a cap or a full queue lasts, while the first report after a
      // publisher's long silence counts all it missed at once (a report without counts, from
      // a caller that has only the fraction, is taken at its word).
      let judged = packets == nil ? loss : window.sustainedLoss
      if let judged, judged > Self.congestionLoss { congested = true }
      if flowing <= 0 {
        // Loss with nothing flowing says nothing about what the link carries.
      } else if holding, let hold {
        self.hold = Swift.min(hold, flowing)
      } else {
        if hold != nil { holdLength = Swift.min(Self.maxHold, holdLength * 2) }
        hold = flowing
        let (until, overflow) = now.addingReportingOverflow(holdLength)
        holdUntil = overflow ? .max : until
      }
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
