import SessionCore
import SessionFuzz
import SessionTransport
import Testing

private let decoder = WireDecoder()

/// Encodes a server message and decodes it back, checking the payload is consumed exactly.
private func roundTrip(_ message: ServerMessage) throws -> ServerMessage? {
  guard case .message(let decoded) = try decoder.decodeServerFrame(WireEncoder.payload(message))
  else { return nil }
  return decoded
}

private func roundTrip(_ message: ClientMessage) throws -> ClientMessage? {
  guard case .message(let decoded) = try decoder.decodeClientFrame(WireEncoder.payload(message))
  else { return nil }
  return decoded
}

@Suite struct WireRoundTripTests {
  @Test(arguments: 0..<Arbitrary.eventCaseCount)
  func everyEventCaseRoundTripsAsNoticeAndInBatch(caseIndex: Int) throws {
    var arbitrary = Arbitrary(seed: UInt64(caseIndex))
    for _ in 0..<50 {
      let event = arbitrary.event(case: caseIndex)
      let payload = WireEncoder.payload(ServerMessage.notice(event))
      #expect(payload[0] == 0x94)
      #expect(payload[1] == UInt8(caseIndex + 1), "tag of \(event.name)")
      #expect(try roundTrip(.notice(event)) == .notice(event))
      let batch = ServerMessage.events(EventBatch(firstSequence: 7, events: [event, event]))
      #expect(try roundTrip(batch) == batch)
    }
  }

  @Test(arguments: 0..<Arbitrary.commandCaseCount)
  func everyCommandCaseRoundTrips(caseIndex: Int) throws {
    var arbitrary = Arbitrary(seed: UInt64(caseIndex))
    for _ in 0..<50 {
      let command = arbitrary.command(case: caseIndex)
      let message = ClientMessage.command(arbitrary.uint32(), command)
      let payload = WireEncoder.payload(message)
      #expect(payload[0] == 0x12)
      #expect(try roundTrip(message) == message, "\(command.name)")
    }
  }

  @Test func commandTagsFollowDeclarationOrder() throws {
    var arbitrary = Arbitrary(seed: 1)
    for index in 0..<Arbitrary.commandCaseCount {
      // Command id 0 is one byte, so the tag is the third byte.
      let payload = WireEncoder.payload(ClientMessage.command(0, arbitrary.command(case: index)))
      #expect(payload[2] == UInt8(index + 1))
    }
  }

  @Test(arguments: 0..<Arbitrary.clientMessageCaseCount)
  func everyClientMessageCaseRoundTrips(caseIndex: Int) throws {
    var arbitrary = Arbitrary(seed: 100 + UInt64(caseIndex))
    let expectedType: [UInt8] = [0x10, 0x11, 0x12, 0x13, 0x14, 0x15]
    for _ in 0..<50 {
      let message = arbitrary.clientMessage(case: caseIndex)
      #expect(WireEncoder.payload(message)[0] == expectedType[caseIndex])
      #expect(try roundTrip(message) == message)
    }
  }

  @Test(arguments: 0..<Arbitrary.serverMessageCaseCount)
  func everyServerMessageCaseRoundTrips(caseIndex: Int) throws {
    var arbitrary = Arbitrary(seed: 200 + UInt64(caseIndex))
    let expectedType: [UInt8] = [0x90, 0x91, 0x92, 0x93, 0x94, 0x95, 0x96, 0x97, 0x98]
    for _ in 0..<50 {
      let message = arbitrary.serverMessage(case: caseIndex)
      #expect(WireEncoder.payload(message)[0] == expectedType[caseIndex])
      #expect(try roundTrip(message) == message)
    }
  }

  @Test func tenThousandRandomClientFramesRoundTrip() throws {
    var arbitrary = Arbitrary(seed: 0xC11E_4700)
    for _ in 0..<10_000 {
      let frame = arbitrary.clientFrame()
      let payload = WireEncoder.payload(frame)
      try #require(try decoder.decodeClientFrame(payload) == frame, "\(hex(payload))")
    }
  }

  @Test func tenThousandRandomServerFramesRoundTrip() throws {
    var arbitrary = Arbitrary(seed: 0x5E4E_4700)
    for _ in 0..<10_000 {
      let frame = arbitrary.serverFrame()
      let payload = WireEncoder.payload(frame)
      try #require(try decoder.decodeServerFrame(payload) == frame, "\(hex(payload))")
    }
  }

  @Test func everyVideoSDKErrorRoundTrips() throws {
    for error in VideoSDKError.allCases {
      #expect(try roundTrip(.joinRefused(error)) == .joinRefused(error))
      #expect(try roundTrip(.commandFailed(.max, error)) == .commandFailed(.max, error))
    }
  }

  @Test func everySmallEnumValueRoundTrips() throws {
    for reason in LeaveReason.allCases {
      #expect(try roundTrip(.left(reason)) == .left(reason))
    }
    for setting in ShareSetting.allCases {
      #expect(
        try roundTrip(.notice(.shareSettingChanged(setting)))
          == .notice(.shareSettingChanged(setting)))
    }
    for privilege in ChatPrivilege.allCases {
      let command = ClientMessage.command(1, .changeChatPrivilege(privilege))
      #expect(try roundTrip(command) == command)
    }
    for reason in WireGoodbye.Reason.allCases {
      let goodbye = WireGoodbye(reason: reason, text: "bye")
      #expect(
        try decoder.decodeServerFrame(WireEncoder.payload(.goodbye(goodbye) as WireServerFrame))
          == .goodbye(goodbye))
      #expect(
        try decoder.decodeClientFrame(WireEncoder.payload(.goodbye(goodbye) as WireClientFrame))
          == .goodbye(goodbye))
    }
  }

  @Test func extremeIntegersRoundTrip() throws {
    let snapshot = SessionSnapshot(
      sessionName: "", sessionID: "", myself: UserID(rawValue: .max),
      participants: [Participant(id: UserID(rawValue: .max), name: "", joinOrder: .max)],
      shares: [
        ActiveShare(
          owner: 0, annotators: [0, 1, UserID(rawValue: .max)], clearCount: .min, startOrder: .max),
        ActiveShare(owner: 1, clearCount: .max),
      ],
      sequence: .max)
    let joined = ServerMessage.joined(snapshot, resumeToken: .max)
    #expect(try roundTrip(joined) == joined)
    let error = ServerMessage.notice(.errorOccurred(error: .unknown, detail: .min))
    #expect(try roundTrip(error) == error)
    let chat = ServerMessage.notice(
      .chatMessageReceived(
        ChatMessage(id: "m", sender: 0, receiver: nil, content: "", timestamp: .min)))
    #expect(try roundTrip(chat) == chat)
    let batch = ServerMessage.events(
      EventBatch(firstSequence: .max - 1, events: [.initialized, .cleanedUp]))
    #expect(try roundTrip(batch) == batch)
    let join = ClientMessage.join(
      JoinRequest(sessionName: "s", userName: "u", token: "t", idleTimeoutMinutes: .min))
    #expect(try roundTrip(join) == join)
  }

  @Test func framesInOneBufferDecodeInOrder() throws {
    var arbitrary = Arbitrary(seed: 42)
    let messages = (0..<64).map { _ in arbitrary.serverMessage() }
    var buffer: [UInt8] = [0xEE]  // Bytes already queued stay untouched.
    for message in messages {
      try WireEncoder.appendFrame(message, to: &buffer)
    }
    #expect(buffer[0] == 0xEE)
    var decoded: [ServerMessage] = []
    try buffer.dropFirst().withUnsafeBytes { stream in
      var start = 0
      while let range = try decoder.nextFrame(
        in: UnsafeRawBufferPointer(rebasing: stream[start...]))
      {
        let payload = UnsafeRawBufferPointer(
          rebasing: stream[start + range.lowerBound..<start + range.upperBound])
        if case .message(let message) = try decoder.decodeServerFrame(payload) {
          decoded.append(message)
        }
        start += range.upperBound
      }
      #expect(start == stream.count)
    }
    #expect(decoded == messages)
  }

  @Test func appendPayloadMatchesPayload() {
    var arbitrary = Arbitrary(seed: 9)
    for _ in 0..<100 {
      let message = arbitrary.clientMessage()
      var buffer: [UInt8] = [1, 2, 3]
      WireEncoder.appendPayload(message, to: &buffer)
      #expect(buffer == [1, 2, 3] + WireEncoder.payload(message))
    }
  }

  @Test func decodingFromASliceReadsOnlyTheSlice() throws {
    let message = ServerMessage.events(
      EventBatch(firstSequence: 3, events: [.videoStatusChanged(user: 5, isOn: true)]))
    let buffer = [0xFF, 0xFF] + WireEncoder.payload(message) + [0xFF]
    let slice = buffer[2..<buffer.count - 1]
    #expect(try decoder.decodeServerFrame(slice) == .message(message))
  }

  @Test func messagesLargerThanTheEstimateEncodeAlike() throws {
    let content = String(repeating: "漢字 and ASCII ", count: 4_000)
    let chat = ServerMessage.notice(
      .chatMessageReceived(
        ChatMessage(id: "m1", sender: 1, receiver: 2, content: content, timestamp: 5)))
    let participants = (0..<1_000).map {
      Participant(id: UserID(UInt32($0)), name: "user \($0)", joinOrder: UInt64($0))
    }
    let joined = ServerMessage.joined(
      SessionSnapshot(sessionName: "big", sessionID: "s", myself: 3, participants: participants),
      resumeToken: 77)
    let decoder = WireDecoder(maxStringLength: 1 << 20)
    for message in [chat, joined] {
      let payload = WireEncoder.payload(message)
      var framed: [UInt8] = [0xAB]
      let length = try WireEncoder.appendFrame(message, to: &framed)
      #expect(length == payload.count)
      #expect(Array(framed.dropFirst(5)) == payload)
      var appended: [UInt8] = []
      WireEncoder.appendPayload(message, to: &appended)
      #expect(appended == payload)
      #expect(try decoder.decodeServerFrame(payload) == .message(message))
    }
  }
}
