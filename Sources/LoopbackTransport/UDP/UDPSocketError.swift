/// Why a ``UDPSocket`` refused a request: bad input from its caller, never a network event.
///
/// What the network does to datagrams (loss, a full kernel buffer, nobody listening on the
/// port) is not an error: UDP is lossy, and those show up in ``UDPSocketStatistics`` instead.
/// A value; `Sendable`.
package enum UDPSocketError: Error, Hashable, Sendable, CustomStringConvertible {
  /// A datagram longer than ``UDPSocket/maxDatagramSize`` (65,507 bytes, what fits in one IPv4
  /// UDP packet); nothing was sent.
  case datagramTooLarge(byteCount: Int, limit: Int)
  /// Port 0 names no socket to send to; nothing was sent.
  case invalidPort
  /// The socket is closed; nothing was sent.
  case closed
  /// A buffer size outside `1...Int32.max`; nothing was changed.
  case invalidBufferSize(option: String, value: Int)
  /// A libuv call failed, for example binding a port that is taken.
  case system(UVError)

  /// One line for logs and test failures.
  package var description: String {
    switch self {
    case .datagramTooLarge(let count, let limit):
      "datagram too large: \(count) bytes, at most \(limit) fit in one UDP packet"
    case .invalidPort: "invalid port: 0 names no socket"
    case .closed: "the UDP socket is closed"
    case .invalidBufferSize(let option, let value):
      "invalid \(option): \(value) bytes (must be 1...\(Int32.max))"
    case .system(let error): "\(error)"
    }
  }
}
