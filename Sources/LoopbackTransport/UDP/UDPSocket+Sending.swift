import CLibUV

#if canImport(Glibc)
  import Glibc
#endif

extension UDPSocket {
  /// Sends one datagram to 127.0.0.1:`port`.
  ///
  /// The datagram goes to the kernel at once (`uv_udp_try_send`) when it can; otherwise it is
  /// copied into the socket's send queue and leaves, in order, as soon as the kernel takes it.
  ///
  /// - Parameters:
  ///   - bytes: The payload, 0 to ``maxDatagramSize`` bytes; copied if it has to wait.
  ///   - port: The receiving port on 127.0.0.1.
  /// - Returns: `true` if the datagram was handed to the kernel or queued; `false` if it was
  ///   dropped, as a network drops a packet: the send queue was full or the kernel refused it
  ///   (counted in ``UDPSocketStatistics/sendsDropped`` and
  ///   ``UDPSocketStatistics/sendErrors``). A datagram handed over may still be lost: nothing
  ///   listening on `port`, or its receive buffer full.
  /// - Throws: ``UDPSocketError/datagramTooLarge(byteCount:limit:)``,
  ///   ``UDPSocketError/invalidPort`` or ``UDPSocketError/closed``; nothing was sent or counted.
  @discardableResult
  package func send(_ bytes: [UInt8], to port: UInt16) throws(UDPSocketError) -> Bool {
    let outcome = bytes.withUnsafeBytes { buffer in
      Result { () throws(UDPSocketError) -> Bool in try send(lent: buffer, to: port) }
    }
    return try outcome.get()
  }

  /// Sends one datagram from a lent buffer: the package's hot path (a relay forwards the
  /// buffer its receive handler was lent). The bytes are read before the call returns and
  /// copied only if the datagram has to wait in the send queue, so the buffer may be reused
  /// right after.
  ///
  /// - Parameters:
  ///   - bytes: The payload, 0 to ``maxDatagramSize`` bytes.
  ///   - port: The receiving port on 127.0.0.1.
  /// - Returns: As ``send(_:to:)``.
  /// - Throws: As ``send(_:to:)``.
  @discardableResult
  package func send(lent bytes: UnsafeRawBufferPointer, to port: UInt16)
    throws(UDPSocketError) -> Bool
  {
    loop.assertInEventLoop()
    guard case .open = state else { throw .closed }
    guard bytes.count <= Self.maxDatagramSize else {
      throw .datagramTooLarge(byteCount: bytes.count, limit: Self.maxDatagramSize)
    }
    guard port != 0 else { throw .invalidPort }
    destination.sin_port = port.bigEndian
    if !forcesQueuedSends {
      var buffer = uv_buf_init(
        UnsafeMutableRawPointer(mutating: bytes.baseAddress)?.assumingMemoryBound(
          to: CChar.self),
        UInt32(bytes.count))
      let status = withSocketAddress(destination) { address in
        uv_udp_try_send(handle, &buffer, 1, address)
      }
      if status >= 0 {
        counters.datagramsSent += 1
        counters.bytesSent += bytes.count
        return true
      }
      // EAGAIN: the kernel's buffer is full, or sends are already queued (libuv refuses to
      // overtake them). Anything else the kernel said is a lost datagram.
      guard status == UV_EAGAIN.rawValue else {
        counters.sendErrors += 1
        return false
      }
    }
    return enqueue(bytes)
  }

  /// Sends one datagram from a lent buffer straight to the kernel (`uv_udp_try_send`), never
  /// queueing: the media plane's hot path. When the kernel can't take it at once (its send
  /// buffer is full) the datagram is dropped and counted in
  /// ``UDPSocketStatistics/sendsDropped``, as a full network queue drops a packet; anything
  /// else the kernel refuses counts in ``UDPSocketStatistics/sendErrors``. Bad input (too large,
  /// port 0, a closed socket) is dropped and counted as a send error too, never thrown.
  ///
  /// Don't mix it with ``send(_:to:)`` on one socket while that one has datagrams queued:
  /// libuv refuses to let a try-send overtake them, so these would all be dropped.
  ///
  /// - Parameters:
  ///   - bytes: The payload, read before the call returns.
  ///   - port: The receiving port on 127.0.0.1.
  /// - Returns: Whether the kernel took the datagram.
  @inline(__always)
  @discardableResult
  package func trySend(lent bytes: UnsafeRawBufferPointer, to port: UInt16) -> Bool {
    guard case .open = state, bytes.count <= Self.maxDatagramSize, port != 0 else {
      counters.sendErrors += 1
      return false
    }
    destination.sin_port = port.bigEndian
    var buffer = uv_buf_init(
      UnsafeMutableRawPointer(mutating: bytes.baseAddress)?.assumingMemoryBound(to: CChar.self),
      UInt32(bytes.count))
    let status = withSocketAddress(destination) { address in
      uv_udp_try_send(handle, &buffer, 1, address)
    }
    guard status >= 0 else {
      if status == UV_EAGAIN.rawValue {
        counters.sendsDropped += 1
      } else {
        counters.sendErrors += 1
      }
      return false
    }
    counters.datagramsSent += 1
    counters.bytesSent += bytes.count
    return true
  }

  /// Sends one datagram from a lent buffer to 127.0.0.1 at each of `ports`, straight to the
  /// kernel and never queueing, as ``trySend(lent:to:)`` does for one port: a fan-out's
  /// copies. On Linux the copies go in batches of up to 64 per system call (`sendmmsg`,
  /// through the package's C shim: libuv 1.44 has no batched send); elsewhere one
  /// `uv_udp_try_send` each. When the kernel's send buffer fills, the copies not yet taken
  /// are dropped and counted in ``UDPSocketStatistics/sendsDropped``; a copy the kernel refuses
  /// for another reason counts in ``UDPSocketStatistics/sendErrors`` and the others still go.
  /// Port 0 and bad input are send errors, never thrown.
  ///
  /// UDP segmentation offload (`UDP_SEGMENT`) does not apply: it splits one buffer into
  /// datagrams for one destination, while a fan-out sends one datagram to many.
  ///
  /// Don't mix it with ``send(_:to:)`` on one socket while that one has datagrams queued (the
  /// batch would overtake them).
  ///
  /// - Parameters:
  ///   - bytes: The payload, read before the call returns.
  ///   - ports: The receiving ports on 127.0.0.1, in host byte order.
  /// - Returns: How many copies the kernel took.
  @discardableResult
  package func trySend(lent bytes: UnsafeRawBufferPointer, toPorts ports: some Collection<UInt16>)
    -> Int
  {
    guard case .open = state, bytes.count <= Self.maxDatagramSize else {
      counters.sendErrors += ports.count
      return 0
    }
    #if os(Linux)
      batchPorts.removeAll(keepingCapacity: true)
      for port in ports {
        if port == 0 {
          counters.sendErrors += 1
        } else {
          batchPorts.append(port.bigEndian)
        }
      }
      var fd: uv_os_fd_t = -1
      guard uv_fileno(uvHandle(handle), &fd) == 0 else {
        counters.sendErrors += batchPorts.count
        return 0
      }
      var taken = 0
      batchPorts.withUnsafeBufferPointer { ports in
        var next = 0
        while next < ports.count {
          var error: Int32 = 0
          let sent = Int(
            se_udp_fanout(
              fd, bytes.baseAddress, bytes.count, ports.baseAddress.map { $0 + next },
              UInt32(ports.count - next), &error))
          taken += sent
          next += sent
          guard error != 0 else { break }
          if error == EAGAIN || error == EWOULDBLOCK || error == ENOBUFS {
            counters.sendsDropped += ports.count - next
            break
          }
          counters.sendErrors += 1
          next += 1
        }
      }
      counters.datagramsSent += taken
      counters.bytesSent += taken * bytes.count
      return taken
    #else
      var taken = 0
      for port in ports where trySend(lent: bytes, to: port) { taken += 1 }
      return taken
    #endif
  }

  /// Payload bytes waiting in the send queue (each datagram counts at least one byte).
  ///
  /// > Important: Loop thread only.
  package var queuedSendByteCount: Int {
    loop.assertInEventLoop()
    return queuedSendBytes
  }

  /// Copies the datagram into a pooled request and hands it to `uv_udp_send`.
  private func enqueue(_ bytes: UnsafeRawBufferPointer) -> Bool {
    let charge = max(bytes.count, 1)
    guard queuedSendBytes + charge <= configuration.maxQueuedSendBytes else {
      counters.sendsDropped += 1
      return false
    }
    let request = requestPool.popLast() ?? UDPSendRequest()
    request.store(bytes)
    request.charge = charge
    let owner = Unmanaged.passRetained(request)
    request.request.pointee.data = owner.toOpaque()
    // libuv copies the buffer descriptors and the address into the request; the bytes stay in
    // the request's storage until its callback.
    var buffer = uv_buf_init(request.base, UInt32(bytes.count))
    let status = withSocketAddress(destination) { address in
      uv_udp_send(request.request, handle, &buffer, 1, address, udpSendCallback)
    }
    guard status == 0 else {
      owner.release()
      request.request.pointee.data = nil
      recycle(request)
      counters.sendErrors += 1
      return false
    }
    requestsInFlight += 1
    queuedSendBytes += charge
    counters.sendsQueued += 1
    return true
  }

  /// Send callback: a queued datagram left, failed, or was cancelled by a close.
  fileprivate func didSend(_ request: UDPSendRequest, status: Int32) {
    requestsInFlight -= 1
    queuedSendBytes -= request.charge
    if status >= 0 {
      counters.datagramsSent += 1
      counters.bytesSent += request.byteCount
    } else if status == UV_ECANCELED.rawValue {
      counters.sendsCancelled += 1
    } else {
      counters.sendErrors += 1
    }
    recycle(request)
  }

  /// Keeps a request for reuse while the socket is open, unless the pool is full or the
  /// request's storage grew large.
  private func recycle(_ request: UDPSendRequest) {
    guard case .open = state, requestPool.count < 64, request.capacity <= 8 * 1024 else {
      return
    }
    requestPool.append(request)
  }
}

/// One `uv_udp_send_t` and the bytes it sends; pooled by its ``UDPSocket``.
///
/// > Important: Loop-confined, like its socket. While submitted, the request's `data` retains
/// > it; the send callback releases it.
final class UDPSendRequest {
  let request: UnsafeMutablePointer<uv_udp_send_t>
  private var storage: UnsafeMutableRawBufferPointer
  /// Payload bytes stored.
  private(set) var byteCount = 0
  /// What the datagram counts against the send queue bound.
  var charge = 0

  init() {
    request = allocateZeroed(uv_udp_send_t.self)
    storage = .allocate(byteCount: 2048, alignment: 16)
  }

  deinit {
    request.deallocate()
    storage.deallocate()
  }

  /// The storage's size in bytes.
  var capacity: Int { storage.count }

  /// The start of the stored bytes, for `uv_buf_init`.
  var base: UnsafeMutablePointer<CChar>? {
    storage.baseAddress?.assumingMemoryBound(to: CChar.self)
  }

  /// Copies `bytes` into the storage, growing it if needed.
  func store(_ bytes: UnsafeRawBufferPointer) {
    if bytes.count > storage.count {
      storage.deallocate()
      storage = .allocate(byteCount: bytes.count, alignment: 16)
    }
    if let source = bytes.baseAddress, let target = storage.baseAddress {
      target.copyMemory(from: source, byteCount: bytes.count)
    }
    byteCount = bytes.count
  }
}

private func udpSendCallback(_ request: UnsafeMutablePointer<uv_udp_send_t>?, _ status: Int32) {
  guard let request, let data = request.pointee.data else { return }
  let pending = Unmanaged<UDPSendRequest>.fromOpaque(data).takeRetainedValue()
  request.pointee.data = nil
  guard let handle = request.pointee.handle,
    let socket = handleOwner(uvHandle(handle), as: UDPSocket.self)
  else { return }
  socket.didSend(pending, status: status)
}
