// The one platform seam for media-datagram authentication: CryptoKit where it exists (Apple
// platforms), OpenSSL's libcrypto through the `CCrypto` system library everywhere else.
#if canImport(CryptoKit)
  import CryptoKit
  import Foundation
#else
  import CCrypto
#endif

/// The authentication tags of media datagrams under one member's media key: HMAC-SHA256 of
/// the datagram's bytes before the tag, truncated to ``tagSize`` bytes (as SRTP truncates its
/// HMAC), appended to every datagram (`Docs/WireProtocol.md`, "Media datagrams").
///
/// On Linux the key is set into one libcrypto context when the authenticator is made, so a
/// tag costs one pass of SHA-256 over the datagram and no key schedule. Tags compare in
/// constant time.
///
/// > Important: Not thread-safe: the context is reused by every call. Owned by one isolation
/// > domain (the service's loop, or one SDK instance's engine).
package final class MediaAuthenticator {
  /// The bytes of a tag at the end of every media datagram.
  package static let tagSize = 16

  #if canImport(CryptoKit)
    private let key: SymmetricKey
  #else
    private let context: OpaquePointer
  #endif

  /// An authenticator under `key`.
  ///
  /// - Parameter key: The member's media key (``MediaCredential/key``); any length.
  package init(key: [UInt8]) {
    #if canImport(CryptoKit)
      self.key = SymmetricKey(data: key)
    #else
      var dummy: UInt8 = 0
      let made = key.withUnsafeBufferPointer { buffer in
        withUnsafePointer(to: &dummy) { dummyPointer in
          se_hmac_sha256_new(buffer.baseAddress ?? dummyPointer, buffer.count)
        }
      }
      // A failure here is libcrypto refusing HMAC-SHA256 (a broken installation), never
      // something the input can cause.
      guard let made else { preconditionFailure("libcrypto HMAC-SHA256 is unavailable") }
      context = made
    #endif
  }

  deinit {
    #if !canImport(CryptoKit)
      EVP_MAC_CTX_free(context)
    #endif
  }

  /// The tag of `message`, as two big-endian halves.
  package func tag(of message: UnsafeRawBufferPointer) -> (UInt64, UInt64) {
    #if canImport(CryptoKit)
      let code = HMAC<SHA256>.authenticationCode(for: message, using: key)
      return code.withUnsafeBytes { bytes in
        (
          UInt64(bigEndian: bytes.loadUnaligned(fromByteOffset: 0, as: UInt64.self)),
          UInt64(bigEndian: bytes.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
        )
      }
    #else
      var output: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
      let succeeded = withUnsafeMutableBytes(of: &output) { out in
        guard let target = out.baseAddress?.assumingMemoryBound(to: UInt8.self) else {
          return false
        }
        var dummy: UInt8 = 0
        return withUnsafePointer(to: &dummy) { dummyPointer in
          se_hmac_sha256_compute(
            context,
            message.baseAddress?.assumingMemoryBound(to: UInt8.self) ?? dummyPointer,
            message.count, target) == 1
        }
      }
      precondition(succeeded, "libcrypto HMAC-SHA256 failed")
      return (UInt64(bigEndian: output.0), UInt64(bigEndian: output.1))
    #endif
  }

  /// Appends the tag of `bytes` to them.
  ///
  /// - Parameter bytes: A datagram's bytes, without a tag.
  package func seal(_ bytes: inout [UInt8]) {
    let (high, low) = bytes.withUnsafeBytes { tag(of: $0) }
    withUnsafeBytes(of: high.bigEndian) { bytes.append(contentsOf: $0) }
    withUnsafeBytes(of: low.bigEndian) { bytes.append(contentsOf: $0) }
  }

  /// The datagram's bytes with the tag of `bytes` appended.
  ///
  /// - Parameter bytes: A datagram's bytes, without a tag.
  /// - Returns: `bytes` and their tag.
  package func sealed(_ bytes: [UInt8]) -> [UInt8] {
    var copy = bytes
    copy.reserveCapacity(bytes.count + Self.tagSize)
    seal(&copy)
    return copy
  }

  /// Whether a datagram ends with the right tag of the bytes before it (compared in constant
  /// time). A datagram shorter than a tag is not authentic.
  ///
  /// - Parameter datagram: The whole datagram, tag included.
  /// - Returns: `true` when the tag is this key's tag of the rest.
  package func isAuthentic(_ datagram: UnsafeRawBufferPointer) -> Bool {
    guard datagram.count >= Self.tagSize else { return false }
    let bodyCount = datagram.count - Self.tagSize
    let (high, low) = tag(of: UnsafeRawBufferPointer(rebasing: datagram[..<bodyCount]))
    let receivedHigh = UInt64(
      bigEndian: datagram.loadUnaligned(fromByteOffset: bodyCount, as: UInt64.self))
    let receivedLow = UInt64(
      bigEndian: datagram.loadUnaligned(fromByteOffset: bodyCount + 8, as: UInt64.self))
    // One OR of two XORs: no early exit on the first differing byte.
    return (high ^ receivedHigh) | (low ^ receivedLow) == 0
  }

  /// Whether a sealed datagram is authentic, as ``isAuthentic(_:)-(UnsafeRawBufferPointer)``.
  ///
  /// - Parameter datagram: The whole datagram, tag included.
  /// - Returns: `true` when the tag is this key's tag of the rest.
  package func isAuthentic(_ datagram: [UInt8]) -> Bool {
    datagram.withUnsafeBytes { isAuthentic($0) }
  }
}

/// Loop- or engine-confined: the libcrypto context is reused by every call.
@available(*, unavailable)
extension MediaAuthenticator: Sendable {}

/// What a member needs to use the media channel: a public id that names it in binds and a
/// secret key that tags its datagrams. The service makes one per member from its secret
/// source (never from the resume token) and sends it on the member's signalling connection
/// (``MediaNotice/credential(_:)``) after every `joined`.
///
/// > Important: A value; `Sendable`. The key is a secret: ``description`` leaves it out.
public struct MediaCredential: Sendable, Hashable, Codable, CustomStringConvertible {
  /// The public id a bind and a check reply name (not secret: it only says which key to
  /// check the tag with).
  public var id: UInt64
  /// The secret key, ``keySize`` bytes.
  public var key: [UInt8]

  /// The bytes of a media key.
  public static let keySize = 32

  /// Creates a credential.
  ///
  /// - Parameters:
  ///   - id: The public id.
  ///   - key: The secret key, ``keySize`` bytes.
  public init(id: UInt64, key: [UInt8]) {
    self.id = id
    self.key = key
  }

  /// `credential 0x… (key withheld)`: the key never reaches a log.
  public var description: String {
    "credential 0x\(String(id, radix: 16)) (key withheld)"
  }
}
