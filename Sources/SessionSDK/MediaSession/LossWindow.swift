/// The loss of the last five one-second intervals: their average (all packets together) and
/// their worst, per thousand.
///
/// > Important: A value; owned by whoever measures the loss.
struct LossWindow: Sendable, Hashable {
  /// Intervals kept.
  static let length = 5

  private var expected = [Int64](repeating: 0, count: LossWindow.length)
  private var lost = [Int64](repeating: 0, count: LossWindow.length)
  private var next = 0

  /// Adds an interval, pushing out the oldest.
  ///
  /// - Parameters:
  ///   - expected: Packets expected in it (at least 0).
  ///   - lost: Packets lost in it (0 to `expected`).
  mutating func add(expected: Int64, lost: Int64) {
    let expected = max(0, expected)
    self.expected[next] = expected
    self.lost[next] = min(expected, max(0, lost))
    next = (next + 1) % Self.length
  }

  /// The loss of the window's packets together, per thousand.
  var averagePerThousand: Int {
    let total = expected.reduce(0, +)
    return total == 0 ? 0 : Int(lost.reduce(0, +) * 1_000 / total)
  }

  /// The worst interval's loss, per thousand.
  var maximumPerThousand: Int {
    var worst: Int64 = 0
    for index in expected.indices where expected[index] > 0 {
      worst = max(worst, lost[index] * 1_000 / expected[index])
    }
    return Int(worst)
  }

  /// The loss of the newest interval, 0...1; `nil` when it expected nothing.
  var newest: Double? {
    let index = (next + Self.length - 1) % Self.length
    return expected[index] == 0 ? nil : Double(lost[index]) / Double(expected[index])
  }
}
