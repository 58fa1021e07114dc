/// The last frame before a side closes the connection on purpose: why, as a code and a text.
///
/// The server sends one before it closes a connection for a protocol reason; a client may send
/// one before it closes too. The receiver logs it and expects the connection to close.
public struct WireGoodbye: Sendable, Hashable {
  /// Why the connection is closing.
  public enum Reason: UInt8, Sendable, Hashable, CaseIterable {
    /// The hello named a protocol version the server doesn't speak.
    case wrongVersion = 1
    /// A frame could not be decoded, or came out of order (for example no hello first).
    case malformed = 2
    /// A frame was longer than the receiver's maximum.
    case tooLarge = 3
    /// The peer was silent for longer than the heartbeat timeout.
    case idleTimeout = 4
    /// The peer did not read fast enough and its write queue overflowed.
    case slowConsumer = 5
    /// The sender is shutting down.
    case shuttingDown = 6
  }

  /// Why the connection is closing.
  public var reason: Reason
  /// A human-readable explanation for logs.
  public var text: String

  /// Creates a goodbye.
  ///
  /// - Parameters:
  ///   - reason: Why the connection is closing.
  ///   - text: An explanation for logs.
  public init(reason: Reason, text: String) {
    self.reason = reason
    self.text = text
  }

  /// The goodbye for a frame that failed to decode: ``Reason/tooLarge`` for
  /// ``WireError/Code/frameTooLarge``, ``Reason/malformed`` otherwise, with the error's
  /// description as the text.
  ///
  /// - Parameter error: The decoding error.
  public init(for error: WireError) {
    self.init(
      reason: error.code == .frameTooLarge ? .tooLarge : .malformed,
      text: error.description)
  }
}
