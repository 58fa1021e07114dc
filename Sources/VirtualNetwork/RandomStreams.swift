import SessionCore

/// Independent random streams derived from one seed, one per label.
///
/// `stream("link/alice/up")` seeds a ``SessionCore/SimulationRandom`` from the FNV-1a 64 hash of the label
/// mixed with the seed by SplitMix64, so a stream depends only on the seed and its own label:
/// adding a peer, or drawing more from one stream, never changes another stream's draws.
///
/// > Important: A value; `Sendable`.
public struct RandomStreams: Sendable, Hashable {
  /// The seed every stream derives from.
  public let seed: UInt64

  /// Creates the streams of a seed.
  ///
  /// - Parameter seed: The run's seed.
  public init(seed: UInt64) { self.seed = seed }

  /// The stream of a label: the same seed and label always give the same stream.
  ///
  /// - Parameter label: Any text, for example `"link/alice/up"` or `"faults"`.
  /// - Returns: A fresh generator at the start of that stream.
  public func stream(_ label: String) -> SimulationRandom {
    SimulationRandom(seed: Self.mix(seed: seed, hash: Self.fnv1a(label)))
  }

  /// FNV-1a 64 of the label's UTF-8 bytes.
  static func fnv1a(_ label: String) -> UInt64 {
    var hash: UInt64 = 0xCBF2_9CE4_8422_2325
    for byte in label.utf8 {
      hash ^= UInt64(byte)
      hash &*= 0x0000_0100_0000_01B3
    }
    return hash
  }

  /// The seed and the label's hash, mixed by two SplitMix64 steps.
  static func mix(seed: UInt64, hash: UInt64) -> UInt64 {
    var state = seed
    let first = SimulationRandom.splitMix(&state)
    state = first ^ hash
    return SimulationRandom.splitMix(&state)
  }
}
