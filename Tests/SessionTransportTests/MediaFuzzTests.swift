import SessionCore
import SessionTransport
import Testing

/// Hostile media datagrams: random bytes and mutations of valid datagrams either decode to a
/// datagram that keeps every rule or are refused with a ``MediaDecodingError``; never a trap.
@Suite struct MediaFuzzTests {
  private static let iterations = 20_000

  /// Decodes `bytes` as any media datagram. One that decodes must keep every rule and encode
  /// back to the same bytes, except the payload's, which are not read. Returns the refusal.
  private func decodeAndCheck(_ bytes: [UInt8]) -> MediaDecodingError? {
    do {
      let datagram = try MediaDatagram.decode(bytes)
      let encoded = datagram.encode()
      #expect(encoded.count == bytes.count)
      switch datagram {
      case .packet(let packet):
        #expect(packet.ruleBroken == nil)
        #expect(encoded[..<MediaPacket.headerSize] == bytes[..<MediaPacket.headerSize])
        #expect(try MediaPacket.decode(bytes) == packet)
      case .report(let report):
        #expect(report.stream.hasValidLayer)
        #expect(encoded == bytes)
        #expect(try ReceiverReport.decode(bytes) == report)
      case .bind, .ping, .pong, .check, .checkReply, .feedback:
        #expect(encoded == bytes)
      }
      return nil
    } catch {
      return error
    }
  }

  @Test(arguments: [UInt64(0x3ED1_0001), 0x3ED1_0002])
  func mutatedDatagramsNeverTrap(seed: UInt64) {
    var arbitrary = ArbitraryMedia(seed: seed)
    var decoded = 0
    var reasons: [MediaDecodingError.Reason: Int] = [:]
    for iteration in 0..<Self.iterations {
      var bytes: [UInt8]
      switch iteration % 6 {
      case 0, 3: bytes = arbitrary.report().encode()
      case 5: bytes = arbitrary.control().encode()
      default: bytes = arbitrary.packet().encode()
      }
      for _ in 0..<arbitrary.int(in: 1...3) {
        mutate(&bytes, &arbitrary)
      }
      if let error = decodeAndCheck(bytes) {
        reasons[error.reason, default: 0] += 1
      } else {
        decoded += 1
      }
    }
    // The mutations reach every refusal, and many mutants are still valid.
    #expect(Set(reasons.keys) == Set(MediaDecodingError.Reason.allCases), "\(reasons)")
    #expect(decoded > Self.iterations / 10)
  }

  @Test func randomBytesNeverTrap() {
    var arbitrary = ArbitraryMedia(seed: 0xBAD_3ED1A)
    var decoded = 0
    var refused = 0
    for _ in 0..<Self.iterations {
      let count =
        arbitrary.int(in: 0...3) == 0
        ? arbitrary.int(in: 0...1_300) : [34, 36, 10, 14][arbitrary.int(in: 0...3)]
      var bytes = (0..<count).map { _ in UInt8.random(in: 0...255, using: &arbitrary.random) }
      if count >= 2, arbitrary.int(in: 0...1) == 0 {
        bytes[0] = 1
        bytes[1] = UInt8(arbitrary.int(in: 1...5))
      }
      if decodeAndCheck(bytes) == nil { decoded += 1 } else { refused += 1 }
    }
    #expect(refused > Self.iterations / 2)
    #expect(decoded + refused == Self.iterations)
  }

  /// One mutation: a byte changed, a bit flipped, bytes cut, bytes added, a field set to an edge
  /// value, or all but the first byte removed.
  private func mutate(_ bytes: inout [UInt8], _ arbitrary: inout ArbitraryMedia) {
    switch arbitrary.int(in: 0...6) {
    case 0 where !bytes.isEmpty:
      bytes[arbitrary.int(in: 0...bytes.count - 1)] = UInt8(arbitrary.int(in: 0...255))
    case 1 where !bytes.isEmpty:
      bytes[arbitrary.int(in: 0...bytes.count - 1)] ^= 1 << UInt8(arbitrary.int(in: 0...7))
    case 2:
      bytes.removeLast(arbitrary.int(in: 0...bytes.count))
    case 3:
      bytes += [UInt8](repeating: 0, count: arbitrary.int(in: 1...1_300))
    case 4 where bytes.count > 7:
      // Kind and layer, the fields with the most rules.
      bytes[6] = UInt8(arbitrary.int(in: 0...4))
      bytes[7] = UInt8(arbitrary.int(in: 0...3))
    case 5 where bytes.count > 17:
      bytes[16] = UInt8(arbitrary.int(in: 0...2))
      bytes[17] = [0, 127, 128, 255][arbitrary.int(in: 0...3)]
    case 6 where bytes.count > 31:
      // The frame's packet count (a report's packets lost).
      bytes[30] = 0
      bytes[31] = UInt8(arbitrary.int(in: 0...1))
    default:
      bytes = Array(bytes.prefix(1))
    }
  }
}
