/// Socket options and limits for a `UDPSocket`.
///
/// A value; `Sendable`. Invalid values are not trapped on: `UDPSocket/init(loop:port:configuration:)`
/// refuses them with a `UDPSocketError`.
public struct UDPConfiguration: Hashable, Sendable {
  /// The kernel receive buffer to ask for (`SO_RCVBUF`, through `uv_recv_buffer_size`), in
  /// bytes; `nil` keeps the system's default. Datagrams that arrive while it is full are
  /// dropped by the kernel. Linux doubles the value for its bookkeeping and caps it at
  /// `net.core.rmem_max`. Must be in `1...Int32.max`.
  public var receiveBufferSize: Int?
  /// The kernel send buffer to ask for (`SO_SNDBUF`, through `uv_send_buffer_size`), in bytes;
  /// `nil` keeps the system's default. Must be in `1...Int32.max`.
  public var sendBufferSize: Int?
  /// The most datagram bytes that may wait in the socket's own send queue: datagrams the
  /// kernel could not take at once (its send buffer was full), copied and handed to
  /// `uv_udp_send`. A send beyond the bound is dropped and counted in
  /// `UDPSocketStatistics/sendsDropped`, as a full network queue drops a packet: the queue
  /// never grows without bound and never blocks the loop. Default 1 MiB; at least 1.
  public var maxQueuedSendBytes: Int
  /// How many datagrams one read may take from the kernel: above 1, the socket reads with
  /// `recvmmsg` (libuv's `UV_UDP_RECVMMSG`) into a buffer of its own of that many 64 KiB
  /// slots, one system call for up to that many datagrams; 1 (the default) reads one at a
  /// time into the loop's shared buffer. For a socket that receives many datagrams (a relay,
  /// the service); a client's socket gains little and would hold the buffer. In `1...64`;
  /// libuv takes at most 20 a call, so a batch above 20 reads as 20.
  public var receiveBatch: Int

  /// Creates a configuration.
  ///
  /// - Parameters:
  ///   - receiveBufferSize: `SO_RCVBUF` in bytes, or `nil` for the system's default.
  ///   - sendBufferSize: `SO_SNDBUF` in bytes, or `nil` for the system's default.
  ///   - maxQueuedSendBytes: The bound on bytes queued behind a full kernel send buffer.
  ///   - receiveBatch: The most datagrams one read takes (1 reads one at a time).
  public init(
    receiveBufferSize: Int? = nil,
    sendBufferSize: Int? = nil,
    maxQueuedSendBytes: Int = 1 << 20,
    receiveBatch: Int = 1
  ) {
    self.receiveBufferSize = receiveBufferSize
    self.sendBufferSize = sendBufferSize
    self.maxQueuedSendBytes = maxQueuedSendBytes
    self.receiveBatch = receiveBatch
  }
}
