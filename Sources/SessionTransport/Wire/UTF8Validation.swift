/// Strict UTF-8 validation (Unicode 15, table 3-7): no overlong forms, no surrogates, nothing
/// above U+10FFFF, no truncated sequences.
enum UTF8Validation {
  /// Whether `bytes` are well-formed UTF-8.
  ///
  /// - Complexity: O(`bytes.count`); ASCII runs are checked eight bytes at a time.
  static func isValid(_ bytes: UnsafeRawBufferPointer) -> Bool {
    let count = bytes.count
    var index = 0
    while index < count {
      if count - index >= 8 {
        let word = bytes.loadUnaligned(fromByteOffset: index, as: UInt64.self)
        if word & 0x8080_8080_8080_8080 == 0 {
          index += 8
          continue
        }
      }
      let lead = bytes[index]
      if lead < 0x80 {
        index += 1
        continue
      }
      let length: Int
      var low: UInt8 = 0x80
      var high: UInt8 = 0xBF
      switch lead {
      case 0xC2...0xDF: length = 2
      case 0xE0:
        length = 3
        low = 0xA0
      case 0xE1...0xEC, 0xEE...0xEF: length = 3
      case 0xED:
        length = 3
        high = 0x9F
      case 0xF0:
        length = 4
        low = 0x90
      case 0xF1...0xF3: length = 4
      case 0xF4:
        length = 4
        high = 0x8F
      default: return false
      }
      guard count - index >= length else { return false }
      let second = bytes[index + 1]
      guard second >= low, second <= high else { return false }
      for continuation in 2..<length where bytes[index + continuation] & 0xC0 != 0x80 {
        return false
      }
      index += length
    }
    return true
  }
}
