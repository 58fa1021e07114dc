/// Counters of one ``UDPSocket`` since it was created.
///
/// A value; `Sendable`. Read with ``UDPSocket/statistics`` (on the socket's loop thread); the
/// counters stay readable after the socket closed.
public struct UDPSocketStatistics: Hashable, Sendable {
  /// Datagrams handed to the kernel, at once or from the send queue.
  public var datagramsSent: Int = 0
  /// Payload bytes of those datagrams.
  public var bytesSent: Int = 0
  /// Datagrams that could not go at once (the kernel's send buffer was full) and were copied
  /// into the socket's send queue; they count in ``datagramsSent`` once the kernel took them.
  public var sendsQueued: Int = 0
  /// Sends dropped because the send queue held ``UDPConfiguration/maxQueuedSendBytes``.
  public var sendsDropped: Int = 0
  /// Sends the kernel refused (for example `ENOBUFS` or `EPERM`), at once or from the queue.
  public var sendErrors: Int = 0
  /// Queued sends cancelled because the socket closed before the kernel took them.
  public var sendsCancelled: Int = 0
  /// Datagrams delivered to the receive handler (empty datagrams included).
  public var datagramsReceived: Int = 0
  /// Payload bytes of those datagrams.
  public var bytesReceived: Int = 0
  /// Datagrams longer than the loop's read buffer: the kernel cut them, so they were dropped
  /// instead of delivered.
  public var truncated: Int = 0
  /// Failed reads (libuv reported an error instead of a datagram); the socket keeps reading.
  public var receiveErrors: Int = 0

  /// Creates statistics with every counter at zero.
  public init() {}
}
