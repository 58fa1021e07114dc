/// One-way delays, counted in buckets of about 6% width (16 per power of two), for
/// percentiles: what a run summary reads p50 and p99 from.
///
/// Recording is O(1) with no allocation; two histograms merge by adding counts. Delays are
/// microseconds, below 0 counted as 0 and beyond 2⁴³ µs (about 100 days) in the last bucket. A
/// percentile reads the bucket's upper edge, so it errs by at most one bucket's width upward.
///
/// > Important: A value; `Sendable`.
package struct DelayHistogram: Sendable, Hashable {
  /// Buckets per power of two.
  static let subBuckets = 16
  /// The number of buckets: exact below 32 µs, then 16 per power of two up to 2⁴³ µs.
  static let bucketCount = 16 * 40

  private(set) var counts = [UInt64](repeating: 0, count: DelayHistogram.bucketCount)
  /// How many delays were recorded.
  package private(set) var count: UInt64 = 0
  /// Their sum, µs (wrapping only past 2⁶³).
  package private(set) var sum: UInt64 = 0
  /// The largest, µs.
  package private(set) var maximum: Int64 = 0

  /// An empty histogram.
  package init() {}

  /// The bucket of a delay.
  static func bucket(of delay: Int64) -> Int {
    let value = UInt64(max(0, delay))
    if value < 32 { return Int(value) }
    let top = 63 - value.leadingZeroBitCount
    let shift = top - 4
    let index = (shift + 1) * subBuckets + Int(value >> UInt64(shift)) - subBuckets
    return min(index, bucketCount - 1)
  }

  /// The largest delay a bucket holds, µs.
  static func upperEdge(of bucket: Int) -> Int64 {
    if bucket < 32 { return Int64(bucket) }
    let shift = bucket / subBuckets - 1
    let mantissa = Int64(bucket % subBuckets + subBuckets)
    return ((mantissa + 1) << Int64(shift)) - 1
  }

  /// Counts one delay.
  ///
  /// - Parameter delay: Microseconds.
  package mutating func record(_ delay: Int64) {
    counts[Self.bucket(of: delay)] &+= 1
    count &+= 1
    sum &+= UInt64(max(0, delay))
    maximum = max(maximum, delay)
  }

  /// Adds another histogram's counts.
  ///
  /// - Parameter other: The histogram to add.
  package mutating func merge(_ other: DelayHistogram) {
    for index in counts.indices { counts[index] &+= other.counts[index] }
    count &+= other.count
    sum &+= other.sum
    maximum = max(maximum, other.maximum)
  }

  /// The delays recorded since `earlier`, a copy of this histogram taken before (for the last
  /// seconds of a run); counts that went down are 0. The maximum stays this histogram's.
  ///
  /// - Parameter earlier: The same histogram, earlier.
  /// - Returns: The difference.
  package func subtracting(_ earlier: DelayHistogram) -> DelayHistogram {
    var difference = self
    for index in counts.indices {
      difference.counts[index] =
        counts[index] >= earlier.counts[index]
        ? counts[index] - earlier.counts[index] : 0
    }
    difference.count = difference.counts.reduce(0, &+)
    difference.sum = sum >= earlier.sum ? sum - earlier.sum : 0
    return difference
  }

  /// The delay below which `fraction` of the delays lie, µs; 0 when empty.
  ///
  /// - Parameter fraction: 0...1 (0.5 for the median, 0.99 for p99); clamped.
  /// - Returns: The upper edge of the bucket that holds it.
  package func percentile(_ fraction: Double) -> Int64 {
    guard count > 0 else { return 0 }
    let clamped = fraction.isNaN ? 1 : min(1, max(0, fraction))
    let rank = max(1, UInt64((Double(count) * clamped).rounded(.up)))
    var seen: UInt64 = 0
    for (index, value) in counts.enumerated() {
      seen += value
      guard seen >= rank else { continue }
      return index == counts.count - 1 ? maximum : min(Self.upperEdge(of: index), maximum)
    }
    return maximum
  }

  /// The buckets that hold a delay, in increasing order: each one's upper edge (the largest
  /// delay it holds, µs) and its count.
  ///
  /// - Returns: The non-empty buckets.
  package func buckets() -> [(edge: Int64, count: UInt64)] {
    counts.indices.compactMap { index in
      counts[index] == 0 ? nil : (Self.upperEdge(of: index), counts[index])
    }
  }

  /// The mean delay, µs; 0 when empty.
  package var mean: Double { count == 0 ? 0 : Double(sum) / Double(count) }
}
