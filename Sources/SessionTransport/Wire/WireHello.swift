/// The first frame a client sends: the magic bytes, the protocol version it speaks and an
/// optional name for logs.
public struct WireHello: Sendable, Hashable {
  /// The protocol version the client speaks.
  public var version: UInt16
  /// A name for the server's logs (for example `"sessionsim-peer-17"`); not an identity.
  public var clientName: String?

  /// Creates a hello.
  ///
  /// - Parameters:
  ///   - version: The protocol version; defaults to ``WireProtocol/version``.
  ///   - clientName: A name for logs.
  public init(version: UInt16 = WireProtocol.version, clientName: String? = nil) {
    self.version = version
    self.clientName = clientName
  }
}
