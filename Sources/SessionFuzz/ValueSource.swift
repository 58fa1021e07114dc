import SessionCore

/// Where ``ProtocolValues`` draws from: a fuzzer's bytes (``FuzzInput``) or a seeded
/// generator (``SeededSource``).
///
/// A source gives the primitives; this protocol's extension builds the rest on them the same
/// way for every source, so a harness and a seeded test draw alike.
///
/// > Important: A source is a value, used on the calling thread.
package protocol ValueSource {
  /// Any byte.
  mutating func byte() -> UInt8
  /// `true` or `false`.
  mutating func bool() -> Bool
  /// A value in `range`.
  ///
  /// - Parameter range: The values allowed.
  /// - Returns: One of them.
  mutating func int(in range: ClosedRange<Int>) -> Int
  /// A 64-bit value, biased toward the boundaries where a varint or a signed value changes.
  mutating func uint64() -> UInt64
  /// A short string from several scripts, with combining marks, emoji and NUL.
  mutating func string() -> String
}

/// The 64-bit values where a varint grows a byte or a signed value changes sign or width:
/// what every source's ``ValueSource/uint64()`` draws often.
package let valueBoundaries: [UInt64] = [
  0, 1, 2, 127, 128, 255, 256, 16_383, 16_384, 65_535, 65_536, 1 << 31 - 1, 1 << 31,
  1 << 32 - 1, 1 << 32, 1 << 53, 1 << 63 - 1, 1 << 63, .max - 1, .max,
]

extension ValueSource {
  /// A value in `0..<count`; 0 when `count` is 0 or 1.
  ///
  /// - Parameter count: How many values there are.
  /// - Returns: One of them.
  package mutating func index(_ count: Int) -> Int {
    count <= 1 ? 0 : int(in: 0...count - 1)
  }

  /// A 32-bit value, boundary-biased as ``uint64()``.
  package mutating func uint32() -> UInt32 { UInt32(truncatingIfNeeded: uint64()) }

  /// A 16-bit value, boundary-biased as ``uint64()``.
  package mutating func uint16() -> UInt16 { UInt16(truncatingIfNeeded: uint64()) }

  /// A signed 64-bit value, boundary-biased as ``uint64()`` (so `Int64.min` and `-1` too).
  package mutating func int64() -> Int64 { Int64(bitPattern: uint64()) }

  /// A signed value, boundary-biased as ``uint64()``.
  package mutating func int() -> Int { Int(truncatingIfNeeded: int64()) }

  /// One case of an enumeration.
  ///
  /// - Parameter type: The enumeration.
  /// - Returns: One of its cases.
  package mutating func element<Value: CaseIterable>(_ type: Value.Type) -> Value {
    let all = Array(Value.allCases)
    return all[index(all.count)]
  }

  /// One of `values`, which must not be empty.
  ///
  /// - Parameter values: The choices.
  /// - Returns: One of them.
  package mutating func pick<Value>(_ values: [Value]) -> Value {
    values[index(values.count)]
  }
}

/// A seeded source for property tests: the same seed, the same values, on every machine.
///
/// Not a source of secrets: a ``SimulationRandom`` anyone can replay.
///
/// > Important: A value, used on the calling thread.
package struct SeededSource: ValueSource {
  /// The generator.
  package var random: SimulationRandom

  /// A source seeded with `seed`.
  ///
  /// - Parameter seed: The seed.
  package init(seed: UInt64) { random = SimulationRandom(seed: seed) }

  /// The low byte of the next number.
  package mutating func byte() -> UInt8 { UInt8(truncatingIfNeeded: random.next()) }

  /// `true` or `false`, evenly.
  package mutating func bool() -> Bool { Bool.random(using: &random) }

  /// A value in `range`, evenly.
  ///
  /// - Parameter range: The values allowed.
  /// - Returns: One of them.
  package mutating func int(in range: ClosedRange<Int>) -> Int {
    Int.random(in: range, using: &random)
  }

  /// A 64-bit value of random width, a quarter of the time one of ``valueBoundaries``.
  package mutating func uint64() -> UInt64 {
    switch int(in: 0...3) {
    case 0:
      return pick(valueBoundaries)
    default:
      let bits = int(in: 0...64)
      let value = random.next()
      return bits == 64 ? value : value & (1 << UInt64(bits) - 1)
    }
  }

  /// A string of 0 to 24 characters from ASCII, Latin, Cyrillic, CJK, emoji, combining marks
  /// and NUL.
  package mutating func string() -> String {
    let alphabet: [Character] = [
      "a", "Z", "0", " ", "_", "\n", "é", "ß", "Ж", "漢", "字", "😀", "👩‍💻", "e\u{301}", "\u{0}",
    ]
    var text = ""
    for _ in 0..<int(in: 0...24) { text.append(pick(alphabet)) }
    return text
  }
}

extension ProtocolValues where Source == SeededSource {
  /// Values from a generator seeded with `seed`, with no users to prefer.
  ///
  /// - Parameter seed: The seed.
  package init(seed: UInt64) { self.init(SeededSource(seed: seed)) }
}
