/// Why a ``TCPConnection`` closed; passed to its `onClose` callback exactly once.
///
/// A `Sendable` value, usable on any thread (for example in a log or an event for another
/// thread).
package enum CloseReason: Hashable, Sendable, CustomStringConvertible {
  /// The peer closed or reset the connection (end of stream, `ECONNRESET` or `EPIPE`).
  case peerClosed
  /// A libuv call failed, for example connecting to a port nobody listens on.
  case error(UVError)
  /// The peer announced a frame longer than ``TCPConfiguration/maxFrameSize``.
  case frameTooLarge
  /// The layer above found the peer's bytes malformed and closed the connection.
  case protocolError(String)
  /// The layer above closed a connection that was silent for too long.
  case idleTimeout
  /// More than ``TCPConfiguration/maxQueuedWriteBytes`` bytes were waiting to be written: the
  /// peer doesn't read fast enough, so it is disconnected rather than buffered without bound.
  case writeQueueOverflow
  /// The layer above closed the connection to bound the memory all connections hold: its
  /// unfinished frame was among the largest when their total passed the bound (a
  /// ``LoopbackServer``'s ``LoopbackServerConfiguration/maxBufferedBytes``).
  case bufferLimit
  /// This side closed the connection (``TCPConnection/close(reason:afterFlushing:)`` with no
  /// other reason, or the loop shut down).
  case local

  /// A short phrase for logs, for example `"frame too large"`.
  package var description: String {
    switch self {
    case .peerClosed: "peer closed"
    case .error(let error): "error: \(error)"
    case .frameTooLarge: "frame too large"
    case .protocolError(let detail): "protocol error: \(detail)"
    case .idleTimeout: "idle timeout"
    case .writeQueueOverflow: "write queue overflow"
    case .bufferLimit: "over the buffer limit"
    case .local: "closed locally"
    }
  }
}
