import Dispatch
import SessionCore
import SessionSDK
import SessionService
import SessionTransport
import Synchronization
import Testing

@testable import LoopbackFaults
@testable import LoopbackTransport

#if canImport(Glibc)
  import Glibc
#endif

/// Milliseconds on the monotonic clock, for lower bounds on delays.
private func monotonicMilliseconds() -> Double {
  Double(DispatchTime.now().uptimeNanoseconds) / 1e6
}

/// An upstream frame server on its own loop, a `FaultProxy` on another, and a client loop:
/// the proxy's byte path with no SDK in the way. Frames carry their index, so order and
/// completeness are checked exactly.
private final class ProxyFixture: Sendable {
  let server: EventLoop
  let proxyLoop: EventLoop
  let client: EventLoop
  let serverPort: UInt16
  let proxy: LoopBound<FaultProxy>
  /// Frames the upstream server received, with the monotonic time (ms) each arrived.
  let upstreamFrames = Recorder<(payload: [UInt8], at: Double)>()
  let upstreamCloses = Recorder<CloseReason>()
  let upstreamAccepted = Recorder<LoopBound<TCPConnection>>()
  private let listener: LoopBound<TCPListener>

  init(
    configuration: FaultProxyConfiguration = FaultProxyConfiguration(), echo: Bool = false,
    seed: UInt64 = 7
  ) throws {
    server = try EventLoop(name: "proxy-test-upstream")
    proxyLoop = try EventLoop(name: "proxy-test-proxy")
    client = try EventLoop(name: "proxy-test-client")
    let (frames, closes, accepted, server) = (
      upstreamFrames, upstreamCloses, upstreamAccepted, self.server
    )
    listener = try server.sync {
      let listener = try TCPListener(loop: server) { connection in
        connection.onFrame = { frame in
          frames.append((Array(frame), monotonicMilliseconds()))
          if echo { connection.send(frame: frame) }
        }
        connection.onClose = { closes.append($0) }
        accepted.append(LoopBound(connection, loop: server))
      }
      return LoopBound(listener, loop: server)
    }
    let port = try server.sync { [listener] in listener.value.localPort }
    serverPort = port
    let proxyLoop = self.proxyLoop
    proxy = try proxyLoop.sync {
      LoopBound(
        try FaultProxy(
          loop: proxyLoop, upstreamPort: port, seed: seed, configuration: configuration),
        loop: proxyLoop)
    }
  }

  /// Runs `body` with the proxy on its loop.
  @discardableResult
  func withProxy<Result: Sendable>(_ body: @escaping @Sendable (FaultProxy) throws -> Result)
    throws -> Result
  {
    let proxy = self.proxy
    return try proxyLoop.sync { try body(proxy.value) }
  }

  func statistics(_ peer: String) throws -> ProxyPeerStatistics? {
    try withProxy { $0.statistics[peer] }
  }

  /// A frame connection from the client loop to a peer's proxy port, connected.
  func connect(_ peer: String) throws -> Client {
    let port = try withProxy { try $0.listen(peer: peer) }
    let frames = Recorder<(payload: [UInt8], at: Double)>()
    let closes = Recorder<CloseReason>()
    let connected = Latch()
    let client = self.client
    let connection = try client.sync {
      let connection = try TCPConnection.connect(loop: client, port: port)
      connection.onConnect = { connected.signal() }
      connection.setFrameHandler { frames.append(($0, monotonicMilliseconds())) }
      connection.onClose = { closes.append($0) }
      return LoopBound(connection, loop: client)
    }
    #expect(connected.wait())
    return Client(connection: connection, frames: frames, closes: closes)
  }

  /// Shuts the proxy and the three loops down, expecting each loop to close cleanly.
  func shutdown(sourceLocation: SourceLocation = #_sourceLocation) {
    _ = try? withProxy { $0.shutdown() }
    #expect(client.shutdown().isClean, sourceLocation: sourceLocation)
    #expect(proxyLoop.shutdown().isClean, sourceLocation: sourceLocation)
    #expect(server.shutdown().isClean, sourceLocation: sourceLocation)
  }

  /// A client-side connection and what it received.
  struct Client: Sendable {
    let connection: LoopBound<TCPConnection>
    let frames: Recorder<(payload: [UInt8], at: Double)>
    let closes: Recorder<CloseReason>

    /// Sends frames from the client loop, all in one loop turn.
    func send(_ payloads: [[UInt8]]) throws {
      let connection = self.connection
      let sent = try connection.loop.sync {
        payloads.allSatisfy { connection.value.send(frame: $0) }
      }
      #expect(sent)
    }
  }
}

/// Frames `0..<count` of assorted sizes (a frame's first bytes are its index).
private func numberedFrames(_ range: Range<Int>, size: (Int) -> Int = { 1 + $0 * 37 % 3_000 })
  -> [[UInt8]]
{
  range.map { index in
    let bytes = withUnsafeBytes(of: UInt32(index).bigEndian) { Array($0) }
    return bytes + payload(index, count: size(index))
  }
}

@Suite("FaultProxy")
struct FaultProxyTests {
  // MARK: The lane state machine

  @Test func aLaneForwardsAtOnceOnlyWhenNothingIsHeldDelayedOrBlocked() {
    var lane = ProxyLane(maxHeldBytes: 100)
    let chunk: [UInt8] = [1, 2, 3]
    chunk.withUnsafeBytes { bytes in
      #expect(lane.arrive(bytes, now: 0, hold: 0, isBlocked: false) == .forward)
      #expect(lane.arrive(bytes, now: 0, hold: 10, isBlocked: false) == .held)
      // Something is held, so an undelayed chunk waits behind it.
      #expect(lane.arrive(bytes, now: 1, hold: 0, isBlocked: false) == .held)
    }
    #expect(lane.heldBytes == 6)
    #expect(lane.next(now: 5, isBlocked: false) == .wait(until: 10))
    #expect(lane.next(now: 10, isBlocked: false) == .send(chunk))
    #expect(lane.next(now: 10, isBlocked: false) == .send(chunk))
    #expect(lane.next(now: 10, isBlocked: false) == .idle)
    #expect(lane.heldBytes == 0)
  }

  @Test func aLaneKeepsOrderWhenTheDelayShrinks() {
    var lane = ProxyLane(maxHeldBytes: 100)
    [UInt8]([1]).withUnsafeBytes { _ = lane.arrive($0, now: 0, hold: 500, isBlocked: false) }
    [UInt8]([2]).withUnsafeBytes { _ = lane.arrive($0, now: 10, hold: 5, isBlocked: false) }
    // The second chunk was due at 15 but may not overtake the first.
    #expect(lane.next(now: 20, isBlocked: false) == .wait(until: 500))
    #expect(lane.next(now: 500, isBlocked: false) == .send([1]))
    #expect(lane.next(now: 500, isBlocked: false) == .send([2]))
  }

  @Test func aBlockedLaneHoldsUntilUnblockedAndRefusesPastItsBound() {
    var lane = ProxyLane(maxHeldBytes: 4)
    [UInt8]([1, 2, 3]).withUnsafeBytes {
      #expect(lane.arrive($0, now: 0, hold: 0, isBlocked: true) == .held)
    }
    #expect(lane.next(now: 1_000, isBlocked: true) == .idle)
    [UInt8]([4, 5]).withUnsafeBytes {
      #expect(lane.arrive($0, now: 0, hold: 0, isBlocked: true) == .overLimit)
    }
    [UInt8]([4]).withUnsafeBytes {
      #expect(lane.arrive($0, now: 0, hold: 0, isBlocked: true) == .held)
    }
    #expect(lane.heldBytes == 4)
    #expect(lane.next(now: 1_000, isBlocked: false) == .send([1, 2, 3]))
    #expect(lane.next(now: 1_000, isBlocked: false) == .send([4]))
  }

  @Test func aLaneFinishesOnceItsClosedSourceIsDrainedAndOnlyOnce() {
    var lane = ProxyLane(maxHeldBytes: 100)
    [UInt8]([9]).withUnsafeBytes { _ = lane.arrive($0, now: 0, hold: 10, isBlocked: false) }
    lane.sourceClosed()
    #expect(lane.next(now: 0, isBlocked: false) == .wait(until: 10))
    #expect(lane.next(now: 10, isBlocked: false) == .send([9]))
    #expect(lane.next(now: 10, isBlocked: false) == .finished)
    #expect(lane.next(now: 10, isBlocked: false) == .idle)
    // An open source never finishes.
    var open = ProxyLane(maxHeldBytes: 100)
    #expect(open.next(now: 0, isBlocked: false) == .idle)
  }

  // MARK: Loss draws

  @Test func noLossDrawsNothingAndCertainLossIsCappedDoublingBackoff() {
    var random = SimulationRandom(seed: 1)
    let untouched = random
    let none = ProxyLaneFaults(lossProbability: 0, retransmissionDelay: 200)
    #expect(none.retransmissionPenalty(random: &random, cap: 1_000, maxLosses: 6) == (0, 0))
    #expect(random == untouched)
    let certain = ProxyLaneFaults(lossProbability: 1, retransmissionDelay: 200)
    let penalty = certain.retransmissionPenalty(random: &random, cap: 1_000, maxLosses: 6)
    // 200 + 400 + 800, then capped at 1,000 three times.
    #expect(penalty.milliseconds == 200 + 400 + 800 + 1_000 * 3)
    #expect(penalty.losses == 6)
  }

  @Test func lossDrawsDependOnTheSeedAndThePeerNotOnOtherPeers() {
    let configuration = FaultProxyConfiguration()
    func draws(_ peer: ProxyPeer, _ count: Int) -> [UInt64] {
      (0..<count).map { _ in peer.drawPenalty(.uplink, configuration: configuration) }
    }
    let ada = ProxyPeer(name: "ada", seed: 42)
    let alan = ProxyPeer(name: "alan", seed: 42)
    for peer in [ada, alan] { peer.faults.uplink.lossProbability = 0.5 }
    let adaAlone = draws(ProxyPeer(name: "ada", seed: 42).withLoss(0.5), 50)
    _ = draws(alan, 1_000)  // another peer's traffic
    alan.faults.downlink.lossProbability = 0.5
    _ = alan.drawPenalty(.downlink, configuration: configuration)
    #expect(draws(ada, 50) == adaAlone)
    #expect(draws(ProxyPeer(name: "ada", seed: 43).withLoss(0.5), 50) != adaAlone)
    #expect(draws(ProxyPeer(name: "alan", seed: 42).withLoss(0.5), 50) != adaAlone)
  }

  // MARK: Bytes through real sockets

  @Test func bytesPassThroughUnchangedBothWays() throws {
    let world = try ProxyFixture(echo: true)
    let client = try world.connect("ada")
    let frames = numberedFrames(0..<300)
    try client.send(Array(frames[0..<150]))
    try client.send(Array(frames[150...]))
    #expect(client.frames.wait(forCount: frames.count))
    #expect(client.frames.values.map(\.payload) == frames)
    #expect(world.upstreamFrames.values.map(\.payload) == frames)
    let bytes = frames.reduce(0) { $0 + 4 + $1.count }
    let statistics = try #require(try world.statistics("ada"))
    #expect(statistics.bytesUplink == bytes)
    #expect(statistics.bytesDownlink == bytes)
    #expect(statistics.chunksDelayed == 0)
    #expect(statistics.connectionsAccepted == 1)
    #expect(statistics.connectionsOpen == 1)
    world.shutdown()
  }

  @Test func delayIsALowerBoundEachWayAndOrderIsKept() throws {
    let world = try ProxyFixture(echo: true)
    let client = try world.connect("ada")
    try world.withProxy { proxy in
      proxy.setDelay(120, peer: "ada", direction: .uplink)
      proxy.setDelay(80, peer: "ada", direction: .downlink)
    }
    let frames = numberedFrames(0..<40)
    let sentAt = monotonicMilliseconds()
    for batch in stride(from: 0, to: 40, by: 10) {
      try client.send(Array(frames[batch..<batch + 10]))
    }
    #expect(client.frames.wait(forCount: frames.count))
    #expect(world.upstreamFrames.values.map(\.payload) == frames)
    #expect(client.frames.values.map(\.payload) == frames)
    let firstUp = try #require(world.upstreamFrames.values.map(\.at).min())
    let firstBack = try #require(client.frames.values.map(\.at).min())
    #expect(firstUp - sentAt >= 120, "arrived upstream after \(firstUp - sentAt) ms")
    #expect(firstBack - sentAt >= 200, "came back after \(firstBack - sentAt) ms")
    #expect(try #require(try world.statistics("ada")).chunksDelayed > 0)
    world.shutdown()
  }

  @Test func lossAsRetransmissionDelayLosesNothing() throws {
    let world = try ProxyFixture(echo: true)
    let client = try world.connect("ada")
    try world.withProxy { proxy in
      proxy.setLoss(0.4, retransmissionDelay: 5, peer: "ada", direction: .both)
    }
    let frames = numberedFrames(0..<200)
    for batch in stride(from: 0, to: 200, by: 5) {
      try client.send(Array(frames[batch..<batch + 5]))
    }
    #expect(client.frames.wait(forCount: frames.count, timeoutSeconds: 60))
    #expect(client.frames.values.map(\.payload) == frames)
    #expect(world.upstreamFrames.values.map(\.payload) == frames)
    let statistics = try #require(try world.statistics("ada"))
    #expect(statistics.losses > 0)
    #expect(statistics.bytesHeld == 0)
    world.shutdown()
  }

  @Test func aPartitionHoldsBytesAndHealDeliversThemInOrder() throws {
    let world = try ProxyFixture(echo: true)
    let client = try world.connect("ada")
    let frames = numberedFrames(0..<30)
    try client.send(Array(frames[0..<10]))
    #expect(client.frames.wait(forCount: 10))
    let forwarded = try #require(try world.statistics("ada")).bytesUplink
    #expect(try world.withProxy { $0.partition(["ada"], direction: .uplink) })
    try client.send(Array(frames[10...]))
    // Held: once the proxy holds every byte sent (each frame and its 4-byte header), none of
    // them can have gone on, and the server heard nothing more.
    let sent = frames[10...].reduce(0) { $0 + 4 + $1.count }
    #expect(try waitUntil { try world.statistics("ada")?.bytesHeld == sent })
    #expect(try world.statistics("ada")?.bytesUplink == forwarded)
    #expect(world.upstreamFrames.count == 10)
    #expect(try world.withProxy { $0.faults(of: "ada")?.uplink.isPartitioned } == true)
    #expect(try world.withProxy { $0.faults(of: "ada")?.downlink.isPartitioned } == false)
    try world.withProxy { $0.heal() }
    #expect(client.frames.wait(forCount: frames.count))
    #expect(world.upstreamFrames.values.map(\.payload) == frames)
    #expect(client.frames.values.map(\.payload) == frames)
    #expect(try world.statistics("ada")?.bytesHeld == 0)
    #expect(try world.statistics("ada")?.resets == 0)
    world.shutdown()
  }

  @Test func aPartitionPastTheHeldBoundResetsTheConnectionAndCountsIt() throws {
    let world = try ProxyFixture(configuration: FaultProxyConfiguration(maxHeldBytes: 32 << 10))
    let client = try world.connect("ada")
    try world.withProxy { $0.partition(["ada"]) }
    try client.send(numberedFrames(0..<20, size: { _ in 4_000 }))
    #expect(client.closes.wait(forCount: 1))
    #expect(client.closes.values == [.peerClosed])
    #expect(world.upstreamCloses.wait(forCount: 1))
    #expect(world.upstreamFrames.count == 0)
    #expect(try waitUntil { try world.statistics("ada")?.connectionsOpen == 0 })
    let statistics = try #require(try world.statistics("ada"))
    #expect(statistics.resets == 1)
    #expect(statistics.bytesHeld == 0)
    world.shutdown()
  }

  @Test func aSideThatDoesNotReadIsResetWithTheOtherAndCounted() throws {
    let world = try ProxyFixture(
      configuration: FaultProxyConfiguration(
        tcp: TCPConfiguration(maxQueuedWriteBytes: 256 << 10)))
    let client = try world.connect("ada")
    try client.send(numberedFrames(0..<1))
    #expect(world.upstreamAccepted.wait(forCount: 1))
    let reader = client.connection
    try reader.loop.sync { reader.value.pauseReading() }
    // The server floods a client that reads nothing: the proxy's write queue to it fills.
    let upstream = try #require(world.upstreamAccepted.values.first)
    let chunk = [UInt8](repeating: 7, count: 60_000)
    #expect(
      waitUntil {
        _ = try? upstream.loop.sync {
          for _ in 0..<8 { upstream.value.send(frame: chunk) }
        }
        return world.upstreamCloses.count > 0
      })
    #expect(try waitUntil { try world.statistics("ada")?.resets == 1 })
    #expect(try waitUntil { try world.statistics("ada")?.connectionsOpen == 0 })
    world.shutdown()
  }

  @Test func killResetsBothSidesAndThePeerMayComeBack() throws {
    let world = try ProxyFixture(echo: true)
    let port = try world.withProxy { try $0.listen(peer: "ada") }
    let raw = try RawClient(port: port)
    try raw.write(encodeFrames(numberedFrames(0..<3)))
    #expect(world.upstreamFrames.wait(forCount: 3))
    #expect(try world.withProxy { $0.kill(peer: "ada") })
    let ending = raw.readToEnd()
    #expect(ending.end == .reset, "the peer's side ended with \(ending.end)")
    #expect(world.upstreamCloses.wait(forCount: 1))
    #expect(world.upstreamCloses.values == [.peerClosed])
    #expect(try waitUntil { try world.statistics("ada")?.connectionsOpen == 0 })
    #expect(try world.statistics("ada")?.kills == 1)
    #expect(try world.statistics("ada")?.resets == 0)

    // The listener stays: a new connection of the peer is forwarded again.
    let again = try world.connect("ada")
    try again.send(numberedFrames(3..<4))
    #expect(again.frames.wait(forCount: 1))
    #expect(try world.statistics("ada")?.connectionsAccepted == 2)
    world.shutdown()
  }

  // MARK: Bad input

  @Test func unknownPeersChangeNothingAndSayNo() throws {
    let world = try ProxyFixture()
    try world.withProxy { proxy in
      _ = try proxy.listen(peer: "ada")
      #expect(!proxy.setDelay(100, peer: "nobody", direction: .both))
      #expect(!proxy.setLoss(0.5, peer: "nobody", direction: .uplink))
      #expect(!proxy.kill(peer: "nobody"))
      // All or nothing: one unknown name, and Ada is not partitioned either.
      #expect(!proxy.partition(["ada", "nobody"]))
      #expect(proxy.faults(of: "ada") == ProxyPeerFaults())
      #expect(proxy.faults(of: "nobody") == nil)
      #expect(proxy.peers == ["ada"])
      #expect(proxy.statistics.keys.sorted() == ["ada"])
      // The known peer: each call does what it says.
      #expect(proxy.setDelay(100, peer: "ada", direction: .downlink))
      #expect(proxy.partition(["ada"], direction: .downlink))
      #expect(proxy.faults(of: "ada")?.downlink == ProxyLaneFaults(delay: 100, isPartitioned: true))
      #expect(proxy.faults(of: "ada")?.uplink == ProxyLaneFaults())
      #expect(proxy.kill(peer: "ada"))
      proxy.heal()
      #expect(proxy.faults(of: "ada")?.downlink.isPartitioned == false)
    }
    world.shutdown()
  }

  @Test func outOfRangeDelaysAndProbabilitiesAreClamped() throws {
    let world = try ProxyFixture()
    try world.withProxy { proxy in
      _ = try proxy.listen(peer: "ada")
      proxy.setDelay(-5, peer: "ada", direction: .uplink)
      proxy.setDelay(.max, peer: "ada", direction: .downlink)
      #expect(proxy.faults(of: "ada")?.uplink.delay == 0)
      #expect(proxy.faults(of: "ada")?.downlink.delay == FaultProxy.maximumDelay)
      proxy.setLoss(7, retransmissionDelay: .min, peer: "ada", direction: .uplink)
      #expect(proxy.faults(of: "ada")?.uplink.lossProbability == 1)
      #expect(proxy.faults(of: "ada")?.uplink.retransmissionDelay == 0)
      proxy.setLoss(-0.5, retransmissionDelay: .max, peer: "ada", direction: .downlink)
      #expect(proxy.faults(of: "ada")?.downlink.lossProbability == 0)
      #expect(proxy.faults(of: "ada")?.downlink.retransmissionDelay == FaultProxy.maximumDelay)
      proxy.setLoss(.nan, peer: "ada", direction: .both)
      #expect(proxy.faults(of: "ada")?.uplink.lossProbability == 0)
      proxy.setLoss(0.25, peer: "ada", direction: .both)
      #expect(proxy.faults(of: "ada")?.downlink.lossProbability == 0.25)
    }
    #expect(FaultProxyConfiguration(maxHeldBytes: -1, maxLossesPerChunk: -3).maxHeldBytes == 1)
    world.shutdown()
  }

  @Test func listeningTwiceForAPeerReturnsItsPortAndBadNamesAndPortsAreRefused() throws {
    let world = try ProxyFixture()
    let upstreamPort = world.serverPort
    try world.withProxy { proxy in
      let first = try proxy.listen(peer: "ada")
      #expect(try proxy.listen(peer: "ada") == first)
      let other = try proxy.listen(peer: "alan")
      #expect(other != first)
      #expect(proxy.port(of: "alan") == other)
      #expect(throws: FaultProxyError.emptyPeerName) { try proxy.listen(peer: "") }
      #expect(throws: FaultProxyError.invalidUpstreamPort) {
        try FaultProxy(loop: proxy.loop, upstreamPort: 0, seed: 1)
      }
      // A huge name is just a name.
      let huge = String(repeating: "x", count: 100_000)
      #expect(try proxy.listen(peer: huge) != first)
      _ = try FaultProxy(loop: proxy.loop, upstreamPort: upstreamPort, seed: 1)
    }
    world.shutdown()
  }

  @Test func aServerNobodyListensOnResetsThePeerAndCountsIt() throws {
    let port = try unusedPort()
    let loop = try EventLoop(name: "proxy-test-nowhere")
    let proxy = try loop.sync {
      LoopBound(try FaultProxy(loop: loop, upstreamPort: port, seed: 0), loop: loop)
    }
    let proxyPort = try loop.sync { try proxy.value.listen(peer: "ada") }
    let raw = try RawClient(port: proxyPort)
    let ending = raw.readToEnd()
    #expect(ending.end != .timedOut)
    #expect(ending.bytes.isEmpty)
    #expect(try waitUntil { try loop.sync { proxy.value.statistics["ada"]?.resets } == 1 })
    try loop.sync { proxy.value.shutdown() }
    #expect(loop.shutdown().isClean)
  }

  // MARK: Shutdown

  @Test func shutdownWithLiveConnectionsLeavesTheLoopCleanAndIsIdempotent() throws {
    let world = try ProxyFixture(echo: true)
    let ada = try world.connect("ada")
    let alan = try world.connect("alan")
    try world.withProxy { $0.setDelay(5_000, peer: "alan", direction: .uplink) }
    try ada.send(numberedFrames(0..<5))
    try alan.send(numberedFrames(0..<5))  // held when the proxy shuts down
    #expect(ada.frames.wait(forCount: 5))
    try world.withProxy { proxy in
      proxy.shutdown()
      proxy.shutdown()
      #expect(proxy.isShutDown)
      #expect(throws: FaultProxyError.shutDown) { try proxy.listen(peer: "ada") }
      #expect(!proxy.setDelay(1, peer: "ada", direction: .both))
      #expect(!proxy.partition(["ada"]))
      #expect(!proxy.kill(peer: "ada"))
    }
    #expect(ada.closes.wait(forCount: 1))
    #expect(alan.closes.wait(forCount: 1))
    #expect(world.upstreamCloses.wait(forCount: 2))
    #expect(try waitUntil { try world.statistics("alan")?.connectionsOpen == 0 })
    #expect(try world.statistics("alan")?.bytesHeld == 0)
    #expect(world.upstreamFrames.count == 5)
    // Only the loop's own three handles are left.
    #expect(try waitUntil { try world.proxyLoop.handleCount() == 3 })
    world.shutdown()
  }

  @Test func theLoopsShutdownClosesAProxyNeverShutDown() throws {
    let world = try ProxyFixture(echo: true)
    let ada = try world.connect("ada")
    try world.withProxy { $0.partition(["ada"]) }
    try ada.send(numberedFrames(0..<5))
    #expect(try waitUntil { try world.statistics("ada")?.bytesHeld ?? 0 > 0 })
    #expect(world.proxyLoop.shutdown().isClean)
    #expect(ada.closes.wait(forCount: 1))
    #expect(world.client.shutdown().isClean)
    #expect(world.server.shutdown().isClean)
  }
}

extension ProxyPeer {
  /// The peer with this uplink loss probability (test setup).
  fileprivate func withLoss(_ probability: Double) -> ProxyPeer {
    faults.uplink.lossProbability = probability
    return self
  }
}

/// SDK peers (VideoSDK over LoopbackLinkFactory links) reaching a LoopbackServer hosting the
/// SessionService through a FaultProxy, one listener per peer. Short timers: links heartbeat
/// every 100 ms and give up after 400 ms of silence, the service after 600 ms.
@Suite("FaultProxy with SDK peers")
struct FaultProxySDKTests {
  /// A harness (server and client loop), and a proxy on its own loop in front of the server.
  final class World: Sendable {
    let harness: LoopbackHarness
    let proxyLoop: EventLoop
    let proxy: LoopBound<FaultProxy>

    init(grace: Int64 = 10_000) throws {
      harness = try LoopbackHarness(
        service: { configuration in
          configuration.reconnectGrace = grace
          configuration.heartbeatTimeout = 600
        },
        server: LoopbackServerConfiguration(tickInterval: 20),
        link: LoopbackLinkConfiguration(heartbeatInterval: 100, heartbeatTimeout: 400))
      proxyLoop = try EventLoop(name: "proxy-test-proxy")
      let (loop, port) = (proxyLoop, harness.port)
      proxy = try proxyLoop.sync {
        LoopBound(try FaultProxy(loop: loop, upstreamPort: port, seed: 11), loop: loop)
      }
    }

    @discardableResult
    func withProxy<Result: Sendable>(_ body: @escaping @Sendable (FaultProxy) throws -> Result)
      throws -> Result
    {
      let proxy = self.proxy
      return try proxyLoop.sync { try body(proxy.value) }
    }

    /// An SDK instance whose links reach the server through the proxy's listener for `name`,
    /// joined.
    func join(
      _ name: String, role: TokenRole = .participant,
      sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> Peer {
      let port = try withProxy { try $0.listen(peer: name) }
      let peer = try harness.makePeer(name)
      let factory = peer.factory
      try peer.loop.sync { factory.value.port = port }
      try peer.join(session: "Room", token: harness.token(role: role))
      #expect(peer.waitFor(.onSessionJoin), "\(name) did not join", sourceLocation: sourceLocation)
      return peer
    }

    /// Link close records of the links through `name`'s proxy port.
    func linkCloses(_ name: String) throws -> [String] {
      let port = try withProxy { $0.port(of: name) ?? 0 }
      return harness.clientLog.all.map(\.message).filter { $0.contains(":\(port) closed") }
    }

    func shutdown(sourceLocation: SourceLocation = #_sourceLocation) {
      _ = try? withProxy { $0.shutdown() }
      harness.shutdown(sourceLocation: sourceLocation)
      #expect(proxyLoop.shutdown().isClean, sourceLocation: sourceLocation)
    }
  }

  @Test func twoPeersThroughTheProxySeeEachOther() throws {
    let world = try World()
    let grace = try world.join("Grace", role: .host)
    let alan = try world.join("Alan")
    let alanID = try #require(try alan.myID())
    let graceID = try #require(try grace.myID())
    #expect(grace.waitFor(.onUserJoin([alanID])))
    try alan.run { _ = $0.getVideoHelper().startVideo() }
    #expect(grace.waitFor(.onUserVideoStatusChanged([alanID])))
    try world.harness.waitForConvergence([grace, alan])
    #expect(
      try world.harness.serviceFacts()?.participants.keys.sorted() == [graceID, alanID].sorted())
    let statistics = try world.withProxy { $0.statistics }
    for name in ["Grace", "Alan"] {
      #expect(statistics[name]?.connectionsAccepted == 1)
      #expect(statistics[name]?.bytesUplink ?? 0 > 0)
      #expect(statistics[name]?.bytesDownlink ?? 0 > 0)
    }
    world.shutdown()
  }

  @Test func aDelayedPeerStillConvergesAndItsCommandsArriveNoSoonerThanTheDelay() throws {
    let world = try World()
    let grace = try world.join("Grace", role: .host)
    let alan = try world.join("Alan")
    let alanID = try #require(try alan.myID())
    try world.harness.waitForConvergence([grace, alan])
    // Under the links' 400 ms heartbeat timeout both ways, so nothing times out.
    try world.withProxy { $0.setDelay(150, peer: "Alan", direction: .uplink) }
    let sent = monotonicMilliseconds()
    try alan.run { _ = $0.getVideoHelper().startVideo() }
    #expect(grace.waitFor(.onUserVideoStatusChanged([alanID])))
    let elapsed = monotonicMilliseconds() - sent
    #expect(elapsed >= 150, "Grace heard of Alan's video after \(elapsed) ms")
    try world.harness.waitForConvergence([grace, alan])
    world.shutdown()
  }

  @Test func aPartitionPastTheHeartbeatTimeoutEndsTheLinkAndTheSDKResumesAfterHeal() throws {
    let world = try World()
    let grace = try world.join("Grace", role: .host)
    let alan = try world.join("Alan")
    let alanID = try #require(try alan.myID())
    try world.harness.waitForConvergence([grace, alan])

    #expect(try world.withProxy { $0.partition(["Alan"]) })
    let closesBefore = world.harness.serverLog.closes.count
    // Alan's link hears nothing for its timeout and fails. Healing at once leaves the SDK's
    // resume attempts (each bounded by the same timeout) time to get through.
    #expect(
      try waitUntil { try world.linkCloses("Alan").contains { $0.contains("heartbeat timeout") } },
      "\((try? world.linkCloses("Alan")) ?? [])")
    // Meanwhile Grace turns her camera on.
    try grace.run { _ = $0.getVideoHelper().startVideo() }
    try world.withProxy { $0.heal() }

    // The service closes Alan's old connection (silent past its timeout, or superseded by
    // the resume).
    #expect(waitUntil { world.harness.serverLog.closes.count > closesBefore })
    #expect(waitUntil { (try? alan.run { $0.diagnostics.resumes }) ?? 0 >= 1 })
    try alan.run { _ = $0.getVideoHelper().startVideo() }
    #expect(grace.waitFor(.onUserVideoStatusChanged([alanID])))
    try world.harness.waitForConvergence([grace, alan])
    #expect(
      !alan.callbacks.values.contains { if case .onSessionLeave = $0 { true } else { false } })
    #expect(!grace.callbacks.values.contains { if case .onUserLeave = $0 { true } else { false } })
    #expect(try world.withProxy { $0.statistics["Alan"]?.connectionsAccepted ?? 0 } >= 2)
    world.shutdown()
  }

  @Test func aKilledPeerLosesItsLinkWithNoGoodbyeAndTheServiceRemovesIt() throws {
    let world = try World(grace: 300)
    let grace = try world.join("Grace", role: .host)
    let alan = try world.join("Alan")
    let alanID = try #require(try alan.myID())
    try world.harness.waitForConvergence([grace, alan])

    // Partitioned first, so that Alan's resumes can't get through: he is gone for good.
    try world.withProxy { proxy in
      proxy.partition(["Alan"])
      proxy.kill(peer: "Alan")
    }
    // The link saw a reset, not a goodbye: closed by its peer, no reason given.
    #expect(
      try waitUntil { try world.linkCloses("Alan").first?.hasSuffix("closedByPeer") == true },
      "\((try? world.linkCloses("Alan")) ?? [])")
    #expect(
      waitUntil {
        world.harness.serverLog.closes.contains { $0.message.contains("peer closed") }
      }, "\(world.harness.serverLog.closes)")
    #expect(grace.waitFor(.onUserLeave([alanID])))
    try world.harness.waitForConvergence([grace])
    #expect(try world.harness.serviceFacts()?.participants[alanID] == nil)
    #expect(try world.withProxy { $0.statistics["Alan"]?.kills } == 1)
    world.shutdown()
  }
}

/// Jitter, delay distributions and bandwidth caps on the signalling path (issue 25).
@Suite("FaultProxy signalling impairments")
struct FaultProxySignallingImpairmentTests {
  // MARK: Draws and lanes

  @Test func aConstantDelayDrawsNothingAndDrawsStayWithinTheirBounds() {
    var random = SimulationRandom(seed: 3)
    let untouched = random
    #expect(ProxyDelayDistribution.constant.sample(fixed: 40, jitter: 0, random: &random) == 40)
    #expect(ProxyDelayDistribution.constant.sample(fixed: -5, jitter: 0, random: &random) == 0)
    #expect(random == untouched)
    var uniform: [Int64] = []
    var jittered: [Int64] = []
    for _ in 0..<500 {
      uniform.append(
        ProxyDelayDistribution.uniform(max: 90).sample(fixed: 30, jitter: 0, random: &random))
      jittered.append(
        ProxyDelayDistribution.constant.sample(fixed: 10, jitter: 25, random: &random))
    }
    // Uniform up to a total of 90: never below the fixed 30, never above 90, and spread.
    #expect(uniform.allSatisfy { (30...90).contains($0) })
    #expect(Set(uniform).count > 20)
    // ± 25 around 10, never below 0.
    #expect(jittered.allSatisfy { (0...35).contains($0) })
    #expect(jittered.contains(0) && jittered.contains { $0 > 25 })
    // Bad parameters never trap and never go negative or past the maximum.
    let bad: [ProxyDelayDistribution] = [
      .normal(mean: .nan, standardDeviation: -4), .exponential(mean: -1),
      .pareto(scale: 1, shape: 1e-9), .uniform(max: .infinity),
    ]
    for distribution in bad {
      let draw = distribution.sample(fixed: 5, jitter: 0, random: &random)
      #expect((0...FaultProxy.maximumDelay).contains(draw))
    }
  }

  @Test func aCappedLanePacesChunksAtItsRateInOrderAndSaysWhenItsQueueDrains() {
    // 8,000 bit/s: a byte a millisecond; a 100-byte queue limit.
    let cap = MediaBandwidthCap(bitsPerSecond: 8_000, queueLimitBytes: 100)
    var lane = ProxyLane(maxHeldBytes: 10_000)
    let chunk = [UInt8](repeating: 1, count: 100)
    chunk.withUnsafeBytes { bytes in
      #expect(lane.arrive(bytes, now: 0, hold: 0, isBlocked: false, cap: cap) == .held)
      #expect(lane.arrive(bytes, now: 0, hold: 0, isBlocked: false, cap: cap) == .held)
      #expect(lane.arrive(bytes, now: 0, hold: 5, isBlocked: false, cap: cap) == .held)
    }
    // 300 bytes wait to be paced; the queue is within its limit once 100 are left (at 200).
    #expect(lane.pacingBacklog(now: 0, cap: cap) == 300)
    #expect(lane.pacingDrained(cap: cap) == 200)
    #expect(lane.next(now: 50, isBlocked: false) == .wait(until: 100))
    #expect(lane.next(now: 100, isBlocked: false) == .send(chunk))
    #expect(lane.next(now: 100, isBlocked: false) == .wait(until: 200))
    #expect(lane.next(now: 200, isBlocked: false) == .send(chunk))
    // The third is paced by 300, then held its own 5 ms.
    #expect(lane.next(now: 300, isBlocked: false) == .wait(until: 305))
    #expect(lane.next(now: 305, isBlocked: false) == .send(chunk))
    #expect(lane.pacingBacklog(now: 305, cap: cap) == 0)
  }

  // MARK: Through the proxy

  @Test func jitterAndADistributionDelayEveryChunkAndKeepTheOrder() throws {
    let world = try ProxyFixture(echo: true)
    let client = try world.connect("ada")
    try world.withProxy { proxy in
      #expect(proxy.setDelay(20, peer: "ada", direction: .uplink))
      #expect(proxy.setJitter(15, peer: "ada", direction: .uplink))
      #expect(proxy.setDistribution(.uniform(max: 80), peer: "ada", direction: .uplink))
      #expect(proxy.faults(of: "ada")?.uplink.jitter == 15)
      #expect(proxy.faults(of: "ada")?.uplink.distribution == .uniform(max: 80))
      #expect(proxy.faults(of: "ada")?.downlink.jitter == 0)
      // Without a media half, a signalling impairment is still applied; an unknown peer is not.
      #expect(!proxy.setJitter(5, peer: "nobody", direction: .both))
      #expect(!proxy.setDistribution(.exponential(mean: 5), peer: "nobody", direction: .both))
    }
    let frames = numberedFrames(0..<60)
    var sentAt: [Double] = []
    for batch in stride(from: 0, to: 60, by: 5) {
      sentAt.append(monotonicMilliseconds())
      try client.send(Array(frames[batch..<batch + 5]))
      usleep(3_000)
    }
    #expect(client.frames.wait(forCount: frames.count))
    // Every byte, in order, both ways, whatever each chunk drew.
    #expect(world.upstreamFrames.values.map(\.payload) == frames)
    #expect(client.frames.values.map(\.payload) == frames)
    // Each batch reached the server no sooner than the smallest delay it could draw (20 − 15).
    let arrivals = world.upstreamFrames.values.map(\.at)
    for (batch, sent) in sentAt.enumerated() {
      let arrived = arrivals[batch * 5]
      #expect(arrived - sent >= 5, "batch \(batch) arrived after \(arrived - sent) ms")
    }
    #expect(try #require(try world.statistics("ada")).chunksDelayed > 0)
    world.shutdown()
  }

  @Test func aBandwidthCapPacesSignallingWithBackPressureAndDropsNothing() throws {
    let world = try ProxyFixture()
    let client = try world.connect("ada")
    // 3.2 Mbit/s = 400 KB/s, with an 8 KB queue.
    let cap = MediaBandwidthCap(bitsPerSecond: 3_200_000, queueLimitBytes: 8_192)
    try world.withProxy { proxy in
      #expect(proxy.setBandwidth(cap, peer: "ada", direction: .uplink))
      #expect(proxy.faults(of: "ada")?.uplink.bandwidth == cap)
    }
    // 600 frames of 1,000 bytes: about 600 KB, a second and a half at the cap.
    let frames = numberedFrames(0..<600) { _ in 996 }
    let bytes = frames.reduce(0) { $0 + 4 + $1.count }
    let sentAt = monotonicMilliseconds()
    try client.send(frames)
    // While the bytes cross, the proxy holds its queue and the reads it already made (a read
    // is paced whole, up to the loop's 64 KiB buffer): it stops reading the sender instead of
    // taking all of it in.
    var mostHeld = 0
    waitUntil(timeoutSeconds: 60) {
      mostHeld = max(mostHeld, (try? world.statistics("ada"))?.bytesHeld ?? 0)
      return world.upstreamFrames.count == frames.count
    }
    let elapsed = monotonicMilliseconds() - sentAt
    #expect(world.upstreamFrames.values.map(\.payload) == frames)
    // A lower bound only (a loaded machine is slower, never faster): the cap's time less its
    // queue, which may have gone at once.
    let floor = Double(bytes - cap.queueLimitBytes) * 8 / cap.bitsPerSecond * 1_000
    #expect(elapsed >= floor * 0.9, "\(bytes) bytes crossed in \(elapsed) ms")
    #expect(mostHeld <= 4 * 65_536, "the proxy held \(mostHeld) of \(bytes) bytes at once")
    let statistics = try #require(try world.statistics("ada"))
    #expect(statistics.resets == 0)
    #expect(statistics.bytesUplink == bytes)
    // Lifting the cap lets the next bytes through at once.
    try world.withProxy { #expect($0.setBandwidth(nil, peer: "ada", direction: .uplink)) }
    let more = numberedFrames(200..<210)
    try client.send(more)
    #expect(waitUntil { world.upstreamFrames.count == frames.count + more.count })
    #expect(world.upstreamFrames.values.map(\.payload) == frames + more)
    world.shutdown()
  }
}
