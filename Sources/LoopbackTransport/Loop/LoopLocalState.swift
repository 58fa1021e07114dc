import CLibUV

/// The part of an ``EventLoop`` only its thread reads or writes.
///
/// > Important: Loop-confined; not `Sendable`. Reached only through `EventLoop.local` from code
/// > running on the loop thread.
final class LoopLocalState {
  /// Connections with frames queued this turn; flushed by the loop's prepare and check handles.
  var pendingFlush: [TCPConnection] = []
  /// The flush array not in use, kept to reuse its capacity.
  var spareFlush: [TCPConnection] = []
  /// Set when shutdown began; constructors of loop-confined objects refuse to create handles.
  var isShuttingDown = false
  /// The loop time (`uv_now`) of the loop's latest poll for I/O, recorded by its check handle
  /// right after that poll's callbacks: libuv updates its time when the poll returns and not
  /// again until the next turn, so this is when the loop last looked at its sockets.
  var lastPollTime: UInt64 = 0
  /// The inbox array not in use, kept to reuse its capacity.
  var spareBatch: [@Sendable () -> Void] = []
  /// The media links' shared tickers, by interval in milliseconds.
  var mediaTickers: [UInt64: MediaTicker] = [:]
  /// The buffer every connection on this loop reads into. libuv calls a stream's alloc callback,
  /// reads, and calls its read callback before serving any other stream, and the read callback
  /// copies what it needs out, so one buffer per loop is enough.
  let readBuffer: UnsafeMutableRawBufferPointer

  init(readBufferSize: Int) {
    readBuffer = .allocate(byteCount: readBufferSize, alignment: 16)
  }

  deinit {
    readBuffer.deallocate()
  }

  /// Hands the loop's read buffer to libuv, from a stream's or a socket's alloc callback.
  /// libuv reads one chunk (one datagram) into it and calls back before the next alloc, so
  /// the one buffer serves every stream and socket on the loop.
  ///
  /// - Parameters:
  ///   - state: The loop-local state of the handle's owner; `nil` for an orphan handle, which
  ///     gets an empty buffer (libuv then reports `UV_ENOBUFS`).
  ///   - buffer: Where libuv wants the buffer.
  @inline(__always)
  static func lendReadBuffer(
    of state: LoopLocalState?, to buffer: UnsafeMutablePointer<uv_buf_t>?
  ) {
    guard let buffer else { return }
    guard let state, let base = state.readBuffer.baseAddress else {
      buffer.pointee = uv_buf_init(nil, 0)
      return
    }
    buffer.pointee = uv_buf_init(
      base.assumingMemoryBound(to: CChar.self), UInt32(state.readBuffer.count))
  }
}

extension EventLoop {
  /// Throws if the loop is shutting down, so that no handle is created that shutdown could miss.
  ///
  /// - Parameter operation: What was about to be created, for the error.
  package func checkAcceptsNewHandles(_ operation: String) throws(UVError) {
    preconditionInEventLoop()
    if local.isShuttingDown {
      throw UVError(.cancelled, operation: "\(operation) (event loop \(name) is shutting down)")
    }
  }

  /// Issues one write per connection with frames queued this turn.
  ///
  /// Called from the loop's prepare handle (for frames queued by timer and write callbacks,
  /// before the loop blocks) and check handle (for frames queued by I/O callbacks and work).
  func flushPendingWrites() {
    guard !local.pendingFlush.isEmpty else { return }
    var connections = local.spareFlush
    local.spareFlush = []
    swap(&connections, &local.pendingFlush)
    for connection in connections { connection.flush() }
    connections.removeAll(keepingCapacity: true)
    local.spareFlush = connections
  }
}
