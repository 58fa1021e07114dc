import CLibUV

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

// The raw-libuv fan-out baseline: what libuv alone delivers on this machine, with no Swift
// abstraction in the way. The benchmark of LoopbackTransport's EventLoop/TCPConnection prints
// its figure beside this one. Deliberately written against CLibUV only.

/// Measures raw libuv fan-out over loopback TCP: one server loop thread writes length-prefixed
/// frames to `peers` connections; a client loop thread reads them on `peers` connections and
/// counts frames.
///
/// The server writes `framesPerWrite` frames per `uv_write` (keeping a few writes in flight per
/// peer) until every peer was sent `totalFramesPerPeer` frames. The clock runs from the first
/// write to the last frame counted; both threads read the same monotonic clock.
///
/// - Parameters:
///   - peers: Connections (each end on its own loop thread); the file-descriptor limit is raised
///     if needed.
///   - frameSize: Payload bytes per frame (plus a 4-byte length prefix).
///   - framesPerWrite: Frames per `uv_write`.
///   - totalFramesPerPeer: Frames each peer receives.
/// - Returns: Frames delivered per second (all peers together), or 0 if the run failed (the
///   reason is printed to standard error).
func runUVBaseline(peers: Int, frameSize: Int, framesPerWrite: Int, totalFramesPerPeer: Int)
  -> Double
{
  precondition(peers > 0 && frameSize >= 0 && framesPerWrite > 0 && totalFramesPerPeer > 0)
  _ = signal(SIGPIPE, SIG_IGN)
  uvBaselineRaiseFileLimit(to: 2 * peers + 64)

  let run = UVBaselineRun(
    peers: peers, frameSize: frameSize, framesPerWrite: framesPerWrite,
    totalFramesPerPeer: totalFramesPerPeer)
  defer { run.deallocate() }
  if let failure = run.setUp() {
    uvBaselineReport(failure)
    return 0
  }
  let context = Unmanaged.passUnretained(run).toOpaque()
  var serverThread = uv_thread_t()
  var clientThread = uv_thread_t()
  guard uv_thread_create(&serverThread, uvBaselineServerThread, context) == 0 else {
    uvBaselineReport("uv_thread_create failed")
    return 0
  }
  guard uv_thread_create(&clientThread, uvBaselineClientThread, context) == 0 else {
    uvBaselineReport("uv_thread_create failed")
    return 0  // unreachable in practice; the server thread would wait forever
  }
  uv_thread_join(&clientThread)
  uv_thread_join(&serverThread)

  if let failure = run.failure {
    uvBaselineReport(failure)
    return 0
  }
  let elapsed = Double(run.endNanoseconds - run.startNanoseconds) / 1e9
  guard elapsed > 0 else { return 0 }
  return Double(peers * totalFramesPerPeer) / elapsed
}

/// Writes in flight per peer: enough to keep the socket busy while a write callback is pending.
private let uvBaselineWritesInFlight = 4

/// The whole run's state. Each field is used by one loop thread only (server or client), or
/// written before the threads start and read after they were joined.
///
/// `@unchecked Sendable`: see above — thread creation and `uv_thread_join` order every access;
/// the only cross-thread signal during the run is `uv_async_send`, which is thread-safe.
private final class UVBaselineRun: @unchecked Sendable {
  let peers: Int
  let frameSize: Int
  let framesPerWrite: Int
  let totalFramesPerPeer: Int

  // Server side (server loop thread).
  let serverLoop = UnsafeMutablePointer<uv_loop_t>.allocate(capacity: 1)
  let listener = UnsafeMutablePointer<uv_tcp_t>.allocate(capacity: 1)
  let stopServer = UnsafeMutablePointer<uv_async_t>.allocate(capacity: 1)
  let serverConnections: UnsafeMutablePointer<uv_tcp_t>
  let writeRequests: UnsafeMutablePointer<uv_write_t>
  let framesSent: UnsafeMutablePointer<Int>
  /// `framesPerWrite` encoded frames; every write sends a prefix of it.
  let frameBlock: UnsafeMutableRawPointer
  var accepted = 0
  var startNanoseconds: UInt64 = 0

  // Client side (client loop thread).
  let clientLoop = UnsafeMutablePointer<uv_loop_t>.allocate(capacity: 1)
  let clientConnections: UnsafeMutablePointer<uv_tcp_t>
  let connectRequests: UnsafeMutablePointer<uv_connect_t>
  let parsers: UnsafeMutablePointer<UVBaselineParser>
  let readBuffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 * 1024, alignment: 16)
  var peersDone = 0
  var endNanoseconds: UInt64 = 0

  /// Written by the server loop thread (or the main thread during set-up).
  var serverFailure: String?
  /// Written by the client loop thread.
  var clientFailure: String?
  /// Read after both threads were joined.
  var failure: String? { serverFailure ?? clientFailure }
  private var loopsInitialized = false

  init(peers: Int, frameSize: Int, framesPerWrite: Int, totalFramesPerPeer: Int) {
    self.peers = peers
    self.frameSize = frameSize
    self.framesPerWrite = framesPerWrite
    self.totalFramesPerPeer = totalFramesPerPeer
    serverConnections = .allocate(capacity: peers)
    writeRequests = .allocate(capacity: peers * uvBaselineWritesInFlight)
    framesSent = .allocate(capacity: peers)
    framesSent.initialize(repeating: 0, count: peers)
    clientConnections = .allocate(capacity: peers)
    connectRequests = .allocate(capacity: peers)
    parsers = .allocate(capacity: peers)
    parsers.initialize(repeating: UVBaselineParser(), count: peers)
    let stride = 4 + frameSize
    frameBlock = .allocate(byteCount: max(1, stride * framesPerWrite), alignment: 16)
    for index in 0..<framesPerWrite {
      let frame = frameBlock + index * stride
      frame.storeBytes(of: UInt32(frameSize).bigEndian, as: UInt32.self)
      memset(frame + 4, Int32(index & 0xFF), frameSize)
    }
  }

  /// Main thread, before the loop threads start: both loops, the listener, and every client
  /// connect request. Returns a failure description, or nil.
  func setUp() -> String? {
    guard uv_loop_init(serverLoop) == 0, uv_loop_init(clientLoop) == 0 else {
      return "uv_loop_init failed"
    }
    loopsInitialized = true
    let context = Unmanaged.passUnretained(self).toOpaque()
    serverLoop.pointee.data = context
    clientLoop.pointee.data = context

    uv_tcp_init(serverLoop, listener)
    var address = sockaddr_in()
    uv_ip4_addr("127.0.0.1", 0, &address)
    var status = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { uv_tcp_bind(listener, $0, 0) }
    }
    if status == 0 {
      status = uv_listen(
        UnsafeMutablePointer<uv_stream_t>(OpaquePointer(listener)), Int32(min(peers, 4096)),
        uvBaselineAccept)
    }
    guard status == 0 else { return "listen: \(String(cString: uv_strerror(status)))" }
    var bound = sockaddr_in()
    var length = Int32(MemoryLayout<sockaddr_in>.size)
    _ = withUnsafeMutablePointer(to: &bound) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        uv_tcp_getsockname(listener, $0, &length)
      }
    }
    uv_async_init(serverLoop, stopServer, uvBaselineStopServer)

    uv_ip4_addr("127.0.0.1", Int32(UInt16(bigEndian: bound.sin_port)), &address)
    for peer in 0..<peers {
      let connection = clientConnections + peer
      uv_tcp_init(clientLoop, connection)
      connection.pointee.data = UnsafeMutableRawPointer(bitPattern: peer + 1)
      uv_tcp_nodelay(connection, 1)
      let request = connectRequests + peer
      request.pointee.data = UnsafeMutableRawPointer(bitPattern: peer + 1)
      status = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
          uv_tcp_connect(request, connection, $0, uvBaselineConnected)
        }
      }
      guard status == 0 else { return "uv_tcp_connect: \(String(cString: uv_strerror(status)))" }
    }
    return nil
  }

  /// Server loop: every peer is accepted; start the clock and the first writes.
  func startWriting() {
    startNanoseconds = uvBaselineNow()
    for peer in 0..<peers {
      for slot in 0..<uvBaselineWritesInFlight {
        let request = writeRequests + (peer * uvBaselineWritesInFlight + slot)
        request.pointee.data = UnsafeMutableRawPointer(bitPattern: peer + 1)
        writeNext(peer: peer, request: request)
      }
    }
  }

  /// Server loop: sends the peer's next `framesPerWrite` frames (fewer at the end) on `request`.
  func writeNext(peer: Int, request: UnsafeMutablePointer<uv_write_t>) {
    let count = min(framesPerWrite, totalFramesPerPeer - framesSent[peer])
    guard count > 0 else { return }
    framesSent[peer] += count
    var buffer = uv_buf_init(
      frameBlock.assumingMemoryBound(to: CChar.self), UInt32(count * (4 + frameSize)))
    let status = uv_write(
      request, UnsafeMutablePointer<uv_stream_t>(OpaquePointer(serverConnections + peer)),
      &buffer, 1, uvBaselineWritten)
    if status != 0 { serverFailure = "uv_write: \(String(cString: uv_strerror(status)))" }
  }

  /// Client loop: one more peer has everything (or failed).
  func peerFinished() {
    peersDone += 1
    guard peersDone == peers else { return }
    endNanoseconds = uvBaselineNow()
    uv_async_send(stopServer)
    uvBaselineCloseAll(clientLoop)
  }

  func deallocate() {
    if loopsInitialized {
      _ = uv_loop_close(serverLoop)
      _ = uv_loop_close(clientLoop)
    }
    serverLoop.deallocate()
    clientLoop.deallocate()
    listener.deallocate()
    stopServer.deallocate()
    serverConnections.deallocate()
    writeRequests.deallocate()
    framesSent.deallocate()
    frameBlock.deallocate()
    clientConnections.deallocate()
    connectRequests.deallocate()
    parsers.deallocate()
    readBuffer.deallocate()
  }
}

/// Per-connection frame parser of the client side: counts frames, skips payloads.
private struct UVBaselineParser {
  var headerBytes = 0
  var header: UInt32 = 0
  var payloadLeft = 0
  var frames = 0

  /// Consumes `bytes`; returns the number of complete frames in them.
  mutating func consume(_ bytes: UnsafeRawBufferPointer) -> Int {
    var index = 0
    var completed = 0
    let end = bytes.count
    while index < end {
      if payloadLeft > 0 {
        let skip = min(payloadLeft, end - index)
        payloadLeft -= skip
        index += skip
        if payloadLeft == 0 { completed += 1 }
        continue
      }
      if headerBytes == 0 && end - index >= 4 {
        header = UInt32(bigEndian: bytes.loadUnaligned(fromByteOffset: index, as: UInt32.self))
        index += 4
      } else {
        while headerBytes < 4 && index < end {
          header = header << 8 | UInt32(bytes[index])
          headerBytes += 1
          index += 1
        }
        guard headerBytes == 4 else { break }
        headerBytes = 0
      }
      payloadLeft = Int(header)
      header = 0
      if payloadLeft == 0 { completed += 1 }
    }
    frames += completed
    return completed
  }
}

private func uvBaselineRun(_ loop: UnsafeMutablePointer<uv_loop_t>?) -> UVBaselineRun? {
  guard let data = loop?.pointee.data else { return nil }
  return Unmanaged<UVBaselineRun>.fromOpaque(data).takeUnretainedValue()
}

private func uvBaselinePeer(_ data: UnsafeMutableRawPointer?) -> Int {
  Int(bitPattern: data) - 1
}

private func uvBaselineServerThread(_ context: UnsafeMutableRawPointer?) {
  guard let context else { return }
  let run = Unmanaged<UVBaselineRun>.fromOpaque(context).takeUnretainedValue()
  uv_run(run.serverLoop, UV_RUN_DEFAULT)
}

private func uvBaselineClientThread(_ context: UnsafeMutableRawPointer?) {
  guard let context else { return }
  let run = Unmanaged<UVBaselineRun>.fromOpaque(context).takeUnretainedValue()
  uv_run(run.clientLoop, UV_RUN_DEFAULT)
}

private func uvBaselineAccept(_ server: UnsafeMutablePointer<uv_stream_t>?, _ status: Int32) {
  guard let server, let run = uvBaselineRun(server.pointee.loop), status == 0,
    run.accepted < run.peers
  else { return }
  let peer = run.accepted
  let connection = run.serverConnections + peer
  uv_tcp_init(run.serverLoop, connection)
  connection.pointee.data = UnsafeMutableRawPointer(bitPattern: peer + 1)
  guard uv_accept(server, UnsafeMutablePointer<uv_stream_t>(OpaquePointer(connection))) == 0 else {
    run.serverFailure = "uv_accept failed"
    uv_close(UnsafeMutablePointer<uv_handle_t>(OpaquePointer(connection)), nil)
    return
  }
  uv_tcp_nodelay(connection, 1)
  run.accepted += 1
  if run.accepted == run.peers { run.startWriting() }
}

private func uvBaselineWritten(_ request: UnsafeMutablePointer<uv_write_t>?, _ status: Int32) {
  guard let request, status == 0,
    let run = uvBaselineRun(request.pointee.handle?.pointee.loop)
  else { return }
  run.writeNext(peer: uvBaselinePeer(request.pointee.data), request: request)
}

private func uvBaselineStopServer(_ handle: UnsafeMutablePointer<uv_async_t>?) {
  guard let handle else { return }
  uvBaselineCloseAll(handle.pointee.loop)
}

private func uvBaselineConnected(_ request: UnsafeMutablePointer<uv_connect_t>?, _ status: Int32) {
  guard let request, let stream = request.pointee.handle,
    let run = uvBaselineRun(stream.pointee.loop)
  else { return }
  guard status == 0 else {
    run.clientFailure = "connect: \(String(cString: uv_strerror(status)))"
    run.peerFinished()
    return
  }
  uv_read_start(stream, uvBaselineAllocate, uvBaselineRead)
}

private func uvBaselineAllocate(
  _ handle: UnsafeMutablePointer<uv_handle_t>?, _ suggested: Int,
  _ buffer: UnsafeMutablePointer<uv_buf_t>?
) {
  guard let handle, let buffer, let run = uvBaselineRun(handle.pointee.loop) else { return }
  buffer.pointee = uv_buf_init(
    run.readBuffer.baseAddress?.assumingMemoryBound(to: CChar.self), UInt32(run.readBuffer.count))
}

private func uvBaselineRead(
  _ stream: UnsafeMutablePointer<uv_stream_t>?, _ count: Int, _ buffer: UnsafePointer<uv_buf_t>?
) {
  guard let stream, let run = uvBaselineRun(stream.pointee.loop) else { return }
  let peer = uvBaselinePeer(stream.pointee.data)
  if count < 0 {
    if run.parsers[peer].frames < run.totalFramesPerPeer {
      run.clientFailure = "read: \(String(cString: uv_strerror(Int32(count))))"
      run.parsers[peer].frames = run.totalFramesPerPeer
      uv_read_stop(stream)
      run.peerFinished()
    }
    return
  }
  guard count > 0, let base = buffer?.pointee.base else { return }
  let before = run.parsers[peer].frames
  _ = run.parsers[peer].consume(UnsafeRawBufferPointer(start: base, count: count))
  if before < run.totalFramesPerPeer && run.parsers[peer].frames >= run.totalFramesPerPeer {
    run.peerFinished()
  }
}

/// Closes every handle on `loop` so that `uv_run` returns; the memory is the run's.
private func uvBaselineCloseAll(_ loop: UnsafeMutablePointer<uv_loop_t>?) {
  uv_walk(
    loop,
    { handle, _ in
      if let handle, uv_is_closing(handle) == 0 { uv_close(handle, nil) }
    }, nil)
}

private func uvBaselineNow() -> UInt64 {
  var time = timespec()
  clock_gettime(CLOCK_MONOTONIC, &time)
  return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
}

private func uvBaselineRaiseFileLimit(to needed: Int) {
  var limit = rlimit()
  guard getrlimit(uvBaselineFileLimitResource, &limit) == 0, limit.rlim_cur < rlim_t(needed) else {
    return
  }
  limit.rlim_cur = min(rlim_t(needed), limit.rlim_max)
  _ = setrlimit(uvBaselineFileLimitResource, &limit)
}

#if canImport(Glibc)
  private let uvBaselineFileLimitResource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
#else
  private let uvBaselineFileLimitResource = RLIMIT_NOFILE
#endif

private func uvBaselineReport(_ message: String) {
  var standardError = "runUVBaseline: \(message)\n"
  standardError.withUTF8 { bytes in _ = write(2, bytes.baseAddress, bytes.count) }
}
