/// Base64url (RFC 4648 §5) without padding, as JSON Web Tokens use it (RFC 7515 §2).
///
/// Decoding is strict, so that every byte string has exactly one accepted spelling:
/// - only `A`–`Z`, `a`–`z`, `0`–`9`, `-` and `_` are accepted (no `+`, `/`, whitespace or `=`);
/// - a length that leaves one character over (`count % 4 == 1`) is refused;
/// - the unused low bits of the last character must be zero (RFC 4648 §3.5 canonical form).
///
/// The last rule matters for signatures: without it, changing the final character of a signature
/// between, say, `A` and `B` would still decode to the same bytes.
///
/// > Important: Stateless and thread-safe: every function is pure.
public enum Base64URL {
  /// Encodes bytes as unpadded base64url text.
  ///
  /// - Parameter bytes: The bytes to encode.
  /// - Returns: The text, `ceil(4 * count / 3)` characters long, without `=` padding.
  /// - Complexity: O(n).
  public static func encode(_ bytes: some Sequence<UInt8>) -> String {
    let input = Array(bytes)
    var output: [UInt8] = []
    output.reserveCapacity((input.count * 4 + 2) / 3)
    var index = 0
    while index + 3 <= input.count {
      let chunk =
        UInt32(input[index]) << 16 | UInt32(input[index + 1]) << 8 | UInt32(input[index + 2])
      output.append(alphabet[Int(chunk >> 18 & 0x3F)])
      output.append(alphabet[Int(chunk >> 12 & 0x3F)])
      output.append(alphabet[Int(chunk >> 6 & 0x3F)])
      output.append(alphabet[Int(chunk & 0x3F)])
      index += 3
    }
    switch input.count - index {
    case 1:
      let chunk = UInt32(input[index]) << 16
      output.append(alphabet[Int(chunk >> 18 & 0x3F)])
      output.append(alphabet[Int(chunk >> 12 & 0x3F)])
    case 2:
      let chunk = UInt32(input[index]) << 16 | UInt32(input[index + 1]) << 8
      output.append(alphabet[Int(chunk >> 18 & 0x3F)])
      output.append(alphabet[Int(chunk >> 12 & 0x3F)])
      output.append(alphabet[Int(chunk >> 6 & 0x3F)])
    default:
      break
    }
    return String(decoding: output, as: UTF8.self)
  }

  /// Decodes unpadded base64url text, refusing anything but the canonical spelling.
  ///
  /// - Parameter text: The text to decode; the empty string decodes to no bytes.
  /// - Returns: The bytes, or `nil` if the text has a character outside the alphabet, padding,
  ///   an impossible length, or non-zero unused bits.
  /// - Complexity: O(n).
  public static func decode(_ text: some StringProtocol) -> [UInt8]? {
    decode(utf8: Array(text.utf8))
  }

  /// Decodes unpadded base64url given as its UTF-8 (ASCII) bytes; see ``decode(_:)``.
  static func decode(utf8 text: some Collection<UInt8>) -> [UInt8]? {
    let remainder = text.count % 4
    guard remainder != 1 else { return nil }
    var output: [UInt8] = []
    output.reserveCapacity(text.count * 3 / 4)
    var accumulator: UInt32 = 0
    var bitCount = 0
    for character in text {
      guard let value = sextet(character) else { return nil }
      accumulator = (accumulator << 6 | UInt32(value)) & 0xFFFF
      bitCount += 6
      if bitCount >= 8 {
        bitCount -= 8
        output.append(UInt8(truncatingIfNeeded: accumulator >> UInt32(bitCount)))
      }
    }
    // Whatever bits are left over (2 or 4 of them) must be zero in canonical base64.
    let leftoverMask: UInt32 = (1 << UInt32(bitCount)) - 1
    guard accumulator & leftoverMask == 0 else { return nil }
    return output
  }

  private static let alphabet: [UInt8] = Array(
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8
  )

  private static func sextet(_ character: UInt8) -> UInt8? {
    switch character {
    case UInt8(ascii: "A")...UInt8(ascii: "Z"): character - UInt8(ascii: "A")
    case UInt8(ascii: "a")...UInt8(ascii: "z"): character - UInt8(ascii: "a") + 26
    case UInt8(ascii: "0")...UInt8(ascii: "9"): character - UInt8(ascii: "0") + 52
    case UInt8(ascii: "-"): 62
    case UInt8(ascii: "_"): 63
    default: nil
    }
  }
}
