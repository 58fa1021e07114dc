import SessionCore

/// One evaluation's measurements of a stream, for its network quality.
///
/// > Important: A value; `Sendable`.
struct QualitySample: Sendable, Hashable {
  /// The fraction of packets lost, 0...1.
  var loss: Double
  /// The one-way delay, milliseconds.
  var delay: Double
  /// The jitter, milliseconds.
  var jitter: Double

  /// The score, 0 (unusable) to 100, in the manner of LiveKit's connection-quality scorer (a
  /// simplified E-model): `100 − lossEffect − delayEffect`, where the loss effect is
  /// ``lossWeight`` points per percent lost and the delay effect is a fortieth of the
  /// effective delay (delay + 2 × jitter + 10 ms) up to 160 ms and a tenth of what it exceeds
  /// 120 ms by beyond that.
  var score: Double {
    let effective = max(0, delay) + 2 * max(0, jitter) + 10
    let delayEffect = effective < 160 ? effective / 40 : (effective - 120) / 10
    let lossEffect = min(1, max(0, loss)) * 100 * Self.lossWeight
    let score = 100 - delayEffect - lossEffect
    return score.isNaN ? 0 : min(100, max(0, score))
  }

  /// Score points per percent lost.
  static let lossWeight = 3.0
}

/// A stream's network quality: a smoothed score turned into a level with hysteresis.
///
/// Evaluated once a second. The score (``QualitySample/score``) is smoothed (half the new
/// score, half the old). A level holds while the smoothed score stays within ``margin`` points
/// past its boundaries (good from 80, normal from 50, bad below); it changes only when the score
/// has been past a boundary of the level by more than the margin, the same way, for
/// ``confirmations`` evaluations in a row, and then to the level the score reads now (a collapse
/// goes from good to bad at once), so a score hovering around a boundary never flaps. A stream with no media is ``none``: the
/// first evaluation with media sets the level at once, and two evaluations in a row without
/// media set it back to none.
///
/// > Important: A value; owned by whoever evaluates the stream.
struct NetworkQualityTracker: Sendable, Hashable {
  /// The lowest score that is normal.
  static let normalFrom = 50.0
  /// The lowest score that is good.
  static let goodFrom = 80.0
  /// How far past a boundary the score must go to change the level.
  static let margin = 5.0
  /// Evaluations in a row past a boundary before the level changes.
  static let confirmations = 2
  /// The weight of the newest score in the smoothed one.
  static let smoothing = 0.5

  /// The level now.
  private(set) var level = NetworkQuality.none
  /// The smoothed score, `nil` while there is no media.
  private(set) var score: Double?
  /// Evaluations in a row past a boundary: positive upward, negative downward.
  private var streak = 0
  private var emptyCount = 0

  /// The level a score reads with no hysteresis.
  static func level(of score: Double) -> NetworkQuality {
    score >= goodFrom ? .good : score >= normalFrom ? .normal : .bad
  }

  /// The lowest score of a level (bad: 0).
  private static func lowerBound(of level: NetworkQuality) -> Double {
    switch level {
    case .good: goodFrom
    case .normal: normalFrom
    case .bad, .none: 0
    }
  }

  /// The level `score` moves to from `current`, margins applied.
  static func target(from current: NetworkQuality, score: Double) -> NetworkQuality {
    var level = current
    while level != .good, score >= lowerBound(of: up(level)) + margin { level = up(level) }
    while level != .bad, score < lowerBound(of: level) - margin { level = down(level) }
    return level
  }

  private static func up(_ level: NetworkQuality) -> NetworkQuality {
    level == .bad ? .normal : .good
  }

  private static func down(_ level: NetworkQuality) -> NetworkQuality {
    level == .good ? .normal : .bad
  }

  /// Takes one evaluation.
  ///
  /// - Parameter sample: The measurements, or `nil` when the stream had no media.
  /// - Returns: The new level when it changed.
  mutating func evaluate(_ sample: QualitySample?) -> NetworkQuality? {
    guard let sample else {
      emptyCount += 1
      guard emptyCount >= Self.confirmations, level != .none else { return nil }
      self = NetworkQualityTracker()
      return NetworkQuality.none
    }
    emptyCount = 0
    let newScore = sample.score
    let smoothed = score.map { Self.smoothing * newScore + (1 - Self.smoothing) * $0 } ?? newScore
    score = smoothed
    guard level != .none else {
      level = Self.level(of: smoothed)
      return level
    }
    let target = Self.target(from: level, score: smoothed)
    guard target != level else {
      streak = 0
      return nil
    }
    let upward = target.rawValue > level.rawValue
    streak = upward ? max(1, streak + 1) : min(-1, streak - 1)
    guard abs(streak) >= Self.confirmations else { return nil }
    level = target
    streak = 0
    return level
  }
}
