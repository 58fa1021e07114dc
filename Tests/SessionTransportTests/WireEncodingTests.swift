import SessionCore
import SessionTransport
import Testing

/// Exact bytes: the examples `Docs/WireProtocol.md` gives, checked.
@Suite struct WireEncodingTests {
  private func payload(_ message: ServerMessage) -> String { hex(WireEncoder.payload(message)) }
  private func payload(_ message: ClientMessage) -> String { hex(WireEncoder.payload(message)) }

  @Test func varintsAreLittleEndianBase128() {
    let cases: [(UInt64, String)] = [
      (0, "00"), (1, "01"), (127, "7f"), (128, "80 01"), (300, "ac 02"), (16_384, "80 80 01"),
      (UInt64(UInt32.max), "ff ff ff ff 0f"),
      (.max, "ff ff ff ff ff ff ff ff ff 01"),
    ]
    for (value, expected) in cases {
      // A resume's last sequence is the last field, a bare varint.
      let message = ClientMessage.resume(
        ResumeRequest(sessionID: "", user: 0, resumeToken: 0, lastSequence: value))
      #expect(payload(message) == "13 00 00 00 " + expected)
    }
  }

  @Test func signedIntegersAreZigzag() {
    let cases: [(Int, String)] = [
      (0, "00"), (-1, "01"), (1, "02"), (-2, "03"), (63, "7e"), (-64, "7f"), (64, "80 01"),
      (.max, "fe ff ff ff ff ff ff ff ff 01"), (.min, "ff ff ff ff ff ff ff ff ff 01"),
    ]
    for (value, expected) in cases {
      #expect(
        payload(.notice(.errorOccurred(error: .success, detail: value))) == "94 1b 00 " + expected)
    }
  }

  @Test func stringsAreByteCountThenUTF8() {
    #expect(payload(.command(1, .deleteChatMessage(messageID: ""))) == "12 01 1c 00")
    #expect(payload(.command(1, .deleteChatMessage(messageID: "hé"))) == "12 01 1c 03 68 c3 a9")
  }

  @Test func optionalsHaveAPresenceByte() {
    #expect(payload(.password(nil)) == "11 00")
    #expect(payload(.password("pw")) == "11 01 02 70 77")
    #expect(payload(.command(2, .sendChat(receiver: nil, content: "a"))) == "12 02 1b 00 01 61")
    #expect(payload(.command(2, .sendChat(receiver: 300, content: ""))) == "12 02 1b 01 ac 02 00")
  }

  @Test func setsAreSortedArrays() {
    let share = ActiveShare(owner: 9, annotators: [300, 2, 17], clearCount: -1, startOrder: 4)
    let snapshot = SessionSnapshot(
      sessionName: "", sessionID: "", myself: 0, participants: [], shares: [share])
    #expect(
      payload(.joined(snapshot, resumeToken: 0))
        == "90 00 00 00 00 02 01 09 01 00 00 03 02 11 ac 02 01 04 01 00 00 00 00 00 00 00 00 00")
  }

  @Test func typicalVideoStatusBatchIsSevenBytes() {
    let batch = ServerMessage.events(
      EventBatch(firstSequence: 1_000, events: [.videoStatusChanged(user: 42, isOn: true)]))
    #expect(payload(batch) == "93 e8 07 01 0a 2a 01")
    var frame: [UInt8] = []
    #expect((try? WireEncoder.appendFrame(batch, to: &frame)) == 7)
    #expect(hex(frame) == "00 00 00 07 93 e8 07 01 0a 2a 01")
  }

  @Test func workedExampleJoin() {
    let join = ClientMessage.join(
      JoinRequest(
        sessionName: "Algebra101", userName: "Ada", token: "eyJ", muteAudio: true))
    #expect(
      payload(join)
        == "10 0a 41 6c 67 65 62 72 61 31 30 31 03 41 64 61 03 65 79 4a 00 01 01 00 00")
  }

  @Test func workedExampleBatch() {
    let batch = ServerMessage.events(
      EventBatch(
        firstSequence: 130,
        events: [
          .usersJoined([
            Participant(
              id: 7, name: "Bo", audio: AudioStatus(type: .voip, isMuted: true), joinOrder: 3)
          ]),
          .videoStatusChanged(user: 7, isOn: true),
          .audioStatusChanged(user: 7, type: .voip, isMuted: false),
        ]))
    #expect(
      payload(batch)
        == "93 82 01 03 08 01 07 02 42 6f 02 00 01 01 00 00 00 03 00 0a 07 01 0b 07 01 00")
  }

  @Test func workedExampleHeartbeatAndCommands() {
    #expect(payload(ClientMessage.heartbeat) == "14")
    #expect(payload(ServerMessage.heartbeat) == "97")
    #expect(payload(.command(5, .startVideo)) == "12 05 02")
    #expect(payload(.commandFailed(5, .sessionNoRights)) == "95 05 d4 0f")
  }

  @Test func frameHeaderIsBigEndianLength() {
    var buffer: [UInt8] = []
    WireEncoder.appendFrameHeader(length: 0x0102_0304, to: &buffer)
    #expect(buffer == [1, 2, 3, 4])
  }

  /// The complete frames of `Docs/WireProtocol.md` section 11, byte for byte.
  @Test func workedExamples() throws {
    func frame(_ value: WireClientFrame) throws -> String {
      var buffer: [UInt8] = []
      try WireEncoder.appendFrame(value, to: &buffer)
      return hex(buffer)
    }
    func frame(_ value: WireServerFrame) throws -> String {
      var buffer: [UInt8] = []
      try WireEncoder.appendFrame(value, to: &buffer)
      return hex(buffer)
    }
    #expect(
      try frame(.hello(WireHello(clientName: "peer-1")))
        == "00 00 00 0f 01 53 45 53 4e 00 01 01 06 70 65 65 72 2d 31")
    #expect(try frame(.helloAck(WireHelloAck())) == "00 00 00 03 81 00 01")
    let join = JoinRequest(
      sessionName: "Algebra101", userName: "Ada", token: "eyJ", muteAudio: true)
    #expect(
      try frame(.message(.join(join)))
        == "00 00 00 19 10 0a 41 6c 67 65 62 72 61 31 30 31 03 41 64 61 03 65 79 4a 00 01 01 00 00")
    let snapshot = SessionSnapshot(
      sessionName: "Algebra101", sessionID: "s1", myself: 7,
      participants: [
        Participant(
          id: 3, name: "Tom", role: .host, isVideoOn: true,
          audio: AudioStatus(type: .voip, isMuted: false), joinOrder: 1),
        Participant(
          id: 7, name: "Ada", audio: AudioStatus(type: .voip, isMuted: true), joinOrder: 2),
      ],
      sequence: 129)
    #expect(
      try frame(.message(.joined(snapshot, resumeToken: 0x1234_5678)))
        == "00 00 00 3e 90 0a 41 6c 67 65 62 72 61 31 30 31 02 73 31 07 02 03 03 54 6f 6d 00 01 01 "
        + "00 00 00 00 01 00 07 03 41 64 61 02 00 01 01 00 00 00 02 00 02 00 01 00 00 00 00 00 00 00 "
        + "81 01 "
        + "f8 ac d1 91 01"
    )
    #expect(try frame(.message(.command(1, .startVideo))) == "00 00 00 03 12 01 02")
    #expect(try frame(.message(.commandFailed(1, .sessionNoRights))) == "00 00 00 04 95 01 d4 0f")
    let batch = EventBatch(
      firstSequence: 130,
      events: [
        .videoStatusChanged(user: 7, isOn: true),
        .nameChanged(user: 3, name: "Tom\u{E1}s"),
        .audioStatusChanged(user: 7, type: .voip, isMuted: false),
      ])
    #expect(
      try frame(.message(.events(batch)))
        == "00 00 00 14 93 82 01 03 0a 07 01 12 03 06 54 6f 6d c3 a1 73 0b 07 01 00")
    #expect(try frame(.message(ClientMessage.heartbeat)) == "00 00 00 01 14")
    #expect(try frame(.message(ServerMessage.heartbeat)) == "00 00 00 01 97")
    #expect(
      try frame(.goodbye(WireGoodbye(reason: .wrongVersion, text: "speaks 1")) as WireServerFrame)
        == "00 00 00 0b 82 01 08 73 70 65 61 6b 73 20 31")
  }
}
