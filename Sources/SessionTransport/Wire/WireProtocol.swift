/// Constants of the SessionEngine wire protocol and its version rule.
///
/// `Docs/WireProtocol.md` is the full specification.
public enum WireProtocol {
  /// The protocol version this build speaks.
  public static let version: UInt16 = 1
  /// Every version this build accepts in a ``WireHello``.
  public static let supportedVersions: ClosedRange<UInt16> = 1...1
  /// The four bytes every ``WireHello`` starts with: ASCII `SESN`.
  public static let magic: [UInt8] = [0x53, 0x45, 0x53, 0x4E]
  /// The size of a frame's big-endian length prefix, in bytes.
  public static let frameHeaderSize = 4
  /// The default largest payload, in bytes (1 MiB).
  public static let defaultMaxFrameSize = 1 << 20
  /// The default largest server message a client reassembles from fragments, in bytes
  /// (16 MiB): a message longer than one frame (the `joined` snapshot of a session of
  /// thousands) travels as `fragment` frames (`Docs/WireProtocol.md` §4.5).
  public static let defaultMaxMessageSize = 16 << 20
  /// The bytes a `fragment` frame spends before its share of the message: the type byte and
  /// the more-follows flag.
  public static let fragmentHeaderSize = 2
  /// The default largest string, in UTF-8 bytes (64 KiB).
  public static let defaultMaxStringLength = 1 << 16
  /// The default largest element count of one array or set (65,536).
  public static let defaultMaxCollectionCount = 1 << 16

  /// The server's answer to a client's hello: an acknowledgement of the client's version if it is
  /// supported, otherwise a ``WireGoodbye/Reason/wrongVersion`` goodbye naming the supported
  /// range.
  ///
  /// - Parameters:
  ///   - hello: The client's first frame.
  ///   - supported: The versions the server accepts.
  /// - Returns: `.helloAck` or `.goodbye`; after a goodbye the server closes the connection.
  public static func answer(
    to hello: WireHello, supported: ClosedRange<UInt16> = supportedVersions
  ) -> WireServerFrame {
    if supported.contains(hello.version) {
      return .helloAck(WireHelloAck(version: hello.version))
    }
    let range =
      supported.lowerBound == supported.upperBound
      ? "\(supported.lowerBound)" : "\(supported.lowerBound)...\(supported.upperBound)"
    return .goodbye(
      WireGoodbye(
        reason: .wrongVersion,
        text: "protocol version \(hello.version) is not supported; this server speaks \(range)"))
  }
}
