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
    for (user, token) in [(UInt32(0), UInt64(0)), (7, 0x0123_4567_89AB_CDEF), (.max, .max)] {
      let bind = MediaBind(user: UserID(rawValue: user), token: token)
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
    // User 7 binds with resume token 0x0123456789abcdef.
    let bind = MediaBind(user: 7, token: 0x0123_4567_89AB_CDEF)
    #expect(hex(bind.encode()) == "01 03 00 00 00 07 01 23 45 67 89 ab cd ef")
  }

  @Test func workedPingExample() {
    // A ping sent at 2 s, and its pong.
    #expect(
      hex(MediaDatagram.ping(sendTime: 2_000_000).encode()) == "01 04 00 00 00 00 00 1e 84 80")
    #expect(hex(MediaDatagram.pong(sendTime: -1).encode()) == "01 05 ff ff ff ff ff ff ff ff")
  }

  @Test func controlDatagramsHaveExactlyTheirSize() {
    let datagrams: [MediaDatagram] = [
      .bind(MediaBind(user: 1, token: 2)), .ping(sendTime: 3), .pong(sendTime: 4),
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
      wrongVersion[0] = 2
      #expect(datagramError(wrongVersion) == .wrongVersion(2))
    }
  }

  @Test func theTypedDecodersRefuseControlDatagrams() {
    let bind = MediaBind(user: 1, token: 2).encode()
    #expect(throws: MediaDecodingError.wrongType(3)) { try MediaPacket.decode(bind) }
    #expect(throws: MediaDecodingError.wrongType(3)) { try ReceiverReport.decode(bind) }
    let ping = MediaDatagram.ping(sendTime: 0).encode()
    #expect(throws: MediaDecodingError.wrongType(4)) { try MediaPacket.decode(ping) }
  }

  @Test func everyKindHasItsTypeByte() {
    #expect(MediaDatagram.Kind.allCases.map(\.rawValue) == [1, 2, 3, 4, 5])
    #expect(MediaDatagram.ping(sendTime: 0).kind == .ping)
    #expect(MediaDatagram.pong(sendTime: 0).kind == .pong)
  }

  @Test func maxSizeCoversEveryKind() {
    #expect(MediaBind.datagramSize <= MediaDatagram.maxSize)
    #expect(ReceiverReport.datagramSize <= MediaDatagram.maxSize)
  }
}
