/// Reads typed values from a fuzzer's bytes, front to back, as libFuzzer's
/// `FuzzedDataProvider` does: a mutation of a few bytes changes a few values, so coverage
/// guidance works on structured inputs.
///
/// Once the bytes run out every read returns zero: `0`, `false`, a range's lower bound, the
/// first element, the empty string. Any input, even an empty one, is a complete run, and the
/// same bytes always give the same values.
///
/// > Important: A value, used by one harness call on the calling thread.
package struct FuzzInput: ValueSource {
  private let bytes: [UInt8]
  /// The index of the next byte to read.
  package private(set) var position = 0

  /// An input over these bytes.
  ///
  /// - Parameter bytes: The fuzzer's input.
  package init(_ bytes: [UInt8]) {
    self.bytes = bytes
  }

  /// Whether every byte has been read.
  package var isExhausted: Bool { position >= bytes.count }

  /// The bytes not read yet.
  package var remainingCount: Int { max(0, bytes.count - position) }

  // MARK: Primitives

  /// The next byte, or 0.
  package mutating func byte() -> UInt8 {
    guard position < bytes.count else { return 0 }
    defer { position += 1 }
    return bytes[position]
  }

  /// The low bit of the next byte.
  package mutating func bool() -> Bool { byte() & 1 == 1 }

  /// `true` with about `percent` % of byte values.
  package mutating func chance(_ percent: Int) -> Bool { Int(byte()) * 100 < percent * 256 }

  /// A value in `range`, from as few bytes as the range needs (one for up to 256 values).
  package mutating func int(in range: ClosedRange<Int>) -> Int {
    let span = UInt64(bitPattern: Int64(range.upperBound &- range.lowerBound))
    guard span > 0 else { return range.lowerBound }
    var value: UInt64 = 0
    var left = span
    while left > 0 {
      value = value << 8 | UInt64(byte())
      left >>= 8
    }
    let offset = span == .max ? value : value % (span + 1)
    return range.lowerBound &+ Int(truncatingIfNeeded: offset)
  }

  /// A 64-bit value, biased toward the boundaries where a varint or a signed value changes
  /// (one selector byte, then as many bytes as the chosen width needs).
  package mutating func uint64() -> UInt64 {
    let selector = byte()
    if selector < 64 {
      return valueBoundaries[Int(selector) % valueBoundaries.count]
    }
    let bits = Int(selector) % 65
    var value: UInt64 = 0
    for _ in 0..<(bits + 7) / 8 { value = value << 8 | UInt64(byte()) }
    return bits == 64 ? value : value & (1 << UInt64(bits) - 1)
  }

  // uint32, uint16, int64, int, index, element and pick: ``ValueSource``'s.

  /// A value made by `make`, or `nil`, as the next byte says.
  package mutating func optional<Value>(_ make: (inout FuzzInput) -> Value) -> Value? {
    bool() ? make(&self) : nil
  }

  /// Up to `maximum` raw bytes: a length byte (or two), then that many bytes.
  package mutating func bytes(upTo maximum: Int) -> [UInt8] {
    let count = int(in: 0...max(0, maximum))
    var result: [UInt8] = []
    result.reserveCapacity(min(count, remainingCount))
    for _ in 0..<count {
      guard !isExhausted else { break }
      result.append(byte())
    }
    return result
  }

  /// Every byte not read yet.
  package mutating func rest() -> [UInt8] {
    guard position < bytes.count else { return [] }
    defer { position = bytes.count }
    return Array(bytes[position...])
  }

  // MARK: Text

  /// A short string of 0 to 24 characters from ASCII, Latin, Cyrillic, CJK, emoji, combining
  /// marks and NUL.
  package mutating func string() -> String {
    let alphabet: [Character] = [
      "a", "Z", "0", " ", "_", "\n", "é", "ß", "Ж", "漢", "字", "😀", "👩‍💻", "e\u{301}", "\u{0}",
      ".", "\"", "\\",
    ]
    var text = ""
    for _ in 0..<int(in: 0...24) {
      text.append(alphabet[index(alphabet.count)])
    }
    return text
  }

  /// A string from the whole range of what a client can send: empty, short, raw bytes read as
  /// UTF-8 (repaired), control characters and bidirectional overrides, and rarely huge ones
  /// (64 KiB of ASCII, thousands of combining marks on one character, family emoji) at and
  /// around the limits.
  package mutating func text() -> String {
    switch byte() {
    case 0..<16: return ""
    case 16..<20:
      return "e" + String(repeating: "\u{0301}", count: pick([100, 5_000, 32_000]))
    case 20..<32:
      return String(repeating: "x", count: pick([149, 150, 151, 199, 200, 201, 10_001, 65_536]))
    case 32..<40: return String(repeating: "👩‍👩‍👧‍👦", count: pick([10, 36, 37, 40, 2_000]))
    case 40..<56: return "line\nFAKE LOG LINE\r\u{1B}[31m\u{202E}"
    case 56..<72: return String(repeating: "\u{0}", count: int(in: 1...40))
    case 72..<104: return String(decoding: bytes(upTo: 64), as: UTF8.self)
    case 104..<136:
      var scalars = String.UnicodeScalarView()
      for _ in 0..<int(in: 0...32) {
        if let scalar = Unicode.Scalar(UInt32(truncatingIfNeeded: uint64()) % 0x11_0000) {
          scalars.append(scalar)
        }
      }
      return String(scalars)
    case 136..<152: return String(repeating: "é", count: pick([35, 36, 37, 72, 73]))
    default: return string()
    }
  }
}
