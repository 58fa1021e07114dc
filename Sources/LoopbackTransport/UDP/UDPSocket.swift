import CLibUV

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A UDP socket on 127.0.0.1 (`uv_udp_t`): sends datagrams to loopback ports and delivers the
/// datagrams it receives.
///
/// ```swift
/// let socket = try UDPSocket(loop: loop)          // port 0: the kernel picks one
/// socket.onReceive = { port, bytes in print("\(bytes.count) bytes from \(port)") }
/// try socket.send([1, 2, 3], to: otherPort)
/// print(socket.localPort, socket.statistics.datagramsSent)
/// socket.close()
/// ```
///
/// UDP is lossy, and the socket keeps it so: the network's losses are counted in
/// ``statistics``, never thrown. A send goes to the kernel at once with `uv_udp_try_send`;
/// when the kernel's send buffer is full it is copied into a pooled `uv_udp_send` request and
/// leaves in order as soon as the kernel takes it, up to
/// ``UDPConfiguration/maxQueuedSendBytes`` queued (beyond that it is dropped and counted).
/// Only bad input is refused, with a ``UDPSocketError`` that changes nothing: a datagram over
/// ``maxDatagramSize``, port 0, a closed socket. Sending to a port nobody listens on is not an
/// error: the kernel drops the datagram, and the ICMP error that comes back is ignored (Linux
/// reports it only to connected sockets or with `IP_RECVERR`, which this socket sets neither).
///
/// Reads use the loop's shared read buffer (``EventLoop/init(name:readBufferSize:)``), one
/// datagram at a time, and hand each to the handler before the next read. A datagram longer
/// than that buffer is cut by the kernel; it is dropped and counted in
/// ``UDPSocketStatistics/truncated``. The default 64 KiB buffer holds the largest datagram.
///
/// Closing: ``close()`` stops reading at once and drops the handler; queued sends are cancelled
/// (their requests return to the pool before the handle is freed). Calling it again is
/// harmless; the loop's shutdown closes a socket left open.
///
/// > Important: Loop-confined: create and use it on its loop's thread only; the handler runs
/// > there. Not `Sendable`; carry it through other threads in a ``LoopBound``. The loop keeps
/// > the socket alive until it closed, so dropping your reference doesn't close it.
package final class UDPSocket {
  /// The largest datagram payload one IPv4 UDP packet carries: 65,535 minus the 20-byte IP
  /// header and the 8-byte UDP header.
  package static let maxDatagramSize = 65_507

  /// The loop the socket runs on.
  package let loop: EventLoop
  /// The options and limits the socket was created with.
  package let configuration: UDPConfiguration
  /// The port the socket is bound to on 127.0.0.1 (the kernel's pick when created with port 0).
  package let localPort: UInt16

  /// Receives each datagram: the sender's port and a copy of the payload (possibly empty), on
  /// the loop thread, in the order the kernel delivered them. With no handler, datagrams are
  /// read, counted and dropped. Ignored while `onDatagram` is set.
  package var onReceive: ((_ from: UInt16, _ bytes: [UInt8]) -> Void)?

  /// Receives each datagram lent rather than copied: the package's hot path (``onReceive`` is
  /// the public way). The buffer points into the loop's read buffer, which the next read
  /// overwrites: use it (or forward it with ``send(lent:to:)``) before returning, or copy it.
  /// When set, ``onReceive`` is not called.
  package var onDatagram: ((_ from: UInt16, _ bytes: UnsafeRawBufferPointer) -> Void)?

  /// The socket's counters so far.
  ///
  /// > Important: Loop thread only.
  package var statistics: UDPSocketStatistics {
    loop.assertInEventLoop()
    return counters
  }

  /// The libuv handle; valid until `state` is `.closed`.
  let handle: UnsafeMutablePointer<uv_udp_t>
  var state: State = .open
  var counters = UDPSocketStatistics()
  /// 127.0.0.1 with port 0; each send fills in the port.
  var destination: sockaddr_in
  /// Requests handed to `uv_udp_send` and not yet called back.
  var requestsInFlight = 0
  /// Payload bytes of those requests.
  var queuedSendBytes = 0
  /// Requests whose callback ran, kept for reuse.
  var requestPool: [UDPSendRequest] = []
  /// Tests only: skip `uv_udp_try_send`, so that every send takes the queued path.
  var forcesQueuedSends = false
  /// Ports in network byte order for one batched send, kept from one to the next.
  var batchPorts: [UInt16] = []
  /// The socket's own read buffer, ``UDPConfiguration/receiveBatch`` slots of 64 KiB, when
  /// it reads in batches (libuv takes `recvmmsg` only for a buffer of two slots or more).
  let batchBuffer: UnsafeMutableRawBufferPointer?
  /// The slot size libuv divides a batch buffer by (`UV__UDP_DGRAM_MAXSIZE`).
  static let batchSlot = 64 * 1024
  /// The most datagrams libuv takes in one `recvmmsg` (`UV__MMSG_MAXWIDTH`): a larger batch
  /// gets a buffer of this many slots, since the rest would never be filled.
  static let batchWidth = 20

  /// The socket's life.
  enum State {
    /// Bound, reading, sending.
    case open
    /// `uv_close` was called; queued sends are being cancelled.
    case closing
    /// The close callback ran; the handle is freed.
    case closed
  }

  /// Binds a socket to 127.0.0.1 and starts reading.
  ///
  /// - Parameters:
  ///   - loop: The loop; the caller must be on its thread.
  ///   - port: The port to bind; 0 lets the kernel pick a free one (read it from ``localPort``).
  ///   - configuration: Buffer sizes and the send queue bound.
  /// - Throws: ``UDPSocketError/invalidBufferSize(option:value:)`` for a buffer size outside
  ///   `1...Int32.max` or a queue bound below 1 (checked before anything is created);
  ///   ``UDPSocketError/system(_:)`` if the port is taken, libuv refuses, or the loop is
  ///   shutting down.
  package init(
    loop: EventLoop, port: UInt16 = 0, configuration: UDPConfiguration = UDPConfiguration()
  ) throws(UDPSocketError) {
    if let size = configuration.receiveBufferSize {
      _ = try Self.checkedBufferSize(size, option: "SO_RCVBUF")
    }
    if let size = configuration.sendBufferSize {
      _ = try Self.checkedBufferSize(size, option: "SO_SNDBUF")
    }
    guard configuration.maxQueuedSendBytes >= 1 else {
      throw .invalidBufferSize(
        option: "maxQueuedSendBytes", value: configuration.maxQueuedSendBytes)
    }
    guard (1...64).contains(configuration.receiveBatch) else {
      throw .invalidBufferSize(option: "receiveBatch", value: configuration.receiveBatch)
    }
    let handle: UnsafeMutablePointer<uv_udp_t>
    let address: sockaddr_in
    let boundPort: UInt16
    do throws(UVError) {
      try loop.checkAcceptsNewHandles("UDPSocket")
      address = try makeIPv4Address(host: "127.0.0.1", port: port)
      handle = allocateZeroed(uv_udp_t.self)
      let batched = configuration.receiveBatch > 1
      let status =
        batched
        ? uv_udp_init_ex(loop.uvLoop, handle, UInt32(AF_INET) | UInt32(UV_UDP_RECVMMSG.rawValue))
        : uv_udp_init(loop.uvLoop, handle)
      guard status == 0 else {
        handle.deallocate()
        throw UVError(code: status, operation: "uv_udp_init")
      }
      do throws(UVError) {
        try UVError.check(
          withSocketAddress(address) { uv_udp_bind(handle, $0, 0) },
          "uv_udp_bind(127.0.0.1:\(port))")
        if let size = configuration.receiveBufferSize {
          try Self.setBufferSize(size, of: handle, uv_recv_buffer_size, "uv_recv_buffer_size")
        }
        if let size = configuration.sendBufferSize {
          try Self.setBufferSize(size, of: handle, uv_send_buffer_size, "uv_send_buffer_size")
        }
        guard let port = socketPort({ uv_udp_getsockname(handle, $0, $1) }) else {
          throw UVError(.invalidArgument, operation: "uv_udp_getsockname")
        }
        boundPort = port
        // The receive callback can't run before this initializer returned: callbacks run only
        // when the loop turns, and the caller is inside a loop callback.
        try UVError.check(
          uv_udp_recv_start(handle, udpAllocCallback, udpReceiveCallback), "uv_udp_recv_start")
      } catch {
        closeOrphanHandle(uvHandle(handle))
        throw error
      }
    } catch {
      throw .system(error)
    }
    self.loop = loop
    self.configuration = configuration
    self.batchBuffer =
      configuration.receiveBatch > 1
      ? .allocate(
        byteCount: min(configuration.receiveBatch, Self.batchWidth) * Self.batchSlot,
        alignment: 16) : nil
    self.localPort = boundPort
    self.handle = handle
    var template = address
    template.sin_port = 0
    self.destination = template
    retainOwner(self, in: uvHandle(handle))
  }

  deinit {
    // The handle's `data` retains the socket until its close callback ran.
    assert(isClosedState, "UDPSocket deinitialized while its handle is open")
    batchBuffer?.deallocate()
  }

  /// Whether the socket is closing or closed: it neither sends nor delivers datagrams any more.
  package var isClosed: Bool {
    loop.assertInEventLoop()
    if case .open = state { return false }
    return true
  }

  /// Stops reading, drops the handlers, cancels queued sends and releases the handle. Calling
  /// it again is harmless. Sends after it throw ``UDPSocketError/closed``.
  package func close() {
    loop.assertInEventLoop()
    guard case .open = state else { return }
    state = .closing
    onReceive = nil
    onDatagram = nil
    // libuv runs the callbacks of queued sends (cancelled) before the close callback.
    uv_close(uvHandle(handle), udpSocketCloseCallback)
  }

  /// The kernel's receive buffer (`SO_RCVBUF`), as the kernel reports it (Linux reports twice
  /// what was asked for), or `nil` once closed or if the kernel won't say.
  ///
  /// > Important: Loop thread only.
  package var receiveBufferSize: Int? {
    loop.assertInEventLoop()
    return readBufferSize(uv_recv_buffer_size)
  }

  /// The kernel's send buffer (`SO_SNDBUF`), as the kernel reports it, or `nil` once closed or
  /// if the kernel won't say.
  ///
  /// > Important: Loop thread only.
  package var sendBufferSize: Int? {
    loop.assertInEventLoop()
    return readBufferSize(uv_send_buffer_size)
  }

  /// Asks the kernel for a receive buffer of `bytes` (`SO_RCVBUF`).
  ///
  /// - Parameter bytes: The size in bytes, in `1...Int32.max`.
  /// - Throws: ``UDPSocketError/invalidBufferSize(option:value:)`` for a size out of range,
  ///   ``UDPSocketError/closed`` once closed, ``UDPSocketError/system(_:)`` if the kernel
  ///   refuses. Nothing changes when it throws.
  package func setReceiveBufferSize(_ bytes: Int) throws(UDPSocketError) {
    try setOption(bytes, "SO_RCVBUF", uv_recv_buffer_size, "uv_recv_buffer_size")
  }

  /// Asks the kernel for a send buffer of `bytes` (`SO_SNDBUF`).
  ///
  /// - Parameter bytes: The size in bytes, in `1...Int32.max`.
  /// - Throws: As ``setReceiveBufferSize(_:)``.
  package func setSendBufferSize(_ bytes: Int) throws(UDPSocketError) {
    try setOption(bytes, "SO_SNDBUF", uv_send_buffer_size, "uv_send_buffer_size")
  }

  var isClosedState: Bool {
    if case .closed = state { return true }
    return false
  }

  /// Close callback: the handle is done; every queued send was called back before it.
  fileprivate func didClose() {
    state = .closed
    assert(requestsInFlight == 0, "libuv runs send callbacks before the close callback")
    requestPool.removeAll()
  }

  /// Receive callback with a datagram (possibly empty) from `address`.
  fileprivate func didReceive(
    _ bytes: UnsafeRawBufferPointer, from address: UnsafePointer<sockaddr>, flags: UInt32
  ) {
    guard case .open = state else { return }
    if flags & UInt32(UV_UDP_PARTIAL.rawValue) != 0 {
      counters.truncated += 1
      return
    }
    counters.datagramsReceived += 1
    counters.bytesReceived += bytes.count
    let port = Self.port(of: address)
    if let onDatagram {
      onDatagram(port, bytes)
    } else if let onReceive {
      onReceive(port, Array(bytes))
    }
  }

  /// Receive callback with an error; libuv keeps reading.
  fileprivate func didFailReceiving() {
    counters.receiveErrors += 1
  }

  /// A batched read ended (its datagrams were delivered before).
  fileprivate func didEndBatch() {
    counters.batchedReads += 1
  }

  private func readBufferSize(
    _ call: (UnsafeMutablePointer<uv_handle_t>?, UnsafeMutablePointer<Int32>?) -> Int32
  ) -> Int? {
    guard case .open = state else { return nil }
    var value: Int32 = 0
    guard call(uvHandle(handle), &value) == 0 else { return nil }
    return Int(value)
  }

  private func setOption(
    _ bytes: Int, _ option: String,
    _ call: (UnsafeMutablePointer<uv_handle_t>?, UnsafeMutablePointer<Int32>?) -> Int32,
    _ operation: String
  ) throws(UDPSocketError) {
    loop.assertInEventLoop()
    _ = try Self.checkedBufferSize(bytes, option: option)
    guard case .open = state else { throw .closed }
    do throws(UVError) {
      try Self.setBufferSize(bytes, of: handle, call, operation)
    } catch {
      throw .system(error)
    }
  }

  private static func checkedBufferSize(_ bytes: Int, option: String) throws(UDPSocketError)
    -> Int32
  {
    guard bytes >= 1, bytes <= Int(Int32.max) else {
      throw .invalidBufferSize(option: option, value: bytes)
    }
    return Int32(bytes)
  }

  private static func setBufferSize(
    _ bytes: Int, of handle: UnsafeMutablePointer<uv_udp_t>,
    _ call: (UnsafeMutablePointer<uv_handle_t>?, UnsafeMutablePointer<Int32>?) -> Int32,
    _ operation: String
  ) throws(UVError) {
    // Checked by the caller; a value `uv_*_buffer_size` reads as "get" (0) never reaches it.
    var value = Int32(clamping: max(1, bytes))
    try UVError.check(call(uvHandle(handle), &value), operation)
  }

  /// The port of an IPv4 or IPv6 sender; 0 for any other family (a loopback socket never sees
  /// one).
  private static func port(of address: UnsafePointer<sockaddr>) -> UInt16 {
    switch Int32(address.pointee.sa_family) {
    case AF_INET:
      return address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) {
        UInt16(bigEndian: $0.pointee.sin_port)
      }
    case AF_INET6:
      return address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) {
        UInt16(bigEndian: $0.pointee.sin6_port)
      }
    default:
      return 0
    }
  }
}

/// Loop-confined: use ``LoopBound`` to pass a socket between threads.
@available(*, unavailable)
extension UDPSocket: Sendable {}

extension UDPSocket: LoopHandleOwner {
  func closeForShutdown(_ handle: UnsafeMutablePointer<uv_handle_t>) {
    close()
  }
}

private func udpSocketCloseCallback(_ handle: UnsafeMutablePointer<uv_handle_t>?) {
  guard let handle else { return }
  handleOwner(handle, as: UDPSocket.self)?.didClose()
  freeClosedHandle(handle)
}

private func udpAllocCallback(
  _ handle: UnsafeMutablePointer<uv_handle_t>?,
  _ suggestedSize: Int,
  _ buffer: UnsafeMutablePointer<uv_buf_t>?
) {
  let socket = handleOwner(handle, as: UDPSocket.self)
  if let batch = socket?.batchBuffer, let base = batch.baseAddress, let buffer {
    buffer.pointee = uv_buf_init(base.assumingMemoryBound(to: CChar.self), UInt32(batch.count))
    return
  }
  LoopLocalState.lendReadBuffer(of: socket?.loop.local, to: buffer)
}

private func udpReceiveCallback(
  _ handle: UnsafeMutablePointer<uv_udp_t>?,
  _ count: Int,
  _ buffer: UnsafePointer<uv_buf_t>?,
  _ address: UnsafePointer<sockaddr>?,
  _ flags: UInt32
) {
  guard let handle, let socket = handleOwner(uvHandle(handle), as: UDPSocket.self) else {
    return
  }
  if count < 0 {
    socket.didFailReceiving()
    return
  }
  // count == 0 with no address: nothing to read (EAGAIN), or the end of a batch, whose buffer
  // may be reused (UV_UDP_MMSG_FREE). With an address: an empty datagram.
  guard let address else {
    if flags & UInt32(UV_UDP_MMSG_FREE.rawValue) != 0 { socket.didEndBatch() }
    return
  }
  let base = count > 0 ? buffer?.pointee.base : nil
  socket.didReceive(
    UnsafeRawBufferPointer(start: base, count: base == nil ? 0 : count),
    from: address, flags: flags)
}
