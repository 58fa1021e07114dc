/// A small, fast, seeded random number generator (Steele, Lea and Flood's SplitMix64).
///
/// SessionEngine draws no randomness of its own: where something random is needed (the
/// service's resume tokens, a simulation's faults, a property test's inputs) it is drawn from a
/// generator like this one, seeded by the caller, so every run with the same seed is the same
/// on every platform.
///
/// > Important: A value; each copy continues the sequence on its own.
public struct SplitMix64: RandomNumberGenerator, Sendable, Hashable {
  private var state: UInt64

  /// Creates a generator; the same seed always yields the same sequence.
  ///
  /// - Parameter seed: The starting state; any value, 0 included, gives a good sequence.
  public init(seed: UInt64) { state = seed }

  /// The next 64 random bits.
  ///
  /// - Returns: A uniformly distributed 64-bit value, the next in the seed's sequence.
  public mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z &>> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z &>> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z &>> 31)
  }
}
