import SessionTransport
import Testing

@testable import LoopbackFaults
@testable import LoopbackTransport

#if canImport(Glibc)
  import Glibc
#endif

/// The media half of the fault proxy between real media links and a real server, measured
/// with counts; where time matters, only lower bounds (a loaded machine is only ever slower).
@Suite("Media fault proxy")
struct MediaFaultProxyTests {
  @Test func aProxiedLinkReachesTheServerFromThePeersPort() throws {
    let fixture = try MediaFixture(.echo, proxied: true)
    let port = try fixture.proxyPort("ada")
    #expect(try fixture.proxyPort("ada") == port, "listening again changes nothing")
    let media = try fixture.link(to: port)
    try media.sendAll([[1], [2], [3]])
    #expect(media.datagrams.wait(forCount: 3))
    #expect(media.datagrams.values.map(\.bytes).sorted { $0[0] < $1[0] } == [[1], [2], [3]])
    let statistics = try fixture.proxyStatistics("ada")
    #expect(statistics.uplink.arrived == 3 && statistics.uplink.forwarded == 3)
    #expect(statistics.downlink.forwarded == 3 && statistics.downlink.bytes == 3)
    #expect(statistics.uplink.delayed == 0, "nothing to wait for: straight through")
    // The server sees the proxy's socket, not the link's.
    let endpoint = fixture.hostRecord.values[0].from
    let seen = try fixture.server.loop.sync { [server = fixture.server] in
      server.hostMediaPort(of: endpoint)
    }
    #expect(seen == port)
    fixture.shutdown()
  }

  @Test func tenPercentLossReadsTenPercent() throws {
    let fixture = try MediaFixture(.echo, proxied: true)
    let port = try fixture.proxyPort("ada")
    #expect(try fixture.withProxy { $0.setLoss(0.1, peer: "ada", direction: .uplink) })
    let media = try fixture.link(to: port)
    // The draws are the seed's: the loss after n arrivals is fixed, whichever n the kernel
    // lets through; 10,000 puts 0.015 five standard deviations out.
    // Windows of 50, each sent once the proxy has read the last (a kernel buffer that
    // overflows under load would only shrink the sample).
    let count = 10_000
    for start in stride(from: 0, to: count, by: 50) {
      try media.sendAll((start..<start + 50).map(stampedDatagram))
      _ = waitUntil(timeoutSeconds: 2) {
        ((try? fixture.proxyStatistics("ada").uplink.arrived) ?? 0) >= start + 50
      }
    }
    let statistics = try waitUntilStable { try fixture.proxyStatistics("ada") }
    #expect(statistics.uplink.arrived > count * 9 / 10)
    let up = statistics.uplink
    let rate = Double(up.lost) / Double(up.arrived)
    #expect(abs(rate - 0.1) <= 0.015, "loss read \(rate)")
    #expect(up.forwarded + up.lost == up.arrived)
    #expect(statistics.downlink.lost == 0, "only the uplink was impaired")
    fixture.shutdown()
  }

  @Test func aDelayHoldsEveryDatagramAtLeastThatLong() throws {
    let fixture = try MediaFixture(.echo, proxied: true)
    let port = try fixture.proxyPort("ada")
    try fixture.withProxy { proxy in
      proxy.setDelay(60, peer: "ada", direction: .uplink)
      proxy.setDelay(40, peer: "ada", direction: .downlink)
      proxy.setJitter(10, peer: "ada", direction: .downlink)
    }
    let media = try fixture.link(to: port)
    try media.sendAll((0..<20).map(stampedDatagram))
    #expect(media.datagrams.wait(forCount: 20))
    let echoes = media.datagrams.values
    for echo in echoes {
      let sentAt = unstamp(echo.bytes)?.sentAt ?? .max
      #expect(echo.at - sentAt >= 90_000, "60 ms up, 40 ± 10 ms down")
    }
    #expect(echoes.compactMap { unstamp($0.bytes)?.index } == Array(0..<20), "order kept")
    let statistics = try fixture.proxyStatistics("ada")
    #expect(statistics.uplink.delayed == 20 && statistics.downlink.delayed == 20)
    fixture.shutdown()
  }

  /// 80 kbit/s and a 3,000-byte queue: a burst of 20 datagrams of 1,000 bytes keeps about three
  /// (each 100 ms on the wire) and drops the rest at the tail.
  @Test func aBandwidthCapDropsABurstAtTheTailAndPacesTheRest() throws {
    let fixture = try MediaFixture(.echo, proxied: true)
    let port = try fixture.proxyPort("ada")
    try fixture.withProxy { proxy in
      proxy.setBandwidth(
        MediaBandwidthCap(bitsPerSecond: 80_000, queueLimitBytes: 3_000), peer: "ada",
        direction: .uplink)
    }
    let media = try fixture.link(to: port)
    let start = LoopbackMediaClock.now()
    try media.sendAll((0..<20).map { Array(repeating: UInt8($0), count: 1_000) })
    #expect(waitUntil { (try? fixture.proxyStatistics("ada").uplink.arrived) == 20 })
    let up = try fixture.proxyStatistics("ada").uplink
    #expect((14...17).contains(up.queueDropped), "dropped \(up.queueDropped)")
    let kept = 20 - up.queueDropped
    #expect(media.datagrams.wait(forCount: kept))
    #expect(try fixture.proxyStatistics("ada").uplink.forwarded == kept)
    let last = media.datagrams.values.map(\.at).max() ?? 0
    #expect(last - start >= Int64(kept) * 100_000 - 1_000, "each took its serialisation")
    fixture.shutdown()
  }

  @Test func aPartitionDropsMediaUntilTheHeal() throws {
    let fixture = try MediaFixture(.echo, proxied: true)
    let port = try fixture.proxyPort("ada")
    let media = try fixture.link(to: port)
    #expect(try fixture.withProxy { $0.partition(["ada"]) })
    try media.sendAll((0..<20).map { [UInt8($0)] })
    #expect(waitUntil { (try? fixture.proxyStatistics("ada").uplink.partitionDropped) == 20 })
    #expect(fixture.hostRecord.count == 0)
    // Downlink only: the server hears, its answers are dropped.
    try fixture.withProxy { proxy in
      proxy.heal()
      proxy.partition(["ada"], direction: .downlink)
    }
    try media.send([100])
    #expect(fixture.hostRecord.wait(forCount: 1))
    #expect(waitUntil { (try? fixture.proxyStatistics("ada").downlink.partitionDropped) == 1 })
    try fixture.withProxy { $0.heal() }
    try media.send([101])
    #expect(media.datagrams.wait(forCount: 1))
    #expect(media.datagrams.values.map(\.bytes) == [[101]], "the heal brings nothing back")
    fixture.shutdown()
  }

  @Test func aKillDropsWhatIsHeldAndForgetsThePeersPort() throws {
    let fixture = try MediaFixture(.echo, proxied: true)
    let port = try fixture.proxyPort("ada")
    try fixture.withProxy { $0.setDelay(2_000, peer: "ada", direction: .downlink) }
    let media = try fixture.link(to: port)
    try media.sendAll((0..<5).map { [UInt8($0)] })
    #expect(fixture.hostRecord.wait(forCount: 5))
    #expect(waitUntil { (try? fixture.proxyStatistics("ada").downlink.delayed) == 5 })
    #expect(try fixture.withProxy { $0.kill(peer: "ada") })
    let statistics = try fixture.proxyStatistics("ada")
    #expect(statistics.kills == 1 && statistics.downlink.killDropped == 5)
    #expect(statistics.datagramsHeld == 0)
    // The server's next datagram has no port to go to until the link speaks again.
    let endpoint = fixture.hostRecord.values[0].from
    try fixture.withProxy { $0.setDelay(0, peer: "ada", direction: .downlink) }
    fixture.server.executeWithHost { $0.emit(.send([77], to: endpoint)) }
    #expect(waitUntil { (try? fixture.proxyStatistics("ada").downlink.sendDropped) == 1 })
    try media.send([6])
    #expect(media.datagrams.wait(forCount: 1))
    #expect(media.datagrams.values.map(\.bytes) == [[6]])
    fixture.shutdown()
  }

  @Test func oneCallImpairsSignallingAndMediaAlike() throws {
    let fixture = try MediaFixture(.echo, proxied: true)
    _ = try fixture.proxyPort("ada")
    try fixture.withProxy { proxy in
      #expect(proxy.setDelay(30, peer: "ada", direction: .uplink))
      #expect(proxy.setLoss(0.2, peer: "ada", direction: .both))
      #expect(proxy.faults(of: "ada")?.uplink.delay == 30)
      #expect(proxy.media?.faults(of: "ada")?.uplink.delay == 30)
      #expect(proxy.media?.faults(of: "ada")?.downlink.delay == 0)
      #expect(proxy.faults(of: "ada")?.downlink.lossProbability == 0.2)
      #expect(proxy.media?.faults(of: "ada")?.downlink.lossProbability == 0.2)
      #expect(proxy.partition(["ada"], direction: .uplink))
      #expect(proxy.faults(of: "ada")?.uplink.isPartitioned == true)
      #expect(proxy.media?.faults(of: "ada")?.uplink.isPartitioned == true)
      proxy.heal()
      #expect(proxy.media?.faults(of: "ada")?.uplink.isPartitioned == false)
      // Media only.
      #expect(proxy.setJitter(5, peer: "ada", direction: .downlink))
      #expect(
        proxy.setBandwidth(MediaBandwidthCap(bitsPerSecond: 1e6), peer: "ada", direction: .both))
      #expect(proxy.media?.faults(of: "ada")?.downlink.jitter == 5)
      #expect(proxy.media?.faults(of: "ada")?.uplink.bandwidth?.bitsPerSecond == 1e6)
      #expect(proxy.faults(of: "ada")?.downlink.delay == 0)
      // Unknown peers change nothing, both halves.
      #expect(!proxy.setDelay(10, peer: "bob", direction: .both))
      #expect(!proxy.setJitter(10, peer: "bob", direction: .both))
      #expect(!proxy.setBandwidth(nil, peer: "bob", direction: .both))
      #expect(!proxy.partition(["ada", "bob"]))
      #expect(proxy.media?.faults(of: "ada")?.uplink.isPartitioned == false)
      #expect(proxy.mediaPort(of: "bob") == nil && proxy.media?.port(of: "bob") == nil)
      #expect(proxy.mediaStatistics.keys.sorted() == ["ada"])
    }
    fixture.shutdown()
  }

  @Test func aProxyWithoutMediaAppliesJitterAndCapsToSignallingAlone() throws {
    let loop = try EventLoop(name: "proxy-no-media")
    try loop.sync {
      let proxy = try FaultProxy(loop: loop, upstreamPort: 9, seed: 1)
      _ = try proxy.listen(peer: "ada")
      #expect(proxy.media == nil && proxy.mediaPort(of: "ada") == nil)
      // Jitter, distributions and caps act on signalling too (issue 25): no media half needed.
      let cap = MediaBandwidthCap(bitsPerSecond: 64_000)
      #expect(proxy.setJitter(5, peer: "ada", direction: .both))
      #expect(proxy.setBandwidth(cap, peer: "ada", direction: .both))
      #expect(proxy.faults(of: "ada")?.downlink.jitter == 5)
      #expect(proxy.faults(of: "ada")?.uplink.bandwidth == cap)
      #expect(proxy.setBandwidth(nil, peer: "ada", direction: .both))
      #expect(proxy.faults(of: "ada")?.uplink.bandwidth == nil)
      // Unknown peers still change nothing.
      #expect(!proxy.setJitter(5, peer: "bob", direction: .both))
      #expect(!proxy.setBandwidth(cap, peer: "bob", direction: .both))
      #expect(proxy.mediaStatistics.isEmpty)
      #expect(throws: FaultProxyError.invalidUpstreamPort) {
        try FaultProxy(loop: loop, upstreamPort: 9, seed: 1, mediaUpstreamPort: 0)
      }
      proxy.shutdown()
    }
    #expect(loop.shutdown().isClean)
  }

  @Test func badValuesAreClampedAndBadCallsRefused() throws {
    let loop = try EventLoop(name: "media-proxy-bad")
    try loop.sync {
      #expect(throws: FaultProxyError.invalidUpstreamPort) {
        try MediaFaultProxy(loop: loop, upstreamPort: 0, seed: 1)
      }
      let proxy = try MediaFaultProxy(loop: loop, upstreamPort: 9, seed: 1)
      #expect(throws: FaultProxyError.emptyPeerName) { try proxy.listen(peer: "") }
      _ = try proxy.listen(peer: "ada")
      #expect(proxy.peers == ["ada"])
      proxy.setDelay(-5, peer: "ada", direction: .uplink)
      proxy.setJitter(.max, peer: "ada", direction: .uplink)
      proxy.setLoss(.nan, peer: "ada", direction: .downlink)
      proxy.setBandwidth(
        MediaBandwidthCap(bitsPerSecond: .nan, queueLimitBytes: -7), peer: "ada",
        direction: .downlink)
      let faults = proxy.faults(of: "ada")
      #expect(faults?.uplink.delay == 0 && faults?.uplink.jitter == FaultProxy.maximumDelay)
      #expect(faults?.downlink.lossProbability == 0)
      #expect(faults?.downlink.bandwidth == MediaBandwidthCap(bitsPerSecond: 1, queueLimitBytes: 0))
      proxy.setLoss(7, peer: "ada", direction: .downlink)
      #expect(proxy.faults(of: "ada")?.downlink.lossProbability == 1)
      #expect(!proxy.kill(peer: "bob") && proxy.faults(of: "bob") == nil)
      proxy.shutdown()
      proxy.shutdown()
      #expect(throws: FaultProxyError.shutDown) { try proxy.listen(peer: "bob") }
      #expect(!proxy.setDelay(1, peer: "ada", direction: .both))
      #expect(proxy.statistics["ada"] != nil)
    }
    #expect(loop.shutdown().isClean)
  }
}

/// Polls `read` until it gives the same value three times in a row, 50 ms apart: for counts
/// that stop moving once the datagrams in flight have landed (or been dropped by the kernel).
func waitUntilStable<Value: Equatable>(_ read: () throws -> Value) throws -> Value {
  var last = try read()
  var same = 0
  for _ in 0..<400 {
    usleep(50_000)
    let next = try read()
    same = next == last ? same + 1 : 0
    last = next
    if same >= 2 { break }
  }
  return last
}

extension LoopbackServer {
  /// The port the media plane maps an endpoint to (loop thread).
  func hostMediaPort(of endpoint: MediaEndpointID) -> UInt16? {
    mediaPlanePort(of: endpoint)
  }
}
