import SessionTransport
import Testing

@Suite struct WireHandshakeTests {
  private let decoder = WireDecoder()

  @Test func helloEncodesMagicVersionAndName() {
    let payload = WireEncoder.payload(.hello(WireHello(clientName: "peer")) as WireClientFrame)
    #expect(hex(payload) == "01 53 45 53 4e 00 01 01 04 70 65 65 72")
    let anonymous = WireEncoder.payload(.hello(WireHello()) as WireClientFrame)
    #expect(hex(anonymous) == "01 53 45 53 4e 00 01 00")
  }

  @Test func helloAndAckRoundTrip() throws {
    for name in [nil, "", "sessionsim-peer-17", "名前"] {
      let hello = WireClientFrame.hello(WireHello(clientName: name))
      #expect(try decoder.decodeClientFrame(WireEncoder.payload(hello)) == hello)
    }
    for version: UInt16 in [0, 1, 2, 0x1234, .max] {
      let ack = WireServerFrame.helloAck(WireHelloAck(version: version))
      #expect(try decoder.decodeServerFrame(WireEncoder.payload(ack)) == ack)
    }
    #expect(hex(WireEncoder.payload(.helloAck(WireHelloAck()) as WireServerFrame)) == "81 00 01")
  }

  @Test func supportedHelloIsAcknowledgedWithItsVersion() {
    #expect(WireProtocol.answer(to: WireHello()) == .helloAck(WireHelloAck(version: 1)))
  }

  @Test func unsupportedVersionGetsWrongVersionGoodbye() throws {
    for version: UInt16 in [0, 2, .max] {
      guard case .goodbye(let goodbye) = WireProtocol.answer(to: WireHello(version: version)) else {
        Issue.record("version \(version) was accepted")
        continue
      }
      #expect(goodbye.reason == .wrongVersion)
      #expect(goodbye.text.contains("speaks 1"))
    }
    let range = WireProtocol.answer(to: WireHello(version: 9), supported: 1...3)
    guard case .goodbye(let goodbye) = range else { return }
    #expect(goodbye.text.contains("1...3"))
  }

  @Test func futureHelloBodyIsSkippedSoTheServerCanAnswerWrongVersion() throws {
    // Version 2 with a body a version-1 decoder can't parse.
    let payload = bytes("01 53 45 53 4e 00 02 ff ff ff ff ff ff ff ff ff ff ff")
    let frame = try decoder.decodeClientFrame(payload)
    #expect(frame == .hello(WireHello(version: 2, clientName: nil)))
  }

  @Test func badMagicIsRejected() {
    #expect {
      try decoder.decodeClientFrame(bytes("01 53 45 53 4f 00 01 00"))
    } throws: { error in
      (error as? WireError)?.code == .badMagic && (error as? WireError)?.offset == 1
    }
    #expect {
      try decoder.decodeClientFrame(bytes("01 53 45"))
    } throws: { error in
      (error as? WireError)?.code == .truncated
    }
  }

  @Test func goodbyeEncodesReasonAndText() throws {
    let goodbye = WireGoodbye(reason: .idleTimeout, text: "silent")
    let server = WireEncoder.payload(.goodbye(goodbye) as WireServerFrame)
    #expect(hex(server) == "82 04 06 73 69 6c 65 6e 74")
    let client = WireEncoder.payload(.goodbye(goodbye) as WireClientFrame)
    #expect(hex(client) == "02 04 06 73 69 6c 65 6e 74")
    #expect(try decoder.decodeServerFrame(server) == .goodbye(goodbye))
    #expect(try decoder.decodeClientFrame(client) == .goodbye(goodbye))
  }

  @Test func goodbyeForADecodingErrorNamesIt() {
    let tooLarge = WireError(.frameTooLarge, offset: 0, detail: "x")
    #expect(WireGoodbye(for: tooLarge).reason == .tooLarge)
    let malformed = WireError(.unknownTag, offset: 3, detail: "event tag: no case has tag 99")
    let goodbye = WireGoodbye(for: malformed)
    #expect(goodbye.reason == .malformed)
    #expect(goodbye.text == "unknownTag at offset 3: event tag: no case has tag 99")
  }

  @Test func goodbyeReasonCodesAreStable() {
    let codes = WireGoodbye.Reason.allCases.map(\.rawValue)
    #expect(codes == [1, 2, 3, 4, 5, 6])
  }
}
