import SessionCore
import SessionFuzz
import SessionTransport
import Testing

/// Random mutations of valid payloads: decoding must fail with a `WireError` or succeed, never
/// trap; and whatever decodes must encode back to the same bytes (the encoding is canonical).
@Suite struct WireFuzzTests {
  private static let iterations = 20_000

  @Test(arguments: [UInt64(0xF022_0001), 0xF022_0002])
  func mutatedPayloadsNeverCrash(seed: UInt64) {
    var arbitrary = Arbitrary(seed: seed)
    let decoder = WireDecoder(maxStringLength: 64, maxCollectionCount: 64)
    var decoded = 0
    var codes: [String: Int] = [:]
    for iteration in 0..<Self.iterations {
      let fromServer = iteration % 2 == 0
      let original =
        fromServer
        ? WireEncoder.payload(arbitrary.serverFrame())
        : WireEncoder.payload(arbitrary.clientFrame())
      let mutated = mutate(original, &arbitrary)
      if let error = decodeAndReencode(mutated, fromServer: fromServer, with: decoder) {
        codes[error.code.description, default: 0] += 1
      } else {
        decoded += 1
      }
    }
    // The mutations reach many error paths, and some mutants are still valid.
    #expect(codes.count >= 10, "\(codes)")
    #expect(decoded > 0)
  }

  @Test func randomBytesNeverCrash() {
    var arbitrary = Arbitrary(seed: 0xBAD_B17E)
    let decoder = WireDecoder()
    var decoded = 0
    var refused = 0
    for _ in 0..<Self.iterations {
      var payload = (0..<arbitrary.int(in: 0...40)).map { _ in
        arbitrary.input.byte()
      }
      if !payload.isEmpty, arbitrary.bool() {
        payload[0] = [0x93, 0x94, 0x90, 0x12, 0x10, 0x01][arbitrary.int(in: 0...5)]
      }
      for fromServer in [true, false] {
        if decodeAndReencode(payload, fromServer: fromServer, with: decoder) != nil {
          refused += 1
        } else {
          decoded += 1
        }
      }
    }
    // Random bytes are almost always refused, with an offset inside the payload; the few that
    // decode are valid frames and encode back to the same bytes.
    #expect(refused > Self.iterations)
    #expect(decoded + refused == 2 * Self.iterations)
  }

  /// Decodes `payload` as a frame of one direction. A frame that decodes must encode back to
  /// the same bytes (the encoding is canonical); a refusal must say where, inside the payload,
  /// and why. Returns the refusal, if any.
  private func decodeAndReencode(
    _ payload: [UInt8], fromServer: Bool, with decoder: WireDecoder
  ) -> WireError? {
    do {
      if fromServer {
        let frame = try decoder.decodeServerFrame(payload)
        #expect(WireEncoder.payload(frame) == payload, "\(hex(payload))")
      } else {
        let frame = try decoder.decodeClientFrame(payload)
        if case .hello(let hello) = frame, hello.version != 1 {
          // A future version's hello body is skipped, not echoed.
        } else {
          #expect(WireEncoder.payload(frame) == payload, "\(hex(payload))")
        }
      }
      return nil
    } catch {
      #expect(error.offset >= 0 && error.offset <= payload.count, "\(error)")
      #expect(!error.description.isEmpty)
      return error
    }
  }

  /// One to three mutations: bit flips, byte overwrites with boundary values, truncations,
  /// insertions, deletions and duplications.
  private func mutate(_ payload: [UInt8], _ arbitrary: inout Arbitrary) -> [UInt8] {
    var bytes = payload
    for _ in 0..<arbitrary.int(in: 1...3) {
      let position = bytes.isEmpty ? 0 : arbitrary.int(in: 0...bytes.count - 1)
      switch arbitrary.int(in: 0...6) {
      case 0 where !bytes.isEmpty:
        bytes[position] ^= 1 << UInt8(arbitrary.int(in: 0...7))
      case 1 where !bytes.isEmpty:
        bytes[position] =
          [0x00, 0x01, 0x02, 0x7F, 0x80, 0xFF, 0xC0, 0xED][arbitrary.int(in: 0...7)]
      case 2:
        bytes.removeLast(arbitrary.int(in: 0...bytes.count))
      case 3:
        let insert = (0..<arbitrary.int(in: 1...4)).map { _ in
          arbitrary.input.byte()
        }
        bytes.insert(contentsOf: insert, at: arbitrary.int(in: 0...bytes.count))
      case 4 where !bytes.isEmpty:
        bytes.remove(at: position)
      case 5 where !bytes.isEmpty:
        let end = min(bytes.count, position + arbitrary.int(in: 1...8))
        bytes.insert(contentsOf: bytes[position..<end], at: end)
      default:
        bytes.append(arbitrary.input.byte())
      }
    }
    return bytes
  }
}
