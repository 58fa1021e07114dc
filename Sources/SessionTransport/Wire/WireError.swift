/// Why a payload could not be decoded (or a frame could not be encoded).
///
/// A value: a ``Code`` saying what went wrong, the byte ``offset`` in the payload where the
/// offending item starts, and a human-readable ``detail``. Decoding never traps on hostile
/// input; every problem ends here instead.
public struct WireError: Error, Hashable, Sendable, CustomStringConvertible {
  /// What kind of problem; an open set of codes, compared by identity.
  public struct Code: Hashable, Sendable, CustomStringConvertible {
    private enum Value: UInt8, Hashable, Sendable {
      case truncated
      case unknownMessageType
      case unknownTag
      case invalidEnumValue
      case invalidUTF8
      case frameTooLarge
      case stringTooLong
      case countTooLarge
      case trailingBytes
      case malformedVarint
      case integerOverflow
      case badMagic
      case invalidValue
    }

    private let value: Value

    private init(_ value: Value) { self.value = value }

    /// The payload ended in the middle of an item.
    public static let truncated = Code(.truncated)
    /// The first byte of the payload names no message type of this direction.
    public static let unknownMessageType = Code(.unknownMessageType)
    /// A `SessionEvent` or `SessionCommand` tag byte names no case.
    public static let unknownTag = Code(.unknownTag)
    /// An enum raw value, bool or presence byte is out of range.
    public static let invalidEnumValue = Code(.invalidEnumValue)
    /// A string's bytes are not well-formed UTF-8.
    public static let invalidUTF8 = Code(.invalidUTF8)
    /// A payload is longer than the maximum frame size.
    public static let frameTooLarge = Code(.frameTooLarge)
    /// A string's byte count is larger than the maximum string length.
    public static let stringTooLong = Code(.stringTooLong)
    /// A collection's count is larger than the remaining bytes could hold, or than the maximum.
    public static let countTooLarge = Code(.countTooLarge)
    /// Bytes are left over after the message.
    public static let trailingBytes = Code(.trailingBytes)
    /// A varint is longer than 10 bytes, exceeds 64 bits, or is not in its shortest form.
    public static let malformedVarint = Code(.malformedVarint)
    /// A well-formed integer does not fit the field it is read into.
    public static let integerOverflow = Code(.integerOverflow)
    /// A hello does not start with the magic bytes `SESN`.
    public static let badMagic = Code(.badMagic)
    /// A value is well-formed but breaks a rule of the protocol (an unsorted set, an empty
    /// event batch).
    public static let invalidValue = Code(.invalidValue)

    /// The code's name, for example `truncated`.
    public var description: String {
      switch value {
      case .truncated: "truncated"
      case .unknownMessageType: "unknownMessageType"
      case .unknownTag: "unknownTag"
      case .invalidEnumValue: "invalidEnumValue"
      case .invalidUTF8: "invalidUTF8"
      case .frameTooLarge: "frameTooLarge"
      case .stringTooLong: "stringTooLong"
      case .countTooLarge: "countTooLarge"
      case .trailingBytes: "trailingBytes"
      case .malformedVarint: "malformedVarint"
      case .integerOverflow: "integerOverflow"
      case .badMagic: "badMagic"
      case .invalidValue: "invalidValue"
      }
    }
  }

  /// What went wrong.
  public var code: Code
  /// The byte offset in the payload (0 = the type byte) where the offending item starts.
  public var offset: Int
  /// A sentence for logs, naming the item, for example `"1 byte left, string needs 7"`.
  public var detail: String

  /// Creates an error.
  ///
  /// - Parameters:
  ///   - code: What went wrong.
  ///   - offset: Where in the payload the offending item starts.
  ///   - detail: A human-readable explanation.
  public init(_ code: Code, offset: Int, detail: String) {
    self.code = code
    self.offset = offset
    self.detail = detail
  }

  /// The code, offset and detail, for example `"truncated at offset 5: reading a user id"`.
  public var description: String { "\(code) at offset \(offset): \(detail)" }
}
