import SessionCore

/// Reads the protocol's primitive encodings from a payload, checking every read.
///
/// Reads advance ``offset``; every failure is a ``WireError`` whose offset is where the item
/// being read starts.
///
/// > Important: Borrows the payload's memory: use it only inside the decoding call that made it.
struct WireReader {
  /// The payload.
  let bytes: UnsafeRawBufferPointer
  /// The largest string accepted, in bytes.
  private let maxStringLength: UInt64
  /// The largest element count of one array or set.
  private let maxCollectionCount: UInt64
  /// The position of the next byte to read.
  private(set) var offset = 0
  /// Storage an event batch may decode into instead of a new array (see
  /// ``WireDecoder/decodeServerFrame(_:reusing:)``); it keeps the decoded events afterwards.
  var eventStorage: [SessionEvent]?

  init(_ bytes: UnsafeRawBufferPointer, limits: WireDecoder) {
    self.bytes = bytes
    // Clamped: a negative limit (the limits are public vars) acts as 0.
    self.maxStringLength = UInt64(clamping: limits.maxStringLength)
    self.maxCollectionCount = UInt64(clamping: limits.maxCollectionCount)
  }

  /// The number of bytes not read yet.
  var remaining: Int { bytes.count - offset }

  /// Fails unless every byte was read.
  @inline(__always)
  func finish() throws(WireError) {
    guard offset == bytes.count else { throw trailingBytes() }
  }

  /// The error for bytes left after the message (kept out of line, off the hot path).
  @inline(never)
  private func trailingBytes() -> WireError {
    WireError(
      .trailingBytes, offset: offset,
      detail: "\(remaining) byte\(remaining == 1 ? "" : "s") after the end of the message")
  }

  /// Moves past `count` bytes the caller already checked, without reading them.
  mutating func skip(_ count: Int) {
    precondition(count <= remaining, "skipping beyond the payload")
    offset += count
  }

  /// Moves past every remaining byte without reading them.
  mutating func skipToEnd() {
    offset = bytes.count
  }

  /// Reads one byte.
  @inline(__always)
  mutating func byte(_ what: StaticString) throws(WireError) -> UInt8 {
    guard offset < bytes.count else { throw truncated(what, at: offset, needed: 1) }
    let value = bytes[offset]
    offset += 1
    return value
  }

  /// Reads a bool: 0 or 1.
  @inline(__always)
  mutating func bool(_ what: StaticString) throws(WireError) -> Bool {
    let start = offset
    let value = try byte(what)
    guard value <= 1 else {
      throw WireError(.invalidEnumValue, offset: start, detail: "\(what): \(value) is not a bool")
    }
    return value == 1
  }

  /// Reads a one-byte enum raw value.
  @inline(__always)
  mutating func rawEnum<Value: RawRepresentable<UInt8>>(
    _: Value.Type, _ what: StaticString
  ) throws(WireError) -> Value {
    let start = offset
    let raw = try byte(what)
    guard let value = Value(rawValue: raw) else {
      throw WireError(
        .invalidEnumValue, offset: start, detail: "\(what): no value has raw value \(raw)")
    }
    return value
  }

  /// Reads a one-byte value of an `Int`-backed enum (the SDK's `NS_ENUM`s numbered from 0).
  mutating func intEnum<Value: RawRepresentable<Int>>(
    _: Value.Type, _ what: StaticString
  ) throws(WireError) -> Value {
    let start = offset
    let raw = try byte(what)
    guard let value = Value(rawValue: Int(raw)) else {
      throw WireError(
        .invalidEnumValue, offset: start, detail: "\(what): no value has raw value \(raw)")
    }
    return value
  }

  /// Reads an unsigned LEB128 varint of at most 10 bytes, in its shortest form.
  @inline(__always)
  mutating func varint(_ what: StaticString) throws(WireError) -> UInt64 {
    // Fast paths for one and two bytes (values below 16,384): most ids, counts and sequences.
    if offset < bytes.count {
      let first = bytes[offset]
      if first < 0x80 {
        offset += 1
        return UInt64(first)
      }
      if offset + 1 < bytes.count {
        let second = bytes[offset + 1]
        if second < 0x80 && second != 0 {
          offset += 2
          return UInt64(first & 0x7F) | UInt64(second) << 7
        }
      }
    }
    return try longVarint(what)
  }

  private mutating func longVarint(_ what: StaticString) throws(WireError) -> UInt64 {
    let start = offset
    let available = min(bytes.count - start, 10)
    var result: UInt64 = 0
    var index = 0
    while index < available {
      let byte = bytes[start + index]
      result |= UInt64(byte & 0x7F) &<< UInt64(7 * index)
      if byte < 0x80 {
        guard index < 9 || byte <= 1 else {
          throw WireError(
            .malformedVarint, offset: start, detail: "\(what): a varint larger than 64 bits")
        }
        guard byte != 0 || index == 0 else {
          throw WireError(
            .malformedVarint, offset: start, detail: "\(what): a varint not in its shortest form")
        }
        offset = start + index + 1
        return result
      }
      index += 1
    }
    if available == 10 {
      throw WireError(
        .malformedVarint, offset: start, detail: "\(what): a varint longer than 10 bytes")
    }
    throw WireError(.truncated, offset: start, detail: "the payload ends inside a varint (\(what))")
  }

  /// Reads a zigzag varint as an `Int64`.
  @inline(__always)
  mutating func signed64(_ what: StaticString) throws(WireError) -> Int64 {
    let raw = try varint(what)
    return Int64(bitPattern: (raw >> 1) ^ (0 &- (raw & 1)))
  }

  /// Reads a zigzag varint as an `Int`.
  @inline(__always)
  mutating func signed(_ what: StaticString) throws(WireError) -> Int {
    let start = offset
    let value = try signed64(what)
    guard let int = Int(exactly: value) else { throw overflow(what, value, at: start) }
    return int
  }

  /// Reads a varint that must fit in a `UInt32`.
  @inline(__always)
  mutating func uint32(_ what: StaticString) throws(WireError) -> UInt32 {
    try narrow(what)
  }

  /// Reads a varint that must fit in a `UInt16`.
  @inline(__always)
  mutating func uint16(_ what: StaticString) throws(WireError) -> UInt16 {
    try narrow(what)
  }

  /// Reads a varint that must fit in `Narrow`.
  @inline(__always)
  private mutating func narrow<Narrow: FixedWidthInteger & UnsignedInteger>(
    _ what: StaticString
  ) throws(WireError) -> Narrow {
    let start = offset
    let value = try varint(what)
    guard let narrow = Narrow(exactly: value) else { throw overflow(what, value, at: start) }
    return narrow
  }

  /// Reads a user id: a varint that fits in a `UInt32`.
  @inline(__always)
  mutating func user(_ what: StaticString) throws(WireError) -> UserID {
    UserID(rawValue: try uint32(what))
  }

  /// Reads a big-endian `UInt16` (two bytes).
  mutating func uint16BigEndian(_ what: StaticString) throws(WireError) -> UInt16 {
    guard remaining >= 2 else { throw truncated(what, at: offset, needed: 2) }
    let value = UInt16(bytes[offset]) << 8 | UInt16(bytes[offset + 1])
    offset += 2
    return value
  }

  /// Reads a string: a varint byte count, then that many bytes of well-formed UTF-8.
  mutating func string(_ what: StaticString) throws(WireError) -> String {
    let start = offset
    let length = try varint(what)
    guard length <= maxStringLength else {
      throw WireError(
        .stringTooLong, offset: start,
        detail: "\(what): \(length) bytes, more than the maximum \(maxStringLength)")
    }
    let count = Int(length)
    guard count <= remaining else {
      throw WireError(
        .truncated, offset: start,
        detail: "\(what): the string needs \(count) bytes, \(remaining) remain")
    }
    let utf8 = UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + count])
    guard UTF8Validation.isValid(utf8) else {
      throw WireError(.invalidUTF8, offset: start, detail: "\(what): not well-formed UTF-8")
    }
    offset += count
    return utf8.withMemoryRebound(to: UInt8.self) { String(decoding: $0, as: UTF8.self) }
  }

  /// Reads a presence byte, then the value if present.
  @inline(__always)
  mutating func optional<Value>(
    _ what: StaticString, _ read: (inout WireReader) throws(WireError) -> Value
  ) throws(WireError) -> Value? {
    let start = offset
    switch try byte(what) {
    case 0: return nil
    case 1: return try read(&self)
    case let other:
      throw WireError(
        .invalidEnumValue, offset: start, detail: "\(what): presence byte \(other) is not 0 or 1")
    }
  }

  /// Reads a collection count: a varint no larger than the maximum count and no larger than the
  /// remaining bytes could hold at `minimumElementSize` bytes per element.
  @inline(__always)
  mutating func count(
    _ what: StaticString, minimumElementSize: Int
  ) throws(WireError) -> Int {
    let start = offset
    let count = try varint(what)
    // count ≤ remaining first, so the product can't overflow: remaining fits in an Int.
    guard count <= UInt64(remaining), count * UInt64(minimumElementSize) <= UInt64(remaining),
      count <= maxCollectionCount
    else { throw countTooLarge(what, count, minimumElementSize: minimumElementSize, at: start) }
    return Int(count)
  }

  /// The error for a count that is too large (kept out of line, off the hot path).
  @inline(never)
  private func countTooLarge(
    _ what: StaticString, _ count: UInt64, minimumElementSize: Int, at start: Int
  ) -> WireError {
    let fits =
      count <= UInt64(remaining) && count * UInt64(minimumElementSize) <= UInt64(remaining)
    let why =
      fits
      ? "the maximum is \(maxCollectionCount)"
      : "\(remaining) remaining bytes hold at most \(remaining / minimumElementSize)"
    return WireError(.countTooLarge, offset: start, detail: "\(what): \(count) elements; \(why)")
  }

  /// Reads an array: a count, then each element.
  @inline(__always)
  mutating func array<Element>(
    _ what: StaticString, minimumElementSize: Int,
    _ read: (inout WireReader) throws(WireError) -> Element
  ) throws(WireError) -> [Element] {
    let count = try count(what, minimumElementSize: minimumElementSize)
    var values: [Element] = []
    values.reserveCapacity(count)
    for _ in 0..<count {
      values.append(try read(&self))
    }
    return values
  }

  /// Reads a set of user ids, encoded as an array in strictly ascending order.
  mutating func userSet(_ what: StaticString) throws(WireError) -> Set<UserID> {
    let count = try count(what, minimumElementSize: 1)
    var values = Set<UserID>(minimumCapacity: count)
    var previous: UserID?
    for _ in 0..<count {
      let start = offset
      let user = try user(what)
      if let previous, user <= previous {
        throw WireError(
          .invalidValue, offset: start,
          detail: "\(what): \(user) after \(previous); a set must be strictly ascending")
      }
      values.insert(user)
      previous = user
    }
    return values
  }

  /// Reads a tag byte and fails with ``WireError/Code/unknownTag`` if it exceeds `last`.
  @inline(__always)
  mutating func tag(_ what: StaticString, last: UInt8) throws(WireError) -> UInt8 {
    let start = offset
    let tag = try byte(what)
    guard tag >= 1, tag <= last else { throw unknownTag(what, tag, at: start) }
    return tag
  }

  /// The error for an unknown tag byte.
  func unknownTag(_ what: StaticString, _ tag: UInt8, at offset: Int) -> WireError {
    WireError(.unknownTag, offset: offset, detail: "\(what): no case has tag \(tag)")
  }

  private func truncated(_ what: StaticString, at offset: Int, needed: Int) -> WireError {
    WireError(
      .truncated, offset: offset,
      detail:
        "\(what) needs \(needed) byte\(needed == 1 ? "" : "s"), \(bytes.count - offset) remain")
  }

  private func overflow(_ what: StaticString, _ value: some BinaryInteger, at offset: Int)
    -> WireError
  {
    WireError(.integerOverflow, offset: offset, detail: "\(what): \(value) does not fit")
  }
}

/// A value with a wire decoding.
protocol WireDecodable {
  /// Reads the value.
  init(from reader: inout WireReader) throws(WireError)
}
