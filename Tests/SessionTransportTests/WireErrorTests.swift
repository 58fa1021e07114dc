import SessionCore
import SessionFuzz
import SessionTransport
import Testing

/// The error a decoding throws, or nil if it succeeded.
private func serverError(_ payload: [UInt8], _ decoder: WireDecoder = WireDecoder()) -> WireError? {
  do {
    _ = try decoder.decodeServerFrame(payload)
    return nil
  } catch {
    return error
  }
}

private func clientError(_ payload: [UInt8], _ decoder: WireDecoder = WireDecoder()) -> WireError? {
  do {
    _ = try decoder.decodeClientFrame(payload)
    return nil
  } catch {
    return error
  }
}

@Suite struct WireErrorTests {
  @Test func everyTruncationOfAValidPayloadFails() throws {
    var arbitrary = Arbitrary(seed: 77)
    for _ in 0..<300 {
      let server = WireEncoder.payload(arbitrary.serverFrame())
      for length in 0..<server.count {
        let error = try #require(serverError(Array(server[..<length])))
        #expect(error.code == .truncated || error.code == .countTooLarge, "\(error)")
        #expect(error.offset <= length)
      }
      let client = WireEncoder.payload(arbitrary.clientFrame())
      for length in 0..<client.count {
        let error = try #require(clientError(Array(client[..<length])))
        #expect(error.code == .truncated || error.code == .countTooLarge, "\(error)")
      }
    }
  }

  @Test func emptyPayloadIsTruncatedAtZero() {
    #expect(serverError([])?.code == .truncated)
    #expect(serverError([])?.offset == 0)
  }

  @Test func unknownMessageTypesAreRejected() {
    for type: UInt8 in [0x00, 0x03, 0x16, 0x80, 0x83, 0x99, 0xFF] {
      #expect(serverError([type])?.code == .unknownMessageType)
      #expect(clientError([type])?.code == .unknownMessageType)
    }
    // Each direction's types are unknown in the other.
    #expect(serverError(WireEncoder.payload(ClientMessage.heartbeat))?.code == .unknownMessageType)
    #expect(clientError(WireEncoder.payload(ServerMessage.heartbeat))?.code == .unknownMessageType)
  }

  @Test func unknownEventAndCommandTagsAreRejected() {
    for tag: UInt8 in [0, 32, 0xFF] {
      let error = serverError([0x94, tag])
      #expect(error?.code == .unknownTag)
      #expect(error?.offset == 1)
      #expect(serverError([0x93, 0x01, 0x01, tag])?.code == .unknownTag)
    }
    for tag: UInt8 in [0, 38, 0xFF] {
      let error = clientError([0x12, 0x00, tag])
      #expect(error?.code == .unknownTag)
      #expect(error?.offset == 2)
    }
  }

  @Test func invalidEnumRawValuesAreRejected() {
    // left(reason 5)
    #expect(serverError([0x96, 0x05])?.code == .invalidEnumValue)
    // passwordRequired(wrong: 2): bools are 0 or 1.
    #expect(serverError([0x92, 0x02])?.code == .invalidEnumValue)
    // password with presence byte 2.
    #expect(clientError([0x11, 0x02])?.code == .invalidEnumValue)
    // joinRefused with an error code no case has (13).
    #expect(serverError([0x91, 0x0D])?.code == .invalidEnumValue)
    // startShare(kind 4).
    #expect(clientError([0x12, 0x00, 0x0B, 0x04])?.code == .invalidEnumValue)
    // usersJoined with a participant whose role is 3.
    let participant = bytes("93 01 01 08 01 07 00 03 00 00 00 00 00 00 00 00")
    let error = serverError(participant)
    #expect(error?.code == .invalidEnumValue)
    #expect(error?.offset == 7)
    // A goodbye reason 0 or 7.
    #expect(serverError([0x82, 0x00, 0x00])?.code == .invalidEnumValue)
    #expect(clientError([0x02, 0x07, 0x00])?.code == .invalidEnumValue)
  }

  @Test(arguments: [
    "ff", "c0 80", "e0 80 80", "ed a0 80", "f4 90 80 80", "e2 82", "80", "f8 88 80 80 80",
  ])
  func malformedUTF8IsRejected(sequence: String) {
    let body = bytes("61") + bytes(sequence) + bytes("62")
    let payload = [0x12, 0x00, 0x1C, UInt8(body.count)] + body
    let error = clientError(payload)
    #expect(error?.code == .invalidUTF8)
    #expect(error?.offset == 3)
  }

  @Test func wellFormedUTF8EdgesAreAccepted() throws {
    for sequence in [
      "7f", "c2 80", "df bf", "e0 a0 80", "ed 9f bf", "ee 80 80", "f0 90 80 80", "f4 8f bf bf",
    ] {
      let body = bytes(sequence)
      let payload = [0x12, 0x00, 0x1C, UInt8(body.count)] + body
      #expect(clientError(payload) == nil, "\(sequence)")
    }
  }

  @Test func oversizePayloadIsRejectedBeforeReading() {
    let decoder = WireDecoder(maxFrameSize: 8)
    let error = serverError(
      WireEncoder.payload(ServerMessage.notice(.nameChanged(user: 1, name: "long name"))), decoder)
    #expect(error?.code == .frameTooLarge)
    #expect(serverError([0x97], decoder) == nil)
  }

  @Test func oversizeFrameHeaderIsRejected() throws {
    let decoder = WireDecoder(maxFrameSize: 16)
    let header: [UInt8] = [0x00, 0x00, 0x00, 0x11]
    #expect(throws: WireError.self) {
      try header.withUnsafeBytes { try decoder.nextFrame(in: $0) }
    }
    let incomplete: [UInt8] = [0x00, 0x00, 0x00, 0x02, 0x97]
    #expect(try incomplete.withUnsafeBytes { try decoder.nextFrame(in: $0) } == nil)
    let short: [UInt8] = [0x00, 0x00, 0x00]
    #expect(try short.withUnsafeBytes { try decoder.nextFrame(in: $0) } == nil)
  }

  @Test func encodingAFrameBeyondTheMaximumThrowsAndLeavesTheBuffer() {
    var buffer: [UInt8] = [9, 9]
    #expect(throws: WireError.self) {
      try WireEncoder.appendFrame(
        ServerMessage.notice(.nameChanged(user: 1, name: "0123456789")), to: &buffer,
        maxFrameSize: 8)
    }
    #expect(buffer == [9, 9])
  }

  @Test func oversizeStringIsRejected() {
    let decoder = WireDecoder(maxStringLength: 4)
    let payload = WireEncoder.payload(ClientMessage.password("12345"))
    let error = clientError(payload, decoder)
    #expect(error?.code == .stringTooLong)
    #expect(error?.offset == 2)
    #expect(clientError(WireEncoder.payload(ClientMessage.password("1234")), decoder) == nil)
    // A string length beyond the remaining bytes (but within the maximum) is a truncation.
    #expect(clientError([0x11, 0x01, 0x05, 0x61])?.code == .truncated)
  }

  @Test func trailingBytesAreRejected() {
    let error = serverError(WireEncoder.payload(ServerMessage.heartbeat) + [0x00])
    #expect(error?.code == .trailingBytes)
    #expect(error?.offset == 1)
    #expect(
      clientError(WireEncoder.payload(ClientMessage.command(1, .startVideo)) + [1, 2])?.offset == 3)
  }

  @Test func countLargerThanTheRemainingBytesIsRejected() {
    // usersLeft claiming 5 users with 2 bytes left.
    let error = serverError([0x94, 0x09, 0x05, 0x01, 0x02])
    #expect(error?.code == .countTooLarge)
    #expect(error?.offset == 2)
    // usersJoined claiming 2 participants (11 bytes each at least) with 12 bytes left.
    #expect(
      serverError([0x94, 0x08, 0x02] + Array(repeating: 0, count: 12))?.code == .countTooLarge)
    // A count of 2^63 in an event batch.
    #expect(serverError(bytes("93 00 80 80 80 80 80 80 80 80 80 01"))?.code == .countTooLarge)
  }

  @Test func countAboveTheConfiguredMaximumIsRejected() {
    let decoder = WireDecoder(maxCollectionCount: 2)
    #expect(serverError([0x94, 0x09, 0x03, 0x01, 0x02, 0x03], decoder)?.code == .countTooLarge)
    #expect(serverError([0x94, 0x09, 0x02, 0x01, 0x02], decoder) == nil)
  }

  @Test func malformedVarintsAreRejected() {
    // 11 bytes.
    let long = serverError([0x95] + Array(repeating: 0x80, count: 10) + [0x01])
    #expect(long?.code == .malformedVarint)
    #expect(long?.offset == 1)
    // 10 bytes whose last carries more than 64 bits.
    #expect(
      serverError([0x93] + Array(repeating: 0xFF, count: 9) + [0x02])?.code == .malformedVarint)
    // Not in shortest form: 0 as 80 00.
    #expect(clientError([0x12, 0x80, 0x00, 0x02])?.code == .malformedVarint)
    // Ends inside the varint.
    #expect(clientError([0x12, 0x80])?.code == .truncated)
  }

  @Test func integersTooLargeForTheirFieldAreRejected() {
    // A command id of 2^32.
    let error = clientError([0x12, 0x80, 0x80, 0x80, 0x80, 0x10, 0x02])
    #expect(error?.code == .integerOverflow)
    #expect(error?.offset == 1)
    // A user id of 2^32.
    #expect(
      clientError([0x12, 0x00, 0x06, 0x80, 0x80, 0x80, 0x80, 0x10])?.code == .integerOverflow)
  }

  @Test func setsMustBeStrictlyAscending() {
    func snapshot(annotators: String) -> [UInt8] {
      bytes("90 00 00 00 00 02 01 09 01 00 00 \(annotators) 00 00 01 00 00 00 00 00 00 00 00 00")
    }
    #expect(serverError(snapshot(annotators: "02 01 02")) == nil)
    #expect(serverError(snapshot(annotators: "02 02 01"))?.code == .invalidValue)
    #expect(serverError(snapshot(annotators: "02 02 02"))?.code == .invalidValue)
  }

  @Test func eventBatchesMustHoldEventsWithinSixtyFourBits() {
    #expect(serverError([0x93, 0x05, 0x00])?.code == .invalidValue)
    let last = bytes("93 ff ff ff ff ff ff ff ff ff 01 01 01")
    #expect(serverError(last) == nil)
    let overflow = bytes("93 ff ff ff ff ff ff ff ff ff 01 02 01 01")
    #expect(serverError(overflow)?.code == .invalidValue)
  }

  @Test func errorsDescribeThemselves() {
    let error = serverError([0x94, 0x63])
    #expect(error?.description == "unknownTag at offset 1: event tag: no case has tag 99")
  }

  @Test func negativeLimitsRejectInsteadOfTrapping() {
    var decoder = WireDecoder()
    decoder.maxStringLength = -1
    decoder.maxCollectionCount = -1
    #expect(
      clientError(WireEncoder.payload(ClientMessage.password("a")), decoder)?.code == .stringTooLong
    )
    #expect(serverError([0x94, 0x09, 0x01, 0x05], decoder)?.code == .countTooLarge)
    decoder.maxFrameSize = -1
    #expect(serverError([0x97], decoder)?.code == .frameTooLarge)
  }
}
