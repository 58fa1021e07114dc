/// The server's acceptance of a ``WireHello``: the version both sides speak from now on.
public struct WireHelloAck: Sendable, Hashable {
  /// The accepted protocol version.
  public var version: UInt16

  /// Creates an acknowledgement.
  ///
  /// - Parameter version: The accepted version; defaults to ``WireProtocol/version``.
  public init(version: UInt16 = WireProtocol.version) {
    self.version = version
  }
}
