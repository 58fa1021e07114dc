import SessionCore

/// Who the loudest talkers are, from the audio levels of their packets over a sliding window.
///
/// The window (300 ms) is kept as fifteen 20 ms buckets per talker; a bucket holds the loudest
/// talking packet in it, as `127 − level`, so a talker's score is the sum over the window and
/// neither sending more packets nor sending them at a different rate makes anyone louder, while
/// a gap in the packets counts as silence. A packet is talking when its level (RFC 6464, 0
/// loudest) is at most the router's talking level. The ranking is recomputed at most once per
/// bucket, at the first packet of a new one, so a new talker is heard within 20 ms. Ties go to
/// the lower user id. Owned by the ``MediaRouter`` that holds it.
struct AudioRanking: Sendable {
  /// The width of one bucket, µs.
  static let bucketWidth: Int64 = 20_000
  /// Buckets per window: 300 ms.
  static let bucketCount = 15
  /// How much louder, in dB on average over the window, a newcomer must be to take a place
  /// from a talker in the set.
  static let switchMargin = 9

  /// One 20 ms bucket of one talker.
  struct Bucket: Sendable, Hashable {
    /// The bucket's number (time / width), or `Int64.min` while unused.
    var index = Int64.min
    /// The loudest talking packet in it, as `127 − level`.
    var loudness: UInt8 = 0
  }

  /// The buckets of everyone who talked within the window, in a ring by bucket number.
  private(set) var windows: [UserID: [Bucket]] = [:]
  /// The loudest talkers, loudest first: one more than the router forwards, so that a
  /// talker among them hears the next one instead of themself.
  private(set) var ranked: [UserID] = []
  /// The bucket the ranking was computed in.
  private var rankedBucket = Int64.min

  /// The bucket number of a time, rounding down for negative times too.
  static func bucket(of time: Int64) -> Int64 {
    let quotient = time / bucketWidth
    return time % bucketWidth < 0 ? quotient - 1 : quotient
  }

  /// Takes in one packet's level and reranks if a new bucket has begun.
  ///
  /// - Parameters:
  ///   - user: The talker.
  ///   - level: The packet's audio level; above `talkingLevel` (or above 127) is silence.
  ///   - now: The router's time, µs.
  ///   - talkingLevel: The quietest level that counts as talking.
  ///   - keep: How many talkers to rank.
  mutating func heard(
    _ user: UserID, level: UInt8, now: Int64, talkingLevel: UInt8, keep: Int
  ) {
    let index = Self.bucket(of: now)
    if level <= talkingLevel, level <= 127 {
      let loudness = 127 - level
      let slot = Int(
        ((index % Int64(Self.bucketCount)) + Int64(Self.bucketCount))
          % Int64(Self.bucketCount))
      var buckets =
        windows.removeValue(forKey: user)
        ?? Array(repeating: Bucket(), count: Self.bucketCount)
      if buckets[slot].index < index {
        buckets[slot] = Bucket(index: index, loudness: loudness)
      } else if buckets[slot].index == index {
        buckets[slot].loudness = Swift.max(buckets[slot].loudness, loudness)
      }
      windows[user] = buckets
    }
    if index > rankedBucket { rerank(at: index, keep: keep) }
  }

  /// Forgets a talker who left, and reranks without them.
  mutating func remove(_ user: UserID, keep: Int) {
    guard windows.removeValue(forKey: user) != nil || ranked.contains(user) else { return }
    ranked.removeAll { $0 == user }
    if rankedBucket != .min { rerank(at: rankedBucket, keep: keep) }
  }

  /// A talker's score at bucket `index`: the sum of the buckets within the window.
  static func score(_ buckets: [Bucket], at index: Int64) -> Int {
    var score = 0
    for bucket in buckets where bucket.index <= index && bucket.index > index - Int64(bucketCount) {
      score += Int(bucket.loudness)
    }
    return score
  }

  /// Recomputes the ranking at bucket `index`, dropping talkers silent for a whole window.
  private mutating func rerank(at index: Int64, keep: Int) {
    rankedBucket = index
    var scored: [(user: UserID, score: Int)] = []
    scored.reserveCapacity(windows.count)
    var silent: [UserID] = []
    for (user, buckets) in windows {
      let score = Self.score(buckets, at: index)
      if score > 0 {
        scored.append((user, score))
      } else if buckets.allSatisfy({ $0.index <= index }) {
        silent.append(user)
      }
    }
    for user in silent { windows[user] = nil }
    scored.sort { $0.score != $1.score ? $0.score > $1.score : $0.user < $1.user }
    var chosen = Array(scored.prefix(keep))
    // Hysteresis: a talker in the set keeps its place against a newcomer that is not clearly
    // louder (by ``switchMargin`` dB over the window), so that close talkers do not swap
    // places every bucket, each swap a gap in what every listener receives.
    if chosen.count == keep, !ranked.isEmpty {
      for incumbent in ranked where !chosen.contains(where: { $0.user == incumbent }) {
        guard let held = scored.first(where: { $0.user == incumbent }) else { continue }
        let newcomers = chosen.indices.filter { !ranked.contains(chosen[$0].user) }
        guard let weakest = newcomers.min(by: { chosen[$0].score < chosen[$1].score }),
          chosen[weakest].score <= held.score + Self.switchMargin * Self.bucketCount
        else { continue }
        chosen[weakest] = held
      }
      chosen.sort { $0.score != $1.score ? $0.score > $1.score : $0.user < $1.user }
    }
    ranked = chosen.map(\.user)
  }
}
