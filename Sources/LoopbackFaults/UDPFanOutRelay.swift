import LoopbackTransport

/// A relay with no session logic: every datagram one ``UDPSocket`` receives is forwarded,
/// unchanged and uncopied, to a list of ports. The raw-libuv baseline an SFU's forwarding is
/// measured against.
///
/// ```swift
/// let relay = try UDPFanOutRelay(loop: loop, targets: subscriberPorts)
/// relay.routes[teacherPort] = everyStudentPort   // per-sender lists override `targets`
/// // senders send to relay.localPort; subscribers read their own sockets
/// ```
///
/// Each datagram goes where ``route`` says if it is set, else to the sender's entry in
/// ``routes`` if it has one, else to ``targets``, one send per port from the buffer the socket
/// was lent (``UDPSocket/send(lent:to:)``). What the network drops is counted in the socket's
/// statistics; the relay never stops.
///
/// > Important: Loop-confined, like its socket: create and use it on its loop's thread only.
/// > The loop keeps it alive until ``close()`` (or the loop's shutdown) closed its socket, so
/// > dropping your reference doesn't stop it.
package final class UDPFanOutRelay {
  /// The socket datagrams arrive on and leave from.
  package let socket: UDPSocket
  /// The ports every datagram goes to, unless its sender has an entry in ``routes``.
  package var targets: [UInt16]
  /// Per-sender port lists, keyed by the sender's port; an empty list drops that sender's
  /// datagrams.
  package var routes: [UInt16: [UInt16]] = [:]
  /// When set, picks each datagram's ports from its sender's port and its bytes, in place of
  /// ``routes`` and ``targets``: for a baseline whose senders' streams fan out differently
  /// (a benchmark's video to its watchers, audio to everyone). Runs for every datagram.
  package var route: ((_ from: UInt16, _ bytes: UnsafeRawBufferPointer) -> [UInt16])?
  /// Whether each datagram's copies go to the kernel in one batch, never queued
  /// (``UDPSocket/trySend(lent:toPorts:)``, `sendmmsg` on Linux), as the service's media plane
  /// sends them, instead of one queued send each. Off by default.
  package var batchesSends = false
  /// Datagrams received.
  package private(set) var datagramsReceived = 0
  /// Sends handed to the socket that it accepted (sent or queued): a datagram to N ports
  /// counts N.
  package private(set) var datagramsForwarded = 0

  /// Binds the relay's socket and starts forwarding.
  ///
  /// - Parameters:
  ///   - loop: The loop; the caller must be on its thread.
  ///   - port: The port to bind on 127.0.0.1; 0 lets the kernel pick.
  ///   - targets: The ports to forward to.
  ///   - configuration: The socket's buffer sizes and send queue bound.
  /// - Throws: What ``UDPSocket/init(loop:port:configuration:)`` throws.
  package init(
    loop: EventLoop, port: UInt16 = 0, targets: [UInt16],
    configuration: UDPConfiguration = UDPConfiguration()
  ) throws(UDPSocketError) {
    socket = try UDPSocket(loop: loop, port: port, configuration: configuration)
    self.targets = targets
    // Strong on purpose: the loop keeps the socket, and through its handler the relay, alive
    // until the socket closed (and dropped the handler), as it keeps every handle's owner.
    socket.onDatagram = { from, bytes in self.forward(bytes, from: from) }
  }

  /// The port senders send to.
  package var localPort: UInt16 { socket.localPort }

  /// Closes the socket; forwarding stops. Calling it again is harmless.
  package func close() {
    socket.close()
  }

  private func forward(_ bytes: UnsafeRawBufferPointer, from sender: UInt16) {
    datagramsReceived += 1
    let ports = route?(sender, bytes) ?? routes[sender] ?? targets
    if batchesSends {
      // As the service's media plane sends: every copy to the kernel at once, dropped when
      // its buffer is full (port 0 counts as a send error).
      datagramsForwarded += socket.trySend(lent: bytes, toPorts: ports)
      return
    }
    for port in ports {
      // Port 0 in a list is the caller's mistake; skip it rather than stop the fan-out. The
      // size was checked when the datagram arrived (it fit the read buffer).
      guard let sent = try? socket.send(lent: bytes, to: port) else { continue }
      if sent { datagramsForwarded += 1 }
    }
  }
}

/// Loop-confined.
@available(*, unavailable)
extension UDPFanOutRelay: Sendable {}
