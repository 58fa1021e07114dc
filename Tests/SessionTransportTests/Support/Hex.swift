/// Bytes from a hex string such as `"93 01 0a"` (spaces ignored).
func bytes(_ hex: String) -> [UInt8] {
  let digits = hex.filter { !$0.isWhitespace }
  var result: [UInt8] = []
  var index = digits.startIndex
  while index < digits.endIndex {
    let next = digits.index(index, offsetBy: 2)
    guard let byte = UInt8(digits[index..<next], radix: 16) else {
      preconditionFailure("not hex: \(digits[index..<next])")
    }
    result.append(byte)
    index = next
  }
  return result
}

/// Bytes as lowercase hex pairs separated by spaces.
func hex(_ bytes: some Sequence<UInt8>) -> String {
  bytes.map { byte in
    let digits = String(byte, radix: 16)
    return byte < 0x10 ? "0" + digits : digits
  }.joined(separator: " ")
}
