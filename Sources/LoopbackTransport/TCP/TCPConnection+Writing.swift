import CLibUV
import SessionTransport

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
  package func send(frame: UnsafeRawBufferPointer) -> Bool {
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
  package func send<Bytes: Collection>(frame: Bytes) -> Bool where Bytes.Element == UInt8 {
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
  package func send(
    frameLength: Int, encode: (UnsafeMutableRawBufferPointer) -> Void
  ) -> Bool {
    loop.assertInEventLoop()
    guard case .active = state else { return false }
    guard frameLength >= 0, frameLength <= configuration.maxFrameSize else { return false }
    guard queuedWriteBytes + 4 + frameLength <= writeBound else {
      overflowed()
      return false
    }
    // The common case appends to this turn's buffer, borrowed: no retain and release per frame.
    if let growth = outgoing.appendFrame(length: frameLength, encode) {
      if growth != 0 { account(growth) }
      return true
    }
    let buffer = takeBuffer()
    buffer.appendFrame(length: frameLength, encode)
    account(buffer.capacity)
    outgoing.hold(buffer)
    scheduleFlush()
    return true
  }

  /// The write-queue bound now: ``TCPConfiguration/maxQueuedWriteBytes``, plus the allowance
  /// of a fragmented message until the queue is back within it.
  @inline(__always)
  private var writeBound: Int {
    let bound = configuration.maxQueuedWriteBytes
    guard writeAllowance > 0 else { return bound }
    if queuedWriteBytes <= bound {
      writeAllowance = 0
      return bound
    }
    return bound + writeAllowance
  }

  /// Queues a server message longer than a frame as `fragment` frames, back to back
  /// (`Docs/WireProtocol.md` §4.5). The queue may pass its bound by this message while it
  /// drains (a joiner's snapshot of thousands is sent whole), if it was within the bound
  /// before; once the queue is back within the bound, the bound applies as before.
  ///
  /// - Parameter payload: The whole payload; longer than ``TCPConfiguration/maxFrameSize``.
  /// - Returns: Whether it was queued; `false` when the connection is not active, the message
  ///   is longer than ``TCPConfiguration/maxMessageSize``, or the queue was already past its
  ///   bound (the connection then closes as at any overflow).
  package func send(fragmentsOf payload: [UInt8]) -> Bool {
    loop.assertInEventLoop()
    guard case .active = state, payload.count <= configuration.maxMessageSize else {
      return false
    }
    let frames = WireFragments.frameCount(
      of: payload.count, maxFrameSize: configuration.maxFrameSize)
    guard queuedWriteBytes <= configuration.maxQueuedWriteBytes else {
      overflowed()
      return false
    }
    writeAllowance = payload.count + frames * (4 + WireProtocol.fragmentHeaderSize)
    var queued = true
    WireFragments.split(payload, maxFrameSize: configuration.maxFrameSize) { frame in
      if queued { queued = send(frame: frame) }
    }
    return queued
  }

  /// A send would pass the write-queue bound: the owner's ``onWriteQueueOverflow`` decides
  /// (a server sends `goodbye(slowConsumer)`), or the connection closes at once.
  private func overflowed() {
    if let handler = onWriteQueueOverflow {
      handler()
      // The handler must end the connection one way or another; a connection still active
      // would grow past its bound.
      if case .active = state { closeNow(.writeQueueOverflow) }
    } else {
      closeNow(.writeQueueOverflow)
    }
  }

  /// Counts `bytes` more (or fewer, when negative) held for writing, here and in the
  /// connection's ``writeAccount``.
  @inline(__always)
  func account(_ bytes: Int) {
    heldWriteBytes &+= bytes
    if let writeAccount { writeAccount.heldBytes &+= bytes }
  }

  /// Stops counting this connection's bytes in its ``writeAccount`` (they go within the drain
  /// of a connection being cut): the account then speaks for the connections that go on.
  package func leaveWriteAccount() {
    loop.assertInEventLoop()
    if let writeAccount { writeAccount.heldBytes &-= heldWriteBytes }
    writeAccount = nil
  }

  /// Ends the stream with `payload` as its last frame, whatever the peer has read so far: the
  /// frames queued and not yet handed to libuv are dropped and their memory freed; the one
  /// write libuv may still be working on (which holds whole frames, and perhaps the frame the
  /// peer is in the middle of) is finished; then the final frame is written and the connection
  /// closes, as ``close(reason:afterFlushing:)`` with `afterFlushing` would. The peer thus sees
  /// whole frames ending in `payload`, if it reads before the layer above cuts the connection.
  ///
  /// Does nothing on a connection that is already closing.
  ///
  /// - Parameters:
  ///   - payload: The last frame's payload (a goodbye); written even past the write-queue
  ///     bound.
  ///   - reason: Why, for `onClose`.
  package func replaceQueuedFrames(
    withFinalFrame payload: UnsafeRawBufferPointer, reason: CloseReason
  ) {
    loop.assertInEventLoop()
    guard case .active = state else { return }
    if let dropped = outgoing.take() { account(-dropped.capacity) }
    spareBuffer = nil
    let buffer = OutboundBuffer(capacity: payload.count + 4)
    buffer.appendFrame(length: payload.count) { destination in
      guard let base = payload.baseAddress, let target = destination.baseAddress else { return }
      target.copyMemory(from: base, byteCount: payload.count)
    }
    account(buffer.capacity)
    outgoing.hold(buffer)
    state = .draining(reason)
    stopReading()
    scheduleFlush()
  }

  /// Queues raw bytes, with no frame header: for a stream that forwards bytes it read
  /// (``LoopbackFaults/FaultProxy``). Written with everything else queued this loop turn, in order; the same
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
    if let growth = outgoing.appendBytes(bytes) {
      if growth != 0 { account(growth) }
      return true
    }
    let buffer = takeBuffer()
    buffer.appendBytes(bytes)
    account(buffer.capacity)
    outgoing.hold(buffer)
    scheduleFlush()
    return true
  }

  /// Bytes waiting to be written: frames queued this turn plus what libuv has not yet handed to
  /// the kernel. The connection closes when this would exceed
  /// ``TCPConfiguration/maxQueuedWriteBytes``.
  package var queuedWriteBytes: Int {
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
  ///
  /// Only once libuv has handed every earlier write to the kernel: while one is unfinished
  /// (the peer reads slowly), new frames wait in `outgoing`, and the write callback flushes
  /// them. So libuv holds at most one unfinished write, and the frames behind it are still
  /// the connection's own, to drop if it is cut (``replaceQueuedFrames(withFinalFrame:reason:)``)
  /// — a peer that doesn't read never has more than one write's frames stuck in libuv.
  func flush() {
    isFlushScheduled = false
    guard isEstablished, !outgoing.isEmpty else { return }
    switch state {
    case .active, .draining: break
    case .closing, .closed: return
    }
    // The write callback of the unfinished write flushes again.
    guard uv_stream_get_write_queue_size(uvStream(handle)) == 0 else { return }
    guard let buffer = outgoing.take() else { return }
    let request = allocateZeroed(uv_write_t.self)
    let owner = Unmanaged.passRetained(self)
    request.pointee.data = owner.toOpaque()
    var bytes = uv_buf_init(buffer.base.assumingMemoryBound(to: CChar.self), UInt32(buffer.count))
    let status = uv_write(request, uvStream(handle), &bytes, 1, tcpWriteCallback)
    guard status == 0 else {
      owner.release()
      request.deallocate()
      account(-buffer.capacity)
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
    let written = inFlight.removeFirst()
    account(-written.capacity)
    recycle(written)
    if status < 0 {
      if status != UV_ECANCELED.rawValue { closeNow(Self.reason(forWriteFailure: status)) }
      return
    }
    if case .draining(let reason) = state, inFlight.isEmpty, outgoing.isEmpty {
      closeNow(reason)
      return
    }
    // Frames that waited for this write (``flush()``).
    if !outgoing.isEmpty { scheduleFlush() }
  }

  private func takeBuffer() -> OutboundBuffer {
    if let spare = spareBuffer {
      spareBuffer = nil
      return spare
    }
    return OutboundBuffer(capacity: 4096)
  }

  /// Keeps one written buffer for reuse, unless it grew past 64 KB (a burst's) or the
  /// connection is closing: then the memory goes back at once, so that idle connections hold
  /// no more than 64 KB each for writing, however large a burst they once read.
  private func recycle(_ buffer: OutboundBuffer) {
    guard spareBuffer == nil, buffer.capacity <= 64 << 10, case .active = state else { return }
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
