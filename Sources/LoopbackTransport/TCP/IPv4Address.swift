import CLibUV

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Parses a dotted IPv4 address and port with `uv_ip4_addr`.
///
/// - Throws: `UVError` (`EINVAL`) for a malformed address.
func makeIPv4Address(host: String, port: UInt16) throws(UVError) -> sockaddr_in {
  var address = sockaddr_in()
  try UVError.check(uv_ip4_addr(host, Int32(port), &address), "uv_ip4_addr(\(host))")
  return address
}

/// Calls `body` with `address` viewed as a generic `sockaddr`.
func withSocketAddress<Result>(
  _ address: sockaddr_in, _ body: (UnsafePointer<sockaddr>) -> Result
) -> Result {
  withUnsafePointer(to: address) { pointer in
    pointer.withMemoryRebound(to: sockaddr.self, capacity: 1, body)
  }
}

/// The port of the address `getName` (`uv_tcp_getsockname` or `uv_tcp_getpeername`) reports.
///
/// - Returns: The port, or `nil` if the call failed or the address isn't IPv4 or IPv6.
func socketPort(
  _ getName: (UnsafeMutablePointer<sockaddr>, UnsafeMutablePointer<Int32>) -> Int32
) -> UInt16? {
  var storage = sockaddr_storage()
  var length = Int32(MemoryLayout<sockaddr_storage>.size)
  return withUnsafeMutablePointer(to: &storage) { pointer -> UInt16? in
    let status = pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
      getName($0, &length)
    }
    guard status == 0 else { return nil }
    switch Int32(pointer.pointee.ss_family) {
    case AF_INET:
      return pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) {
        UInt16(bigEndian: $0.pointee.sin_port)
      }
    case AF_INET6:
      return pointer.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) {
        UInt16(bigEndian: $0.pointee.sin6_port)
      }
    default:
      return nil
    }
  }
}
