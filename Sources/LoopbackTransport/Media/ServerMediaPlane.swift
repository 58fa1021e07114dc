import SessionTransport

/// The media half of a ``LoopbackServer``: a UDP socket on 127.0.0.1, the endpoint table, and
/// the media host it feeds.
///
/// Each datagram is stamped with ``LoopbackMediaClock`` and handed to the host with its
/// source's endpoint: in the loop's read buffer itself when the host reads lent memory
/// (`LendingMediaHost`, as `SessionService` does), else copied out once. The host's outputs go
/// straight to the kernel from the bytes it gave: a forward to N endpoints is one batched send
/// of one buffer (`UDPSocket.trySend(lent:toPorts:)`, `sendmmsg` on Linux), from the read
/// buffer when it was lent, and a copy the kernel can't take at once is dropped and counted.
///
/// > Important: Loop-confined: made, used and dropped on the server's loop thread.
final class ServerMediaPlane {
  let socket: UDPSocket
  let host: any MediaHost
  // Unchecked exclusivity: loop-confined, and every access is one call that calls nothing out.
  @exclusivity(unchecked) private var table: MediaEndpointTable
  private var received = 0
  private var unknownEndpoints = 0
  /// One forward's ports, kept from one to the next.
  private var ports: [UInt16] = []
  /// The host, when it reads datagrams in the loop's read buffer.
  private let lendingHost: (any LendingMediaHost)?
  /// A renumbered audio packet, kept from one to the next.
  private var numbered: [UInt8] = []

  /// Binds the socket and attaches the host.
  ///
  /// - Throws: What ``UDPSocket/init(loop:port:configuration:)`` throws.
  init(loop: EventLoop, host: any MediaHost, configuration: LoopbackServerConfiguration)
    throws(UDPSocketError)
  {
    socket = try UDPSocket(
      loop: loop, port: configuration.mediaPort, configuration: configuration.mediaSocket)
    self.host = host
    lendingHost = host as? any LendingMediaHost
    table = MediaEndpointTable(capacity: configuration.maxMediaEndpoints)
    // Strong on purpose, as the relay's: the loop keeps the socket, and through its handler
    // the plane, alive until the socket closed (and dropped the handler).
    socket.onDatagram = { [self] port, bytes in datagramArrived(bytes, from: port) }
    host.attachMedia { [weak self] output in self?.perform(output) }
    lendingHost?.attachLentForwards { [weak self] bytes, endpoints, sequences in
      guard let self else { return }
      if sequences.isEmpty {
        forward(bytes, to: endpoints)
      } else {
        forwardNumbered(bytes, to: endpoints, sequences: sequences)
      }
    }
  }

  /// The bound port.
  var port: UInt16 { socket.localPort }

  /// Stops receiving and sending; the host's later outputs are dropped.
  func close() {
    socket.close()
  }

  @inline(__always)
  private func datagramArrived(_ bytes: UnsafeRawBufferPointer, from port: UInt16) {
    received &+= 1
    // A new source when every endpoint in a full table is bound is dropped unheard.
    guard let endpoint = table.endpoint(forPort: port) else { return }
    if let lendingHost {
      lendingHost.receiveDatagram(bytes, from: endpoint, now: LoopbackMediaClock.now())
    } else {
      host.receiveDatagram(Array(bytes), from: endpoint, now: LoopbackMediaClock.now())
    }
  }

  /// Sends `bytes` to each endpoint in one batched send.
  private func forward(_ bytes: UnsafeRawBufferPointer, to endpoints: [MediaEndpointID]) {
    ports.removeAll(keepingCapacity: true)
    for endpoint in endpoints {
      guard let port = table.port(sendingTo: endpoint) else {
        unknownEndpoints += 1
        continue
      }
      ports.append(port)
    }
    _ = socket.trySend(lent: bytes, toPorts: ports)
  }

  /// Sends `bytes` to each endpoint with that endpoint's sequence number: one copy for the
  /// packet, renumbered before each send (the kernel has copied the bytes by the time
  /// `trySend` returns).
  private func forwardNumbered(
    _ bytes: UnsafeRawBufferPointer, to endpoints: [MediaEndpointID], sequences: [UInt32]
  ) {
    numbered.removeAll(keepingCapacity: true)
    numbered.append(contentsOf: bytes)
    numbered.withUnsafeMutableBytes { buffer in
      for (endpoint, sequence) in zip(endpoints, sequences) {
        guard let port = table.port(sendingTo: endpoint) else {
          unknownEndpoints += 1
          continue
        }
        MediaPacket.replacingSequence(in: buffer, with: sequence)
        socket.trySend(lent: UnsafeRawBufferPointer(buffer), to: port)
      }
    }
  }

  private func perform(_ output: MediaHostOutput) {
    switch output {
    case .send(let bytes, let endpoint):
      guard let port = table.port(sendingTo: endpoint) else {
        unknownEndpoints += 1
        return
      }
      bytes.withUnsafeBytes { _ = socket.trySend(lent: $0, to: port) }
    case .forward(let bytes, let endpoints):
      // The copies go to the kernel together (`sendmmsg` on Linux).
      bytes.withUnsafeBytes { forward($0, to: endpoints) }
    case .forwardNumbered(let bytes, let endpoints, let sequences):
      bytes.withUnsafeBytes { forwardNumbered($0, to: endpoints, sequences: sequences) }
    case .endpointBound(let endpoint):
      table.pin(endpoint)
    case .endpointReleased(let endpoint):
      table.unpin(endpoint)
    }
  }

  /// The counters so far.
  var statistics: LoopbackMediaStatistics {
    let socket = self.socket.statistics
    return LoopbackMediaStatistics(
      datagramsReceived: received, datagramsSent: socket.datagramsSent,
      sendsDropped: socket.sendsDropped, sendErrors: socket.sendErrors,
      sendsToUnknownEndpoints: unknownEndpoints, endpoints: table.count,
      endpointsMade: Int(table.made), endpointsEvicted: table.evicted,
      sourcesRefused: table.refused)
  }

  /// The port an endpoint stands for now (tests).
  func port(of endpoint: MediaEndpointID) -> UInt16? { table.port(of: endpoint) }
}

/// Loop-confined.
@available(*, unavailable)
extension ServerMediaPlane: Sendable {}
