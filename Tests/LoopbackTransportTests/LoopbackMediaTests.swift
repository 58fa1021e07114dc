import SessionTransport
import Testing

@testable import LoopbackTransport

@Suite("Loopback media plane")
struct LoopbackMediaTests {
  @Test func aLinkReachesTheMediaHostAndHearsItsEcho() throws {
    let fixture = try MediaFixture(.echo)
    let media = try fixture.link()
    let before = LoopbackMediaClock.now()
    try media.sendAll((0..<10).map(stampedDatagram))
    #expect(media.datagrams.wait(forCount: 10))
    let echoes = media.datagrams.values
    #expect(echoes.compactMap { unstamp($0.bytes)?.index }.sorted() == Array(0..<10))
    for echo in echoes {
      let sentAt = unstamp(echo.bytes)?.sentAt ?? .max
      #expect(sentAt >= before && echo.at >= sentAt, "one clock for both ends")
    }
    let seen = fixture.hostRecord.values
    #expect(seen.count == 10)
    #expect(Set(seen.map(\.from)).count == 1, "one source, one endpoint")
    #expect(seen.allSatisfy { $0.now >= before })
    let statistics = try fixture.statistics()
    #expect(statistics.datagramsReceived == 10 && statistics.datagramsSent == 10)
    #expect(statistics.endpoints == 1 && statistics.endpointsMade == 1)
    #expect(statistics.endpointsEvicted == 0 && statistics.sendsToUnknownEndpoints == 0)
    fixture.shutdown()
  }

  @Test func aServerWithoutAMediaHostHasNoMediaPlane() throws {
    let server = try LoopbackServer { PlainHost() }
    #expect(server.mediaPort == nil)
    #expect(try server.statistics().media == nil)
    #expect(server.shutdown().isClean)
    // A media side given explicitly opens it, on the configured port.
    let given = try LoopbackServer(makeHost: { PlainHost() }, mediaHost: { $0.media })
    #expect(given.mediaPort != nil && given.mediaPort != 0)
    #expect(try given.statistics().media == LoopbackMediaStatistics())
    #expect(given.shutdown().isClean)
  }

  @Test func aForwardReachesEveryOtherLink() throws {
    let fixture = try MediaFixture(.fanOut)
    let links = try (0..<4).map { _ in try fixture.link() }
    // Each says hello in turn, so the host knows them all.
    for (index, media) in links.enumerated() {
      try media.send([UInt8(index)])
      #expect(fixture.hostRecord.wait(forCount: index + 1))
    }
    try links[0].send([42, 42])
    for media in links.dropFirst() {
      #expect(waitUntil { media.datagrams.values.contains { $0.bytes == [42, 42] } })
    }
    #expect(fixture.hostRecord.wait(forCount: 5))
    #expect(Set(fixture.hostRecord.values.map(\.from)).count == 4)
    #expect(!links[0].datagrams.values.contains { $0.bytes == [42, 42] })
    // Hellos: link k got one from each later link; the forward: one each for links 1...3.
    let statistics = try fixture.statistics()
    #expect(statistics.datagramsSent == 6 + 3)
    fixture.shutdown()
  }

  @Test func malformedDatagramsReachTheHostUnchanged() throws {
    let fixture = try MediaFixture(.echo)
    let media = try fixture.link()
    let odd: [[UInt8]] = [
      [], [0xFF], Array(repeating: 0xAB, count: 33), (0..<2_000).map { UInt8($0 & 0xFF) },
      Array(repeating: 7, count: 60_000),
    ]
    for (index, payload) in odd.enumerated() {
      try media.send(payload)
      #expect(media.datagrams.wait(forCount: index + 1))
    }
    #expect(fixture.hostRecord.wait(forCount: odd.count))
    #expect(fixture.hostRecord.values.map(\.bytes) == odd)
    #expect(media.datagrams.values.map(\.bytes) == odd, "and the host's echo comes back whole")
    fixture.shutdown()
  }

  @Test func outputsToUnknownEndpointsAreDroppedAndCounted() throws {
    let fixture = try MediaFixture(.echo)
    let media = try fixture.link()
    try media.send([1])
    #expect(media.datagrams.wait(forCount: 1))
    let known = fixture.hostRecord.values[0].from
    let done = Latch()
    fixture.server.executeWithHost { host in
      host.emit(.send([2], to: MediaEndpointID(0)))
      host.emit(.forward([3], to: [MediaEndpointID(12_345), known, MediaEndpointID(.max)]))
      done.signal()
    }
    #expect(done.wait())
    #expect(media.datagrams.wait(forCount: 2))
    #expect(media.datagrams.values.last?.bytes == [3])
    #expect(try fixture.statistics().sendsToUnknownEndpoints == 3)
    fixture.shutdown()
  }

  /// A hostile flood of source ports: the table stays at its bound, evicting the flood's own
  /// endpoints (never sent to) before the member's, which keeps its endpoint throughout.
  @Test func aFloodOfSourcePortsStaysBounded() throws {
    var configuration = LoopbackServerConfiguration()
    configuration.maxMediaEndpoints = 8
    let fixture = try MediaFixture(.echoMarked, configuration: configuration)
    let member = try fixture.link()
    try member.send([MediaTestHost.bindMark, 1])
    #expect(member.datagrams.wait(forCount: 1))
    let endpoint = fixture.hostRecord.values[0].from
    let flood = try UDPFixture()
    let sources = try (0..<64).map { _ in try flood.endpoint() }
    let target = fixture.mediaPort
    for (index, source) in sources.enumerated() {
      try flood.loop.sync { _ = try source.socket.value.send([0xEE, UInt8(index)], to: target) }
      #expect(fixture.hostRecord.wait(forCount: index + 2))
    }
    try member.send([MediaTestHost.bindMark, 2])
    #expect(member.datagrams.wait(forCount: 2))
    let statistics = try fixture.statistics()
    #expect(statistics.endpoints == 8)
    #expect(statistics.endpointsMade == 65)
    #expect(statistics.endpointsEvicted == 57)
    #expect(fixture.hostRecord.values.last?.from == endpoint, "the member kept its endpoint")
    // Every flooding source had an endpoint of its own, however briefly.
    let floodEndpoints = Set(fixture.hostRecord.values.dropFirst().dropLast().map(\.from))
    #expect(floodEndpoints.count == 64 && !floodEndpoints.contains(endpoint))
    flood.shutdown()
    fixture.shutdown()
  }

  @Test func linksTickFromOneSharedTimerAndStopWhenClosed() throws {
    let fixture = try MediaFixture(.echo)
    let base = try fixture.client.handleCount()
    let links = try fixture.client.sync {
      [client = fixture.client] in
      let factory = LoopbackMediaLinkFactory(loop: client, port: fixture.mediaPort)
      let first = Recorder<Int64>()
      var made: [(LoopBound<LoopbackMediaLink>, Recorder<Int64>)] = []
      for index in 0..<40 {
        let ticks = index == 0 ? first : Recorder<Int64>()
        let link = factory.makeLoopbackMediaLink()
        #expect(link.tickInterval == 10_000)
        link.start { event in if case .tick(let now) = event { ticks.append(now) } }
        made.append((LoopBound(link, loop: client), ticks))
      }
      return made
    }
    // 40 sockets and one timer for them all.
    #expect(try fixture.client.handleCount() == base + 41)
    for (_, ticks) in links { #expect(ticks.wait(forCount: 5)) }
    // Links started in one turn get the same time from each tick.
    let firsts = Set(links.map { $0.1.values[0] })
    #expect(firsts.count == 1)
    let times = links[0].1.values
    #expect(zip(times, times.dropFirst()).allSatisfy { $0 < $1 })
    #expect(times[4] - times[0] >= 30_000, "ticks keep their interval, near enough")
    try fixture.client.sync { for (link, _) in links { link.value.close() } }
    let counts = links.map { $0.1.count }
    // The sockets close; the shared timer stays, stopped, for the next links.
    #expect(waitUntil { (try? fixture.client.handleCount()) == base + 1 })
    try fixture.client.sync {}
    #expect(links.map { $0.1.count } == counts, "no tick after the close")
    // A new link restarts the shared timer.
    let again = try fixture.link()
    #expect(again.ticks.wait(forCount: 2))
    #expect(try fixture.client.handleCount() == base + 2)
    fixture.shutdown()
  }

  /// A link and its loop's shared ticker hold each other until the link closes, and the loop
  /// holds its tickers: a loop shut down with a link open closes it, and frees the link, its
  /// handler and what the handler held (LeakSanitizer found the leak).
  @Test func aLoopShutDownWithALinkOpenFreesTheLinkAndItsHandler() throws {
    final class Held: Sendable {}
    weak var weakLink: LoopbackMediaLink?
    weak var weakHeld: Held?
    weak var weakLoop: EventLoop?
    do {
      let loop = try EventLoop(name: "media-lifetime")
      let held = Held()
      let link = try loop.sync {
        let link = LoopbackMediaLinkFactory(loop: loop, port: 9).makeLoopbackMediaLink()
        link.start { _ in withExtendedLifetime(held) {} }
        return Unbound(link)
      }
      #expect(try loop.sync { link.link.isOpen })
      #expect(loop.shutdown().isClean)
      #expect(!link.link.isOpen, "the shutdown closed the link")
      weakLink = link.link
      weakHeld = held
      weakLoop = loop
    }
    #expect(weakLoop == nil, "the loop outlived its shutdown")
    #expect(weakLink == nil, "the open link outlived its loop")
    #expect(weakHeld == nil, "what the link's handler held outlived the loop")
  }

  @Test func aClosedLinkSendsAndDeliversNothing() throws {
    let fixture = try MediaFixture(.echo)
    let media = try fixture.link()
    try media.send([1])
    #expect(media.datagrams.wait(forCount: 1))
    let link = media.link
    try fixture.client.sync {
      link.value.close()
      link.value.close()
      link.value.send([2])
      #expect(!link.value.isOpen)
      link.value.start { _ in Issue.record("a closed link never starts again") }
    }
    try media.send([3])
    #expect(fixture.hostRecord.count == 1)
    // Closing from another thread is queued to the loop.
    let other = try fixture.link()
    #expect(other.ticks.wait(forCount: 1))
    let otherLink = other.link
    let unbound = try fixture.client.sync { Unbound(otherLink.value) }
    unbound.link.close()
    #expect(waitUntil { (try? fixture.client.sync { !otherLink.value.isOpen }) == true })
    fixture.shutdown()
  }

  @Test func datagramsFromOtherPortsAreDroppedByTheLink() throws {
    let fixture = try MediaFixture(.echo)
    let media = try fixture.link()
    let port = try media.localPort()
    let stranger = try UDPFixture()
    let source = try stranger.endpoint()
    try stranger.loop.sync { _ = try source.socket.value.send([9, 9], to: port) }
    let link = media.link
    #expect(waitUntil { (try? fixture.client.sync { link.value.datagramsFromOthers }) == 1 })
    #expect(media.datagrams.count == 0)
    try media.send([1])
    #expect(media.datagrams.wait(forCount: 1))
    #expect(try fixture.client.sync { link.value.socketStatistics?.datagramsReceived } == 2)
    stranger.shutdown()
    fixture.shutdown()
  }

  @Test func aFactoryClampsItsTickIntervalAndFollowsItsPort() throws {
    let loop = try EventLoop(name: "media-factory")
    try loop.sync {
      let factory = LoopbackMediaLinkFactory(loop: loop, port: 4_000, tickInterval: 0)
      #expect(factory.tickInterval == 1)
      #expect(factory.makeLoopbackMediaLink().tickInterval == 1_000)
      factory.tickInterval = 0
      #expect(factory.tickInterval == 1)
      factory.port = 4_001
      factory.tickInterval = 20
      let link = factory.makeLoopbackMediaLink()
      #expect(link.serverPort == 4_001 && link.tickInterval == 20_000)
      #expect(link.localPort == nil && !link.isOpen)
    }
    #expect(loop.shutdown().isClean)
  }
}

/// A session host with no media side.
final class PlainHost: SessionHost {
  /// A media side to give explicitly.
  let media = MediaTestHost(mode: .echo, record: Recorder())

  func attach(output: @escaping (HostOutput) -> Void) {}
  func connectionOpened(_ connection: ConnectionID, now: Int64) {}
  func receive(_ message: ClientMessage, from connection: ConnectionID, now: Int64) {}
  func connectionClosed(_ connection: ConnectionID, now: Int64) {}
  func tick(now: Int64) {}
}

/// Carries a loop-confined link off its loop, to close it from there.
struct Unbound: @unchecked Sendable {
  let link: LoopbackMediaLink
  init(_ link: LoopbackMediaLink) { self.link = link }
}
