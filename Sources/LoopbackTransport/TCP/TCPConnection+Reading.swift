import CLibUV

extension TCPConnection {
  /// Stops delivering frames until ``resumeReading()``; the peer's writes back up into the
  /// kernel's buffers and then into the peer's write queue.
  ///
  /// Frames already received in the current read are still delivered.
  package func pauseReading() {
    loop.assertInEventLoop()
    isReadingPaused = true
    stopReading()
  }

  /// Resumes reading after ``pauseReading()``.
  package func resumeReading() {
    loop.assertInEventLoop()
    isReadingPaused = false
    startReading()
  }

  /// Starts `uv_read_start` if the connection is established, active and not paused.
  func startReading() {
    guard isEstablished, !isReading, !isReadingPaused, case .active = state else { return }
    let status = uv_read_start(uvStream(handle), tcpAllocCallback, tcpReadCallback)
    guard status == 0 else {
      closeNow(.error(UVError(code: status, operation: "uv_read_start")))
      return
    }
    isReading = true
  }

  func stopReading() {
    guard isReading else { return }
    uv_read_stop(uvStream(handle))
    isReading = false
  }

  /// Read callback with bytes: decode and deliver frames.
  fileprivate func didRead(_ bytes: UnsafeRawBufferPointer) {
    // The time now, not the turn's cached one: a read late in a long turn (libuv reads a
    // stream again while its reads fill the buffer) heard the peer then, not at the turn's
    // start. One `clock_gettime` per read, which carries dozens of frames in a fan-out.
    lastReadTime = loop.currentTime
    // A byte stream (a proxy) takes the read whole and leaves the framing alone.
    if let onBytes {
      onBytes(bytes)
      return
    }
    // Loaded once per read, not once per frame: a read carries dozens of frames in a fan-out,
    // and each load retains the closure. The frames of one read go to the closure set when it
    // arrived.
    guard let onFrame else { return }
    // `onFrame` may send, pause or close, none of which touches `decoder`, so the decoder's
    // exclusive access for the duration of the call is not violated. One access per read: the
    // buffered count is compared inside it.
    let (outcome, bufferedChanged) = decoder.decodeNotingBuffered(bytes) { frame in
      onFrame(frame)
      if case .active = state { return true }
      return false
    }
    if case .frameTooLarge = outcome { closeNow(.frameTooLarge) }
    if bufferedChanged, let onBufferedBytesChange {
      onBufferedBytesChange()
    }
  }

  /// Lets go of the unfinished frame's bytes of a connection that is closing (it reads no
  /// more, so the framing lost is never needed): a server bounding the memory all its
  /// connections hold frees a shed connection's share at once.
  func discardPartialFrame() {
    precondition(isClosed, "discarding the partial frame of a connection still reading")
    decoder.discardPartialFrame()
  }

  /// Payload bytes of an unfinished frame the connection holds (its header arrived, not all of
  /// its payload yet). Frames that arrive whole within one read are never held.
  package var bufferedFrameBytes: Int {
    loop.assertInEventLoop()
    return decoder.bufferedByteCount
  }

  /// Read callback with an error or end of stream.
  fileprivate func didFailReading(_ status: Int32) {
    switch status {
    case UV_EOF.rawValue, UV_ECONNRESET.rawValue:
      closeNow(.peerClosed)
    default:
      closeNow(.error(UVError(code: status, operation: "read")))
    }
  }
}

private func tcpAllocCallback(
  _ handle: UnsafeMutablePointer<uv_handle_t>?,
  _ suggestedSize: Int,
  _ buffer: UnsafeMutablePointer<uv_buf_t>?
) {
  LoopLocalState.lendReadBuffer(
    of: handleOwner(handle, as: TCPConnection.self)?.loop.local, to: buffer)
}

private func tcpReadCallback(
  _ stream: UnsafeMutablePointer<uv_stream_t>?,
  _ count: Int,
  _ buffer: UnsafePointer<uv_buf_t>?
) {
  guard let stream,
    let connection = handleOwner(uvHandle(stream), as: TCPConnection.self)
  else { return }
  if count > 0 {
    guard let base = buffer?.pointee.base else { return }
    connection.didRead(UnsafeRawBufferPointer(start: base, count: count))
  } else if count < 0 {
    connection.didFailReading(Int32(count))
  }
  // count == 0: nothing read (EAGAIN); the buffer is the loop's and needs no freeing.
}
