/// Limits and socket options for `TCPConnection`s (and the connections a `TCPListener`
/// accepts).
///
/// A value; `Sendable`.
public struct TCPConfiguration: Hashable, Sendable {
  /// The largest payload a frame may carry, in bytes. A peer announcing a longer one is
  /// disconnected with `CloseReason/frameTooLarge`; `TCPConnection/send(frame:)` refuses a
  /// longer one. Default 1 MiB.
  public var maxFrameSize: Int
  /// The largest message a link joins from `fragment` frames, in bytes: a server message longer
  /// than ``maxFrameSize`` travels as fragments (the snapshot of a session of thousands), and
  /// a server does not send one longer than this. Default 16 MiB.
  public var maxMessageSize: Int
  /// The most bytes that may wait to be written on one connection — frames queued this turn plus
  /// what libuv hasn't handed to the kernel yet. Sending beyond it closes the connection with
  /// `CloseReason/writeQueueOverflow`: a peer that stops reading is disconnected (a
  /// ``LoopbackServer`` sends it `goodbye(slowConsumer)` after the frames it has begun); it
  /// never blocks the loop or slows other connections. Default 4 MiB.
  public var maxQueuedWriteBytes: Int
  /// Whether to set `TCP_NODELAY` (disable Nagle's algorithm). Default `true`: writes are already
  /// coalesced per loop turn, so Nagle would only add latency.
  public var noDelay: Bool

  /// Creates a configuration.
  ///
  /// - Parameters:
  ///   - maxFrameSize: The largest frame payload in bytes; at most `UInt32.max`.
  ///   - maxQueuedWriteBytes: The write queue bound per connection, in bytes; at most
  ///     `UInt32.max`.
  ///   - noDelay: Whether to set `TCP_NODELAY`.
  ///   - maxMessageSize: The largest message joined from fragments, in bytes.
  public init(
    maxFrameSize: Int = 1 << 20,
    maxQueuedWriteBytes: Int = 4 << 20,
    noDelay: Bool = true,
    maxMessageSize: Int = 16 << 20
  ) {
    precondition(maxFrameSize >= 0 && UInt64(maxFrameSize) <= UInt64(UInt32.max))
    precondition(maxQueuedWriteBytes > 0 && UInt64(maxQueuedWriteBytes) <= UInt64(UInt32.max))
    self.maxFrameSize = maxFrameSize
    self.maxQueuedWriteBytes = maxQueuedWriteBytes
    self.noDelay = noDelay
    self.maxMessageSize = max(0, maxMessageSize)
  }
}
