import LoopbackTransport
import SessionCore
import SessionTransport
import Testing

@testable import LoopbackTransport

/// A peer chooses its hello's name and its goodbye's text; neither may forge, disguise or
/// swamp a log line.
@Suite("Log injection")
struct LogInjectionTests {
  static let forged = "evil\nwarning c99: closed: FAKE LINE"

  @Test func controlAndBidiCharactersBecomeVisibleEscapes() {
    #expect(LogText.escaped("Ada Lovelace") == "Ada Lovelace")
    #expect(LogText.escaped("a\nb\rc\td") == #"a\nb\rc\td"#)
    #expect(LogText.escaped(#"back\slash"#) == #"back\\slash"#)
    #expect(
      LogText.escaped("nul\u{0}esc\u{1B}del\u{7F}nel\u{85}")
        == #"nul\u{0}esc\u{1B}del\u{7F}nel\u{85}"#)
    #expect(LogText.escaped("line\u{2028}para\u{2029}") == #"line\u{2028}para\u{2029}"#)
    #expect(
      LogText.escaped("abc\u{202E}fed\u{2066}x\u{2069}") == #"abc\u{202E}fed\u{2066}x\u{2069}"#)
    #expect(LogText.escaped("Zoë 👩‍💻") == "Zoë 👩‍💻")
  }

  @Test func longTextIsCutAndSaysHowLongItWas() {
    let long = String(repeating: "x", count: 60_000)
    #expect(LogText.escaped(long) == String(repeating: "x", count: 120) + "…(60000 bytes)")
    #expect(LogText.escaped(String(repeating: "x", count: 120)).count == 120)
    // Escapes count toward the limit, so a name of newlines can't grow the line either.
    let newlines = LogText.escaped(String(repeating: "\n", count: 1_000))
    #expect(newlines == String(repeating: #"\n"#, count: 60) + "…(1000 bytes)")
    // One character of many combining marks is cut by scalars, not kept whole.
    let zalgo = "a" + String(repeating: "\u{301}", count: 10_000)
    #expect(LogText.escaped(zalgo).unicodeScalars.count < 150)
  }

  @Test func aClientNameWithANewlineCannotForgeALogLine() throws {
    let harness = try LoopbackHarness()
    let raw = try RawClient(port: harness.port)
    try raw.write(RawWire.bytes(.hello(WireHello(clientName: Self.forged))))
    #expect(waitUntil { harness.serverLog.all.contains { $0.message.contains("hello from") } })
    raw.close()
    #expect(waitUntil { !harness.serverLog.closes.isEmpty })
    harness.shutdown()

    let records = harness.serverLog.all
    let closes = records.filter {
      $0.message.contains("FAKE LINE") && $0.message.hasPrefix("closed:")
    }
    #expect(closes.count == 1, "\(records)")
    #expect(closes.first?.message == #"closed: peer closed [evil\nwarning c99: closed: FAKE LINE]"#)
    for record in records {
      #expect(!record.description.contains { $0.isNewline }, "\(record)")
    }
    let rendered = records.map(\.description).joined(separator: "\n")
    #expect(rendered.split(separator: "\n").count == records.count)
    #expect(!rendered.split(separator: "\n").contains { $0.hasPrefix("warning c99") })
  }

  /// Close lines end with the client's name in brackets: a name holding `]` must not be able
  /// to end the bracket early and append text that reads as the server's own.
  @Test func aClientNameCannotCloseTheBracketItIsLoggedIn() throws {
    #expect(LogText.escaped("a[b]c") == #"a\[b\]c"#)
    let harness = try LoopbackHarness()
    let raw = try RawClient(port: harness.port)
    let name = "Ada] (closed by the host) [root"
    try raw.write(RawWire.bytes(.hello(WireHello(clientName: name))))
    #expect(waitUntil { harness.serverLog.all.contains { $0.message.contains("hello from") } })
    raw.close()
    #expect(waitUntil { !harness.serverLog.closes.isEmpty })
    harness.shutdown()

    let close = try #require(harness.serverLog.closes.first)
    #expect(close.message == #"closed: peer closed [Ada\] (closed by the host) \[root]"#)
    // Exactly one unescaped `]`: the server's own, at the end.
    let unescaped = close.message.indices.filter {
      close.message[$0] == "]" && close.message[close.message.index(before: $0)] != "\\"
    }
    #expect(unescaped == [close.message.index(before: close.message.endIndex)], "\(close.message)")
  }

  @Test func aHugeClientNameIsCapped() throws {
    let harness = try LoopbackHarness()
    let raw = try RawClient(port: harness.port)
    let name = String(repeating: "n", count: 60_000)
    try raw.write(RawWire.bytes(.hello(WireHello(clientName: name))))
    #expect(waitUntil { harness.serverLog.all.contains { $0.message.contains("hello from") } })
    raw.close()
    #expect(waitUntil { !harness.serverLog.closes.isEmpty })
    harness.shutdown()

    let close = try #require(harness.serverLog.closes.first)
    #expect(close.message.count < 200, "\(close.message.count) characters")
    #expect(close.message.hasSuffix("…(60000 bytes)]"), "\(close.message.suffix(40))")
    for record in harness.serverLog.all {
      #expect(record.message.count < 200, "\(record.message.prefix(60))…")
    }
  }

  @Test func aClientsGoodbyeTextIsEscaped() throws {
    let harness = try LoopbackHarness()
    let raw = try RawClient(port: harness.port)
    let goodbye = WireGoodbye(reason: .malformed, text: "bye\r\nnotice c1: FAKE\u{202E}")
    try raw.write(RawWire.hello() + RawWire.bytes(.goodbye(goodbye)))
    #expect(raw.readUntilClosed().closed)
    #expect(waitUntil { !harness.serverLog.closes.isEmpty })
    harness.shutdown()

    let close = try #require(harness.serverLog.closes.first)
    #expect(close.message.contains(#"bye\r\nnotice c1: FAKE\u{202E}"#), "\(close.message)")
    #expect(!close.message.contains { $0.isNewline })
  }

  @Test func aServersGoodbyeTextIsEscapedOnTheClientSide() throws {
    // A server that acknowledges the hello, then says a goodbye with a forged line in it.
    let server = try EventLoop(name: "forging-server")
    let listener = try server.sync {
      let listener = try TCPListener(loop: server) { connection in
        connection.onFrame = { _ in
          connection.send(frame: WireEncoder.payload(WireServerFrame.helloAck(WireHelloAck())))
          let goodbye = WireGoodbye(reason: .malformed, text: "bye\ninfo c1: FAKE")
          connection.send(frame: WireEncoder.payload(WireServerFrame.goodbye(goodbye)))
          connection.close(afterFlushing: true)
        }
      }
      return LoopBound(listener, loop: server)
    }
    let port = try server.sync { listener.value.localPort }
    let client = try EventLoop(name: "link")
    let events = Recorder<LinkEvent>()
    let log = LogCapture()
    try client.sync {
      let factory = LoopbackLinkFactory(loop: client, port: port, log: log.handler)
      factory.makeLink().start { events.append($0) }
    }
    #expect(events.wait(forCount: 1))
    #expect(
      events.values == [
        .closed(.failed(#"the server said goodbye (malformed): bye\ninfo c1: FAKE"#))
      ])
    #expect(waitUntil { !log.all.isEmpty })
    for record in log.all {
      #expect(!record.description.contains { $0.isNewline }, "\(record)")
    }
    #expect(client.shutdown().isClean)
    #expect(server.shutdown().isClean)
  }
}
