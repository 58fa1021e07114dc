/// Everything a client may send as one frame: the handshake, a goodbye, or a session message.
public enum WireClientFrame: Sendable, Hashable {
  /// The first frame of every connection.
  case hello(WireHello)
  /// The client is closing the connection.
  case goodbye(WireGoodbye)
  /// A session message, after the server acknowledged the hello.
  case message(ClientMessage)
}
