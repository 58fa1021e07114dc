import SessionCore

/// The random part of a delay the proxies add, drawn per chunk (signalling) or per datagram
/// (media) on top of the fixed delay: the same distributions, with the same meaning, as the
/// virtual network's (`VirtualNetwork.DelayDistribution`), in milliseconds.
///
/// A value; `Sendable`. Bad values never trap: NaN counts as 0, negative draws count as 0, and
/// every draw is clamped to ``FaultProxy/maximumDelay``.
public enum ProxyDelayDistribution: Hashable, Sendable, Codable {
  /// Nothing added.
  case constant
  /// Uniform up to a total of `max` ms (the fixed delay plus U(0, max − delay)); a `max` below
  /// the fixed delay adds nothing.
  case uniform(max: Double)
  /// max(0, N(mean, standardDeviation)) ms added.
  case normal(mean: Double, standardDeviation: Double)
  /// An exponential delay of this mean (ms) added.
  case exponential(mean: Double)
  /// A Pareto delay (at least `scale` ms; a smaller `shape` is a heavier tail) added.
  case pareto(scale: Double, shape: Double)

  /// One draw of the delay in whole milliseconds: `fixed` plus this distribution's part plus
  /// a uniform ± `jitter`, at least 0 and at most ``FaultProxy/maximumDelay``.
  ///
  /// Draws nothing when there is nothing random (a constant distribution and no jitter), so
  /// enabling a fixed delay spends no randomness.
  ///
  /// - Parameters:
  ///   - fixed: The fixed delay, in ms.
  ///   - jitter: The ± jitter, in ms.
  ///   - random: The stream to draw from.
  /// - Returns: The delay, in ms.
  func sample(fixed: Int64, jitter: Int64, random: inout SimulationRandom) -> Int64 {
    if self == .constant && jitter <= 0 { return min(max(0, fixed), FaultProxy.maximumDelay) }
    var milliseconds = Double(max(0, fixed)) + extra(above: fixed, random: &random)
    if jitter > 0 { milliseconds += (random.nextDouble() * 2 - 1) * Double(jitter) }
    guard milliseconds > 0 else { return 0 }
    guard milliseconds < Double(FaultProxy.maximumDelay) else { return FaultProxy.maximumDelay }
    return Int64(milliseconds.rounded())
  }

  /// One draw of this distribution's part alone, in ms (at least 0, finite): what it adds to
  /// a fixed delay of `fixed` ms. A constant distribution draws nothing.
  ///
  /// - Parameters:
  ///   - fixed: The fixed delay, in ms (a uniform distribution's `max` is a total).
  ///   - random: The stream to draw from.
  /// - Returns: The milliseconds to add.
  func extra(above fixed: Int64, random: inout SimulationRandom) -> Double {
    let drawn: Double
    switch self {
    case .constant:
      return 0
    case .uniform(let max):
      let width = Self.nonNegative(max) - Double(Swift.max(0, fixed))
      let draw = random.nextDouble()
      drawn = width > 0 ? draw * width : 0
    case .normal(let mean, let standardDeviation):
      drawn = random.normal(
        mean: mean.isNaN ? 0 : mean,
        standardDeviation: standardDeviation.isNaN ? 0 : standardDeviation)
    case .exponential(let mean):
      drawn = random.exponential(mean: mean.isNaN ? 0 : mean)
    case .pareto(let scale, let shape):
      drawn = random.pareto(scale: scale.isNaN ? 0 : scale, shape: shape.isNaN ? 0 : shape)
    }
    return min(Self.nonNegative(drawn), Double(FaultProxy.maximumDelay))
  }

  private static func nonNegative(_ value: Double) -> Double {
    value > 0 ? value : 0
  }
}
