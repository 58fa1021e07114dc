import SessionCore

/// Writes the protocol's primitive encodings into a reserved region of memory.
///
/// A cursor over memory the encoder reserved in the caller's array: every write checks only
/// that it fits. A write that doesn't fit is dropped but still counted, so one pass tells the
/// exact size; ``WireEncoder`` then reserves that much and encodes again. No call here
/// allocates, checks uniqueness or grows an array.
///
/// Public only so that ``WireMessage`` can name it: its members are the package's own, and
/// only ``WireEncoder`` makes one.
///
/// > Important: Valid only inside the `withUnsafeMutableBufferPointer` call that made it.
package struct WireWriter {
  /// The start of the reserved memory.
  private let base: UnsafeMutablePointer<UInt8>
  /// The index one past the last reserved byte.
  private let end: Int
  /// The index of the next byte; past `end` after an overflow, counting what didn't fit.
  private(set) var position: Int

  /// Creates a writer over `buffer`, starting at `start`.
  init(_ base: UnsafeMutablePointer<UInt8>, start: Int, end: Int) {
    self.base = base
    self.position = start
    self.end = end
  }

  /// Whether everything written so far fit.
  var fits: Bool { position <= end }

  /// Appends one byte.
  @inline(__always)
  mutating func byte(_ value: UInt8) {
    if position < end {
      base[position] = value
    }
    position += 1
  }

  /// Appends a bool as one byte, 0 or 1.
  @inline(__always)
  mutating func bool(_ value: Bool) {
    byte(value ? 1 : 0)
  }

  /// Appends a big-endian `UInt16` (two bytes).
  @inline(__always)
  mutating func uint16BigEndian(_ value: UInt16) {
    byte(UInt8(truncatingIfNeeded: value >> 8))
    byte(UInt8(truncatingIfNeeded: value))
  }

  /// Appends raw bytes.
  mutating func raw(_ bytes: UnsafeBufferPointer<UInt8>) {
    let count = bytes.count
    if count <= end - position, let source = bytes.baseAddress {
      (base + position).update(from: source, count: count)
    }
    position += count
  }

  /// Appends an unsigned LEB128 varint: seven bits per byte, low bits first, high bit set on
  /// every byte but the last.
  @inline(__always)
  mutating func varint(_ value: UInt64) {
    if value < 0x80 {
      byte(UInt8(truncatingIfNeeded: value))
    } else {
      longVarint(value)
    }
  }

  private mutating func longVarint(_ value: UInt64) {
    var rest = value
    while rest >= 0x80 {
      byte(UInt8(truncatingIfNeeded: rest) | 0x80)
      rest >>= 7
    }
    byte(UInt8(truncatingIfNeeded: rest))
  }

  /// Appends a signed integer as a zigzag varint (0, -1, 1, -2, … become 0, 1, 2, 3, …).
  @inline(__always)
  mutating func signed(_ value: Int64) {
    varint(UInt64(bitPattern: (value << 1) ^ (value >> 63)))
  }

  /// Appends an `Int` as a zigzag varint.
  @inline(__always)
  mutating func signed(_ value: Int) {
    signed(Int64(value))
  }

  /// Appends a user id as a varint.
  @inline(__always)
  mutating func user(_ value: UserID) {
    varint(UInt64(value.rawValue))
  }

  /// Appends a string: its UTF-8 byte count as a varint, then the bytes.
  mutating func string(_ value: String) {
    let utf8 = value.utf8
    varint(UInt64(utf8.count))
    let copied: Void? = utf8.withContiguousStorageIfAvailable { raw($0) }
    if copied == nil {
      for byte in utf8 {
        self.byte(byte)
      }
    }
  }

  /// Appends a presence byte (0 absent, 1 present), then the value if present.
  @inline(__always)
  mutating func optional<Value>(_ value: Value?, _ write: (inout WireWriter, Value) -> Void) {
    if let value {
      byte(1)
      write(&self, value)
    } else {
      byte(0)
    }
  }

  /// Appends an array: its count as a varint, then each element.
  @inline(__always)
  mutating func array<Element>(_ values: [Element], _ write: (inout WireWriter, Element) -> Void) {
    varint(UInt64(values.count))
    for value in values {
      write(&self, value)
    }
  }

  /// Appends a set of user ids as an array in ascending order.
  mutating func userSet(_ values: Set<UserID>) {
    array(values.sorted()) { $0.user($1) }
  }
}

/// A value with a wire encoding.
protocol WireEncodable {
  /// A guess at the encoding's size in bytes; the encoder reserves this much first.
  var wireSizeEstimate: Int { get }
  /// Appends the value's encoding.
  func encode(to writer: inout WireWriter)
}

extension WireEncodable {
  var wireSizeEstimate: Int { 64 }
}

/// A message of the wire protocol, one frame's payload: a type byte (see `WireMessageType`),
/// then its body. ``WireEncoder``'s entries take any of them, so a new message type is this
/// one conformance and one type byte.
///
/// The package's messages: ``ServerMessage`` and ``WireServerFrame`` (server to client),
/// ``ClientMessage`` and ``WireClientFrame`` (client to server).
package protocol WireMessage {
  /// A guess at the payload's size in bytes; the encoder reserves this much first.
  var wireSizeEstimate: Int { get }
  /// Appends the payload: the type byte, then the body.
  ///
  /// - Parameter writer: Where the bytes go; only ``WireEncoder`` makes one.
  func encode(to writer: inout WireWriter)
}

extension WireMessage {
  /// Enough for most messages: 64 bytes.
  package var wireSizeEstimate: Int { 64 }
}
