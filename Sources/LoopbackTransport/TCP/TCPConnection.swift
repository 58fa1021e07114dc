import CLibUV

/// A TCP connection carrying length-prefixed frames: a 4-byte big-endian payload length, then the
/// payload.
///
/// Get one from ``connect(loop:host:port:configuration:)`` (client) or from a ``TCPListener``'s
/// accept callback (server). Set the callbacks before the current loop turn ends: reading starts
/// once the connection is established (client) or once the accept callback returned (server).
///
/// ```swift
/// let connection = try TCPConnection.connect(loop: loop, port: port)
/// connection.setFrameHandler { frame in handle(frame) }
/// connection.onClose = { reason in log("closed: \(reason)") }
/// connection.send(frame: hello)  // queued; written once connected
/// ```
///
/// Writes: `send(frame:)` appends to an outgoing buffer; once per loop turn every connection
/// with queued frames issues one `uv_write` for all of them — once libuv has handed the last
/// one to the kernel, so that at most one write is unfinished and the frames behind it stay
/// the connection's own. If more than ``TCPConfiguration/maxQueuedWriteBytes`` would wait to be
/// written, the connection is closed with ``CloseReason/writeQueueOverflow`` (or its owner's
/// `onWriteQueueOverflow` ends the stream with a last frame) — a peer that stops reading is
/// disconnected instead of growing memory or stalling the loop.
///
/// Reads: the connection reads into its loop's shared read buffer and decodes frames across
/// partial reads; a header announcing more than ``TCPConfiguration/maxFrameSize`` closes it with
/// ``CloseReason/frameTooLarge``.
///
/// Closing: `onClose` fires exactly once, on the loop thread, in a later callback than the one
/// that caused the close (never from inside ``close(reason:afterFlushing:)`` or `send(frame:)`).
/// After it, the libuv handle is freed and no callback fires again. The connection drops its
/// callbacks when it closes, so they may capture the connection strongly.
///
/// > Important: Loop-confined: create and use it on its loop's thread only; all callbacks run
/// > there. Not `Sendable`; carry it through other threads in a ``LoopBound``. The loop keeps the
/// > connection alive until it closed, so dropping your reference doesn't close it.
package final class TCPConnection {
  /// The loop the connection runs on.
  package let loop: EventLoop
  /// The limits the connection enforces.
  package let configuration: TCPConfiguration

  /// Delivers the connection's frames to `handler`, each payload as its own bytes, on the loop
  /// thread, in order; replaces any handler set before.
  ///
  /// - Parameter handler: Receives each frame's payload (without its length prefix).
  package func setFrameHandler(_ handler: @escaping ([UInt8]) -> Void) {
    onFrame = { frame in handler(Array(frame)) }
  }

  /// The connection's frames, lent: the package's hot path (``setFrameHandler(_:)`` is the
  /// public way to read frames).
  ///
  /// Each payload is lent for the duration of the call: it points into the loop's read buffer
  /// (or the connection's assembly buffer for a frame that straddled reads), which the next
  /// read overwrites. Decode it in place, or copy it with `Array(frame)` to keep it. The frames
  /// of one read go to the closure set when the read arrived; with none set, they are dropped.
  ///
  /// Unchecked exclusivity, with `state` and `lastReadTime`: the connection is loop-confined,
  /// each access is one read or one write, and every frame reads both this and `state` (a
  /// dynamic check each cost about a tenth of a frame's handling).
  @exclusivity(unchecked) package var onFrame: ((UnsafeRawBufferPointer) -> Void)?
  /// The connection's bytes as they were read, unframed: for a stream that only forwards them
  /// (``LoopbackFaults/FaultProxy``). When set, reads skip the frame decoder and ``onFrame`` is not called.
  /// Each buffer is lent for the call (it points into the loop's read buffer): copy what you
  /// keep. Set it before the connection starts reading.
  @exclusivity(unchecked) package var onBytes: ((UnsafeRawBufferPointer) -> Void)?
  /// Fires once with the reason the connection closed; on the loop thread.
  package var onClose: ((CloseReason) -> Void)?
  /// Fires once when a client connection is established (never for accepted connections).
  package var onConnect: (() -> Void)?
  /// Called, instead of closing at once with ``CloseReason/writeQueueOverflow``, when a send
  /// would pass ``TCPConfiguration/maxQueuedWriteBytes``: a server ends the stream with a
  /// goodbye (``replaceQueuedFrames(withFinalFrame:reason:)``). If the connection is still
  /// active after it, it closes at once.
  package var onWriteQueueOverflow: (() -> Void)?
  /// Where the connection's ``heldWriteBytes`` are added up with other connections' (a
  /// server's write budget), if anywhere.
  @exclusivity(unchecked) package var writeAccount: WriteAccount?
  /// Bytes the connection holds for writing: the memory (capacity) of its buffers of frames
  /// queued and not yet handed to libuv, and of the writes libuv has not yet reported done
  /// (a reusable spare buffer, at most 64 KB, is not counted). Memory, where
  /// ``queuedWriteBytes`` counts the frames' bytes the kernel has not yet taken.
  ///
  /// Unchecked exclusivity: loop-confined, and each access is one read or one write (every
  /// frame sent updates it).
  @exclusivity(unchecked) package internal(set) var heldWriteBytes = 0
  /// How far the write queue may pass its bound while a fragmented message drains (see
  /// ``send(fragmentsOf:)``); 0 once the queue is back within the bound.
  @exclusivity(unchecked) var writeAllowance = 0
  /// Fires after a read that changed ``bufferedFrameBytes``, once its frames were delivered;
  /// for a server's account of the bytes all its connections hold.
  var onBufferedBytesChange: (() -> Void)?

  /// The time (milliseconds, on the clock ``EventLoop/now`` follows) of the last read that
  /// returned bytes, or of the connection's creation; for the idle and heartbeat timers of the
  /// layer above. Read fresh at each read, so a read late in a long loop turn is stamped with
  /// its own time rather than the turn's start, and may be a little ahead of a later turn's
  /// ``EventLoop/now``: subtract without wrapping.
  @exclusivity(unchecked) package internal(set) var lastReadTime: UInt64

  /// The libuv handle; valid until `state` is `.closed`.
  let handle: UnsafeMutablePointer<uv_tcp_t>
  @exclusivity(unchecked) var state: State = .active
  /// Whether the TCP connection is established (accepted, or `connect` succeeded).
  var isEstablished = false
  /// The frame decoder; each read is one access, for the length of its `decode` call.
  ///
  /// Unchecked exclusivity, like `onFrame` and `state`: the connection is loop-confined, and
  /// nothing that `onFrame` can reach touches the decoder (a send, a pause or a close doesn't;
  /// `discardPartialFrame` runs only on a closed connection, after its read returned, and the
  /// close log reads `hasPartialFrame` from the close callback). The dynamic check cost about
  /// 120 instructions per read, beside about 2,300 for a client's whole one-event read.
  @exclusivity(unchecked) var decoder: FrameDecoder
  /// Frames queued this turn, not yet handed to libuv.
  ///
  /// Unchecked exclusivity: read for the length of an append, which runs the sender's
  /// `encode` closure, and `encode` must not call into the connection (the dynamic check cost
  /// a fifth of a fan-out's append).
  @exclusivity(unchecked) var outgoing = OutgoingSlot()
  /// Buffers handed to `uv_write`, oldest first; each write callback returns the oldest.
  var inFlight: [OutboundBuffer] = []
  /// A written buffer kept for the next turn's frames.
  var spareBuffer: OutboundBuffer?
  var isFlushScheduled = false
  var isReading = false
  var isReadingPaused = false
  /// How many `uv_write` calls the connection issued; tests check the per-turn coalescing.
  var writeCallCount = 0

  /// The connection's life. Sends are accepted only while `.active`.
  enum State {
    /// Connecting or connected, reading and writing.
    case active
    /// `close(afterFlushing: true)`: not reading, writing what was queued, then closing.
    case draining(CloseReason)
    /// `uv_close` was called; waiting for the close callback.
    case closing(CloseReason)
    /// The close callback ran; the handle is freed.
    case closed
  }

  private init(
    loop: EventLoop, configuration: TCPConfiguration, handle: UnsafeMutablePointer<uv_tcp_t>
  ) {
    self.loop = loop
    self.configuration = configuration
    self.handle = handle
    self.decoder = FrameDecoder(maxFrameSize: configuration.maxFrameSize)
    self.lastReadTime = uv_now(loop.uvLoop)
  }

  deinit {
    // The handle's `data` retains the connection until its close callback ran.
    assert(isClosedState, "TCPConnection deinitialized while its handle is open")
  }

  /// Allocates and initializes the handle, then gives it its owner.
  static func make(loop: EventLoop, configuration: TCPConfiguration) throws(UVError)
    -> TCPConnection
  {
    try loop.checkAcceptsNewHandles("TCPConnection")
    let handle = allocateZeroed(uv_tcp_t.self)
    let status = uv_tcp_init(loop.uvLoop, handle)
    guard status == 0 else {
      handle.deallocate()
      throw UVError(code: status, operation: "uv_tcp_init")
    }
    let connection = TCPConnection(loop: loop, configuration: configuration, handle: handle)
    retainOwner(connection, in: uvHandle(handle))
    return connection
  }

  /// Opens a client connection.
  ///
  /// Returns at once; the connection is established in a later loop turn, then `onConnect`
  /// fires and reading starts. Frames sent before that are written once connected. A failure to
  /// connect (nobody listening) arrives as `onClose(.error(_))`.
  ///
  /// - Parameters:
  ///   - loop: The loop; the caller must be on its thread.
  ///   - host: A dotted IPv4 address. Default `127.0.0.1`.
  ///   - port: The port to connect to.
  ///   - configuration: Limits and options.
  /// - Returns: The connection, connecting.
  /// - Throws: `UVError` if the address is malformed, libuv refuses at once, or the loop is
  ///   shutting down.
  package static func connect(
    loop: EventLoop,
    host: String = "127.0.0.1",
    port: UInt16,
    configuration: TCPConfiguration = TCPConfiguration()
  ) throws(UVError) -> TCPConnection {
    let address = try makeIPv4Address(host: host, port: port)
    let connection = try make(loop: loop, configuration: configuration)
    if configuration.noDelay {
      // libuv remembers the option and applies it when the socket is created.
      _ = uv_tcp_nodelay(connection.handle, 1)
    }
    let request = allocateZeroed(uv_connect_t.self)
    let owner = Unmanaged.passRetained(connection)
    request.pointee.data = owner.toOpaque()
    let status = withSocketAddress(address) { address in
      uv_tcp_connect(request, connection.handle, address, tcpConnectCallback)
    }
    guard status == 0 else {
      owner.release()
      request.deallocate()
      let error = UVError(code: status, operation: "uv_tcp_connect")
      connection.close(reason: .error(error))
      throw error
    }
    return connection
  }

  /// Whether the TCP connection is established and not closing.
  package var isConnected: Bool {
    loop.assertInEventLoop()
    guard case .active = state else { return false }
    return isEstablished
  }

  /// Whether the connection is closing or closed: it neither sends nor delivers frames any more.
  package var isClosed: Bool {
    loop.assertInEventLoop()
    if case .active = state { return false }
    return true
  }

  /// The local port, or `nil` if not connected.
  package var localPort: UInt16? {
    loop.assertInEventLoop()
    guard isEstablished, !isClosedState else { return nil }
    return socketPort { uv_tcp_getsockname(handle, $0, $1) }
  }

  /// The peer's port, or `nil` if not connected.
  package var remotePort: UInt16? {
    loop.assertInEventLoop()
    guard isEstablished, !isClosedState else { return nil }
    return socketPort { uv_tcp_getpeername(handle, $0, $1) }
  }

  /// Closes the connection.
  ///
  /// `onClose(reason)` fires in a later callback. Calling `close` again is harmless; the first
  /// reason wins (except that an immediate close cuts a draining one short).
  ///
  /// - Parameters:
  ///   - reason: Why; ``CloseReason/local`` unless the layer above has a better one
  ///     (``CloseReason/protocolError(_:)``, ``CloseReason/idleTimeout``).
  ///   - afterFlushing: `false` drops frames not yet written and closes now. `true` stops reading
  ///     and accepting frames, writes what is queued, then closes — for example to deliver an
  ///     error reply before hanging up. A peer that never reads keeps a draining connection
  ///     open; the layer above bounds that with its idle timer.
  package func close(reason: CloseReason = .local, afterFlushing: Bool = false) {
    loop.assertInEventLoop()
    switch state {
    case .closing, .closed:
      return
    case .draining(let first):
      // Cut short, for the reason it was closed with.
      if !afterFlushing { closeNow(first) }
      return
    case .active:
      if afterFlushing && (!outgoing.isEmpty || !inFlight.isEmpty) {
        state = .draining(reason)
        stopReading()
        return
      }
    }
    closeNow(reason)
  }

  /// Calls `uv_close`; frames not yet handed to libuv are dropped, writes in flight are
  /// cancelled by libuv (their callbacks run before the close callback).
  func closeNow(_ reason: CloseReason) {
    guard beginClosing(reason) else { return }
    uv_close(uvHandle(handle), tcpConnectionCloseCallback)
  }

  /// Moves to closing for `reason`, dropping unsent frames; false when already closing.
  private func beginClosing(_ reason: CloseReason) -> Bool {
    switch state {
    case .closing, .closed: return false
    case .active, .draining: break
    }
    state = .closing(reason)
    isReading = false
    if let dropped = outgoing.take() { account(-dropped.capacity) }
    spareBuffer = nil
    return true
  }

  /// Closes the connection at once with a reset (`SO_LINGER` 0, so the kernel sends RST rather
  /// than FIN): the peer sees `ECONNRESET`, as when a host or a network drops the connection.
  /// Frames not yet written are dropped. Falls back to an ordinary immediate close when the
  /// socket can't take the option (not created yet). `onClose(reason)` fires in a later
  /// callback; harmless on a connection already closing.
  ///
  /// - Parameter reason: Why, for `onClose`.
  package func reset(reason: CloseReason = .local) {
    loop.assertInEventLoop()
    guard beginClosing(reason) else { return }
    if uv_tcp_close_reset(handle, tcpConnectionCloseCallback) != 0 {
      uv_close(uvHandle(handle), tcpConnectionCloseCallback)
    }
  }

  /// Close callback: the handle is done. Fires `onClose` and drops every callback.
  fileprivate func didClose() {
    guard case .closing(let reason) = state else {
      preconditionFailure("TCPConnection close callback in state \(state)")
    }
    state = .closed
    assert(inFlight.isEmpty, "libuv runs write callbacks before the close callback")
    inFlight.removeAll()
    spareBuffer = nil
    account(-heldWriteBytes)
    writeAccount = nil
    onWriteQueueOverflow = nil
    let onClose = self.onClose
    self.onClose = nil
    onFrame = nil
    onBytes = nil
    onConnect = nil
    onBufferedBytesChange = nil
    onClose?(reason)
  }

  /// Connect callback.
  fileprivate func didConnect(status: Int32) {
    switch state {
    case .closing, .closed:
      return  // closed while connecting; the request was cancelled
    case .active, .draining:
      break
    }
    guard status == 0 else {
      closeNow(.error(UVError(code: status, operation: "uv_tcp_connect")))
      return
    }
    isEstablished = true
    lastReadTime = uv_now(loop.uvLoop)
    startReading()
    if !outgoing.isEmpty { scheduleFlush() }
    let onConnect = self.onConnect
    self.onConnect = nil
    onConnect?()
  }

  /// Listener: the handle was accepted into.
  func didAccept() {
    isEstablished = true
    lastReadTime = uv_now(loop.uvLoop)
    if configuration.noDelay { _ = uv_tcp_nodelay(handle, 1) }
  }

  var isClosedState: Bool {
    if case .closed = state { return true }
    return false
  }
}

/// Loop-confined: use ``LoopBound`` to pass a connection between threads.
@available(*, unavailable)
extension TCPConnection: Sendable {}

extension TCPConnection: LoopHandleOwner {
  func closeForShutdown(_ handle: UnsafeMutablePointer<uv_handle_t>) {
    // A draining connection keeps the reason it was closed with.
    if case .draining(let reason) = state {
      closeNow(reason)
    } else {
      closeNow(.local)
    }
  }
}

private func tcpConnectionCloseCallback(_ handle: UnsafeMutablePointer<uv_handle_t>?) {
  guard let handle else { return }
  handleOwner(handle, as: TCPConnection.self)?.didClose()
  freeClosedHandle(handle)
}

private func tcpConnectCallback(_ request: UnsafeMutablePointer<uv_connect_t>?, _ status: Int32) {
  guard let request, let data = request.pointee.data else { return }
  let connection = Unmanaged<TCPConnection>.fromOpaque(data).takeRetainedValue()
  request.deallocate()
  connection.didConnect(status: status)
}
