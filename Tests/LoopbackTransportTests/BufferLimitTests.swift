import LoopbackTransport
import SessionCore
import SessionSDK
import SessionService
import SessionTransport
import Testing

/// WireProtocol §7 and `LoopbackServerConfiguration.maxBufferedBytes`: connections that send
/// the header of a big frame and only part of it can't make the server hold more than the
/// bound between them; the largest are shed, and an honest member carries on.
@Suite("Bytes held for unfinished frames")
struct BufferLimitTests {
  static let limit = 2 << 20
  /// Each hoarder announces a frame of the maximum size, then sends this many KB of it.
  static let sizes = [600, 580, 560, 540, 520].map { $0 * 1_024 }

  @Test func theLargestUnfinishedFramesAreShedAndAnHonestMemberCarriesOn() throws {
    let harness = try LoopbackHarness(
      server: LoopbackServerConfiguration(maxBufferedBytes: Self.limit))
    let good = try harness.join("Ada", role: .host)
    let goodID = try #require(try good.myID())
    try toggleVideo(good, id: goodID, toggle: 1)

    // Sent one after the other, each once the server holds what came before, so that what is
    // shed is certain: the running totals below, in bytes of unfinished frames.
    // 1,740 KB after three; the fourth passes 2 MiB, and the largest (the first, 600 KB, not
    // the newcomer) goes; the fifth passes it again, and the second (580 KB) goes.
    let held = [600, 1_180, 1_740, 1_680, 1_620].map { $0 * 1_024 }
    var hoarders: [RawClient] = []
    for (index, size) in Self.sizes.enumerated() {
      let raw = try RawClient(port: harness.port)
      let hello = RawWire.bytes(.hello(WireHello(clientName: "hoarder-\(index + 1)")))
      let header: [UInt8] = [0x00, 0x0F, 0xFF, 0xFF]  // 1 MiB - 1, the most allowed
      try raw.write(hello + header + payload(index, count: size))
      hoarders.append(raw)
      var seen = -1
      #expect(
        try waitUntil(timeoutSeconds: 10) {
          seen = try harness.server.statistics().bufferedFrameBytes
          return seen == held[index]
        }, "after hoarder \(index + 1): \(seen) bytes held, not \(held[index])")
      #expect(seen <= Self.limit)
    }

    // The first two heard why and were closed; the rest are still open.
    for raw in hoarders.prefix(2) {
      let received = raw.readUntilClosed()
      #expect(received.closed)
      let goodbye = RawWire.goodbye(in: RawWire.serverFrames(in: received.bytes))
      #expect(goodbye?.reason == .tooLarge, "\(String(describing: goodbye))")
      #expect(goodbye?.text.contains("unfinished frame") == true, "\(String(describing: goodbye))")
    }
    let closes = harness.serverLog.closes
    #expect(closes.count == 2, "\(closes)")
    for (index, close) in closes.enumerated() {
      #expect(close.level == .warning)
      #expect(close.message.hasPrefix("closed: over the buffer limit"), "\(close.message)")
      #expect(close.message.hasSuffix("[hoarder-\(index + 1)]"), "\(close.message)")
    }

    // The honest member carries on, and so does the service.
    try toggleVideo(good, id: goodID, toggle: 2)
    try harness.waitForConvergence([good])

    // Every byte held is let go when its connection closes.
    for raw in hoarders { raw.close() }
    var last = try harness.server.statistics()
    #expect(
      try waitUntil {
        last = try harness.server.statistics()
        return last.connectionsOpen == 1 && last.bufferedFrameBytes == 0
      }, "\(last)")
    harness.shutdown()
  }

  /// The peer toggles its video and sees its own callback: the `toggle`-th such callback.
  private func toggleVideo(
    _ peer: Peer, id: UserID, toggle: Int, sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    try peer.run { sdk in
      if sdk.store.state.myself?.isVideoOn == true {
        sdk.getVideoHelper().stopVideo()
      } else {
        sdk.getVideoHelper().startVideo()
      }
    }
    #expect(
      peer.waitFor(.onUserVideoStatusChanged([id]), count: toggle),
      "the honest member got no callback", sourceLocation: sourceLocation)
  }
}
