/// Everything a server may send as one frame: the handshake answer, a goodbye, or a session
/// message.
public enum WireServerFrame: Sendable, Hashable {
  /// The server accepted the client's hello.
  case helloAck(WireHelloAck)
  /// The server is closing the connection.
  case goodbye(WireGoodbye)
  /// A session message, after the hello was acknowledged.
  case message(ServerMessage)
}
