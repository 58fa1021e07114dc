import CLibUV
import Dispatch
import Testing

@testable import LoopbackTransport

#if canImport(Glibc)
  import Glibc
#endif

@Suite("TCPConnection")
struct TCPConnectionTests {
  @Test func twoConnectionsExchangeFramesOfEverySize() throws {
    let fixture = try TCPFixture(echo: true)
    let peer = try fixture.connect()
    // 200 KB spans several reads of the 64 KiB read buffer.
    let payloads = [payload(1, count: 12), [], payload(2, count: 200_000), payload(3, count: 1)]
    try peer.send(payloads)
    #expect(peer.frames.wait(forCount: payloads.count))
    #expect(peer.frames.values == payloads)
    #expect(fixture.serverFrames.values == payloads)
    fixture.shutdown()
  }

  @Test func aFrameSplitOverManyPartialWritesArrivesWhole() throws {
    let fixture = try TCPFixture()
    let raw = try RawClient(port: fixture.port)
    let frame = payload(7, count: 20_000)
    let bytes = encodeFrames([frame])
    // Header and the first bytes one at a time, then 500-byte pieces; the pauses only make
    // partial reads likely, the assertion doesn't depend on how the bytes are split.
    var offset = 0
    while offset < bytes.count {
      let size = offset < 16 ? 1 : 500
      try raw.write(Array(bytes[offset..<min(offset + size, bytes.count)]))
      offset += size
      if offset < 2_000 { usleep(200) }
    }
    #expect(fixture.serverFrames.wait(forCount: 1))
    #expect(fixture.serverFrames.values == [frame])
    fixture.shutdown()
  }

  @Test func manyFramesInOneWriteArriveInOrder() throws {
    let fixture = try TCPFixture()
    let raw = try RawClient(port: fixture.port)
    let payloads = (0..<1_000).map { payload($0, count: $0 % 97) }
    try raw.write(encodeFrames(payloads))
    #expect(fixture.serverFrames.wait(forCount: payloads.count))
    #expect(fixture.serverFrames.values == payloads)
    fixture.shutdown()
  }

  /// A read late in a long loop turn is stamped with its own time, not the turn's start: the
  /// link above tells a silent server from a busy loop with it (Decision 0011).
  @Test func aReadInsideALongTurnRecordsItsOwnTime() throws {
    let fixture = try TCPFixture()
    let raw = try RawClient(port: fixture.port)
    var sendBuffer: Int32 = 1 << 20
    _ = setsockopt(
      raw.descriptor, SOL_SOCKET, SO_SNDBUF, &sendBuffer, socklen_t(MemoryLayout<Int32>.size))
    #expect(fixture.accepted.wait(forCount: 1))
    let connection = fixture.accepted.values[0]
    let stamps = Recorder<UInt64>()
    try fixture.server.sync {
      let tcp = connection.value
      // Nothing is read until all the bytes wait in the kernel, so that the first read fills
      // the 64 KiB read buffer and libuv reads again in the same turn.
      tcp.pauseReading()
      var size: Int32 = 1 << 20
      _ = uv_recv_buffer_size(uvHandle(tcp.handle), &size)
      var first = true
      tcp.onFrame = { _ in
        stamps.append(tcp.lastReadTime)
        if first {
          first = false
          usleep(1_000_000)  // one slow frame: the turn runs long
        }
      }
    }
    let frames = (0..<2_000).map { payload($0, count: 100) }  // 208 KB: four reads
    try raw.write(encodeFrames(frames))
    try fixture.server.sync { connection.value.resumeReading() }
    #expect(stamps.wait(forCount: frames.count))
    let values = stamps.values
    // The first read's frames carry its time; the reads after the slow frame, in the same
    // turn, carry theirs.
    let spread = (values.max() ?? 0) - (values.min() ?? 0)
    #expect(spread >= 900, "the reads of one turn were stamped \(spread) ms apart")
    raw.close()
    fixture.shutdown()
  }

  @Test func sixtyFourFramesSentInOneTurnAreOneWrite() throws {
    let fixture = try TCPFixture()
    let peer = try fixture.connect()
    #expect(fixture.accepted.wait(forCount: 1))
    let connection = fixture.accepted.values[0]
    let payloads = (0..<64).map { payload($0, count: 100) }
    let writesBefore = try fixture.server.sync {
      let writes = connection.value.writeCallCount
      for frame in payloads { connection.value.send(frame: frame) }
      return writes
    }
    #expect(peer.frames.wait(forCount: 64))
    #expect(peer.frames.values == payloads)
    let writesAfter = try fixture.server.sync { connection.value.writeCallCount }
    #expect(writesAfter - writesBefore == 1)
    fixture.shutdown()
  }

  @Test func framesQueuedFromATimerAreWrittenBeforeTheLoopBlocks() throws {
    let fixture = try TCPFixture()
    let peer = try fixture.connect()
    #expect(fixture.accepted.wait(forCount: 1))
    let connection = fixture.accepted.values[0]
    try fixture.server.sync {
      let timer = try UVTimer(loop: fixture.server)
      timer.schedule(afterMilliseconds: 1) {
        for index in 0..<3 { connection.value.send(frame: payload(index, count: 8)) }
        timer.close()
      }
    }
    #expect(peer.frames.wait(forCount: 3))
    #expect(try fixture.server.sync { connection.value.writeCallCount } == 1)
    fixture.shutdown()
  }

  @Test func anOversizedFrameClosesOnlyThatConnection() throws {
    let fixture = try TCPFixture(configuration: TCPConfiguration(maxFrameSize: 1_024), echo: true)
    let good = try fixture.connect()
    try good.send([payload(1, count: 1_024)])
    #expect(good.frames.wait(forCount: 1))

    let bad = try RawClient(port: fixture.port)
    try bad.write([0, 0, 0x04, 0x01] + payload(2, count: 100))  // announces 1,025 bytes
    #expect(fixture.serverCloses.wait(forCount: 1))
    #expect(fixture.serverCloses.values == [.frameTooLarge])
    #expect(bad.readUntilClosed().closed)

    try good.send([payload(3, count: 10)])
    #expect(good.frames.wait(forCount: 2))
    #expect(good.frames.values.last == payload(3, count: 10))
    #expect(good.closes.count == 0)
    fixture.shutdown()
  }

  @Test(arguments: [false, true])
  func aPeerClosingAbruptlyGivesPeerClosed(reset: Bool) throws {
    let fixture = try TCPFixture()
    let raw = try RawClient(port: fixture.port)
    try raw.write(encodeFrames([payload(1, count: 10)]) + [0, 0, 0, 50, 1, 2, 3])  // 1 + torn
    #expect(fixture.serverFrames.wait(forCount: 1))
    raw.close(reset: reset)
    #expect(fixture.serverCloses.wait(forCount: 1))
    #expect(fixture.serverCloses.values == [.peerClosed])
    fixture.shutdown()
  }

  @Test func closingLocallyGivesLocalHereAndPeerClosedThere() throws {
    let fixture = try TCPFixture()
    let peer = try fixture.connect()
    #expect(fixture.accepted.wait(forCount: 1))
    try peer.connection.loop.sync { [peer] in
      peer.connection.value.close()
      peer.connection.value.close()  // harmless
      #expect(peer.connection.value.isClosed)
    }
    #expect(peer.closes.wait(forCount: 1))
    #expect(fixture.serverCloses.wait(forCount: 1))
    #expect(peer.closes.values == [.local])
    #expect(fixture.serverCloses.values == [.peerClosed])
    fixture.shutdown()
  }

  @Test func aClientThatNeverReadsIsDisconnectedWithWriteQueueOverflow() throws {
    let limit = 256 * 1_024
    let fixture = try TCPFixture(configuration: TCPConfiguration(maxQueuedWriteBytes: limit))
    let stalled = try RawClient(port: fixture.port, receiveBufferSize: 4_096)
    #expect(fixture.accepted.wait(forCount: 1))
    let connection = fixture.accepted.values[0]
    let maximumQueued = Recorder<Int>()
    try fixture.server.sync {
      // 64 KiB per millisecond: a reader keeps up easily; a client that never reads fills the
      // kernel's buffers and then libuv's write queue.
      let timer = try UVTimer(loop: fixture.server)
      var peak = 0
      timer.schedule(afterMilliseconds: 1, repeatingEvery: 1) {
        for index in 0..<4 {
          guard connection.value.send(frame: payload(index, count: 16 * 1_024)) else {
            timer.close()
            maximumQueued.append(peak)
            return
          }
          peak = max(peak, connection.value.queuedWriteBytes)
        }
      }
    }
    #expect(fixture.serverCloses.wait(forCount: 1))
    #expect(fixture.serverCloses.values == [.writeQueueOverflow])
    #expect(maximumQueued.wait(forCount: 1))
    #expect(maximumQueued.values[0] <= limit)

    // The server goes on serving others.
    let peer = try fixture.connect()
    try peer.send([payload(9, count: 32)])
    #expect(fixture.serverFrames.wait(forCount: 1))
    _ = stalled
    fixture.shutdown()
  }

  @Test func closeAfterFlushingDeliversQueuedFramesFirst() throws {
    let fixture = try TCPFixture()
    let raw = try RawClient(port: fixture.port)
    #expect(fixture.accepted.wait(forCount: 1))
    let connection = fixture.accepted.values[0]
    let payloads = (0..<10).map { payload($0, count: 1_000) }
    try fixture.server.sync {
      for frame in payloads { connection.value.send(frame: frame) }
      connection.value.close(afterFlushing: true)
      #expect(connection.value.send(frame: [1]) == false)  // draining: no new frames
    }
    let received = raw.readUntilClosed()
    #expect(received.closed)
    #expect(received.bytes == encodeFrames(payloads))
    #expect(fixture.serverCloses.wait(forCount: 1))
    #expect(fixture.serverCloses.values == [.local])
    fixture.shutdown()
  }

  @Test func connectingToAPortNobodyListensOnReportsConnectionRefused() throws {
    let loop = try EventLoop()
    let closes = Recorder<CloseReason>()
    try loop.sync {
      let listener = try TCPListener(loop: loop) { _ in }
      let port = listener.localPort
      listener.close()
      let connection = try TCPConnection.connect(loop: loop, port: port)
      connection.onConnect = { Issue.record("connected to a closed port") }
      connection.onClose = { closes.append($0) }
    }
    #expect(closes.wait(forCount: 1))
    #expect(closes.values == [.error(UVError(.connectionRefused, operation: "uv_tcp_connect"))])
    #expect(loop.shutdown().isClean)
  }

  @Test func bindingATakenPortThrowsAddressInUse() throws {
    let loop = try EventLoop()
    try loop.sync {
      let first = try TCPListener(loop: loop) { _ in }
      #expect {
        _ = try TCPListener(loop: loop, port: first.localPort) { _ in }
      } throws: { error in
        (error as? UVError)?.code == .addressInUse
      }
      #expect(throws: UVError.self) {
        _ = try TCPConnection.connect(loop: loop, host: "not an address", port: 1)
      }
    }
    let report = loop.shutdown()
    #expect(report.isClean)
    #expect(report.handlesClosed == 1)
  }

  @Test func sendRefusesOversizedFramesAndFramesAfterClose() throws {
    let fixture = try TCPFixture()
    let peer = try fixture.connect(configuration: TCPConfiguration(maxFrameSize: 16))
    try fixture.client.sync { [peer] in
      let connection = peer.connection.value
      #expect(connection.send(frame: payload(1, count: 17)) == false)
      #expect(connection.isConnected)
      #expect(connection.send(frame: payload(1, count: 16)))
      connection.close()
      #expect(connection.send(frame: payload(1, count: 1)) == false)
    }
    #expect(peer.closes.wait(forCount: 1))
    #expect(peer.closes.values == [.local])
    fixture.shutdown()
  }

  @Test func pausedConnectionDeliversNothingUntilResumed() throws {
    let fixture = try TCPFixture()
    let peer = try fixture.connect()
    #expect(fixture.accepted.wait(forCount: 1))
    let connection = fixture.accepted.values[0]
    try fixture.server.sync { connection.value.pauseReading() }
    try peer.send([payload(1, count: 10), payload(2, count: 10)])
    // Proof that the frames are there to read: the server's kernel acknowledged every byte
    // (nothing left in the client's send queue), and then the server loop polled its sockets
    // twice (the second round trip's poll comes after one that saw the socket readable).
    #expect(try waitUntil { try peer.unacknowledgedBytes() == 0 })
    try fixture.server.sync {}
    try fixture.server.sync {}
    #expect(fixture.serverFrames.count == 0)
    try fixture.server.sync { connection.value.resumeReading() }
    #expect(fixture.serverFrames.wait(forCount: 2))
    fixture.shutdown()
  }

  @Test func portsAndLastReadTimeAreReported() throws {
    let fixture = try TCPFixture()
    let peer = try fixture.connect()
    #expect(fixture.accepted.wait(forCount: 1))
    let clientPorts = try fixture.client.sync { [peer] in
      (peer.connection.value.localPort, peer.connection.value.remotePort)
    }
    #expect(clientPorts.1 == fixture.port)
    let connection = fixture.accepted.values[0]
    let serverPorts = try fixture.server.sync {
      (connection.value.localPort, connection.value.remotePort, connection.value.lastReadTime)
    }
    #expect(serverPorts.0 == fixture.port)
    #expect(serverPorts.1 == clientPorts.0)
    try peer.send([[1]])
    #expect(fixture.serverFrames.wait(forCount: 1))
    let lastRead = try fixture.server.sync { connection.value.lastReadTime }
    #expect(lastRead >= serverPorts.2)
    fixture.shutdown()
  }
}

@Suite("TCPConnection options")
struct TCPConnectionOptionTests {
  /// Reads `TCP_NODELAY` from the connection's socket (loop thread).
  private static func noDelay(_ connection: TCPConnection) -> Int32 {
    var descriptor = uv_os_fd_t()
    guard uv_fileno(uvHandle(connection.handle), &descriptor) == 0 else { return -1 }
    var value: Int32 = 0
    var length = socklen_t(MemoryLayout<Int32>.size)
    guard getsockopt(descriptor, Int32(IPPROTO_TCP), TCP_NODELAY, &value, &length) == 0 else {
      return -1
    }
    return value
  }

  @Test func noDelayIsSetOnClientAndAcceptedConnections() throws {
    let fixture = try TCPFixture()
    let peer = try fixture.connect()
    #expect(fixture.accepted.wait(forCount: 1))
    let connection = fixture.accepted.values[0]
    #expect(try fixture.client.sync { Self.noDelay(peer.connection.value) } == 1)
    #expect(try fixture.server.sync { Self.noDelay(connection.value) } == 1)
    fixture.shutdown()
  }
}
