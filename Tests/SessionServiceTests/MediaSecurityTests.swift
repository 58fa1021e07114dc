import SessionCore
import SessionTransport
import Testing

@testable import SessionService

/// The media plane against members who hold only their own credential, and outsiders who
/// hold none (N2, N8, consent).
@Suite struct MediaSecurityTests {
  /// The bytes each output sends, summed over its endpoints.
  private static func bytesOut(_ outputs: [MediaHostOutput]) -> Int {
    outputs.reduce(0) { total, output in
      switch output {
      case .send(let bytes, _): total + bytes.count
      case .forward(let bytes, let endpoints), .forwardNumbered(let bytes, let endpoints, _):
        total + bytes.count * endpoints.count
      default: total
      }
    }
  }

  // MARK: N2: reflection and amplification

  @Test func aBindForgedWithAVictimsAddressBringsOneSmallCheckThereAndNoStream() throws {
    let world = MediaWorld()
    let publisher = try world.join("Pat")
    world.announceSimulcast(publisher)
    // Mallory and 20 accomplices; each accomplice watches Mallory's... and Mallory watches
    // the publisher. Mallory binds the victim's address (which never answers).
    let mallory = try world.join("Mallory", bind: false)
    #expect(
      world.request(.subscribe(publisher: publisher.user, kind: .video, maxLines: 0), by: mallory)
        .isEmpty)
    let victim = world.newEndpoint()
    var bytesIn = 0
    var outputs: [MediaHostOutput] = []
    let credential = world.credential(mallory)
    for _ in 0..<100 {
      let bind = world.sealed(
        .bind(MediaBind(user: mallory.user, credential: credential.id)), by: credential)
      bytesIn += bind.count
      outputs += world.receive(bind, from: victim)
      outputs += world.send(.video, layer: 2, of: publisher)
      world.mediaNow += 10_000
    }
    let toVictim = outputs.filter {
      switch $0 {
      case .send(_, let to): to == victim
      case .forward(_, let to): to.contains(victim)
      default: false
      }
    }
    // Only checks, at most 8 a second, each smaller than the bind that caused it.
    #expect(!MediaWorld.recipients(outputs).contains(victim))
    #expect(toVictim.count <= 8 * 1 + 8)
    #expect(Self.bytesOut(toVictim) < bytesIn)
    #expect(world.statistics.dropped.checksThrottled > 0)
    #expect(world.service.boundMediaEndpointCount == 1)
  }

  // MARK: N8: forged datagrams from a bound address

  @Test func datagramsWithoutTheMembersKeyFromItsOwnAddressAreDropped() throws {
    let world = MediaWorld()
    let (publisher, viewer) = try world.publisherAndViewer()
    let estimate = world.router?.estimate(of: viewer.user)
    let mallory = try world.join("Mallory")
    let malloryKey = world.credential(mallory)
    // Forged packets of the publisher's stream from its own address, under Mallory's key,
    // under no key, and with a tag of garbage.
    let packet = MediaDatagram.packet(
      world.packet(StreamID(user: publisher.user, kind: .video, layer: 2)))
    var forged: [[UInt8]] = [
      world.sealed(packet, by: malloryKey),
      packet.encode() + [UInt8](repeating: 0, count: MediaDatagram.trailerSize),
      packet.encode(),
    ]
    // Forged 100%-loss reports from the viewer's address, and a forged bind of the
    // publisher's address with Mallory's credential (whose check goes to the publisher).
    let report = MediaDatagram.report(
      ReceiverReport(
        subscriber: viewer.user, stream: StreamID(user: publisher.user, kind: .video, layer: 2),
        highestSequence: 100, packetsReceived: 0, packetsLost: 1_000, jitter: 0,
        lastSendTime: 0))
    var outputs: [MediaHostOutput] = []
    for bytes in forged { outputs += world.receive(bytes, from: publisher.endpoint) }
    for _ in 0..<50 {
      world.mediaNow += 100_000
      outputs += world.receive(world.sealed(report, by: malloryKey), from: viewer.endpoint)
    }
    forged = [
      world.sealed(.bind(MediaBind(user: mallory.user, credential: malloryKey.id)), by: malloryKey)
    ]
    outputs += world.receive(forged[0], from: publisher.endpoint)
    #expect(MediaWorld.recipients(outputs).isEmpty)
    #expect(world.statistics.dropped.unauthenticated >= 53)
    #expect(world.router?.estimate(of: viewer.user) == estimate)
    // The publisher is still bound and still reaches the viewer.
    #expect(
      MediaWorld.recipients(world.send(.video, layer: 2, of: publisher)) == [viewer.endpoint])
  }

  // MARK: Consent freshness

  @Test func anAddressThatStopsAnsweringIsDroppedAndItsMemberTold() throws {
    let world = MediaWorld { $0.mediaConsentTimeout = 3_000_000 }
    let (publisher, viewer) = try world.publisherAndViewer()
    let mark = world.harness.mark
    // The publisher keeps sending; the viewer's address goes silent for 4 s.
    var reached: [MediaEndpointID] = []
    for _ in 0..<40 {
      world.mediaNow += 100_000
      reached += MediaWorld.recipients(world.send(.video, layer: 2, of: publisher))
    }
    #expect(world.notices(to: viewer, since: mark) == [.unbound(.consentExpired)])
    #expect(world.notices(to: publisher, since: mark).isEmpty)
    #expect(world.statistics.consentsExpired == 1)
    #expect(world.pins.contains(.endpointReleased(viewer.endpoint)))
    let last = MediaWorld.recipients(world.send(.video, layer: 2, of: publisher))
    #expect(last.isEmpty)
    #expect(reached.count < 40)
    // Binding again brings delivery back.
    #expect(world.bind(viewer) == [.bound])
    #expect(
      MediaWorld.recipients(world.send(.video, layer: 2, of: publisher)) == [viewer.endpoint])
  }

  @Test func anAddressThatKeepsPingingKeepsItsConsent() throws {
    let world = MediaWorld { $0.mediaConsentTimeout = 3_000_000 }
    let (publisher, viewer) = try world.publisherAndViewer()
    for step in 0..<100 {
      world.mediaNow += 100_000
      if step % 10 == 0 { world.receive(.ping(sendTime: world.mediaNow), from: viewer) }
      world.send(.video, layer: 2, of: publisher)
    }
    #expect(world.statistics.consentsExpired == 0)
    #expect(
      MediaWorld.recipients(world.send(.video, layer: 2, of: publisher)) == [viewer.endpoint])
  }

  @Test func pongsAreTaggedUnderTheMembersOwnKey() throws {
    let world = MediaWorld()
    let ada = try world.join("Ada")
    let outputs = world.receive(.ping(sendTime: 42), from: ada)
    guard case .send(let bytes, let to)? = outputs.first else {
      Issue.record("no pong")
      return
    }
    #expect(to == ada.endpoint)
    #expect(world.authenticator(world.credential(ada)).isAuthentic(bytes))
    #expect(MediaWorld.decodeSealed(bytes) == .pong(sendTime: 42))
  }
}
