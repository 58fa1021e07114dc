// The one platform seam for session-token cryptography: CryptoKit where it exists (Apple
// platforms), OpenSSL's libcrypto through the `CCrypto` system library everywhere else.
#if canImport(CryptoKit)
  import CryptoKit
  import Foundation  // `[UInt8]`'s DataProtocol and ContiguousBytes conformances
#else
  import CCrypto
#endif

/// HMAC-SHA256 (RFC 2104 over SHA-256) and a constant-time comparison for its codes.
///
/// On Apple platforms the code comes from CryptoKit's `HMAC<SHA256>`; elsewhere from libcrypto's
/// one-shot `HMAC(EVP_sha256(), …)`. Both produce the same bytes (RFC 4231 test vectors pin them).
///
/// > Important: Stateless and thread-safe: every function is pure and may be called from any
/// > thread at once.
public enum HMACSHA256 {
  /// The length of an HMAC-SHA256 authentication code, in bytes.
  public static let byteCount = 32

  /// Computes the HMAC-SHA256 authentication code of `data` under `key`.
  ///
  /// - Parameters:
  ///   - data: The message to authenticate; any length, including empty.
  ///   - key: The secret key; any length (keys longer than the 64-byte SHA-256 block are hashed
  ///     first, as RFC 2104 says), including empty.
  /// - Returns: The ``byteCount``-byte code.
  /// - Complexity: O(`data.count` + `key.count`).
  public static func authenticationCode(
    for data: some Collection<UInt8>,
    key: some Collection<UInt8>
  ) -> [UInt8] {
    let message = Array(data)
    let keyBytes = Array(key)
    #if canImport(CryptoKit)
      let code = HMAC<SHA256>.authenticationCode(
        for: message,
        using: SymmetricKey(data: keyBytes)
      )
      return Array(code)
    #else
      precondition(keyBytes.count <= Int(Int32.max), "HMAC key longer than Int32.max bytes")
      var output = [UInt8](repeating: 0, count: byteCount)
      var outputLength: UInt32 = 0
      // libcrypto treats a NULL key as "reuse the previous key", so an empty key or message
      // still gets a valid (dummy) pointer, with length zero.
      var dummy: UInt8 = 0
      let succeeded = withUnsafeMutablePointer(to: &dummy) { dummyPointer in
        keyBytes.withUnsafeBufferPointer { keyBuffer in
          message.withUnsafeBufferPointer { messageBuffer in
            output.withUnsafeMutableBufferPointer { outputBuffer in
              HMAC(
                EVP_sha256(),
                keyBuffer.baseAddress ?? UnsafePointer(dummyPointer),
                Int32(keyBuffer.count),
                messageBuffer.baseAddress ?? UnsafePointer(dummyPointer),
                messageBuffer.count,
                outputBuffer.baseAddress,
                &outputLength
              ) != nil
            }
          }
        }
      }
      // A failure here is the crypto library refusing SHA-256 (a broken installation), never
      // something the input can cause.
      precondition(
        succeeded && Int(outputLength) == byteCount,
        "libcrypto HMAC-SHA256 failed"
      )
      return output
    #endif
  }

  /// Whether two byte strings are equal, taking time that depends only on their lengths.
  ///
  /// Use it to compare a received authentication code with the expected one, so that response
  /// timing reveals nothing about how many leading bytes matched. Lengths are not secret: values
  /// of different lengths return `false` at once.
  ///
  /// - Parameters:
  ///   - lhs: One byte string, such as the received code.
  ///   - rhs: The other, such as the expected code.
  /// - Returns: `true` when `lhs` and `rhs` hold the same bytes in the same order.
  /// - Complexity: O(n) in the common length, with no early exit.
  public static func isEqualInConstantTime(
    _ lhs: some Collection<UInt8>,
    _ rhs: some Collection<UInt8>
  ) -> Bool {
    let left = Array(lhs)
    let right = Array(rhs)
    guard left.count == right.count else { return false }
    guard !left.isEmpty else { return true }
    #if canImport(CryptoKit)
      var difference: UInt8 = 0
      for index in left.indices {
        difference |= left[index] ^ right[index]
      }
      return difference == 0
    #else
      return left.withUnsafeBytes { leftBuffer in
        right.withUnsafeBytes { rightBuffer in
          CRYPTO_memcmp(leftBuffer.baseAddress, rightBuffer.baseAddress, leftBuffer.count) == 0
        }
      }
    #endif
  }
}
