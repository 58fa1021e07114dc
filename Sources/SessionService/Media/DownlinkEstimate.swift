import SessionTransport

/// A subscriber's downlink estimate, moved by its feedback as GCC moves a send rate: a
/// delay-based part that reacts to a growing queue before anything is lost, and a loss-based
/// part, in the manner of libwebrtc's, for what the delay cannot tell.
///
/// - *Overuse* (the subscriber's detector reads its queue growing, ``DownlinkFeedback``): the
///   estimate is cut to 85% of what the subscriber says arrived over the last half second, at
///   most once per 200 ms, and the downlink is *congested*: the stream allocator pauses what
///   the estimate cannot carry.
/// - *Loss.* Loss counts as the downlink's own when a queue is behind it: the detector reads
///   overuse, or a queueing delay of ``queueingBound`` or more (a full queue drops at its
///   tail with its delay flat). Such loss over 10% cuts the estimate by half the loss fraction
///   (at most once per 300 ms, from what was flowing when that is less) and marks the downlink
///   congested; between 2% and 10% it holds. Loss with no queue behind it is a lossy link's:
///   up to ``randomLossTolerance`` it neither cuts nor stops growth (GCC's reason for holding
///   between 2% and 10%: random loss is not congestion, and cutting for it halves what a
///   lossy viewer gets); above, it cuts, and marks the downlink congested only when the last
///   two seconds of feedback together lost over half. Feedback without delay figures (a
///   caller that has only counts) is judged by the loss-based rules alone.
/// - *Growth and probing.* After a cut the estimate waits (the *probe wait*: 2 s, then 1.5
///   times longer for each cut that comes within two waits of the last, up to 3 s), and grows
///   while nothing above says otherwise and the detector does not read a queue draining: 8%
///   in the first second, then doubling each second. Whatever growth lets the allocator
///   resume (a paused track, a higher layer) is the probe: if the link cannot carry it, the
///   detector reads overuse within about 100 ms and the cut takes it back, before the queue
///   drops anything. Growth stops at a ceiling the router derives from what the subscriptions
///   could use.
///
/// Owned by the ``MediaRouter`` that holds it.
struct DownlinkEstimate: Sendable, Hashable {
  /// Loss below which the estimate grows.
  static let increaseBelowLoss = 0.02
  /// Loss above which the estimate is cut.
  static let decreaseAboveLoss = 0.10
  /// Loss with no queue behind it that is taken for a lossy link's, not congestion.
  static let randomLossTolerance = 0.20
  /// The queueing delay from which loss is taken for the downlink's queue's, µs.
  static let queueingBound: UInt32 = 100_000
  /// Loss above which a cut marks the downlink congested when no queue is seen.
  static let congestionLoss = 0.5
  /// The share of the arriving rate an overuse cut keeps.
  static let overuseBackoff = 0.85
  /// Growth in the first second after a wait, and per second after it.
  static let firstGrowthPerSecond = 1.5
  static let growthPerSecond = 2.0
  /// The shortest time between two loss cuts, and between two overuse cuts, µs.
  static let decreaseInterval: Int64 = 300_000
  static let overuseInterval: Int64 = 200_000
  /// The first probe wait, its growth per repeated cut and its longest, µs.
  static let firstProbeWait: Int64 = 2_000_000
  static let probeWaitGrowth = 1.5
  static let maxProbeWait: Int64 = 3_000_000

  /// A feedback's reading of overuse.
  struct OveruseReading: Sendable, Hashable {
    var at: Int64
    var queueDelay: UInt32
  }

  /// What the subscriber's delay-based detector said, with its feedback.
  struct DelayFigures: Sendable, Hashable {
    var signal: DownlinkFeedback.DelaySignal
    /// The queueing delay, µs.
    var queueDelay: UInt32
    /// What arrived, bits per second.
    var receiveRate: Double
  }

  /// The estimate, in bits per second.
  var bitrate: Double
  /// When the previous feedback came, in µs.
  var lastReport: Int64?
  /// When the estimate was last cut, in µs.
  var lastDecrease: Int64?
  /// The last feedback that read overuse over the bound, its time (µs) and queueing delay:
  /// overuse cuts when the next one confirms it.
  var overuseSeen: OveruseReading?
  /// No growth before this time (the probe wait after a cut), µs.
  var growthFrom: Int64 = .min
  /// The wait after the next cut, µs.
  var probeWait = DownlinkEstimate.firstProbeWait
  /// Whether a cut found the downlink congested (overuse, or loss behind a queue or heavy and
  /// lasting), until growth reaches the ceiling again: the estimate is then a measured limit,
  /// and the stream allocator pauses what it cannot carry. An untested estimate (a new
  /// member's) or one moved only by random loss pauses nothing.
  var congested = false
  /// The feedback of the last second, added up: heavy loss with no queue marks congestion only
  /// when it lasts (the first feedback after a publisher's long silence counts all it missed
  /// at once).
  var window = LossWindowSum()

  /// Packet counts of a subscriber's feedback over about a second.
  struct LossWindowSum: Sendable, Hashable {
    /// When the window began, µs.
    var start: Int64 = .min
    var received: UInt64 = 0
    var lost: UInt64 = 0

    /// The least packets a window must count before its loss is believed.
    static let minimumPackets: UInt64 = 30

    /// The loss of the window before, when it counted enough packets.
    var previousLoss: Double?

    /// Adds feedback at `now`, starting a new window a second after the last began (the
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

  /// Applies one feedback; the caller has checked that `loss` is in 0...1 and `now` is not
  /// before ``lastReport``.
  ///
  /// - Parameters:
  ///   - loss: The fraction of packets lost since the previous feedback.
  ///   - packets: The feedback's counts, when the caller has them.
  ///   - delay: The delay-based detector's figures, when the feedback has them.
  ///   - now: The feedback's time, µs.
  ///   - ceiling: The most growth may reach (an estimate already above it is not lowered).
  ///   - floor: The least a cut may leave.
  ///   - flowing: What the subscriber is forwarded now, bits per second.
  mutating func apply(
    loss: Double, packets: (received: UInt64, lost: UInt64)? = nil,
    delay: DelayFigures? = nil, now: Int64, ceiling: Double, floor: Double, flowing: Double
  ) {
    defer { lastReport = now }
    if let packets { window.add(received: packets.received, lost: packets.lost, now: now) }
    if let delay, delay.signal == .overusing {
      // A burst (a key frame through a narrow link) reads as overuse for a moment with a
      // queue of a few tens of ms: overuse counts once the queue passes the bound.
      guard delay.queueDelay >= Self.queueingBound else { return }
      // A queue that matters still stands at the next feedback, 150 ms on, at least as long:
      // random delay (jitter, a heavy tail) makes one reading, not two rising ones.
      guard let first = overuseSeen, microseconds(from: first.at, to: now) <= 600_000,
        delay.queueDelay >= first.queueDelay
      else {
        overuseSeen = OveruseReading(at: now, queueDelay: delay.queueDelay)
        return
      }
      overuseSeen = OveruseReading(at: now, queueDelay: delay.queueDelay)
      if let lastDecrease, microseconds(from: lastDecrease, to: now) < Self.overuseInterval {
        return
      }
      let arriving = delay.receiveRate.isFinite ? Swift.max(0, delay.receiveRate) : 0
      let measured = arriving > 0 ? arriving : bitrate
      bitrate = Swift.max(floor, Swift.min(bitrate, Self.overuseBackoff * measured))
      cut(at: now, congested: true)
      return
    }
    overuseSeen = nil
    let queued = delay.map { $0.signal == .overusing || $0.queueDelay >= Self.queueingBound }
    // Loss with no queue behind it, within the tolerance, is a lossy link's.
    let counted = queued == false && loss <= Self.randomLossTolerance ? 0 : loss
    if counted < Self.increaseBelowLoss {
      guard delay?.signal != .underusing else { return }
      grow(at: now, ceiling: ceiling)
    } else if counted > Self.decreaseAboveLoss {
      // Loss shows when the packets after a gap arrive, a queue's delay after they were
      // dropped: loss that shows within that delay of a cut was of packets sent before it,
      // and the cut has answered it.
      let waited = Int64(delay?.queueDelay ?? 0)
      if let lastDecrease,
        microseconds(from: lastDecrease, to: now) < Self.decreaseInterval &+ waited
      {
        return
      }
      // The cut starts from what was flowing when that is less: an estimate above the traffic
      // was never tested, and cutting it would leave the subscriber in the loss for several
      // reports.
      let tested = flowing > 0 ? Swift.min(bitrate, flowing) : bitrate
      bitrate = Swift.max(floor, tested * (1 - 0.5 * counted))
      // Congested when a queue is behind the loss; else when the feedback of the last second
      // together lost over half, and that of the second before did too (feedback without
      // counts is taken at its word).
      let judged = packets == nil ? loss : window.sustainedLoss
      let lasting = judged.map { $0 > Self.congestionLoss } ?? false
      cut(at: now, congested: queued == true || lasting)
    }
  }

  /// Grows the estimate for the time since the previous feedback, unless within a probe wait.
  private mutating func grow(at now: Int64, ceiling: Double) {
    guard let lastReport, now >= growthFrom else { return }
    let since = growthFrom == .min ? Int64.max : microseconds(from: growthFrom, to: now)
    let from = Swift.max(lastReport, growthFrom)
    let seconds = (Double(now) - Double(from)) / 1_000_000
    let perSecond = since < 1_000_000 ? Self.firstGrowthPerSecond : Self.growthPerSecond
    let grown = bitrate * Self.growth(over: seconds, perSecond: perSecond)
    bitrate = Swift.max(bitrate, Swift.min(grown, ceiling))
    if congested, bitrate >= ceiling { congested = false }
  }

  /// Notes a cut at `now`: the probe wait starts (longer when the last cut was recent).
  private mutating func cut(at now: Int64, congested: Bool) {
    if let lastDecrease, microseconds(from: lastDecrease, to: now) < 2 * probeWait {
      probeWait = Swift.min(
        Self.maxProbeWait, Int64(Double(probeWait) * Self.probeWaitGrowth))
    } else {
      probeWait = Self.firstProbeWait
    }
    lastDecrease = now
    let (until, overflow) = now.addingReportingOverflow(probeWait)
    growthFrom = overflow ? .max : until
    if congested { self.congested = true }
  }

  /// The growth over `seconds` at `perSecond`, compounded per whole second, and the fraction
  /// of a second's growth for the rest (with no libm). Beyond ten minutes the estimate is at
  /// its ceiling whatever it started from.
  static func growth(over seconds: Double, perSecond: Double) -> Double {
    guard seconds > 0 else { return 1 }
    guard seconds < 600 else { return .infinity }
    let whole = seconds.rounded(.down)
    var factor = 1.0
    for _ in 0..<Int(whole) { factor *= perSecond }
    return factor * (1 + (perSecond - 1) * (seconds - whole))
  }
}

/// `end - start` in µs, saturating instead of trapping for times far apart.
func microseconds(from start: Int64, to end: Int64) -> Int64 {
  let (difference, overflow) = end.subtractingReportingOverflow(start)
  guard overflow else { return difference }
  return end > start ? .max : .min
}
