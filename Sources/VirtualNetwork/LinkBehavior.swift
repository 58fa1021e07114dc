import SessionCore
import SessionTransport

/// How the variable part of a one-way delay is distributed, in milliseconds, on top of
/// ``LinkBehavior/minimumDelay``.
///
/// Every parameter is clamped when sampled: NaN and negative values count as 0, and a sampled
/// delay is at most one hour.
public enum DelayDistribution: Sendable, Hashable, Codable {
  /// Always the minimum.
  case constant
  /// The minimum plus U(0, max − minimum); `max` below the minimum gives the minimum.
  case uniform(max: Double)
  /// The minimum plus max(0, N(mean, standardDeviation)).
  case normal(mean: Double, standardDeviation: Double)
  /// The minimum plus an exponential delay of this mean.
  case exponential(mean: Double)
  /// The minimum plus a Pareto delay (at least `scale`; mean `scale · shape / (shape − 1)`
  /// for a shape above 1): a heavy tail of rare, long stalls.
  case pareto(scale: Double, shape: Double)
}

/// Which attempts a channel loses: none, independently (Bernoulli), or in bursts
/// (Gilbert–Elliott).
///
/// A value; `Sendable`. Probabilities are clamped to [0, 1] (NaN counts as 0).
public struct LossModel: Sendable, Hashable, Codable {
  enum Kind: Sendable, Hashable, Codable {
    case none
    case bernoulli(Double)
    /// Two states: nothing is lost in the good one, everything in the bad one.
    case gilbertElliott(enterBad: Double, stayBad: Double)
  }

  let kind: Kind

  /// Nothing is lost.
  public static let none = LossModel(kind: .none)

  /// Each attempt is lost with this probability, independently.
  ///
  /// - Parameter probability: In [0, 1]; clamped (NaN counts as 0).
  /// - Returns: The model.
  public static func bernoulli(_ probability: Double) -> LossModel {
    LossModel(kind: .bernoulli(Self.probability(probability)))
  }

  /// Losses in bursts, by their mean rate and mean burst length (as WebRTC's network
  /// emulation): a two-state chain that stays bad with 1 − 1/L and turns bad with
  /// p / (1 − p) / L, so that the long-run loss rate is p and a burst lasts L attempts on
  /// average.
  ///
  /// - Parameters:
  ///   - lossRate: p, in [0, 1]; clamped (NaN counts as 0). 1 loses everything.
  ///   - meanBurstLength: L, at least 1 (smaller, NaN or infinite counts as 1).
  /// - Returns: The model.
  public static func gilbertElliott(lossRate: Double, meanBurstLength: Double) -> LossModel {
    let p = Self.probability(lossRate)
    let length = meanBurstLength.isFinite ? max(1, meanBurstLength) : 1
    guard p < 1 else { return LossModel(kind: .gilbertElliott(enterBad: 1, stayBad: 1)) }
    let enter = min(1, p / (1 - p) / length)
    return LossModel(kind: .gilbertElliott(enterBad: enter, stayBad: 1 - 1 / length))
  }

  /// The long-run fraction of attempts lost.
  public var lossRate: Double {
    switch kind {
    case .none: 0
    case .bernoulli(let p): p
    case .gilbertElliott(let enter, let stay):
      stay >= 1 ? (enter > 0 ? 1 : 0) : enter / (enter + (1 - stay))
    }
  }

  static func probability(_ value: Double) -> Double {
    value.isNaN ? 0 : min(1, max(0, value))
  }
}

/// A capacity limit: serialisation at a rate, behind a queue that drops at its tail.
///
/// A value; `Sendable`.
public struct Bandwidth: Sendable, Hashable, Codable {
  /// The rate, in bits per second. Clamped when used to [1, 10¹⁵]; NaN counts as 1.
  public var bitsPerSecond: Double
  /// The most bytes the queue holds, the message being serialised included; a message that
  /// would go beyond it is dropped at the tail (an empty queue always takes one message).
  /// Negative counts as 0.
  public var queueLimitBytes: Int
  /// Bytes added to each message's size (headers of lower layers). Negative counts as 0.
  public var packetOverheadBytes: Int = 0

  /// Creates a limit.
  ///
  /// - Parameters:
  ///   - bitsPerSecond: The rate.
  ///   - queueLimitBytes: The queue's size.
  ///   - packetOverheadBytes: Bytes added to each message.
  public init(bitsPerSecond: Double, queueLimitBytes: Int, packetOverheadBytes: Int = 0) {
    self.bitsPerSecond = bitsPerSecond
    self.queueLimitBytes = queueLimitBytes
    self.packetOverheadBytes = packetOverheadBytes
  }

  /// The rate as used: finite and at least 1 bit per second.
  var effectiveBitsPerSecond: Double {
    bitsPerSecond.isNaN ? 1 : min(1e15, max(1, bitsPerSecond))
  }

  /// Microseconds to serialise `bytes` (plus the overhead), at least 0 and at most an hour.
  func serialisation(bytes: Int) -> Int64 {
    let total = Double(max(0, bytes)) + Double(max(0, packetOverheadBytes))
    return Micro.clamped(total * 8 / effectiveBitsPerSecond * 1_000_000)
  }

  /// The bytes a backlog of `microseconds` stands for.
  func bytes(inBacklog microseconds: Int64) -> Double {
    Double(max(0, microseconds)) / 1_000_000 * effectiveBitsPerSecond / 8
  }
}

/// How one direction of a peer's link behaves: delay, jitter, loss, capacity, and for the
/// lossy channel duplication and reordering.
///
/// Delays are milliseconds (`Double`). Bad values never trap: NaN and negative delays count
/// as 0, probabilities are clamped to [0, 1], and one sampled delay is at most one hour.
///
/// A value; `Sendable`.
public struct LinkBehavior: Sendable, Hashable, Codable {
  /// The least one-way delay, in milliseconds.
  public var minimumDelay: Double = 0
  /// The variable part of the delay, on top of ``minimumDelay``.
  public var distribution: DelayDistribution = .constant
  /// A uniform ± jitter added per message, in milliseconds (the delay stays at least 0).
  public var jitter: Double = 0
  /// Which attempts are lost. On the reliable channel a loss costs a retransmission timeout;
  /// on the lossy channel the datagram is gone.
  public var loss: LossModel = .none
  /// A capacity limit, or `nil` for none.
  public var bandwidth: Bandwidth? = nil
  /// The chance that a datagram arrives twice (lossy channel only).
  public var duplicateProbability: Double = 0
  /// Whether datagrams may overtake each other (lossy channel only; the reliable channel is
  /// always FIFO).
  public var allowsReordering: Bool = false

  /// No delay, no loss, no limit.
  public static let ideal = LinkBehavior()

  /// Creates a behaviour.
  ///
  /// - Parameters:
  ///   - minimumDelay: Milliseconds.
  ///   - distribution: The variable part of the delay.
  ///   - jitter: Milliseconds, ±.
  ///   - loss: The loss model.
  ///   - bandwidth: A capacity limit, or `nil`.
  ///   - duplicateProbability: Datagrams only.
  ///   - allowsReordering: Datagrams only.
  public init(
    minimumDelay: Double = 0, distribution: DelayDistribution = .constant, jitter: Double = 0,
    loss: LossModel = .none, bandwidth: Bandwidth? = nil, duplicateProbability: Double = 0,
    allowsReordering: Bool = false
  ) {
    self.minimumDelay = minimumDelay
    self.distribution = distribution
    self.jitter = jitter
    self.loss = loss
    self.bandwidth = bandwidth
    self.duplicateProbability = duplicateProbability
    self.allowsReordering = allowsReordering
  }

  /// Whether a delay draw can be skipped: no delay of any kind.
  var isInstant: Bool {
    distribution == .constant && !(minimumDelay > 0) && !(jitter > 0)
  }

  /// One sampled one-way delay: minimum, distribution and jitter, clamped to [0, one hour].
  ///
  /// - Parameter random: The stream to draw from; a behaviour with no delay draws nothing.
  /// - Returns: The delay in microseconds.
  public func sampleDelay(_ random: inout SimulationRandom) -> Int64 {
    guard !isInstant else { return 0 }
    var milliseconds = Self.nonNegative(minimumDelay)
    switch distribution {
    case .constant:
      break
    case .uniform(let max):
      let width = Self.nonNegative(max) - milliseconds
      let draw = random.nextDouble()
      if width > 0 { milliseconds += draw * width }
    case .normal(let mean, let standardDeviation):
      let draw = random.normal(
        mean: mean.isNaN ? 0 : mean,
        standardDeviation: standardDeviation.isNaN ? 0 : standardDeviation)
      milliseconds += Self.nonNegative(draw)
    case .exponential(let mean):
      milliseconds += Self.nonNegative(random.exponential(mean: mean.isNaN ? 0 : mean))
    case .pareto(let scale, let shape):
      let draw = random.pareto(scale: scale.isNaN ? 0 : scale, shape: shape.isNaN ? 0 : shape)
      milliseconds += Self.nonNegative(draw)
    }
    let jitter = Self.nonNegative(jitter)
    if jitter > 0 {
      milliseconds += (random.nextDouble() * 2 - 1) * jitter
    }
    return Micro.clamped(milliseconds * 1_000)
  }

  static func nonNegative(_ value: Double) -> Double {
    value > 0 ? value : 0
  }
}

/// Microsecond arithmetic that never traps.
enum Micro {
  /// The longest delay one draw gives: an hour.
  static let maximumDelay: Int64 = 3_600_000_000

  /// `value` microseconds rounded, in [0, an hour]; NaN gives 0.
  static func clamped(_ value: Double) -> Int64 {
    guard value > 0 else { return 0 }
    guard value < Double(maximumDelay) else { return maximumDelay }
    return Int64(value.rounded())
  }

  /// `a + b`, saturating at the bounds of `Int64`.
  static func add(_ a: Int64, _ b: Int64) -> Int64 {
    let (sum, overflow) = a.addingReportingOverflow(b)
    guard overflow else { return sum }
    return b > 0 ? .max : .min
  }

  /// `a · b`, saturating at the bounds of `Int64`.
  static func multiply(_ a: Int64, _ b: Int64) -> Int64 {
    let (product, overflow) = a.multipliedReportingOverflow(by: b)
    guard overflow else { return product }
    return (a < 0) == (b < 0) ? .max : .min
  }
}
