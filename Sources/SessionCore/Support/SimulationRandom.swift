/// A seeded random number generator for simulations: xoshiro256**, seeded through SplitMix64.
///
/// Every draw of a virtual network or of a simulation comes from one of these, so a run with
/// the same seed draws the same numbers on every platform. ``VirtualNetwork/RandomStreams`` hands out one
/// independent generator per label.
///
/// > Important: A value; `Sendable`. Each copy continues the sequence on its own.
public struct SimulationRandom: RandomNumberGenerator, Sendable, Hashable {
  private var s0: UInt64
  private var s1: UInt64
  private var s2: UInt64
  private var s3: UInt64

  /// Creates a generator; the same seed always yields the same sequence.
  ///
  /// - Parameter seed: Any 64 bits; four SplitMix64 outputs of it fill the state, which is
  ///   therefore never all zero.
  public init(seed: UInt64) {
    var mixer = seed
    s0 = Self.splitMix(&mixer)
    s1 = Self.splitMix(&mixer)
    s2 = Self.splitMix(&mixer)
    s3 = Self.splitMix(&mixer)
  }

  /// One SplitMix64 step: advances `state` and returns the next output.
  package static func splitMix(_ state: inout UInt64) -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z &>> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z &>> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z &>> 31)
  }

  /// The next 64 random bits.
  ///
  /// - Returns: A uniformly distributed `UInt64`.
  public mutating func next() -> UInt64 {
    let result = ((s1 &* 5) << 7 | (s1 &* 5) >> 57) &* 9
    let t = s1 << 17
    s2 ^= s0
    s3 ^= s1
    s1 ^= s2
    s0 ^= s3
    s2 ^= t
    s3 = s3 << 45 | s3 >> 19
    return result
  }

  /// A uniform number in [0, 1) with 53 random bits.
  ///
  /// - Returns: The number.
  public mutating func nextDouble() -> Double {
    Double(next() >> 11) * 0x1.0p-53
  }

  /// Whether an event of probability `probability` happens: `nextDouble() < probability`.
  /// A probability at or below 0 (or NaN) never happens, and one at or above 1 always does;
  /// both still draw, so the stream stays aligned whatever the probability.
  ///
  /// - Parameter probability: The chance, in [0, 1].
  /// - Returns: Whether it happened.
  public mutating func chance(_ probability: Double) -> Bool {
    nextDouble() < probability
  }

  /// A normally distributed number (Box–Muller; two uniform draws per call).
  ///
  /// - Parameters:
  ///   - mean: The mean.
  ///   - standardDeviation: The standard deviation; negative is taken as its magnitude.
  /// - Returns: The number.
  public mutating func normal(mean: Double = 0, standardDeviation: Double = 1) -> Double {
    let u1 = 1 - nextDouble()  // (0, 1]: log stays finite
    let u2 = nextDouble()
    let radius = (-2 * Math.log(u1)).squareRoot()
    return mean + abs(standardDeviation) * radius * Math.cos(2 * Double.pi * u2)
  }

  /// An exponentially distributed number (inversion; one uniform draw).
  ///
  /// - Parameter mean: The mean; a mean at or below 0 (or NaN) gives 0.
  /// - Returns: The number, at least 0.
  public mutating func exponential(mean: Double) -> Double {
    let u = 1 - nextDouble()  // (0, 1]
    guard mean > 0 else { return 0 }
    return -mean * Math.log(u)
  }

  /// A Pareto-distributed number (inversion; one uniform draw): at least `scale`, with a tail
  /// whose heaviness `shape` sets (the mean is `scale · shape / (shape − 1)` for a shape above
  /// 1, and infinite otherwise).
  ///
  /// - Parameters:
  ///   - scale: The smallest value (x_m); at or below 0 (or NaN) gives 0.
  ///   - shape: The tail index (α); at or below 0 (or NaN) gives `scale`.
  /// - Returns: The number; may be `infinity` for tiny shapes, which callers clamp.
  public mutating func pareto(scale: Double, shape: Double) -> Double {
    let u = 1 - nextDouble()  // (0, 1]
    guard scale > 0 else { return 0 }
    guard shape > 0 else { return scale }
    return scale / Math.pow(u, 1 / shape)
  }
}
