import Foundation
import SessionCore
import SessionTransport
import Testing

/// The error decoding `bytes` as a media datagram throws, or nil if it decoded.
private func datagramError(_ bytes: [UInt8]) -> MediaDecodingError? {
  do {
    _ = try MediaDatagram.decode(bytes)
    return nil
  } catch {
    return error
  }
}

/// The media channel's control datagrams: bind (type 3), ping (4) and pong (5).
@Suite struct MediaControlTests {
  @Test func bindsRoundTripWithExtremeValues() throws {
    for (user, id) in [(UInt32(0), UInt64(0)), (7, 0x0123_4567_89AB_CDEF), (.max, .max)] {
      let bind = MediaBind(user: UserID(rawValue: user), credential: id)
      let bytes = MediaDatagram.bind(bind).encode()
      #expect(bytes.count == MediaBind.datagramSize)
      #expect(bytes == bind.encode())
      #expect(try MediaDatagram.decode(bytes) == .bind(bind))
      #expect(try MediaDatagram.decode(bytes).kind == .bind)
    }
  }

  @Test func pingsAndPongsRoundTripAnyTime() throws {
    for time in [Int64.min, -1, 0, 1, 2_000_000, .max] {
      let ping = MediaDatagram.ping(sendTime: time).encode()
      let pong = MediaDatagram.pong(sendTime: time).encode()
      #expect(ping.count == 10)
      #expect(pong.count == 10)
      #expect(try MediaDatagram.decode(ping) == .ping(sendTime: time))
      #expect(try MediaDatagram.decode(pong) == .pong(sendTime: time))
      #expect(ping[1] == 4)
      #expect(pong[1] == 5)
      #expect(ping[2...] == pong[2...])
    }
  }

  @Test func workedBindExample() {
    // User 7 binds naming credential 0x0123456789abcdef.
    let bind = MediaBind(user: 7, credential: 0x0123_4567_89AB_CDEF)
    #expect(hex(bind.encode()) == "02 03 00 00 00 07 01 23 45 67 89 ab cd ef")
  }

  @Test func checksAndRepliesRoundTripAnyNonce() throws {
    for nonce in [UInt64(0), 1, 0x0123_4567_89AB_CDEF, .max] {
      let check = MediaDatagram.check(nonce: nonce).encode()
      let reply = MediaDatagram.checkReply(credential: 9, nonce: nonce).encode()
      #expect(check.count == 10 && reply.count == 18)
      #expect(check[1] == 6 && reply[1] == 7)
      #expect(try MediaDatagram.decode(check) == .check(nonce: nonce))
      #expect(try MediaDatagram.decode(reply) == .checkReply(credential: 9, nonce: nonce))
    }
    #expect(
      hex(MediaDatagram.checkReply(credential: 7, nonce: 0xAB).encode())
        == "02 07 00 00 00 00 00 00 00 07 00 00 00 00 00 00 00 ab")
  }

  @Test func aTrailerIsTheNonceAndTheGMACAndAnyChangedBitFailsIt() {
    // Key 00 01 … 0f, a member's first datagram (direction 1, nonce 1): the IV is
    // 00 00 00 01 00 00 00 00 00 00 00 01, and AES-128-GCM over no plaintext with the body as
    // additional data gives this tag (checked against Python's `cryptography` AESGCM).
    let authenticator = MediaAuthenticator(key: Array(0..<16))
    let body = Array("what do ya want for nothing?".utf8)
    let sealed = authenticator.sealed(body)
    #expect(sealed.count == body.count + MediaDatagram.trailerSize)
    #expect(hex(Array(sealed[body.count..<(body.count + 8)])) == "00 00 00 00 00 00 00 01")
    #expect(hex(Array(sealed.suffix(16))) == "20 a1 be 2f 87 e4 31 a3 25 13 d8 19 09 ef c8 9d")
    // The service's side accepts it; the member's own side does not (another direction).
    let service = MediaAuthenticator(key: Array(0..<16), sending: .toMember)
    #expect(service.isAuthentic(sealed))
    #expect(!authenticator.isAuthentic(sealed))
    for index in sealed.indices {
      var flipped = sealed
      flipped[index] ^= 0x10
      #expect(!service.isAuthentic(flipped), "byte \(index) changed")
    }
    #expect(!MediaAuthenticator(key: Array(1..<17), sending: .toMember).isAuthentic(sealed))
    #expect(!service.isAuthentic(Array(sealed.prefix(23))))
    // The next seal uses the next nonce, so the same body gets another tag.
    let again = authenticator.sealed(body)
    #expect(again != sealed && service.isAuthentic(again))
  }

  @Test(arguments: [
    (0, "9f79ba42adc581d289732d2b94a07841"), (1, "ca018b8018958afcfa620a9dd44621d9"),
    (15, "773ad7aad931d4351e4352b6fec9e6d6"), (16, "c1f29f00b017f117f3b34c8fbe151a77"),
    (17, "85ccf8b1233f0a911a22ea734f57c216"), (1_058, "22d7413bd6758701883686b04a2e5c20"),
  ])
  func theTagIsAES128GMACAtEveryLengthAroundABlock(length: Int, expected: String) {
    // Key 00 01 … 0f, direction 1, nonce 7; the message is byte i = (7i + 3) mod 256, from
    // empty across the 16-byte block edges to a video packet's size (checked against
    // Python's `cryptography` AESGCM with no plaintext and the message as additional data).
    let message = (0..<length).map { UInt8((7 * $0 + 3) % 256) }
    let (high, low) = message.withUnsafeBytes {
      MediaAuthenticator(key: Array(0..<16)).tag(of: $0, nonce: 7, direction: .toService)
    }
    #expect(String(format: "%016llx%016llx", high, low) == expected)
  }

  @Test func aCredentialNeverPrintsItsKey() {
    let credential = MediaCredential(id: 0xAB, key: [UInt8](repeating: 0xCD, count: 32))
    #expect(credential.description == "credential 0xab (key withheld)")
    #expect(!"\(credential)".lowercased().contains("cd"))
  }

  @Test func workedPingExample() {
    // A ping sent at 2 s, and its pong.
    #expect(
      hex(MediaDatagram.ping(sendTime: 2_000_000).encode()) == "02 04 00 00 00 00 00 1e 84 80")
    #expect(hex(MediaDatagram.pong(sendTime: -1).encode()) == "02 05 ff ff ff ff ff ff ff ff")
  }

  @Test func controlDatagramsHaveExactlyTheirSize() {
    let datagrams: [MediaDatagram] = [
      .bind(MediaBind(user: 1, credential: 2)), .ping(sendTime: 3), .pong(sendTime: 4),
      .check(nonce: 5), .checkReply(credential: 6, nonce: 7),
      .feedback(
        DownlinkFeedback(
          subscriber: 8, packetsReceived: 9, packetsLost: 10, receiveRate: 11, queueDelay: 12,
          signal: .overusing)),
    ]
    for datagram in datagrams {
      let bytes = datagram.encode()
      #expect(datagramError(bytes) == nil)
      for length in 0..<bytes.count {
        let error = datagramError(Array(bytes[..<length]))
        #expect(error?.reason == .truncated, "\(datagram) cut to \(length)")
      }
      for extra in [1, 2, 1_300] {
        let error = datagramError(bytes + [UInt8](repeating: 0, count: extra))
        #expect(error == .tooLong(count: bytes.count + extra, maximum: bytes.count))
      }
      var wrongVersion = bytes
      wrongVersion[0] = 1
      #expect(datagramError(wrongVersion) == .wrongVersion(1))
    }
  }

  @Test func theTypedDecodersRefuseControlDatagrams() {
    let bind = MediaBind(user: 1, credential: 2).encode()
    #expect(throws: MediaDecodingError.wrongType(3)) { try MediaPacket.decode(bind) }
    #expect(throws: MediaDecodingError.wrongType(3)) { try ReceiverReport.decode(bind) }
    let ping = MediaDatagram.ping(sendTime: 0).encode()
    #expect(throws: MediaDecodingError.wrongType(4)) { try MediaPacket.decode(ping) }
  }

  @Test func everyKindHasItsTypeByte() {
    #expect(MediaDatagram.Kind.allCases.map(\.rawValue) == [1, 2, 3, 4, 5, 6, 7, 8])
    #expect(MediaDatagram.ping(sendTime: 0).kind == .ping)
    #expect(MediaDatagram.pong(sendTime: 0).kind == .pong)
  }

  @Test func maxSizeCoversEveryKind() {
    #expect(MediaBind.datagramSize <= MediaDatagram.maxSize)
    #expect(ReceiverReport.datagramSize <= MediaDatagram.maxSize)
    #expect(DownlinkFeedback.datagramSize <= MediaDatagram.maxSize)
  }

  @Test func feedbackRoundTripsAndRefusesABadSignalOrReservedByte() throws {
    let feedback = DownlinkFeedback(
      subscriber: 7, packetsReceived: .max, packetsLost: 3, receiveRate: 300_000,
      queueDelay: 150_000, signal: .underusing)
    let bytes = feedback.encode()
    #expect(bytes.count == DownlinkFeedback.datagramSize)
    #expect(try MediaDatagram.decode(bytes) == .feedback(feedback))
    var badSignal = bytes
    badSignal[22] = 3
    #expect(datagramError(badSignal) == .badFlags(3))
    var reserved = bytes
    reserved[23] = 1
    #expect(datagramError(reserved) == .badFlags(1))
    #expect(abs(feedback.lossFraction - 3 / (Double(UInt32.max) + 3)) < 1e-12)
  }
}
