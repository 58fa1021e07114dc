import SessionCore
import SessionFuzz
import SessionTransport
import Testing

private let decoder = WireDecoder()

private func roundTrip(_ message: ClientMessage) throws -> ClientMessage? {
  guard case .message(let decoded) = try decoder.decodeClientFrame(WireEncoder.payload(message))
  else { return nil }
  return decoded
}

private func roundTrip(_ message: ServerMessage) throws -> ServerMessage? {
  guard case .message(let decoded) = try decoder.decodeServerFrame(WireEncoder.payload(message))
  else { return nil }
  return decoded
}

private func clientError(_ payload: [UInt8]) -> WireError? {
  do {
    _ = try decoder.decodeClientFrame(payload)
    return nil
  } catch {
    return error
  }
}

private func serverError(_ payload: [UInt8]) -> WireError? {
  do {
    _ = try decoder.decodeServerFrame(payload)
    return nil
  } catch {
    return error
  }
}

/// `ClientMessage.media` (type 0x15) and `ServerMessage.media` (type 0x98).
@Suite struct WireMediaMessageTests {
  @Test(arguments: 0..<Arbitrary.mediaRequestCaseCount)
  func everyMediaRequestRoundTripsWithItsTag(caseIndex: Int) throws {
    var arbitrary = Arbitrary(seed: 300 + UInt64(caseIndex))
    for _ in 0..<200 {
      let message = ClientMessage.media(arbitrary.mediaRequest(case: caseIndex))
      let payload = WireEncoder.payload(message)
      #expect(payload[0] == 0x15)
      #expect(payload[1] == UInt8(caseIndex + 1))
      #expect(try roundTrip(message) == message)
    }
  }

  @Test(arguments: 0..<Arbitrary.mediaNoticeCaseCount)
  func everyMediaNoticeRoundTripsWithItsTag(caseIndex: Int) throws {
    var arbitrary = Arbitrary(seed: 400 + UInt64(caseIndex))
    for _ in 0..<200 {
      let message = ServerMessage.media(arbitrary.mediaNotice(case: caseIndex))
      let payload = WireEncoder.payload(message)
      #expect(payload[0] == 0x98)
      #expect(payload[1] == UInt8(caseIndex + 1))
      #expect(try roundTrip(message) == message)
    }
  }

  @Test func extremeValuesRoundTrip() throws {
    let top = UserID(rawValue: .max)
    let requests: [MediaRequest] = [
      .subscribe(publisher: top, kind: .video, maxLines: .max),
      .subscribe(publisher: 0, kind: .audio, maxLines: 0),
      .announce(
        StreamID(user: top, kind: .video, layer: 2), bitrate: .max, width: .max, height: .max),
      .announce(StreamID(user: 0, kind: .share), bitrate: 0, width: 0, height: 0),
      .withdraw(StreamID(user: top, kind: .audio)),
    ]
    for request in requests {
      #expect(try roundTrip(.media(request)) == .media(request))
    }
    for reason in MediaRefusalReason.allCases {
      let notice = MediaNotice.subscribeRefused(publisher: top, kind: .share, reason: reason)
      #expect(try roundTrip(.media(notice)) == .media(notice))
    }
    #expect(try roundTrip(.media(.downlinkEstimate(.max))) == .media(.downlinkEstimate(.max)))
  }

  @Test func workedExamples() {
    // Subscribe to user 7's video at up to 360 lines.
    #expect(
      hex(
        WireEncoder.payload(
          ClientMessage.media(.subscribe(publisher: 7, kind: .video, maxLines: 360))))
        == "15 01 07 01 e8 02")
    // Announce user 7's video layer 2: 2.5 Mbit/s, 1280 × 720.
    let announce = ClientMessage.media(
      .announce(
        StreamID(user: 7, kind: .video, layer: 2), bitrate: 2_500_000, width: 1280, height: 720))
    #expect(hex(WireEncoder.payload(announce)) == "15 03 07 01 02 a0 cb 98 01 80 0a d0 05")
    #expect(hex(WireEncoder.payload(ServerMessage.media(.bound))) == "98 01")
    let refused = ServerMessage.media(
      .subscribeRefused(publisher: 9, kind: .video, reason: .exceededLimit))
    #expect(hex(WireEncoder.payload(refused)) == "98 02 09 01 02")
  }

  @Test func aCredentialWithAKeyOfAnyOtherLengthIsRefused() {
    let good = WireEncoder.payload(
      ServerMessage.media(
        .credential(MediaCredential(id: 5, key: [UInt8](repeating: 9, count: 16)))))
    #expect(hex(good) == "98 05 05 10 " + Array(repeating: "09", count: 16).joined(separator: " "))
    for length: UInt8 in [0, 15, 17, 32, 0x7F] {
      var bytes: [UInt8] = [0x98, 0x05, 0x05, length]
      bytes += [UInt8](repeating: 9, count: Int(length))
      #expect(serverError(bytes)?.code == .invalidValue, "key of \(length) bytes")
    }
    #expect(serverError(Array(good.dropLast()))?.code == .truncated)
    #expect(serverError([0x98, 0x06, 0x03])?.code == .invalidEnumValue)
    #expect(
      hex(WireEncoder.payload(ServerMessage.media(.unbound(.consentExpired)))) == "98 06 01")
  }

  @Test func pauseNoticesHaveTheirDocumentedBytesAndRefuseAnUnknownReason() {
    let paused = ServerMessage.media(.streamPaused(publisher: 5, kind: .video, reason: .bandwidth))
    #expect(hex(WireEncoder.payload(paused)) == "98 07 05 01 01")
    let resumed = ServerMessage.media(.streamResumed(publisher: 5, kind: .video))
    #expect(hex(WireEncoder.payload(resumed)) == "98 08 05 01")
    #expect(serverError([0x98, 0x07, 0x05, 0x01, 0x02])?.code == .invalidEnumValue)
    #expect(serverError([0x98, 0x07, 0x05, 0x04, 0x01])?.code == .invalidEnumValue)
    #expect(serverError([0x98, 0x08, 0x05])?.code == .truncated)
  }

  @Test func unknownTagsAreRefused() {
    for tag: UInt8 in [0, 5, 0xFF] {
      let request = clientError([0x15, tag])
      #expect(request?.code == .unknownTag)
      #expect(request?.offset == 1)
    }
    for tag: UInt8 in [0, 9, 0xFF] {
      #expect(serverError([0x98, tag])?.code == .unknownTag)
    }
  }

  @Test func badKindsLayersAndReasonsAreRefused() {
    // subscribe with kind 0 and 4.
    #expect(clientError([0x15, 0x01, 0x07, 0x00, 0x00])?.code == .invalidEnumValue)
    #expect(clientError([0x15, 0x01, 0x07, 0x04, 0x00])?.code == .invalidEnumValue)
    // withdraw video layer 3, audio layer 1: the layer is out of range for its kind.
    let layer = clientError([0x15, 0x04, 0x07, 0x01, 0x03])
    #expect(layer?.code == .invalidValue)
    #expect(layer?.offset == 4)
    #expect(clientError([0x15, 0x04, 0x07, 0x02, 0x01])?.code == .invalidValue)
    #expect(clientError([0x15, 0x04, 0x07, 0x01, 0x02]) == nil)
    // keyFrameRequested share layer 1.
    #expect(serverError([0x98, 0x03, 0x07, 0x03, 0x01])?.code == .invalidValue)
    // A refusal reason no case has (3).
    #expect(serverError([0x98, 0x02, 0x07, 0x01, 0x03])?.code == .invalidEnumValue)
    #expect(serverError([0x98, 0x02, 0x07, 0x01, 0x64]) == nil)
  }

  @Test func numbersTooLargeForTheirFieldAreRefused() {
    // maxLines 65,536.
    #expect(clientError([0x15, 0x01, 0x07, 0x01, 0x80, 0x80, 0x04])?.code == .integerOverflow)
    #expect(clientError([0x15, 0x01, 0x07, 0x01, 0xFF, 0xFF, 0x03]) == nil)
    // A bitrate of 2^32.
    let bitrate: [UInt8] = [0x15, 0x03, 0x07, 0x01, 0x00, 0x80, 0x80, 0x80, 0x80, 0x10, 0x00, 0x00]
    #expect(clientError(bitrate)?.code == .integerOverflow)
    // A downlink estimate of 2^32.
    #expect(serverError([0x98, 0x04, 0x80, 0x80, 0x80, 0x80, 0x10])?.code == .integerOverflow)
  }

  @Test func trailingBytesAndTruncationsAreRefused() {
    #expect(serverError([0x98, 0x01, 0x00])?.code == .trailingBytes)
    #expect(clientError([0x15])?.code == .truncated)
    #expect(clientError([0x15, 0x03, 0x07, 0x01, 0x00, 0x01, 0x01])?.code == .truncated)
  }

  @Test func eachDirectionRefusesTheOthersMediaMessage() {
    #expect(
      serverError(
        WireEncoder.payload(ClientMessage.media(.withdraw(StreamID(user: 1, kind: .audio)))))?.code
        == .unknownMessageType)
    #expect(
      clientError(WireEncoder.payload(ServerMessage.media(.bound)))?.code == .unknownMessageType)
  }
}
