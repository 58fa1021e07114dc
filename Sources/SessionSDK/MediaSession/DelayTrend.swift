import SessionTransport

/// The receiver's delay-based congestion detector, after GCC's (libwebrtc's trendline
/// estimator and overuse detector): it reads whether the queue in front of the local user's
/// downlink grows, holds or drains, before that queue overflows and loses anything.
///
/// - *Samples.* Each packet's queueing delay is its one-way delay above the least its stream
///   ever had (``StreamReceiver/queueing``): each stream is measured against itself, so
///   senders' clocks and their uplinks' base delays do not mix. Packets are grouped by arrival
///   in 5 ms groups, and a group's sample is the least queueing delay of every packet of every
///   stream that arrived in the last ``minimumSpan``: a queue in front of the local downlink
///   delays every packet, while random per-packet delay (jitter, a heavy-tailed delay) and one
///   sender's own uplink queue delay only some, so the least over a window reads the queue
///   and not the noise.
/// - *Trendline.* The samples are smoothed (α = 0.9) and the slope of the last 20 against
///   their arrival times is fitted by least squares; the slope times min(samples, 60) times a
///   gain of 4 is the *trend*, in milliseconds.
/// - *Detector.* The trend is compared with an adaptive threshold γ (12.5 ms at first, kept
///   in 6…600 ms, moving toward |trend| at 0.0087 per ms when above it and 0.039 when below,
///   and not at all when |trend| is more than 15 ms over γ). Over γ for more than 10 ms and two
///   groups, and not falling: *overusing*. Under −γ: *underusing*. Else *normal*.
///
/// It also measures the receive rate: bytes over the last 250 ms, in two 125 ms buckets (short,
/// so that when a queue starts to grow the rate read is the downlink's, not what arrived
/// before the queue formed).
///
/// Every packet costs O(1); each closed group O(streams). Nothing allocates after the window
/// fills.
///
/// > Important: A value; owned by the ``MediaSession`` that holds it.
struct DelayTrend: Sendable {
  /// A group's span, µs.
  static let groupSpan: Int64 = 5_000
  /// The span whose least queueing delay is a group's sample, µs.
  static let minimumSpan: Int64 = 200_000
  /// Nothing for this long makes the detector forget its trend (``idle(at:)``), µs.
  static let activeSpan: Int64 = 250_000
  /// Samples in the fitted window.
  static let windowSize = 20
  /// The smoothing of the samples.
  static let smoothing = 0.9
  /// The trend's gain.
  static let gain = 4.0
  /// The most samples the trend is multiplied by.
  static let maxSampleCount = 60
  /// The threshold's start, its bounds and its rates, ms and per ms.
  static let initialThreshold = 12.5
  static let thresholdRange = 6.0...600.0
  static let thresholdUp = 0.0087
  static let thresholdDown = 0.039
  /// How long the trend must be over the threshold before it is overuse, ms.
  static let overuseTime = 10.0
  /// The receive rate's bucket, µs, and how many make its window.
  static let rateBucket: Int64 = 125_000
  static let rateBuckets = 2

  /// The signal now.
  private(set) var signal = DownlinkFeedback.DelaySignal.normal
  /// The queueing delay of the last sample (the least of the last ``minimumSpan``), µs.
  private(set) var queueDelay: Double = 0
  /// When the detector last turned to overusing, µs.
  private(set) var lastOveruse: Int64?

  private var groupStart: Int64?
  private var samples: [(time: Double, delay: Double)] = []
  private var next = 0
  private var sampleCount = 0
  private var smoothed: Double?
  private var threshold = DelayTrend.initialThreshold
  private var previousTrend = 0.0
  private var lastThresholdUpdate: Double?
  private var lastSampleTime: Double?
  private var overusingFor = -1.0
  private var overuseCount = 0

  /// The packets of the last ``minimumSpan`` that may still be its least (a monotonic queue:
  /// queueing delays increase from ``minimumHead`` on).
  private var recent: [(time: Int64, queueing: Int64)] = []
  private var minimumHead = 0

  private var buckets = [Int64](repeating: 0, count: DelayTrend.rateBuckets)
  private var bucketIndex: Int64 = 0

  /// Takes one packet: its bytes count toward the receive rate, its queueing delay toward the
  /// window's least, and when it starts a new group the previous one closes (a turn to
  /// overusing is kept in ``lastOveruse``).
  ///
  /// - Parameters:
  ///   - bytes: The datagram's size.
  ///   - queueing: Its queueing delay, µs (``StreamReceiver/queueing``).
  ///   - now: When it arrived, µs.
  mutating func arrived(bytes: Int, queueing: Int64, at now: Int64) {
    advanceBuckets(to: now)
    buckets[Int(bucketIndex % Int64(Self.rateBuckets))] &+= Int64(bytes)
    // The monotonic queue: what is older than the span, or not less than this packet, can
    // never be the least again.
    while minimumHead < recent.count, now &- recent[minimumHead].time > Self.minimumSpan {
      minimumHead += 1
    }
    while recent.count > minimumHead, recent[recent.count - 1].queueing >= queueing {
      recent.removeLast()
    }
    if minimumHead > 64, minimumHead * 2 > recent.count {
      recent.removeFirst(minimumHead)
      minimumHead = 0
    }
    recent.append((now, queueing))
    guard let start = groupStart else {
      groupStart = now
      return
    }
    guard now &- start >= Self.groupSpan else { return }
    groupStart = now
    closeGroup(sample: recent[minimumHead].queueing, at: now)
  }

  /// Moves the receive rate's window to the bucket of `now`, emptying the buckets passed.
  private mutating func advanceBuckets(to now: Int64) {
    let bucket = max(0, now) / Self.rateBucket
    guard bucket > bucketIndex else { return }
    let steps = min(Int64(Self.rateBuckets), bucket &- bucketIndex)
    for step in 1...steps {
      buckets[Int((bucketIndex &+ step) % Int64(Self.rateBuckets))] = 0
    }
    bucketIndex = bucket
  }

  /// The bits per second that arrived over the last ``rateBuckets`` buckets, the current one
  /// counted for the part of it that has passed.
  ///
  /// - Parameter now: The time, µs.
  mutating func receiveRate(at now: Int64) -> Double {
    advanceBuckets(to: now)
    let bytes = buckets.reduce(0, &+)
    let intoBucket = max(0, now) - bucketIndex * Self.rateBucket
    let span = Double(Int64(Self.rateBuckets - 1) * Self.rateBucket + max(1, intoBucket))
    return Double(bytes) * 8 * 1_000_000 / span
  }

  /// Forgets the trend when nothing arrived for ``activeSpan`` or longer (everything paused,
  /// or nothing sent): a signal read before the silence says nothing of the queue now, and
  /// would hold the estimate where it was.
  ///
  /// - Parameter now: The time, µs.
  mutating func idle(at now: Int64) {
    guard let start = groupStart, now &- start >= Self.activeSpan,
      signal != .normal || !samples.isEmpty
    else { return }
    signal = .normal
    queueDelay = 0
    samples.removeAll(keepingCapacity: true)
    recent.removeAll(keepingCapacity: true)
    minimumHead = 0
    next = 0
    sampleCount = 0
    smoothed = nil
    overusingFor = -1
    overuseCount = 0
    previousTrend = 0
  }

  /// Closes a group: its sample (the queueing delay, µs) goes through the trendline and the
  /// detector.
  ///
  /// - Parameters:
  ///   - sample: The group's queueing delay, µs.
  ///   - now: The group's end, µs.
  private mutating func closeGroup(sample: Int64, at now: Int64) {
    let time = Double(now) / 1_000
    let delay = Double(sample) / 1_000
    let value = smoothed.map { Self.smoothing * $0 + (1 - Self.smoothing) * delay } ?? delay
    smoothed = value
    queueDelay = Double(sample)
    if samples.count < Self.windowSize {
      samples.append((time, value))
    } else {
      samples[next] = (time, value)
      next = (next + 1) % Self.windowSize
    }
    sampleCount = min(sampleCount + 1, Self.maxSampleCount)
    guard samples.count >= 2, let slope = Self.slope(samples) else { return }
    let trend = slope * Double(sampleCount) * Self.gain
    let gap = lastSampleTime.map { min(100, max(0, time - $0)) } ?? 0
    lastSampleTime = time
    let before = signal
    if trend > threshold {
      overusingFor = overusingFor < 0 ? gap / 2 : overusingFor + gap
      overuseCount += 1
      if overusingFor > Self.overuseTime, overuseCount > 1, trend >= previousTrend {
        overusingFor = 0
        overuseCount = 0
        signal = .overusing
      }
    } else if trend < -threshold {
      overusingFor = -1
      overuseCount = 0
      signal = .underusing
    } else {
      overusingFor = -1
      overuseCount = 0
      signal = .normal
    }
    previousTrend = trend
    updateThreshold(trend, at: time)
    if signal == .overusing, before != .overusing { lastOveruse = now }
  }

  private mutating func updateThreshold(_ trend: Double, at time: Double) {
    let elapsed = lastThresholdUpdate.map { min(100, max(0, time - $0)) } ?? 0
    lastThresholdUpdate = time
    let magnitude = abs(trend)
    guard magnitude <= threshold + 15 else { return }
    let rate = magnitude < threshold ? Self.thresholdDown : Self.thresholdUp
    threshold += rate * (magnitude - threshold) * elapsed
    threshold = min(Self.thresholdRange.upperBound, max(Self.thresholdRange.lowerBound, threshold))
  }

  /// The least-squares slope of the samples, `nil` when their times do not vary.
  static func slope(_ samples: [(time: Double, delay: Double)]) -> Double? {
    var sumTime = 0.0
    var sumDelay = 0.0
    for sample in samples {
      sumTime += sample.time
      sumDelay += sample.delay
    }
    let meanTime = sumTime / Double(samples.count)
    let meanDelay = sumDelay / Double(samples.count)
    var numerator = 0.0
    var denominator = 0.0
    for sample in samples {
      let dt = sample.time - meanTime
      numerator += dt * (sample.delay - meanDelay)
      denominator += dt * dt
    }
    return denominator > 0 ? numerator / denominator : nil
  }
}
