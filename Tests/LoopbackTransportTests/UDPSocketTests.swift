import Testing

@testable import LoopbackFaults
@testable import LoopbackTransport

/// One datagram as a socket's handler saw it.
struct ReceivedDatagram: Sendable, Hashable {
  /// The receiving socket's port.
  var at: UInt16
  /// The sender's port.
  var from: UInt16
  var bytes: [UInt8]
}

/// A UDP socket on a fixture's loop, its port, and what it received.
struct UDPEndpoint: Sendable {
  let socket: LoopBound<UDPSocket>
  let port: UInt16
  let received: Recorder<ReceivedDatagram>

  /// The payloads received so far, in arrival order.
  var payloads: [[UInt8]] { received.values.map(\.bytes) }
}

/// A loop with UDP sockets whose handlers record every datagram.
final class UDPFixture: Sendable {
  let loop: EventLoop

  init(readBufferSize: Int = 64 * 1024) throws {
    loop = try EventLoop(name: "test-udp", readBufferSize: readBufferSize)
  }

  /// Opens a socket on the loop whose datagrams its endpoint records.
  func endpoint(configuration: UDPConfiguration = UDPConfiguration()) throws -> UDPEndpoint {
    let loop = self.loop
    let received = Recorder<ReceivedDatagram>()
    let (socket, port) = try loop.sync {
      let socket = try UDPSocket(loop: loop, configuration: configuration)
      let port = socket.localPort
      socket.onReceive = { from, bytes in
        received.append(ReceivedDatagram(at: port, from: from, bytes: bytes))
      }
      return (LoopBound(socket, loop: loop), port)
    }
    return UDPEndpoint(socket: socket, port: port, received: received)
  }

  /// Runs loop turns until the sockets' send queues are empty (at most 10,000 turns).
  func drainSendQueues(_ endpoints: [UDPEndpoint]) throws {
    for _ in 0..<10_000 {
      let queued = try loop.sync { endpoints.reduce(0) { $0 + $1.socket.value.requestsInFlight } }
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
    let a = try fixture.endpoint()
    let b = try fixture.endpoint()
    #expect(a.port != 0 && b.port != 0 && a.port != b.port)
    let sent = try fixture.loop.sync {
      [
        try a.socket.value.send([1, 2, 3], to: b.port),
        try b.socket.value.send([4, 5], to: a.port),
      ]
    }
    #expect(sent == [true, true])
    #expect(b.received.wait(forCount: 1) && a.received.wait(forCount: 1))
    #expect(b.received.values == [ReceivedDatagram(at: b.port, from: a.port, bytes: [1, 2, 3])])
    #expect(a.received.values == [ReceivedDatagram(at: a.port, from: b.port, bytes: [4, 5])])
    let (ofA, ofB) = try fixture.loop.sync {
      (a.socket.value.statistics, b.socket.value.statistics)
    }
    #expect(ofA.datagramsSent == 1 && ofA.bytesSent == 3)
    #expect(ofA.datagramsReceived == 1 && ofA.bytesReceived == 2)
    #expect(ofB.datagramsSent == 1 && ofB.datagramsReceived == 1)
    #expect(ofA.sendErrors == 0 && ofA.sendsQueued == 0)
    fixture.shutdown(expectingClosed: 2)
  }

  /// Loopback drops only when a receive buffer overflows; the sender paces itself (50 per loop
  /// turn, the receiver reading in between), so most arrive, and every one that arrives is
  /// intact and arrives once.
  @Test func manyDatagramsArriveIntactAndAtMostOnce() throws {
    let fixture = try UDPFixture()
    let sender = try fixture.endpoint()
    let receiver = try fixture.endpoint(configuration: UDPConfiguration(receiveBufferSize: 1 << 20))
    let (loop, target, total) = (fixture.loop, receiver.port, 2_000)
    @Sendable func sendBatch(from start: Int) {
      for index in start..<min(start + 50, total) {
        _ = try? sender.socket.value.send(numbered(index, count: 8 + index % 1_193), to: target)
      }
      if start + 50 < total { loop.execute { sendBatch(from: start + 50) } }
    }
    loop.execute { sendBatch(from: 0) }
    #expect(receiver.received.wait(forCount: total * 9 / 10))
    try fixture.drainSendQueues([sender])
    // Read on the loop, so that the counters and the recorded datagrams agree.
    let (sent, received, arrived) = try loop.sync {
      (sender.socket.value.statistics, receiver.socket.value.statistics, receiver.payloads)
    }
    let indices = arrived.map(index(ofNumbered:))
    #expect(indices.allSatisfy { $0 != nil }, "a datagram arrived corrupted")
    #expect(Set(indices).count == arrived.count, "a datagram arrived twice")
    #expect(sent.datagramsSent + sent.sendsDropped + sent.sendErrors == total)
    #expect(sent.sendErrors == 0)
    #expect(received.datagramsReceived == arrived.count && received.truncated == 0)
    fixture.shutdown(expectingClosed: 2)
  }

  /// A socket that reads in batches (`recvmmsg`) delivers every datagram intact, each with
  /// its sender, and takes several per read when they wait together.
  @Test func aBatchedSocketTakesSeveralDatagramsPerRead() throws {
    let fixture = try UDPFixture()
    let sender = try fixture.endpoint()
    let receiver = try fixture.endpoint(
      configuration: UDPConfiguration(receiveBufferSize: 1 << 20, receiveBatch: 8))
    let (loop, target, total) = (fixture.loop, receiver.port, 400)
    // All sent within one loop turn, so that they wait in the kernel together.
    loop.execute {
      for index in 0..<total {
        _ = try? sender.socket.value.send(numbered(index, count: 8 + index % 1_193), to: target)
      }
    }
    #expect(receiver.received.wait(forCount: total * 9 / 10))
    try fixture.drainSendQueues([sender])
    let (received, arrived) = try loop.sync {
      (receiver.socket.value.statistics, receiver.received.values)
    }
    let indices = arrived.map { index(ofNumbered: $0.bytes) }
    #expect(indices.allSatisfy { $0 != nil }, "a datagram arrived corrupted")
    #expect(Set(indices).count == arrived.count, "a datagram arrived twice")
    #expect(arrived.allSatisfy { $0.from == sender.port })
    #expect(received.datagramsReceived == arrived.count && received.truncated == 0)
    // Batched: fewer reads than datagrams, never more than 8 to a read.
    #expect(received.batchedReads > 0)
    #expect(received.batchedReads < received.datagramsReceived)
    #expect(received.batchedReads * 8 >= received.datagramsReceived)
    fixture.shutdown(expectingClosed: 2)
  }

  @Test func aBatchedSendReachesEveryPortOnceAndCountsPortZeroAsAnError() throws {
    let fixture = try UDPFixture()
    let sender = try fixture.endpoint()
    // More receivers than one sendmmsg call takes (64), to cross a batch boundary.
    var receivers: [UDPEndpoint] = []
    for _ in 0..<70 { receivers.append(try fixture.endpoint()) }
    let ports = receivers.map(\.port) + [0]
    let payload = numbered(7, count: 200)
    let taken = try fixture.loop.sync {
      payload.withUnsafeBytes { sender.socket.value.trySend(lent: $0, toPorts: ports) }
    }
    #expect(taken == 70)
    for receiver in receivers {
      #expect(receiver.received.wait(forCount: 1))
      let arrived = receiver.received.values
      #expect(arrived.count == 1 && arrived.first?.bytes == payload)
      #expect(arrived.first?.from == sender.port)
    }
    let statistics = try fixture.loop.sync { sender.socket.value.statistics }
    #expect(statistics.datagramsSent == 70 && statistics.sendErrors == 1)
    #expect(statistics.bytesSent == 70 * payload.count)
    fixture.shutdown(expectingClosed: 71)
  }

  @Test func aBatchOutsideItsRangeIsRefused() throws {
    let fixture = try UDPFixture()
    let loop = fixture.loop
    for batch in [0, 65, -1] {
      let refused = try loop.sync { () -> Bool in
        do {
          _ = try UDPSocket(loop: loop, configuration: UDPConfiguration(receiveBatch: batch))
          return false
        } catch let error as UDPSocketError {
          if case .invalidBufferSize(let option, _) = error { return option == "receiveBatch" }
          return false
        } catch {
          return false
        }
      }
      #expect(refused, "receiveBatch \(batch)")
    }
    fixture.shutdown(expectingClosed: 0)
  }

  @Test func aSixtyThousandByteDatagramMakesTheRoundTrip() throws {
    let fixture = try UDPFixture()
    let a = try fixture.endpoint()
    let loop = fixture.loop
    let echoed = Recorder<[UInt8]>()
    // An echo: what it receives goes back to the sender, from the lent buffer.
    let echoPort = try loop.sync {
      let echo = try UDPSocket(loop: loop)
      echo.onDatagram = { from, bytes in
        echoed.append(Array(bytes))
        _ = try? echo.send(lent: bytes, to: from)
      }
      return echo.localPort
    }
    let payload = numbered(60_000, count: 60_000)
    #expect(try loop.sync { try a.socket.value.send(payload, to: echoPort) })
    #expect(a.received.wait(forCount: 1))
    #expect(echoed.values == [payload])
    #expect(a.received.values == [ReceivedDatagram(at: a.port, from: echoPort, bytes: payload)])
    fixture.shutdown(expectingClosed: 2)
  }

  @Test func closingTwiceIsHarmlessAndAClosedSocketRefusesWork() throws {
    let fixture = try UDPFixture()
    let a = try fixture.endpoint()
    let b = try fixture.endpoint()
    let errors = try fixture.loop.sync { () -> [UDPSocketError?] in
      let socket = a.socket.value
      #expect(!socket.isClosed)
      socket.close()
      socket.close()
      #expect(socket.isClosed)
      #expect(socket.receiveBufferSize == nil && socket.sendBufferSize == nil)
      return [
        Self.error { _ = try socket.send([1], to: b.port) },
        Self.error { try socket.setReceiveBufferSize(4_096) },
      ]
    }
    #expect(errors == [.closed, .closed])
    _ = try fixture.loop.sync { a.socket.value.close() }  // after the close callback, too
    // A datagram to the closed socket's port reaches no handler.
    _ = try fixture.loop.sync { try b.socket.value.send([9], to: a.port) }
    let statistics = try fixture.loop.sync { a.socket.value.statistics }
    #expect(statistics == UDPSocketStatistics())
    #expect(a.received.count == 0)
    // The closed one was freed; shutdown closes only the open one.
    fixture.shutdown(expectingClosed: 1)
  }

  /// Sends that wait in the queue when the socket closes are cancelled and their requests
  /// return; the loop closes cleanly.
  @Test func closingWithQueuedSendsCancelsThemCleanly() throws {
    let fixture = try UDPFixture()
    let a = try fixture.endpoint()
    let b = try fixture.endpoint()
    let queued = try fixture.loop.sync { () -> Int in
      let socket = a.socket.value
      socket.forcesQueuedSends = true
      for index in 0..<50 { try socket.send(numbered(index, count: 1_000), to: b.port) }
      let queued = socket.requestsInFlight
      socket.close()
      return queued
    }
    #expect(queued == 50)
    let (statistics, inFlight) = try fixture.loop.sync {
      (a.socket.value.statistics, a.socket.value.requestsInFlight)
    }
    #expect(inFlight == 0)
    #expect(statistics.sendsQueued == 50)
    #expect(statistics.datagramsSent + statistics.sendsCancelled == 50)
    #expect(statistics.sendErrors == 0)
    fixture.shutdown(expectingClosed: 1)
  }

  /// The queued path (`uv_udp_send`) keeps the order, and its bound drops what doesn't fit
  /// until the queue drained.
  @Test func queuedSendsKeepTheirOrderWithinTheBound() throws {
    let fixture = try UDPFixture()
    let a = try fixture.endpoint(configuration: UDPConfiguration(maxQueuedSendBytes: 10_000))
    let b = try fixture.endpoint(configuration: UDPConfiguration(receiveBufferSize: 1 << 20))
    let accepted = try fixture.loop.sync { () -> [Bool] in
      a.socket.value.forcesQueuedSends = true
      // 100 bytes each: 100 fit in the bound; the 101st doesn't.
      return try (0..<101).map { try a.socket.value.send(numbered($0, count: 100), to: b.port) }
    }
    #expect(accepted == Array(repeating: true, count: 100) + [false])
    #expect(b.received.wait(forCount: 100))
    #expect(b.payloads.map(index(ofNumbered:)) == Array(0..<100))
    try fixture.drainSendQueues([a])
    // Drained, the queue takes sends again.
    #expect(
      try fixture.loop.sync { try a.socket.value.send(numbered(100, count: 100), to: b.port) })
    #expect(b.received.wait(forCount: 101))
    try fixture.drainSendQueues([a])
    let (statistics, queuedBytes) = try fixture.loop.sync {
      (a.socket.value.statistics, a.socket.value.queuedSendByteCount)
    }
    #expect(statistics.sendsQueued == 101 && statistics.datagramsSent == 101)
    #expect(statistics.sendsDropped == 1 && statistics.bytesSent == 10_100)
    #expect(queuedBytes == 0)
    fixture.shutdown(expectingClosed: 2)
  }

  /// Nobody listens on the port: the datagrams are lost, the ICMP errors ignored, and the
  /// socket carries on.
  @Test func sendingToAClosedPortIsHarmless() throws {
    let fixture = try UDPFixture()
    let a = try fixture.endpoint()
    let b = try fixture.endpoint()
    let gone = try fixture.endpoint()
    _ = try fixture.loop.sync { gone.socket.value.close() }
    let sent = try fixture.loop.sync {
      try (0..<20).map { try a.socket.value.send(numbered($0, count: 64), to: gone.port) }
    }
    #expect(sent.allSatisfy { $0 })
    _ = try fixture.loop.sync {}  // the ICMP errors come back
    _ = try fixture.loop.sync { try a.socket.value.send([7], to: b.port) }
    _ = try fixture.loop.sync { try b.socket.value.send([8], to: a.port) }
    #expect(b.received.wait(forCount: 1) && a.received.wait(forCount: 1))
    #expect(gone.received.count == 0)
    let (isClosed, statistics) = try fixture.loop.sync {
      (a.socket.value.isClosed, a.socket.value.statistics)
    }
    #expect(!isClosed)
    #expect(statistics.datagramsSent == 21 && statistics.datagramsReceived == 1)
    fixture.shutdown(expectingClosed: 2)
  }

  @Test func emptyAndLargestDatagramsAreAllowedAndLargerOnesRefused() throws {
    let fixture = try UDPFixture()
    let a = try fixture.endpoint()
    let b = try fixture.endpoint()
    let largest = numbered(1, count: UDPSocket.maxDatagramSize)
    #expect(try fixture.loop.sync { try a.socket.value.send([], to: b.port) })
    #expect(try fixture.loop.sync { try a.socket.value.send(largest, to: b.port) })
    #expect(b.received.wait(forCount: 2))
    #expect(b.payloads == [[], largest])

    let before = try fixture.loop.sync { a.socket.value.statistics }
    let errors = try fixture.loop.sync { () -> [UDPSocketError?] in
      let socket = a.socket.value
      let tooLarge = [UInt8](repeating: 0, count: UDPSocket.maxDatagramSize + 1)
      return [
        Self.error { _ = try socket.send(tooLarge, to: b.port) },
        Self.error { _ = try socket.send([1], to: 0) },
      ]
    }
    #expect(errors == [.datagramTooLarge(byteCount: 65_508, limit: 65_507), .invalidPort])
    #expect(
      errors[0].map(String.init(describing:))
        == "datagram too large: 65508 bytes, at most 65507 fit in one UDP packet")
    let after = try fixture.loop.sync { a.socket.value.statistics }
    #expect(after == before, "a refused send changes nothing")
    #expect(before.datagramsSent == 2 && before.bytesSent == UDPSocket.maxDatagramSize)
    let received = try fixture.loop.sync { b.socket.value.statistics }
    #expect(received.datagramsReceived == 2)
    #expect(received.bytesReceived == UDPSocket.maxDatagramSize)
    fixture.shutdown(expectingClosed: 2)
  }

  /// A datagram longer than the loop's read buffer is cut by the kernel: dropped and counted,
  /// never delivered in part; one that fits is delivered.
  @Test func aDatagramLongerThanTheReadBufferIsCountedNotDelivered() throws {
    let fixture = try UDPFixture(readBufferSize: 1_024)
    let a = try fixture.endpoint()
    let b = try fixture.endpoint()
    _ = try fixture.loop.sync { try a.socket.value.send(numbered(1, count: 2_000), to: b.port) }
    _ = try fixture.loop.sync { try a.socket.value.send(numbered(2, count: 1_024), to: b.port) }
    #expect(b.received.wait(forCount: 1))
    #expect(b.payloads == [numbered(2, count: 1_024)])
    let statistics = try fixture.loop.sync { b.socket.value.statistics }
    #expect(statistics.truncated == 1 && statistics.datagramsReceived == 1)
    fixture.shutdown(expectingClosed: 2)
  }

  @Test func bufferSizesAreSetAndBadOnesRefused() throws {
    let fixture = try UDPFixture()
    let configured = try fixture.endpoint(
      configuration: UDPConfiguration(receiveBufferSize: 100_000, sendBufferSize: 50_000))
    let sizes = try fixture.loop.sync {
      (configured.socket.value.receiveBufferSize, configured.socket.value.sendBufferSize)
    }
    // Linux reports twice what was asked for (its bookkeeping), other systems the value.
    #expect((sizes.0 ?? 0) >= 100_000 && (sizes.1 ?? 0) >= 50_000)

    let (loop, port) = (fixture.loop, configured.port)
    let errors = try loop.sync { () -> [UDPSocketError?] in
      let socket = configured.socket.value
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
    // The refused sets left the sizes alone; the accepted one took effect.
    let after = try loop.sync {
      (configured.socket.value.receiveBufferSize, configured.socket.value.sendBufferSize)
    }
    #expect(after.0 == sizes.0 && (after.1 ?? 0) >= 80_000)
    // The refused constructors left no handle behind.
    fixture.shutdown(expectingClosed: 1)
  }

  /// The loop's shutdown closes open sockets, drops their handlers, and closes cleanly.
  @Test func shutdownClosesOpenSocketsAndReleasesTheirHandlers() throws {
    let fixture = try UDPFixture()
    let loop = fixture.loop
    let boxes = try loop.sync { () -> [WeakBox] in
      final class Marker {}
      let socket = try UDPSocket(loop: loop)
      let marker = Marker()
      socket.onReceive = { _, _ in _ = marker }
      return [WeakBox(socket), WeakBox(marker)]
    }
    _ = try fixture.endpoint()
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
    let sinks = try (0..<5).map { _ in try fixture.endpoint() }
    let source = try fixture.endpoint()
    let loop = fixture.loop
    let relay = try loop.sync {
      // Port 0 in the list is the caller's mistake; the relay skips it.
      LoopBound(try UDPFanOutRelay(loop: loop, targets: sinks.map(\.port) + [0]), loop: loop)
    }
    let relayPort = try loop.sync { relay.value.localPort }
    _ = try loop.sync {
      for index in 0..<20 {
        try source.socket.value.send(numbered(index, count: 200), to: relayPort)
      }
    }
    for sink in sinks {
      #expect(sink.received.wait(forCount: 20))
      #expect(sink.payloads.map(index(ofNumbered:)) == Array(0..<20))
      #expect(sink.received.values.allSatisfy { $0.from == relayPort })
    }
    let (received, forwarded) = try loop.sync {
      (relay.value.datagramsReceived, relay.value.datagramsForwarded)
    }
    #expect(received == 20 && forwarded == 100)
    _ = try loop.sync {
      relay.value.close()
      relay.value.close()
    }
    fixture.shutdown(expectingClosed: 6)
  }

  /// A sender's own route overrides the default list; an empty route drops its datagrams.
  @Test func routesOverrideTheTargetsPerSender() throws {
    let fixture = try UDPFixture()
    let sinks = try (0..<4).map { _ in try fixture.endpoint() }
    let everyone = try fixture.endpoint()
    let routed = try fixture.endpoint()
    let muted = try fixture.endpoint()
    let loop = fixture.loop
    let relay = try loop.sync {
      let relay = try UDPFanOutRelay(loop: loop, targets: sinks.map(\.port))
      relay.routes[routed.port] = sinks.prefix(2).map(\.port)
      relay.routes[muted.port] = []
      return LoopBound(relay, loop: loop)
    }
    let relayPort = try loop.sync { relay.value.localPort }
    _ = try loop.sync {
      for index in 0..<3 { try routed.socket.value.send(numbered(index, count: 16), to: relayPort) }
      try muted.socket.value.send(numbered(99, count: 16), to: relayPort)
    }
    for sink in sinks.prefix(2) { #expect(sink.received.wait(forCount: 3)) }
    // Then a datagram to everyone: once it arrived at a sink, whatever the relay sent that sink
    // before it has arrived too.
    _ = try loop.sync { try everyone.socket.value.send(numbered(1_000, count: 16), to: relayPort) }
    for (position, sink) in sinks.enumerated() {
      let expected = position < 2 ? [0, 1, 2, 1_000] : [1_000]
      #expect(sink.received.wait(forCount: expected.count))
      #expect(sink.payloads.map(index(ofNumbered:)) == expected)
    }
    let (received, forwarded) = try loop.sync {
      (relay.value.datagramsReceived, relay.value.datagramsForwarded)
    }
    #expect(received == 5 && forwarded == 10)
    fixture.shutdown(expectingClosed: 8)
  }
}

extension UDPFanOutRelayTests {
  /// A route picks each datagram's ports from its bytes, over the sender's entry in `routes`;
  /// once it is removed, `routes` applies again.
  @Test func aRouteClosurePicksThePortsOfEachDatagram() throws {
    let fixture = try UDPFixture()
    let sinks = try (0..<2).map { _ in try fixture.endpoint() }
    let source = try fixture.endpoint()
    let loop = fixture.loop
    let (first, second) = (sinks[0].port, sinks[1].port)
    let relay = try loop.sync {
      let relay = try UDPFanOutRelay(loop: loop, targets: [])
      relay.routes[source.port] = [second]
      // Even datagrams go to the first sink, odd ones to nobody.
      relay.route = { _, bytes in bytes.count >= 4 && bytes[3] % 2 == 0 ? [first] : [] }
      return LoopBound(relay, loop: loop)
    }
    let relayPort = try loop.sync { relay.value.localPort }
    _ = try loop.sync {
      for index in 0..<6 { try source.socket.value.send(numbered(index, count: 16), to: relayPort) }
    }
    #expect(sinks[0].received.wait(forCount: 3))
    _ = try loop.sync {
      relay.value.route = nil
      try source.socket.value.send(numbered(10, count: 16), to: relayPort)
    }
    // Once the last datagram arrived, whatever the relay sent before it has arrived too.
    #expect(sinks[1].received.wait(forCount: 1))
    #expect(sinks[0].payloads.map(index(ofNumbered:)) == [0, 2, 4])
    #expect(sinks[1].payloads.map(index(ofNumbered:)) == [10])
    let (received, forwarded) = try loop.sync {
      (relay.value.datagramsReceived, relay.value.datagramsForwarded)
    }
    #expect(received == 7 && forwarded == 4)
    fixture.shutdown(expectingClosed: 4)
  }

  /// Like every handle's owner, a relay nobody holds lives until its socket closed.
  @Test func aRelayNobodyHoldsForwardsUntilTheLoopShutsDown() throws {
    let fixture = try UDPFixture()
    let sink = try fixture.endpoint()
    let source = try fixture.endpoint()
    let loop = fixture.loop
    let (relayPort, box) = try loop.sync {
      let relay = try UDPFanOutRelay(loop: loop, targets: [sink.port])
      return (relay.localPort, WeakBox(relay))
    }
    _ = try loop.sync { try source.socket.value.send([42], to: relayPort) }
    #expect(sink.received.wait(forCount: 1))
    #expect(sink.payloads == [[42]])
    fixture.shutdown(expectingClosed: 3)
    #expect(box.object == nil)
  }
}
