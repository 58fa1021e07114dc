/// Counters of one ``UDPSocket`` since it was created.
///
/// A value; `Sendable`. Read with ``UDPSocket/statistics`` (on the socket's loop thread); the
/// counters stay readable after the socket closed.
package struct UDPSocketStatistics: Hashable, Sendable {
  /// Datagrams handed to the kernel, at once or from the send queue.
  package var datagramsSent: Int = 0
  /// Payload bytes of those datagrams.
  package var bytesSent: Int = 0
  /// Datagrams that could not go at once (the kernel's send buffer was full) and were copied
  /// into the socket's send queue; they count in ``datagramsSent`` once the kernel took them.
  package var sendsQueued: Int = 0
  /// Sends dropped because the send queue held ``UDPConfiguration/maxQueuedSendBytes``.
  package var sendsDropped: Int = 0
  /// Sends the kernel refused (for example `ENOBUFS` or `EPERM`), at once or from the queue.
  package var sendErrors: Int = 0
  /// Queued sends cancelled because the socket closed before the kernel took them.
  package var sendsCancelled: Int = 0
  /// Datagrams delivered to the receive handler (empty datagrams included).
  package var datagramsReceived: Int = 0
  /// Payload bytes of those datagrams.
  package var bytesReceived: Int = 0
  /// Datagrams longer than the loop's read buffer: the kernel cut them, so they were dropped
  /// instead of delivered.
  package var truncated: Int = 0
  /// Failed reads (libuv reported an error instead of a datagram); the socket keeps reading.
  package var receiveErrors: Int = 0
  /// Batched reads (`recvmmsg` calls that returned datagrams), with
  /// ``UDPConfiguration/receiveBatch`` above 1: ``datagramsReceived`` over this is the
  /// datagrams per system call.
  package var batchedReads: Int = 0

  /// Creates statistics with every counter at zero.
  package init() {}
}
