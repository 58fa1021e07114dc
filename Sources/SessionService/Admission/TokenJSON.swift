/// A JSON value as the session-token verifier reads it (RFC 8259), parsed by hand so that hostile
/// input behaves the same on every platform.
///
/// Numbers keep only what the claims need: an integer that fits `Int64` is ``integer(_:)``;
/// anything else (a fraction, an exponent, an integer out of range) is ``otherNumber``.
enum TokenJSON: Equatable, Sendable {
  case object([String: TokenJSON])
  case array([TokenJSON])
  case string(String)
  case integer(Int64)
  case otherNumber
  case bool(Bool)
  case null

  /// The deepest nesting of objects and arrays the parser accepts.
  static let maxDepth = 32

  /// Parses one JSON text.
  ///
  /// Refuses (never traps on) invalid UTF-8, nesting deeper than `maxDepth`, duplicate object
  /// keys, lone surrogate escapes, unescaped control characters and trailing data.
  static func parse(
    _ bytes: [UInt8],
    maxDepth: Int = maxDepth
  ) throws(TokenJSONError) -> TokenJSON {
    guard String(decoding: bytes, as: UTF8.self).utf8.elementsEqual(bytes) else {
      throw TokenJSONError(message: "not valid UTF-8", offset: 0)
    }
    var parser = TokenJSONParser(bytes: bytes, maxDepth: maxDepth)
    return try parser.parseDocument()
  }
}

/// Why a JSON text was refused, and where.
struct TokenJSONError: Error, Equatable, Sendable, CustomStringConvertible {
  var message: String
  var offset: Int

  var description: String { "\(message) at byte \(offset)" }
}

/// A recursive-descent parser over UTF-8 bytes already checked to be valid.
private struct TokenJSONParser {
  private let bytes: [UInt8]
  private let maxDepth: Int
  private var index = 0

  init(bytes: [UInt8], maxDepth: Int) {
    self.bytes = bytes
    self.maxDepth = maxDepth
  }

  mutating func parseDocument() throws(TokenJSONError) -> TokenJSON {
    skipWhitespace()
    let value = try parseValue(depth: 0)
    skipWhitespace()
    guard index == bytes.count else { throw failure("unexpected data after the value") }
    return value
  }

  private mutating func parseValue(depth: Int) throws(TokenJSONError) -> TokenJSON {
    guard let byte = peek() else { throw failure("unexpected end of input") }
    switch byte {
    case UInt8(ascii: "{"): return try parseObject(depth: depth + 1)
    case UInt8(ascii: "["): return try parseArray(depth: depth + 1)
    case UInt8(ascii: "\""): return .string(try parseString())
    case UInt8(ascii: "t"):
      try expectLiteral("true")
      return .bool(true)
    case UInt8(ascii: "f"):
      try expectLiteral("false")
      return .bool(false)
    case UInt8(ascii: "n"):
      try expectLiteral("null")
      return .null
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
      return try parseNumber()
    default:
      throw failure("unexpected character")
    }
  }

  private mutating func parseObject(depth: Int) throws(TokenJSONError) -> TokenJSON {
    guard depth <= maxDepth else { throw failure("nesting deeper than \(maxDepth)") }
    index += 1  // {
    skipWhitespace()
    var members: [String: TokenJSON] = [:]
    if peek() == UInt8(ascii: "}") {
      index += 1
      return .object(members)
    }
    while true {
      guard peek() == UInt8(ascii: "\"") else { throw failure("expected a string key") }
      let keyOffset = index
      let key = try parseString()
      skipWhitespace()
      guard peek() == UInt8(ascii: ":") else { throw failure("expected ':'") }
      index += 1
      skipWhitespace()
      let value = try parseValue(depth: depth)
      guard members.updateValue(value, forKey: key) == nil else {
        throw TokenJSONError(message: "duplicate key \"\(key)\"", offset: keyOffset)
      }
      skipWhitespace()
      switch peek() {
      case UInt8(ascii: ","):
        index += 1
        skipWhitespace()
      case UInt8(ascii: "}"):
        index += 1
        return .object(members)
      default:
        throw failure("expected ',' or '}'")
      }
    }
  }

  private mutating func parseArray(depth: Int) throws(TokenJSONError) -> TokenJSON {
    guard depth <= maxDepth else { throw failure("nesting deeper than \(maxDepth)") }
    index += 1  // [
    skipWhitespace()
    var elements: [TokenJSON] = []
    if peek() == UInt8(ascii: "]") {
      index += 1
      return .array(elements)
    }
    while true {
      elements.append(try parseValue(depth: depth))
      skipWhitespace()
      switch peek() {
      case UInt8(ascii: ","):
        index += 1
        skipWhitespace()
      case UInt8(ascii: "]"):
        index += 1
        return .array(elements)
      default:
        throw failure("expected ',' or ']'")
      }
    }
  }

  private mutating func parseString() throws(TokenJSONError) -> String {
    index += 1  // opening quote
    var buffer: [UInt8] = []
    while let byte = peek() {
      switch byte {
      case UInt8(ascii: "\""):
        index += 1
        // The input is valid UTF-8 and every copied run is delimited by ASCII bytes, and escapes
        // append whole scalars, so the buffer is valid UTF-8 too.
        return String(decoding: buffer, as: UTF8.self)
      case UInt8(ascii: "\\"):
        index += 1
        try parseEscape(into: &buffer)
      case 0x00..<0x20:
        throw failure("unescaped control character in a string")
      default:
        buffer.append(byte)
        index += 1
      }
    }
    throw failure("unterminated string")
  }

  private mutating func parseEscape(into buffer: inout [UInt8]) throws(TokenJSONError) {
    guard let byte = peek() else { throw failure("unterminated escape") }
    index += 1
    switch byte {
    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): buffer.append(byte)
    case UInt8(ascii: "b"): buffer.append(0x08)
    case UInt8(ascii: "f"): buffer.append(0x0C)
    case UInt8(ascii: "n"): buffer.append(0x0A)
    case UInt8(ascii: "r"): buffer.append(0x0D)
    case UInt8(ascii: "t"): buffer.append(0x09)
    case UInt8(ascii: "u"):
      let unit = try parseHexQuad()
      var scalarValue = UInt32(unit)
      switch unit {
      case 0xD800...0xDBFF:
        guard peek() == UInt8(ascii: "\\"), peek(offset: 1) == UInt8(ascii: "u") else {
          throw failure("unpaired high surrogate escape")
        }
        index += 2
        let low = try parseHexQuad()
        guard (0xDC00...0xDFFF).contains(low) else { throw failure("unpaired high surrogate") }
        scalarValue = 0x10000 + ((UInt32(unit) - 0xD800) << 10) + (UInt32(low) - 0xDC00)
      case 0xDC00...0xDFFF:
        throw failure("unpaired low surrogate escape")
      default:
        break
      }
      guard let scalar = Unicode.Scalar(scalarValue) else { throw failure("invalid escape") }
      UTF8.encode(scalar) { buffer.append($0) }
    default:
      throw failure("invalid escape")
    }
  }

  private mutating func parseHexQuad() throws(TokenJSONError) -> UInt16 {
    var value: UInt16 = 0
    for _ in 0..<4 {
      guard let byte = peek() else { throw failure("unterminated \\u escape") }
      let digit: UInt8
      switch byte {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
      case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
      case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
      default: throw failure("invalid hex digit in \\u escape")
      }
      value = value << 4 | UInt16(digit)
      index += 1
    }
    return value
  }

  private mutating func parseNumber() throws(TokenJSONError) -> TokenJSON {
    let negative = peek() == UInt8(ascii: "-")
    if negative { index += 1 }
    let integerStart = index
    guard let first = peek(), isDigit(first) else { throw failure("expected a digit") }
    index += 1
    if first != UInt8(ascii: "0") {
      while let byte = peek(), isDigit(byte) { index += 1 }
    }
    let integerDigits = bytes[integerStart..<index]
    var isInteger = true
    if peek() == UInt8(ascii: ".") {
      index += 1
      try expectDigits()
      isInteger = false
    }
    if peek() == UInt8(ascii: "e") || peek() == UInt8(ascii: "E") {
      index += 1
      if peek() == UInt8(ascii: "+") || peek() == UInt8(ascii: "-") { index += 1 }
      try expectDigits()
      isInteger = false
    }
    guard isInteger else { return .otherNumber }
    // Accumulate towards the sign so that Int64.min is representable; overflow is not an error,
    // just a number too large to be an integer claim.
    var value: Int64 = 0
    for digit in integerDigits {
      let (shifted, overflowMultiply) = value.multipliedReportingOverflow(by: 10)
      let step = Int64(digit - UInt8(ascii: "0"))
      let (next, overflowAdd) =
        negative
        ? shifted.subtractingReportingOverflow(step) : shifted.addingReportingOverflow(step)
      guard !overflowMultiply, !overflowAdd else { return .otherNumber }
      value = next
    }
    return .integer(value)
  }

  private mutating func expectDigits() throws(TokenJSONError) {
    guard let byte = peek(), isDigit(byte) else { throw failure("expected a digit") }
    while let byte = peek(), isDigit(byte) { index += 1 }
  }

  private mutating func expectLiteral(_ literal: String) throws(TokenJSONError) {
    for byte in literal.utf8 {
      guard peek() == byte else { throw failure("invalid literal") }
      index += 1
    }
  }

  private mutating func skipWhitespace() {
    while let byte = peek(),
      byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
    {
      index += 1
    }
  }

  private func peek(offset: Int = 0) -> UInt8? {
    let position = index + offset
    return position < bytes.count ? bytes[position] : nil
  }

  private func isDigit(_ byte: UInt8) -> Bool {
    byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
  }

  private func failure(_ message: String) -> TokenJSONError {
    TokenJSONError(message: message, offset: index)
  }
}

/// Writes JSON string literals for minted tokens.
enum TokenJSONWriter {
  /// `text` as a quoted JSON string: `"` and `\` escaped, control characters as `\u00XX`,
  /// everything else as UTF-8.
  static func quoted(_ text: String) -> String {
    var output = "\""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": output += "\\\""
      case "\\": output += "\\\\"
      case "\n": output += "\\n"
      case "\r": output += "\\r"
      case "\t": output += "\\t"
      case "\u{00}"..."\u{1F}":
        let hex = String(scalar.value, radix: 16, uppercase: false)
        output += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
      default: output.unicodeScalars.append(scalar)
      }
    }
    output += "\""
    return output
  }
}
