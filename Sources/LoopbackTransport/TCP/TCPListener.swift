import CLibUV

/// A listening TCP socket that accepts ``TCPConnection``s.
///
/// ```swift
/// let listener = try TCPListener(loop: loop, port: 0) { connection in
///   connection.onFrame = { frame in … }
///   connection.onClose = { reason in … }
/// }
/// print(listener.localPort)  // the ephemeral port the kernel picked
/// ```
///
/// > Important: Loop-confined: create and use it on its loop's thread only; callbacks run there.
/// > Not `Sendable`. The loop keeps the listener alive until ``close()`` (or shutdown) closed it.
package final class TCPListener {
  /// The loop the listener runs on.
  package let loop: EventLoop
  /// The configuration accepted connections get.
  package let configuration: TCPConfiguration
  /// The port the listener is bound to (the kernel's pick when created with port 0).
  package let localPort: UInt16
  /// Called when accepting a connection fails (for example, out of file descriptors); the
  /// listener keeps listening.
  package var onError: ((UVError) -> Void)?

  private let handle: UnsafeMutablePointer<uv_tcp_t>
  private var onAccept: ((TCPConnection) -> Void)?
  private var isClosed = false

  /// Binds and starts listening.
  ///
  /// - Parameters:
  ///   - loop: The loop; the caller must be on its thread.
  ///   - host: A dotted IPv4 address to bind. Default `127.0.0.1`.
  ///   - port: The port; 0 lets the kernel pick a free one (read it from ``localPort``).
  ///   - backlog: The kernel's queue of connections not yet accepted.
  ///   - configuration: Limits and options for accepted connections.
  ///   - onAccept: Called on the loop thread with each accepted connection. Set the connection's
  ///     callbacks here: it starts reading when `onAccept` returns.
  /// - Throws: `UVError` if the address is malformed or taken, or the loop is shutting down.
  package init(
    loop: EventLoop,
    host: String = "127.0.0.1",
    port: UInt16 = 0,
    backlog: Int32 = 1024,
    configuration: TCPConfiguration = TCPConfiguration(),
    onAccept: @escaping (TCPConnection) -> Void
  ) throws(UVError) {
    try loop.checkAcceptsNewHandles("TCPListener")
    let address = try makeIPv4Address(host: host, port: port)
    let handle = allocateZeroed(uv_tcp_t.self)
    let status = uv_tcp_init(loop.uvLoop, handle)
    guard status == 0 else {
      handle.deallocate()
      throw UVError(code: status, operation: "uv_tcp_init")
    }
    let boundPort: UInt16
    do throws(UVError) {
      // The connection callback can't run before this initializer returned: callbacks run only
      // when the loop turns, and the caller is inside a loop callback.
      try UVError.check(
        withSocketAddress(address) { uv_tcp_bind(handle, $0, 0) }, "uv_tcp_bind(\(host):\(port))")
      try UVError.check(
        uv_listen(uvStream(handle), backlog, tcpListenerConnectionCallback),
        "uv_listen(\(host):\(port))")
      guard let port = socketPort({ uv_tcp_getsockname(handle, $0, $1) }) else {
        throw UVError(.invalidArgument, operation: "uv_tcp_getsockname")
      }
      boundPort = port
    } catch {
      closeOrphanHandle(uvHandle(handle))
      throw error
    }
    self.loop = loop
    self.configuration = configuration
    self.localPort = boundPort
    self.handle = handle
    self.onAccept = onAccept
    retainOwner(self, in: uvHandle(handle))
  }

  deinit {
    assert(isClosed, "TCPListener deinitialized while its handle is open")
  }

  /// Whether the listener still accepts connections.
  package var isListening: Bool {
    loop.assertInEventLoop()
    return !isClosed
  }

  /// Stops listening and releases the handle; connections already accepted stay open. Calling
  /// it again is harmless.
  package func close() {
    loop.assertInEventLoop()
    guard !isClosed else { return }
    isClosed = true
    onAccept = nil
    onError = nil
    uv_close(uvHandle(handle)) { handle in
      guard let handle else { return }
      freeClosedHandle(handle)
    }
  }

  /// Connection callback: accept one connection.
  ///
  /// Accepting never stops on its own: out of descriptors (`EMFILE`), libuv accepts and closes
  /// the waiting connections with a descriptor it keeps for that and reports the error here
  /// (`onError`), and the listener goes on; a server keeps below the limit with its caps
  /// (``LoopbackServerConfiguration/maxConnections``). Only a connection handle that can't be
  /// made (the loop is shutting down, and the listener with it) leaves the accept to libuv.
  fileprivate func acceptConnection(status: Int32) {
    guard !isClosed else { return }
    guard status == 0 else {
      onError?(UVError(code: status, operation: "uv_listen"))
      return
    }
    let connection: TCPConnection
    do {
      connection = try TCPConnection.make(loop: loop, configuration: configuration)
    } catch {
      onError?(error)
      return
    }
    let accepted = uv_accept(uvStream(handle), uvStream(connection.handle))
    guard accepted == 0 else {
      connection.closeNow(.local)
      onError?(UVError(code: accepted, operation: "uv_accept"))
      return
    }
    connection.didAccept()
    onAccept?(connection)
    connection.startReading()
  }
}

/// Loop-confined: use ``LoopBound`` to pass a listener between threads.
@available(*, unavailable)
extension TCPListener: Sendable {}

extension TCPListener: LoopHandleOwner {
  func closeForShutdown(_ handle: UnsafeMutablePointer<uv_handle_t>) {
    close()
  }
}

private func tcpListenerConnectionCallback(
  _ server: UnsafeMutablePointer<uv_stream_t>?, _ status: Int32
) {
  guard let server, let listener = handleOwner(uvHandle(server), as: TCPListener.self) else {
    return
  }
  listener.acceptConnection(status: status)
}
