#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A blocking POSIX TCP client, independent of libuv: the adversarial peer (one that sends
/// oversized or torn frames, never reads, or resets).
final class RawClient {
  let descriptor: Int32
  private var isClosed = false

  struct Failure: Error, CustomStringConvertible {
    var call: String
    var code: Int32
    var description: String { "\(call): errno \(code)" }
  }

  /// Connects to 127.0.0.1:`port`.
  ///
  /// - Parameter receiveBufferSize: `SO_RCVBUF` to set before connecting (small values make a
  ///   client that never reads back up quickly).
  init(port: UInt16, receiveBufferSize: Int32? = nil) throws {
    #if canImport(Glibc)
      let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    #else
      let descriptor = socket(AF_INET, SOCK_STREAM, 0)
    #endif
    guard descriptor >= 0 else { throw Failure(call: "socket", code: errno) }
    self.descriptor = descriptor
    if var size = receiveBufferSize {
      _ = setsockopt(
        descriptor, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
    }
    var noDelay: Int32 = 1
    _ = setsockopt(
      descriptor, Int32(IPPROTO_TCP), TCP_NODELAY, &noDelay, socklen_t(MemoryLayout<Int32>.size))
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = port.bigEndian
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let status = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard status == 0 else {
      let code = errno
      closeDescriptor(descriptor)
      throw Failure(call: "connect", code: code)
    }
  }

  deinit {
    close()
  }

  /// Writes every byte (one or more `send` calls).
  func write(_ bytes: [UInt8]) throws {
    var offset = 0
    while offset < bytes.count {
      let written = bytes[offset...].withUnsafeBytes { buffer in
        // SIGPIPE is ignored process-wide by EventLoop.
        send(descriptor, buffer.baseAddress, buffer.count, 0)
      }
      guard written > 0 else { throw Failure(call: "send", code: errno) }
      offset += written
    }
  }

  /// Reads until end of stream or error, with a receive timeout as an upper bound.
  ///
  /// - Returns: The bytes read, and whether the stream ended (EOF or reset) rather than timed out.
  func readUntilClosed(timeoutSeconds: Int = 20) -> (bytes: [UInt8], closed: Bool) {
    let (bytes, end) = readToEnd(timeoutSeconds: timeoutSeconds)
    return (bytes, end != .timedOut)
  }

  /// How a read to the end of the stream ended.
  enum End: Equatable, CustomStringConvertible {
    /// The peer closed (FIN): everything it sent was read.
    case endOfStream
    /// The peer reset the connection; bytes it sent last may be lost.
    case reset
    /// Nothing more came within the timeout.
    case timedOut

    var description: String {
      switch self {
      case .endOfStream: "end of stream"
      case .reset: "reset"
      case .timedOut: "timed out"
      }
    }
  }

  /// Sends a FIN (`shutdown(SHUT_WR)`): the peer reads the end of the stream, and this side
  /// can still read what it answers.
  func finishWriting() {
    guard !isClosed else { return }
    _ = shutdown(descriptor, Int32(SHUT_WR))
  }

  /// Reads until the stream ends, like ``readUntilClosed(timeoutSeconds:)``, saying how.
  func readToEnd(timeoutSeconds: Int = 20) -> (bytes: [UInt8], end: End) {
    var timeout = timeval(tv_sec: timeoutSeconds, tv_usec: 0)
    _ = setsockopt(
      descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    var received: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65536)
    while true {
      let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
      if count > 0 {
        received.append(contentsOf: buffer[0..<count])
      } else if count == 0 {
        return (received, .endOfStream)
      } else {
        return (received, errno == ECONNRESET ? .reset : .timedOut)
      }
    }
  }

  /// Closes the socket; with `reset`, sends an RST instead of a FIN (`SO_LINGER` 0).
  func close(reset: Bool = false) {
    guard !isClosed else { return }
    isClosed = true
    if reset {
      var option = linger(l_onoff: 1, l_linger: 0)
      _ = setsockopt(
        descriptor, SOL_SOCKET, SO_LINGER, &option, socklen_t(MemoryLayout<linger>.size))
    }
    closeDescriptor(descriptor)
  }
}

private func closeDescriptor(_ descriptor: Int32) {
  _ = close(descriptor)
}

/// Encodes frames the way `TCPConnection` does: 4-byte big-endian length, then the payload.
func encodeFrames(_ payloads: [[UInt8]]) -> [UInt8] {
  var bytes: [UInt8] = []
  for payload in payloads {
    let length = UInt32(payload.count)
    bytes += [
      UInt8(length >> 24), UInt8(length >> 16 & 0xFF), UInt8(length >> 8 & 0xFF),
      UInt8(length & 0xFF),
    ]
    bytes += payload
  }
  return bytes
}

/// A deterministic payload: `count` bytes derived from `seed`.
func payload(_ seed: Int, count: Int) -> [UInt8] {
  (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ seed &* 7) }
}
