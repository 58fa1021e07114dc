/// Pushes everything else out of the CPU caches by writing and reading a buffer twice the
/// size of the last-level cache on the machines we run on (32 MiB here).
///
/// Timing the 10th and the 1,000th join each right after an eviction compares their cost
/// under the same cache conditions. In the storm itself the 1,000th join runs on caches the
/// 998 deliveries of the join before it have filled with other members' replicas, while the
/// 10th follows 8: that difference is part of fan-out, not of admission.
final class CacheEviction {
  private var buffer = [UInt64](repeating: 1, count: 8 << 20)  // 64 MiB

  /// Touches one word in every cache line of the buffer.
  @inline(never)
  func evict() {
    let sum = buffer.withUnsafeMutableBufferPointer { words in
      var sum: UInt64 = 0
      for index in stride(from: 0, to: words.count, by: 8) {
        words[index] &+= 1
        sum &+= words[index]
      }
      return sum
    }
    blackHole(Int(truncatingIfNeeded: sum))
  }
}
