import Testing

@testable import LoopbackTransport

/// One datagram as a socket's handler saw it.
struct ReceivedDatagram: Sendable, Hashable {
  /// The receiving socket's port.
  var at: UInt16
  /// The sender's port.
  var from: UInt16
  var bytes: [UInt8]
}

/// A loop with UDP sockets whose handlers record every datagram.
final class UDPFixture: Sendable {
  let loop: EventLoop
  let received = Recorder<ReceivedDatagram>()

  init(readBufferSize: Int = 64 * 1024) throws {
    loop = try EventLoop(name: "test-udp", readBufferSize: readBufferSize)
  }

  /// Opens a socket on the loop whose datagrams go to ``received``.
  func socket(configuration: UDPConfiguration = UDPConfiguration()) throws -> LoopBound<UDPSocket> {
    let (loop, received) = (self.loop, self.received)
    return try loop.sync {
      let socket = try UDPSocket(loop: loop, configuration: configuration)
      let port = socket.localPort
      socket.onReceive = { from, bytes in
        received.append(ReceivedDatagram(at: port, from: from, bytes: bytes))
      }
      return LoopBound(socket, loop: loop)
    }
  }

  /// The datagrams that reached `port`, in arrival order.
  func datagrams(at port: UInt16) -> [ReceivedDatagram] {
    received.values.filter { $0.at == port }
  }

  /// Waits until `port` received `count` datagrams (the timeout only bounds a broken build).
  func wait(at port: UInt16, count: Int) -> Bool {
    let deadline = ContinuousClock.now + .seconds(20)
    while datagrams(at: port).count < count {
      guard ContinuousClock.now < deadline else { return false }
      received.wait(forCount: received.count + 1, timeoutSeconds: 1)
    }
    return true
  }

  /// Runs loop turns until the sockets' send queues are empty (at most 10,000 turns).
  func drainSendQueues(_ sockets: [LoopBound<UDPSocket>]) throws {
    for _ in 0..<10_000 {
      let queued = try loop.sync { sockets.reduce(0) { $0 + $1.value.requestsInFlight } }
      if queued == 0 { return }
    }
    Issue.record("the send queues never drained")
  }

  func shutdown(
    expectingClosed handles: Int? = nil, sourceLocation: SourceLocation = #_sourceLocation
  ) {
    let report = loop.shutdown()
    #expect(report.isClean, sourceLocation: sourceLocation)
    if let handles {
      #expect(report.handlesClosed == handles, sourceLocation: sourceLocation)
    }
  }
}

/// Bytes that say which datagram they are: a 4-byte index, then a pattern derived from it.
private func numbered(_ index: Int, count: Int) -> [UInt8] {
  precondition(count >= 4)
  var bytes = withUnsafeBytes(of: UInt32(index).bigEndian, Array.init)
  bytes.reserveCapacity(count)
  for offset in 4..<count { bytes.append(UInt8(truncatingIfNeeded: index &* 31 &+ offset)) }
  return bytes
}

/// The index of a ``numbered(_:count:)`` datagram, or `nil` if any byte is wrong.
private func index(ofNumbered bytes: [UInt8]) -> Int? {
  guard bytes.count >= 4 else { return nil }
  let index = bytes[0..<4].reduce(0) { $0 << 8 | Int($1) }
  return bytes == numbered(index, count: bytes.count) ? index : nil
}

@Suite("UDPSocket")
struct UDPSocketTests {
  @Test func twoSocketsExchangeDatagramsBothWays() throws {
    let fixture = try UDPFixture()
    let a = try fixture.socket()
    let b = try fixture.socket()
    let (portA, portB) = try fixture.loop.sync { (a.value.localPort, b.value.localPort) }
    #expect(portA != 0 && portB != 0 && portA != portB)
    let sent = try fixture.loop.sync {
      [try a.value.send([1, 2, 3], to: portB), try b.value.send([4, 5], to: portA)]
    }
    #expect(sent == [true, true])
    #expect(fixture.wait(at: portB, count: 1) && fixture.wait(at: portA, count: 1))
    #expect(
      fixture.datagrams(at: portB) == [ReceivedDatagram(at: portB, from: portA, bytes: [1, 2, 3])])
    #expect(
      fixture.datagrams(at: portA) == [ReceivedDatagram(at: portA, from: portB, bytes: [4, 5])])
    let statistics = try fixture.loop.sync { (a.value.statistics, b.value.statistics) }
    #expect(statistics.0.datagramsSent == 1 && statistics.0.bytesSent == 3)
    #expect(statistics.0.datagramsReceived == 1 && statistics.0.bytesReceived == 2)
    #expect(statistics.1.datagramsSent == 1 && statistics.1.datagramsReceived == 1)
    #expect(statistics.0.sendErrors == 0 && statistics.0.sendsQueued == 0)
    fixture.shutdown(expectingClosed: 2)
  }

  /// Loopback drops only when a receive buffer overflows; the sender paces itself (50 per loop
  /// turn, the receiver reading in between), so most arrive, and every one that arrives is
  /// intact and arrives once.
  @Test func manyDatagramsArriveIntactAndAtMostOnce() throws {
    let fixture = try UDPFixture()
    let sender = try fixture.socket()
    let receiver = try fixture.socket(configuration: UDPConfiguration(receiveBufferSize: 1 << 20))
    let target = try fixture.loop.sync { receiver.value.localPort }
    let total = 2_000
    let loop = fixture.loop
    @Sendable func sendBatch(from start: Int) {
      for index in start..<min(start + 50, total) {
        _ = try? sender.value.send(numbered(index, count: 8 + index % 1_193), to: target)
      }
      if start + 50 < total { loop.execute { sendBatch(from: start + 50) } }
    }
    loop.execute { sendBatch(from: 0) }
    #expect(fixture.wait(at: target, count: total * 9 / 10))
    try fixture.drainSendQueues([sender])
    _ = try loop.sync {}  // a last turn for datagrams still in the kernel
    let arrived = fixture.datagrams(at: target)
    let indices = arrived.map { index(ofNumbered: $0.bytes) }
    #expect(indices.allSatisfy { $0 != nil }, "a datagram arrived corrupted")
    #expect(Set(indices).count == arrived.count, "a datagram arrived twice")
    let statistics = try loop.sync { (sender.value.statistics, receiver.value.statistics) }
    #expect(
      statistics.0.datagramsSent + statistics.0.sendsDropped + statistics.0.sendErrors == total)
    #expect(statistics.0.sendErrors == 0)
    #expect(statistics.1.datagramsReceived == arrived.count)
    #expect(statistics.1.truncated == 0)
    fixture.shutdown(expectingClosed: 2)
  }

  @Test func aSixtyThousandByteDatagramMakesTheRoundTrip() throws {
    let fixture = try UDPFixture()
    let a = try fixture.socket()
    let (loop, received) = (fixture.loop, fixture.received)
    // An echo: what it receives goes back to the sender, from the lent buffer.
    let echo = try loop.sync {
      let echo = try UDPSocket(loop: loop)
      echo.onDatagram = { from, bytes in
        received.append(ReceivedDatagram(at: echo.localPort, from: from, bytes: Array(bytes)))
        _ = try? echo.send(lent: bytes, to: from)
      }
      return LoopBound(echo, loop: loop)
    }
    let (portA, portEcho) = try loop.sync { (a.value.localPort, echo.value.localPort) }
    let payload = numbered(60_000, count: 60_000)
    #expect(try loop.sync { try a.value.send(payload, to: portEcho) })
    #expect(fixture.wait(at: portA, count: 1))
    #expect(fixture.datagrams(at: portEcho).map(\.bytes) == [payload])
    #expect(
      fixture.datagrams(at: portA) == [ReceivedDatagram(at: portA, from: portEcho, bytes: payload)])
    fixture.shutdown(expectingClosed: 2)
  }

  @Test func closingTwiceIsHarmlessAndAClosedSocketRefusesWork() throws {
    let fixture = try UDPFixture()
    let a = try fixture.socket()
    let b = try fixture.socket()
    let portB = try fixture.loop.sync { b.value.localPort }
    let outcome = try fixture.loop.sync { () -> [UDPSocketError?] in
      let socket = a.value
      #expect(!socket.isClosed)
      socket.close()
      socket.close()
      #expect(socket.isClosed)
      #expect(socket.receiveBufferSize == nil && socket.sendBufferSize == nil)
      return [
        Self.error { _ = try socket.send([1], to: portB) },
        Self.error { try socket.setReceiveBufferSize(4_096) },
      ]
    }
    #expect(outcome == [.closed, .closed])
    _ = try fixture.loop.sync { a.value.close() }  // after the close callback, too
    let statistics = try fixture.loop.sync { a.value.statistics }
    #expect(statistics == UDPSocketStatistics())
    // The closed one was freed; shutdown closes only the open one.
    fixture.shutdown(expectingClosed: 1)
  }

  /// Sends that wait in the queue when the socket closes are cancelled and their requests
  /// return; the loop closes cleanly.
  @Test func closingWithQueuedSendsCancelsThemCleanly() throws {
    let fixture = try UDPFixture()
    let a = try fixture.socket()
    let b = try fixture.socket()
    let portB = try fixture.loop.sync { b.value.localPort }
    let queued = try fixture.loop.sync { () -> Int in
      let socket = a.value
      socket.forcesQueuedSends = true
      for index in 0..<50 { try socket.send(numbered(index, count: 1_000), to: portB) }
      let queued = socket.requestsInFlight
      socket.close()
      return queued
    }
    #expect(queued == 50)
    _ = try fixture.loop.sync {}
    let statistics = try fixture.loop.sync { (a.value.statistics, a.value.requestsInFlight) }
    #expect(statistics.1 == 0)
    #expect(statistics.0.sendsQueued == 50)
    #expect(statistics.0.datagramsSent + statistics.0.sendsCancelled == 50)
    #expect(statistics.0.sendErrors == 0)
    fixture.shutdown(expectingClosed: 1)
  }

  /// The queued path (`uv_udp_send`) keeps the order, and its bound drops what doesn't fit
  /// until the queue drained.
  @Test func queuedSendsKeepTheirOrderWithinTheBound() throws {
    let fixture = try UDPFixture()
    let a = try fixture.socket(configuration: UDPConfiguration(maxQueuedSendBytes: 10_000))
    let b = try fixture.socket(configuration: UDPConfiguration(receiveBufferSize: 1 << 20))
    let portB = try fixture.loop.sync { b.value.localPort }
    let accepted = try fixture.loop.sync { () -> [Bool] in
      a.value.forcesQueuedSends = true
      // 100 bytes each: 100 fit in the bound; the 101st doesn't.
      return try (0..<101).map { try a.value.send(numbered($0, count: 100), to: portB) }
    }
    #expect(accepted == Array(repeating: true, count: 100) + [false])
    #expect(fixture.wait(at: portB, count: 100))
    #expect(fixture.datagrams(at: portB).map { index(ofNumbered: $0.bytes) } == Array(0..<100))
    try fixture.drainSendQueues([a])
    // Drained, the queue takes sends again.
    #expect(try fixture.loop.sync { try a.value.send(numbered(100, count: 100), to: portB) })
    #expect(fixture.wait(at: portB, count: 101))
    try fixture.drainSendQueues([a])
    let statistics = try fixture.loop.sync { (a.value.statistics, a.value.queuedSendByteCount) }
    #expect(statistics.0.sendsQueued == 101 && statistics.0.datagramsSent == 101)
    #expect(statistics.0.sendsDropped == 1 && statistics.0.bytesSent == 10_100)
    #expect(statistics.1 == 0)
    fixture.shutdown(expectingClosed: 2)
  }

  /// Nobody listens on the port: the datagrams are lost, the ICMP errors ignored, and the
  /// socket carries on.
  @Test func sendingToAClosedPortIsHarmless() throws {
    let fixture = try UDPFixture()
    let a = try fixture.socket()
    let b = try fixture.socket()
    let gone = try fixture.socket()
    let (portA, portB, portGone) = try fixture.loop.sync {
      (a.value.localPort, b.value.localPort, gone.value.localPort)
    }
    _ = try fixture.loop.sync { gone.value.close() }
    let sent = try fixture.loop.sync {
      try (0..<20).map { try a.value.send(numbered($0, count: 64), to: portGone) }
    }
    #expect(sent.allSatisfy { $0 })
    _ = try fixture.loop.sync {}  // the ICMP errors come back
    _ = try fixture.loop.sync { try a.value.send([7], to: portB) }
    _ = try fixture.loop.sync { try b.value.send([8], to: portA) }
    #expect(fixture.wait(at: portB, count: 1) && fixture.wait(at: portA, count: 1))
    #expect(fixture.datagrams(at: portGone).isEmpty)
    let statistics = try fixture.loop.sync { (a.value.isClosed, a.value.statistics) }
    #expect(!statistics.0)
    #expect(statistics.1.datagramsSent == 21 && statistics.1.datagramsReceived == 1)
    fixture.shutdown(expectingClosed: 2)
  }

  @Test func emptyAndLargestDatagramsAreAllowedAndLargerOnesRefused() throws {
    let fixture = try UDPFixture()
    let a = try fixture.socket()
    let b = try fixture.socket()
    let portB = try fixture.loop.sync { b.value.localPort }
    let largest = numbered(1, count: UDPSocket.maxDatagramSize)
    #expect(try fixture.loop.sync { try a.value.send([], to: portB) })
    #expect(try fixture.loop.sync { try a.value.send(largest, to: portB) })
    #expect(fixture.wait(at: portB, count: 2))
    #expect(fixture.datagrams(at: portB).map(\.bytes) == [[], largest])

    let before = try fixture.loop.sync { a.value.statistics }
    let errors = try fixture.loop.sync { () -> [UDPSocketError?] in
      let socket = a.value
      let tooLarge = [UInt8](repeating: 0, count: UDPSocket.maxDatagramSize + 1)
      return [
        Self.error { _ = try socket.send(tooLarge, to: portB) },
        Self.error { _ = try socket.send([1], to: 0) },
      ]
    }
    #expect(errors == [.datagramTooLarge(byteCount: 65_508, limit: 65_507), .invalidPort])
    #expect(
      errors[0].map(String.init(describing:))
        == "datagram too large: 65508 bytes, at most 65507 fit in one UDP packet")
    let after = try fixture.loop.sync { a.value.statistics }
    #expect(after == before, "a refused send changes nothing")
    #expect(before.datagramsSent == 2 && before.bytesSent == UDPSocket.maxDatagramSize)
    let received = try fixture.loop.sync { b.value.statistics }
    #expect(received.datagramsReceived == 2 && received.bytesReceived == UDPSocket.maxDatagramSize)
    fixture.shutdown(expectingClosed: 2)
  }

  /// A datagram longer than the loop's read buffer is cut by the kernel: dropped and counted,
  /// never delivered in part; one that fits is delivered.
  @Test func aDatagramLongerThanTheReadBufferIsCountedNotDelivered() throws {
    let fixture = try UDPFixture(readBufferSize: 1_024)
    let a = try fixture.socket()
    let b = try fixture.socket()
    let portB = try fixture.loop.sync { b.value.localPort }
    _ = try fixture.loop.sync { try a.value.send(numbered(1, count: 2_000), to: portB) }
    _ = try fixture.loop.sync { try a.value.send(numbered(2, count: 1_024), to: portB) }
    #expect(fixture.wait(at: portB, count: 1))
    #expect(fixture.datagrams(at: portB).map(\.bytes) == [numbered(2, count: 1_024)])
    let statistics = try fixture.loop.sync { b.value.statistics }
    #expect(statistics.truncated == 1 && statistics.datagramsReceived == 1)
    fixture.shutdown(expectingClosed: 2)
  }

  @Test func bufferSizesAreSetAndBadOnesRefused() throws {
    let fixture = try UDPFixture()
    let configured = try fixture.socket(
      configuration: UDPConfiguration(receiveBufferSize: 100_000, sendBufferSize: 50_000))
    let sizes = try fixture.loop.sync {
      (configured.value.receiveBufferSize, configured.value.sendBufferSize)
    }
    // Linux reports twice what was asked for (its bookkeeping), other systems the value.
    #expect((sizes.0 ?? 0) >= 100_000 && (sizes.1 ?? 0) >= 50_000)

    let loop = fixture.loop
    let errors = try loop.sync { () -> [UDPSocketError?] in
      let socket = configured.value
      let port = socket.localPort
      return [
        Self.error { try socket.setReceiveBufferSize(0) },
        Self.error { try socket.setSendBufferSize(-1) },
        Self.error { try socket.setReceiveBufferSize(Int.max) },
        Self.error { try socket.setSendBufferSize(80_000) },
        Self.error { _ = try UDPSocket(loop: loop, configuration: .init(receiveBufferSize: 0)) },
        Self.error { _ = try UDPSocket(loop: loop, configuration: .init(sendBufferSize: Int.min)) },
        Self.error { _ = try UDPSocket(loop: loop, configuration: .init(maxQueuedSendBytes: 0)) },
        Self.error { _ = try UDPSocket(loop: loop, port: port) },
      ]
    }
    #expect(errors[0] == .invalidBufferSize(option: "SO_RCVBUF", value: 0))
    #expect(errors[1] == .invalidBufferSize(option: "SO_SNDBUF", value: -1))
    #expect(errors[2] == .invalidBufferSize(option: "SO_RCVBUF", value: Int.max))
    #expect(errors[3] == nil)
    #expect(errors[4] == .invalidBufferSize(option: "SO_RCVBUF", value: 0))
    #expect(errors[5] == .invalidBufferSize(option: "SO_SNDBUF", value: Int.min))
    #expect(errors[6] == .invalidBufferSize(option: "maxQueuedSendBytes", value: 0))
    guard case .system(let bindError) = errors[7] else {
      Issue.record("binding a taken port: \(String(describing: errors[7]))")
      return
    }
    #expect(bindError.code == .addressInUse)
    // The refused set left the size alone; the accepted one took effect.
    let after = try loop.sync { configured.value.sendBufferSize }
    #expect((after ?? 0) >= 80_000)
    // Every refused constructor left no handle behind.
    fixture.shutdown(expectingClosed: 1)
  }

  /// The loop's shutdown closes open sockets, drops their handlers, and closes cleanly.
  @Test func shutdownClosesOpenSocketsAndReleasesTheirHandlers() throws {
    let fixture = try UDPFixture()
    let loop = fixture.loop
    let boxes = try loop.sync { () -> [WeakBox] in
      let socket = try UDPSocket(loop: loop)
      let captured = WeakBox(nil)
      final class Marker {}
      let marker = Marker()
      captured.object = marker
      socket.onReceive = { _, _ in _ = marker }
      return [WeakBox(socket), captured]
    }
    _ = try fixture.socket()
    fixture.shutdown(expectingClosed: 2)
    #expect(boxes.allSatisfy { $0.object == nil })
  }

  /// Runs `body` and returns the `UDPSocketError` it threw, or `nil` (any other error fails
  /// the test).
  private static func error(_ body: () throws -> Void) -> UDPSocketError? {
    do {
      try body()
      return nil
    } catch let error as UDPSocketError {
      return error
    } catch {
      Issue.record("unexpected error \(error)")
      return nil
    }
  }
}

@Suite("UDPFanOutRelay")
struct UDPFanOutRelayTests {
  @Test func theRelayFansEachDatagramOutToEveryTargetInOrder() throws {
    let fixture = try UDPFixture()
    let sinks = try (0..<5).map { _ in try fixture.socket() }
    let source = try fixture.socket()
    let loop = fixture.loop
    let sinkPorts = try loop.sync { sinks.map(\.value.localPort) }
    let relay = try loop.sync {
      LoopBound(try UDPFanOutRelay(loop: loop, targets: sinkPorts + [0]), loop: loop)
    }
    let relayPort = try loop.sync { relay.value.localPort }
    _ = try loop.sync {
      for index in 0..<20 { try source.value.send(numbered(index, count: 200), to: relayPort) }
    }
    for port in sinkPorts {
      #expect(fixture.wait(at: port, count: 20))
      let arrived = fixture.datagrams(at: port)
      #expect(arrived.map { index(ofNumbered: $0.bytes) } == Array(0..<20))
      #expect(arrived.allSatisfy { $0.from == relayPort })
    }
    let counts = try loop.sync { (relay.value.datagramsReceived, relay.value.datagramsForwarded) }
    #expect(counts == (20, 100))  // port 0 in the list is skipped
    _ = try loop.sync {
      relay.value.close()
      relay.value.close()
    }
    fixture.shutdown(expectingClosed: 6)
  }

  /// A sender's own route overrides the default list; an empty route drops its datagrams.
  @Test func routesOverrideTheTargetsPerSender() throws {
    let fixture = try UDPFixture()
    let sinks = try (0..<4).map { _ in try fixture.socket() }
    let everyone = try fixture.socket()
    let routed = try fixture.socket()
    let muted = try fixture.socket()
    let loop = fixture.loop
    let sinkPorts = try loop.sync { sinks.map(\.value.localPort) }
    let (routedPort, mutedPort) = try loop.sync { (routed.value.localPort, muted.value.localPort) }
    let relay = try loop.sync {
      let relay = try UDPFanOutRelay(loop: loop, targets: sinkPorts)
      relay.routes[routedPort] = Array(sinkPorts.prefix(2))
      relay.routes[mutedPort] = []
      return LoopBound(relay, loop: loop)
    }
    let relayPort = try loop.sync { relay.value.localPort }
    _ = try loop.sync {
      for index in 0..<3 { try routed.value.send(numbered(index, count: 16), to: relayPort) }
      try muted.value.send(numbered(99, count: 16), to: relayPort)
    }
    for port in sinkPorts.prefix(2) { #expect(fixture.wait(at: port, count: 3)) }
    // A datagram to everyone after them: once it arrived, anything the relay sent before it to
    // the same sink has arrived too.
    _ = try loop.sync { try everyone.value.send(numbered(1_000, count: 16), to: relayPort) }
    for port in sinkPorts {
      #expect(fixture.wait(at: port, count: port == sinkPorts[0] || port == sinkPorts[1] ? 4 : 1))
    }
    for (position, port) in sinkPorts.enumerated() {
      let indices = fixture.datagrams(at: port).map { index(ofNumbered: $0.bytes) }
      #expect(indices == (position < 2 ? [0, 1, 2, 1_000] : [1_000]))
    }
    let counts = try loop.sync { (relay.value.datagramsReceived, relay.value.datagramsForwarded) }
    #expect(counts == (5, 10))
    fixture.shutdown(expectingClosed: 8)
  }
}
