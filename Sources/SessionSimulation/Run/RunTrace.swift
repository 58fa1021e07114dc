import SessionSDK

/// A run's trace: one line per callback at each peer and per network event, in the order
/// they happened, with a running FNV-1a digest. In deterministic mode the same scenario and
/// seed give the same lines, byte for byte.
///
/// > Important: A value owned by its runner, on the world's domain.
struct RunTrace {
  /// Whether lines are kept (the digest is computed either way).
  var keepsLines = false
  private(set) var lines: [String] = []
  private(set) var digest: UInt64 = 0xcbf2_9ce4_8422_2325

  /// The digest as 16 hex digits.
  var digestText: String {
    let hex = String(digest, radix: 16)
    return String(repeating: "0", count: 16 - hex.count) + hex
  }

  mutating func record(peer: Int, at elapsed: Int64, _ callback: VideoSDKCallback) {
    add("\(elapsed) p\(peer) \(callback)")
  }

  mutating func recordNetwork(_ line: String) { add(line) }

  private mutating func add(_ line: String) {
    for byte in line.utf8 { digest = (digest ^ UInt64(byte)) &* 0x100_0000_01b3 }
    digest = (digest ^ 0x0a) &* 0x100_0000_01b3
    if keepsLines { lines.append(line) }
  }
}
