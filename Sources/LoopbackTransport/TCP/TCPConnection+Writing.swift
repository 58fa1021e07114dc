import CLibUV

extension TCPConnection {
  /// Queues a frame; it is written with every other frame queued on this connection this loop
  /// turn, in one `uv_write`.
  ///
  /// - Parameter frame: The payload; copied before `send` returns.
  /// - Returns: `false` if the frame was not queued: the connection is closing or closed, the
  ///   payload is longer than ``TCPConfiguration/maxFrameSize``, or queuing it would exceed
  ///   ``TCPConfiguration/maxQueuedWriteBytes`` (the connection then closes with
  ///   ``CloseReason/writeQueueOverflow``).
  @discardableResult
  public func send(frame: UnsafeRawBufferPointer) -> Bool {
    send(frameLength: frame.count) { destination in
      guard let base = frame.baseAddress, let target = destination.baseAddress else { return }
      target.copyMemory(from: base, byteCount: frame.count)
    }
  }

  /// Queues a frame; see the `UnsafeRawBufferPointer` overload.
  ///
  /// - Parameter frame: The payload bytes, for example `[UInt8]`, `ArraySlice<UInt8>` or `Data`.
  /// - Returns: Whether the frame was queued.
  @discardableResult
  public func send<Bytes: Collection>(frame: Bytes) -> Bool where Bytes.Element == UInt8 {
    let sent = frame.withContiguousStorageIfAvailable { storage in
      send(frame: UnsafeRawBufferPointer(storage))
    }
    if let sent { return sent }
    return send(frameLength: frame.count) { destination in
      _ = destination.initializeMemory(as: UInt8.self, from: frame)
    }
  }

  /// Queues a frame whose payload `encode` writes straight into the outgoing buffer (no
  /// intermediate copy).
  ///
  /// - Parameters:
  ///   - frameLength: The payload length in bytes.
  ///   - encode: Must write all `frameLength` bytes of the buffer it gets, and must not call
  ///     into the connection; it runs only if the frame is queued, before `send` returns.
  /// - Returns: Whether the frame was queued (see the `UnsafeRawBufferPointer` overload).
  @discardableResult
  public func send(
    frameLength: Int, encode: (UnsafeMutableRawBufferPointer) -> Void
  ) -> Bool {
    loop.assertInEventLoop()
    guard case .active = state else { return false }
    guard frameLength >= 0, frameLength <= configuration.maxFrameSize else { return false }
    guard queuedWriteBytes + 4 + frameLength <= configuration.maxQueuedWriteBytes else {
      closeNow(.writeQueueOverflow)
      return false
    }
    // The common case appends to this turn's buffer, borrowed: no retain and release per frame.
    if outgoing.appendFrame(length: frameLength, encode) { return true }
    let buffer = takeBuffer()
    buffer.appendFrame(length: frameLength, encode)
    outgoing.hold(buffer)
    scheduleFlush()
    return true
  }

  /// Queues raw bytes, with no frame header: for a stream that forwards bytes it read
  /// (``FaultProxy``). Written with everything else queued this loop turn, in order; the same
  /// write-queue bound applies.
  ///
  /// - Parameter bytes: The bytes; copied before `send` returns.
  /// - Returns: `false` if the bytes were not queued: the connection is closing or closed, or
  ///   queuing them would exceed ``TCPConfiguration/maxQueuedWriteBytes`` (the connection then
  ///   closes with ``CloseReason/writeQueueOverflow``).
  @discardableResult
  package func send(rawBytes bytes: UnsafeRawBufferPointer) -> Bool {
    loop.assertInEventLoop()
    guard case .active = state else { return false }
    guard !bytes.isEmpty else { return true }
    guard queuedWriteBytes + bytes.count <= configuration.maxQueuedWriteBytes else {
      closeNow(.writeQueueOverflow)
      return false
    }
    if outgoing.appendBytes(bytes) { return true }
    let buffer = takeBuffer()
    buffer.appendBytes(bytes)
    outgoing.hold(buffer)
    scheduleFlush()
    return true
  }

  /// Bytes waiting to be written: frames queued this turn plus what libuv has not yet handed to
  /// the kernel. The connection closes when this would exceed
  /// ``TCPConfiguration/maxQueuedWriteBytes``.
  public var queuedWriteBytes: Int {
    loop.assertInEventLoop()
    guard !isClosedState else { return 0 }
    let unwritten = isEstablished ? uv_stream_get_write_queue_size(uvStream(handle)) : 0
    return outgoing.count + unwritten
  }

  /// Asks the loop to call ``flush()`` at the end of this turn.
  func scheduleFlush() {
    guard !isFlushScheduled else { return }
    isFlushScheduled = true
    loop.local.pendingFlush.append(self)
  }

  /// Hands the frames queued so far to libuv now rather than at the end of the turn, in
  /// order: for a heartbeat that must leave from inside a long turn.
  func flushNow() {
    flush()
  }

  /// Loop's prepare/check handle: hands this turn's frames to libuv in one `uv_write`.
  func flush() {
    isFlushScheduled = false
    guard isEstablished, !outgoing.isEmpty else { return }
    switch state {
    case .active, .draining: break
    case .closing, .closed: return
    }
    guard let buffer = outgoing.take() else { return }
    let request = allocateZeroed(uv_write_t.self)
    let owner = Unmanaged.passRetained(self)
    request.pointee.data = owner.toOpaque()
    var bytes = uv_buf_init(buffer.base.assumingMemoryBound(to: CChar.self), UInt32(buffer.count))
    let status = uv_write(request, uvStream(handle), &bytes, 1, tcpWriteCallback)
    guard status == 0 else {
      owner.release()
      request.deallocate()
      recycle(buffer)
      closeNow(Self.reason(forWriteFailure: status))
      return
    }
    // The buffer stays alive (and unmodified) in `inFlight` until the write callback.
    inFlight.append(buffer)
    writeCallCount += 1
  }

  /// Write callback: the oldest write in flight finished (or was cancelled by a close).
  fileprivate func didWrite(status: Int32) {
    recycle(inFlight.removeFirst())
    if status < 0 {
      if status != UV_ECANCELED.rawValue { closeNow(Self.reason(forWriteFailure: status)) }
      return
    }
    if case .draining(let reason) = state, inFlight.isEmpty, outgoing.isEmpty {
      closeNow(reason)
    }
  }

  private func takeBuffer() -> OutboundBuffer {
    if let spare = spareBuffer {
      spareBuffer = nil
      return spare
    }
    return OutboundBuffer(capacity: 4096)
  }

  /// Keeps one written buffer for reuse, unless it grew large.
  private func recycle(_ buffer: OutboundBuffer) {
    guard spareBuffer == nil, buffer.capacity <= 1 << 20, !isClosedState else { return }
    buffer.reset()
    spareBuffer = buffer
  }

  private static func reason(forWriteFailure status: Int32) -> CloseReason {
    switch status {
    case UV_EPIPE.rawValue, UV_ECONNRESET.rawValue: .peerClosed
    default: .error(UVError(code: status, operation: "uv_write"))
    }
  }
}

private func tcpWriteCallback(_ request: UnsafeMutablePointer<uv_write_t>?, _ status: Int32) {
  guard let request, let data = request.pointee.data else { return }
  let connection = Unmanaged<TCPConnection>.fromOpaque(data).takeRetainedValue()
  request.deallocate()
  connection.didWrite(status: status)
}
