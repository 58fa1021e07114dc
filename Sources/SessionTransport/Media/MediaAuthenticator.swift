// The one platform seam for media-datagram authentication: CryptoKit where it exists (Apple
// platforms), OpenSSL's libcrypto through the `CCrypto` system library everywhere else.
#if canImport(CryptoKit)
  import CryptoKit
  import Foundation
#else
  import CCrypto
#endif

/// The authentication trailers of media datagrams under one member's media key: AES-128-GMAC
/// (GCM with no plaintext, the datagram's body as additional data), as SRTP's AES-GCM mode
/// authenticates, with an explicit 64-bit nonce (`Docs/WireProtocol.md`, "Media datagrams").
///
/// Every datagram ends with a ``trailerSize``-byte trailer: the sender's nonce (a counter, u64
/// big-endian) and the 16-byte tag. The GCM IV is the direction (4 bytes: 1 member to service,
/// 2 service to member) then the nonce, so the two sides of one key never share an IV. Each
/// authenticator sends in one direction and accepts the other; its nonces count up from 1, so
/// an authenticator must not be remade for the same key and direction while the key is in use
/// (the SDK makes one per credential, the service one per member).
///
/// On Linux the key schedule and GHASH key are set up once when the authenticator is made
/// (libcrypto's GCM over an AES-128 block context), so a tag costs one AES block and one GHASH
/// pass over the datagram. Tags compare in constant time.
///
/// > Important: Not thread-safe: the context and the counter are reused by every call. Owned
/// > by one isolation domain (the service's loop, or one SDK instance's engine).
package final class MediaAuthenticator {
  /// Who sends what an authenticator seals.
  package enum Direction: UInt32, Sendable {
    /// A member's datagrams to the service.
    case toService = 1
    /// The service's datagrams to a member (checks, pongs).
    case toMember = 2

    var opposite: Direction { self == .toService ? .toMember : .toService }
  }

  /// The bytes of a trailer at the end of every media datagram: nonce (8) and tag (16).
  package static let trailerSize = 24

  /// The direction this authenticator seals for.
  package let direction: Direction
  private var nextNonce: UInt64 = 1

  #if canImport(CryptoKit)
    private let key: SymmetricKey
  #else
    private let context: UnsafeMutablePointer<se_gmac>
  #endif

  /// An authenticator under `key`, sealing for `direction`.
  ///
  /// - Parameters:
  ///   - key: The member's media key (``MediaCredential/key``), 16 bytes; a longer key is cut
  ///     to 16 bytes and a shorter one padded with zeros.
  ///   - direction: Who seals with it: a member (``Direction/toService``, the default) or the
  ///     service (``Direction/toMember``).
  package init(key: [UInt8], sending direction: Direction = .toService) {
    self.direction = direction
    var key16 = Array(key.prefix(16))
    key16 += [UInt8](repeating: 0, count: 16 - key16.count)
    #if canImport(CryptoKit)
      self.key = SymmetricKey(data: key16)
    #else
      let made = key16.withUnsafeBufferPointer { buffer in
        buffer.baseAddress.flatMap { se_gmac_new($0) }
      }
      // A failure here is libcrypto refusing AES-128 (a broken installation), never
      // something the input can cause.
      guard let made else { preconditionFailure("libcrypto AES-128 is unavailable") }
      context = made
    #endif
  }

  deinit {
    #if !canImport(CryptoKit)
      se_gmac_free(context)
    #endif
  }

  /// The tag of `message` under `nonce` for `direction`, as two big-endian halves.
  package func tag(
    of message: UnsafeRawBufferPointer, nonce: UInt64, direction: Direction
  ) -> (UInt64, UInt64) {
    // The 12-byte IV on the stack: direction, then the nonce's two halves, big-endian.
    var iv: (UInt32, UInt32, UInt32) = (
      direction.rawValue.bigEndian, UInt32(truncatingIfNeeded: nonce >> 32).bigEndian,
      UInt32(truncatingIfNeeded: nonce).bigEndian
    )
    return withUnsafeBytes(of: &iv) { tag(of: message, iv: $0) }
  }

  private func tag(
    of message: UnsafeRawBufferPointer, iv: UnsafeRawBufferPointer
  ) -> (UInt64, UInt64) {
    #if canImport(CryptoKit)
      do {
        let box = try AES.GCM.seal(
          Data(), using: key, nonce: AES.GCM.Nonce(data: Data(iv)), authenticating: message)
        return box.tag.withUnsafeBytes { bytes in
          (
            UInt64(bigEndian: bytes.loadUnaligned(fromByteOffset: 0, as: UInt64.self)),
            UInt64(bigEndian: bytes.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
          )
        }
      } catch {
        preconditionFailure("CryptoKit AES-GCM failed: \(error)")
      }
    #else
      var output: (UInt64, UInt64) = (0, 0)
      let succeeded = withUnsafeMutableBytes(of: &output) { out in
        guard let target = out.baseAddress?.assumingMemoryBound(to: UInt8.self),
          let ivPointer = iv.baseAddress?.assumingMemoryBound(to: UInt8.self)
        else { return false }
        var dummy: UInt8 = 0
        return withUnsafePointer(to: &dummy) { dummyPointer in
          se_gmac_compute(
            context, ivPointer,
            message.baseAddress?.assumingMemoryBound(to: UInt8.self) ?? dummyPointer,
            message.count, target) == 1
        }
      }
      precondition(succeeded, "libcrypto AES-128-GMAC failed")
      return (UInt64(bigEndian: output.0), UInt64(bigEndian: output.1))
    #endif
  }

  /// Appends a trailer to `bytes`: the next nonce and the tag of `bytes` under it.
  ///
  /// - Parameter bytes: A datagram's body, without a trailer.
  package func seal(_ bytes: inout [UInt8]) {
    let bodyCount = bytes.count
    bytes.append(contentsOf: repeatElement(0, count: Self.trailerSize))
    bytes.withUnsafeMutableBytes { writeTrailer(into: $0, bodyCount: bodyCount) }
  }

  /// Writes the next nonce and the tag of the first `bodyCount` bytes into the
  /// ``trailerSize`` bytes after them, so that a sender that made room for the trailer when it
  /// encoded the body seals without copying.
  ///
  /// - Parameters:
  ///   - datagram: The body followed by room for the trailer.
  ///   - bodyCount: The body's size; `datagram` holds at least `bodyCount + trailerSize` bytes.
  package func writeTrailer(into datagram: UnsafeMutableRawBufferPointer, bodyCount: Int) {
    precondition(datagram.count >= bodyCount + Self.trailerSize, "no room for the trailer")
    let nonce = nextNonce
    nextNonce &+= 1
    let (high, low) = tag(
      of: UnsafeRawBufferPointer(rebasing: datagram[..<bodyCount]), nonce: nonce,
      direction: direction)
    datagram.storeBytes(of: nonce.bigEndian, toByteOffset: bodyCount, as: UInt64.self)
    datagram.storeBytes(of: high.bigEndian, toByteOffset: bodyCount + 8, as: UInt64.self)
    datagram.storeBytes(of: low.bigEndian, toByteOffset: bodyCount + 16, as: UInt64.self)
  }

  /// The body with a trailer appended (``seal(_:)``).
  ///
  /// - Parameter bytes: A datagram's body, without a trailer.
  /// - Returns: `bytes` and their trailer.
  package func sealed(_ bytes: [UInt8]) -> [UInt8] {
    var copy = bytes
    copy.reserveCapacity(bytes.count + Self.trailerSize)
    seal(&copy)
    return copy
  }

  /// Whether a datagram ends with a right trailer for the direction this authenticator
  /// accepts (the opposite of the one it seals for): the tag of the bytes before the trailer
  /// under the trailer's nonce, compared in constant time. A datagram shorter than a trailer is
  /// not authentic.
  ///
  /// - Parameter datagram: The whole datagram, trailer included.
  /// - Returns: `true` when the tag is right.
  package func isAuthentic(_ datagram: UnsafeRawBufferPointer) -> Bool {
    isAuthentic(datagram, direction: direction.opposite)
  }

  /// Whether a datagram has a right trailer for `direction`.
  ///
  /// - Parameters:
  ///   - datagram: The whole datagram, trailer included.
  ///   - direction: The direction it claims to travel.
  /// - Returns: `true` when the tag is right.
  package func isAuthentic(_ datagram: UnsafeRawBufferPointer, direction: Direction) -> Bool {
    guard datagram.count >= Self.trailerSize else { return false }
    let bodyCount = datagram.count - Self.trailerSize
    let nonce = UInt64(
      bigEndian: datagram.loadUnaligned(fromByteOffset: bodyCount, as: UInt64.self))
    let (high, low) = tag(
      of: UnsafeRawBufferPointer(rebasing: datagram[..<bodyCount]), nonce: nonce,
      direction: direction)
    let receivedHigh = UInt64(
      bigEndian: datagram.loadUnaligned(fromByteOffset: bodyCount + 8, as: UInt64.self))
    let receivedLow = UInt64(
      bigEndian: datagram.loadUnaligned(fromByteOffset: bodyCount + 16, as: UInt64.self))
    // One OR of two XORs: no early exit on the first differing byte.
    return (high ^ receivedHigh) | (low ^ receivedLow) == 0
  }

  /// Whether a sealed datagram is authentic, as ``isAuthentic(_:)-(UnsafeRawBufferPointer)``.
  ///
  /// - Parameter datagram: The whole datagram, trailer included.
  /// - Returns: `true` when the tag is right.
  package func isAuthentic(_ datagram: [UInt8]) -> Bool {
    datagram.withUnsafeBytes { isAuthentic($0) }
  }
}

/// Loop- or engine-confined: the libcrypto context and the nonce counter are reused by every
/// call.
@available(*, unavailable)
extension MediaAuthenticator: Sendable {}

/// What a member needs to use the media channel: a public id that names it in binds and a
/// secret key that authenticates its datagrams. The service makes one per member from its
/// secret source (never from the resume token) and sends it on the member's signalling
/// connection (``MediaNotice/credential(_:)``) after every `joined`.
///
/// > Important: A value; `Sendable`. The key is a secret: ``description`` leaves it out.
public struct MediaCredential: Sendable, Hashable, Codable, CustomStringConvertible {
  /// The public id a bind and a check reply name (not secret: it only says which key to
  /// check the tag with).
  public var id: UInt64
  /// The secret key, ``keySize`` bytes (an AES-128 key).
  public var key: [UInt8]

  /// The bytes of a media key.
  public static let keySize = 16

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
