import SessionTransport
import Testing
import VirtualNetwork

/// A media host that echoes every datagram to its sender, or forwards it to every other
/// endpoint it has heard from, and records what reached it.
final class FakeMediaHost: MediaHost {
  enum Mode {
    case echo
    case fanOut
  }

  let mode: Mode
  private var output: ((MediaHostOutput) -> Void)?
  private(set) var received: [(bytes: [UInt8], from: MediaEndpointID, now: Int64)] = []
  private(set) var endpoints: [MediaEndpointID] = []

  init(_ mode: Mode) { self.mode = mode }

  var isAttached: Bool { output != nil }

  func attachMedia(output: @escaping (MediaHostOutput) -> Void) { self.output = output }

  func receiveDatagram(_ bytes: [UInt8], from endpoint: MediaEndpointID, now: Int64) {
    received.append((bytes, endpoint, now))
    if !endpoints.contains(endpoint) { endpoints.append(endpoint) }
    switch mode {
    case .echo:
      output?(.send(bytes, to: endpoint))
    case .fanOut:
      output?(.forward(bytes, to: endpoints.filter { $0 != endpoint }))
    }
  }

  /// Sends from the host, as a test says.
  func emit(_ output: MediaHostOutput) { self.output?(output) }
}

/// A media link's events, kept by its handler.
final class MediaLog {
  var ticks: [Int64] = []
  var datagrams: [(bytes: [UInt8], at: Int64)] = []
}

extension VirtualNetwork {
  /// A started media link of `peer`, logging into the returned log.
  func startMediaLink(_ peer: String) -> (link: any MediaLink, log: MediaLog) {
    let log = MediaLog()
    let link = self.peer(peer).makeMediaLink()
    link.start { event in
      switch event {
      case .tick(let now): log.ticks.append(now)
      case .datagram(let bytes, let at): log.datagrams.append((bytes, at))
      }
    }
    return (link, log)
  }

  /// A network with a session host and a media host on the service node.
  static func withMediaHost(
    _ mode: FakeMediaHost.Mode, seed: UInt64 = 1,
    configuration: VirtualNetworkConfiguration = .init()
  ) -> (VirtualNetwork, FakeMediaHost) {
    let network = VirtualNetwork(seed: seed, configuration: configuration)
    network.startHost(ScriptedHost())
    let media = FakeMediaHost(mode)
    network.attachMediaHost(media)
    return (network, media)
  }
}

/// A datagram numbered `index` (4 bytes, big-endian).
func numberedDatagram(_ index: Int) -> [UInt8] {
  withUnsafeBytes(of: UInt32(truncatingIfNeeded: index).bigEndian, Array.init)
}

@Suite("Virtual media link")
struct MediaLinkTests {
  @Test func aStartedLinkTicksAtItsIntervalOnTheNodesClock() {
    let network = VirtualNetwork(seed: 1)
    let (link, log) = network.startMediaLink("ada")
    #expect(link.tickInterval == 10_000)
    #expect(log.ticks.isEmpty, "the first tick comes from the loop, one interval on")
    network.run(until: 1_000_000)
    #expect(log.ticks == (1...100).map { Int64($0) * 10_000 })
    // A skew set now moves the node's wall clock, not the running media clock: a monotonic
    // clock never steps, so the ticks keep their pace and their reading.
    network.setClockSkew(peer: "ada", milliseconds: -7_000)
    network.run(until: 1_020_000)
    #expect(log.ticks.suffix(2) == [1_010_000, 1_020_000])
    // A link the node starts after the skew reads it (a clock offset from the others).
    let (later, laterLog) = network.startMediaLink("ada")
    network.run(until: 1_030_000)
    #expect(laterLog.ticks == [1_030_000 - 7_000_000])
    #expect(log.ticks.last == 1_030_000)
    later.close()
    link.close()
    link.close()
    network.run(until: 2_000_000)
    #expect(log.ticks.count == 103, "a closed link ticks no more")
  }

  @Test func theTickIntervalFollowsTheConfigurationAndIsNeverZero() {
    let fast = VirtualNetwork(seed: 1, configuration: .init(mediaTickInterval: 20))
    #expect(fast.peer("ada").makeMediaLink().tickInterval == 20_000)
    let clamped = VirtualNetwork(seed: 1, configuration: .init(mediaTickInterval: -5))
    let (link, log) = clamped.startMediaLink("ada")
    #expect(link.tickInterval == 1_000)
    clamped.run(until: 10_000)
    #expect(log.ticks.count == 10)
  }

  @Test func aDatagramReachesTheMediaHostAndComesBackWithTheLinksDelays() {
    let (network, host) = VirtualNetwork.withMediaHost(.echo)
    network.setBehavior(LinkBehavior(minimumDelay: 30), peer: "ada", direction: .uplink)
    network.setBehavior(LinkBehavior(minimumDelay: 20), peer: "ada", direction: .downlink)
    let (link, log) = network.startMediaLink("ada")
    network.schedule(at: 5_000) { link.send([1, 2, 3]) }
    network.run(until: 100_000)
    #expect(host.received.count == 1)
    #expect(host.received.first?.bytes == [1, 2, 3])
    #expect(host.received.first?.now == 35_000)
    #expect(host.received.first?.from == network.mediaEndpoint(of: "ada"))
    #expect(log.datagrams.count == 1)
    #expect(log.datagrams.first?.bytes == [1, 2, 3])
    #expect(log.datagrams.first?.at == 55_000)
    let up = network.statistics[peer: "ada", direction: .uplink]
    let down = network.statistics[peer: "ada", direction: .downlink]
    #expect(up.datagramsSent == 1 && up.datagramsDelivered == 1)
    #expect(down.datagramsSent == 1 && down.datagramsDelivered == 1)
  }

  @Test func endpointsAreStablePerNodeName() {
    let network = VirtualNetwork(seed: 1)
    let ada = network.mediaEndpoint(of: "ada")
    let bob = network.mediaEndpoint(of: "bob")
    #expect(ada != bob)
    #expect(network.mediaEndpoint(of: "ada") == ada)
    #expect(network.node(of: ada) == "ada" && network.node(of: bob) == "bob")
    #expect(network.node(of: MediaEndpointID(0)) == nil)
    #expect(network.node(of: MediaEndpointID(99)) == nil)
    #expect(network.node(of: MediaEndpointID(.max)) == nil)
  }

  @Test func aForwardSendsTheSameBytesToEachEndpoint() {
    let (network, host) = VirtualNetwork.withMediaHost(.fanOut)
    let names = ["ada", "bob", "cyd", "dee"]
    let logs = names.map { network.startMediaLink($0) }
    // Each node says hello once, so the host knows every endpoint; then ada sends.
    for (index, (link, _)) in logs.enumerated() {
      network.schedule(at: Int64(index) * 1_000) { link.send([UInt8(index)]) }
    }
    network.schedule(at: 10_000) { logs[0].link.send([42, 42]) }
    network.run(until: 100_000)
    #expect(host.endpoints.count == 4)
    for (_, log) in logs.dropFirst() {
      #expect(log.datagrams.last?.bytes == [42, 42])
    }
    #expect(!logs[0].log.datagrams.contains { $0.bytes == [42, 42] })
    // An endpoint no peer has is dropped and counted; the others still get theirs.
    host.emit(.forward([7], to: [MediaEndpointID(999), network.mediaEndpoint(of: "bob")]))
    host.emit(.send([7], to: MediaEndpointID(0)))
    network.runUntilIdle()
    #expect(network.mediaOutputsToUnknownEndpoints == 2)
    #expect(logs[1].log.datagrams.last?.bytes == [7])
  }

  @Test func tenPercentLossReadsTenPercent() {
    let (network, host) = VirtualNetwork.withMediaHost(.echo)
    network.setBehavior(LinkBehavior(loss: .bernoulli(0.1)), peer: "ada", direction: .uplink)
    let (link, log) = network.startMediaLink("ada")
    let count = 20_000
    for index in 0..<count {
      network.schedule(at: Int64(index) * 500) { link.send(numberedDatagram(index)) }
    }
    network.run(until: Int64(count) * 500 + 1_000_000)
    let rate = 1 - Double(host.received.count) / Double(count)
    #expect(abs(rate - 0.1) <= 0.015, "loss read \(rate)")
    #expect(log.datagrams.count == host.received.count, "the downlink loses nothing")
    let counters = network.statistics[peer: "ada", direction: .uplink]
    #expect(counters.datagramsDropped == count - host.received.count)
  }

  @Test func theSameSeedGivesTheSameMediaRun() {
    func run(seed: UInt64) -> [Int64] {
      let (network, _) = VirtualNetwork.withMediaHost(.echo, seed: seed)
      let behavior = LinkBehavior(
        minimumDelay: 10, distribution: .exponential(mean: 5), jitter: 3, loss: .bernoulli(0.2))
      network.setBehavior(behavior, peer: "ada", direction: .uplink)
      network.setBehavior(behavior, peer: "ada", direction: .downlink)
      let (link, log) = network.startMediaLink("ada")
      for index in 0..<500 {
        network.schedule(at: Int64(index) * 2_000) { link.send(numberedDatagram(index)) }
      }
      network.run(until: 3_000_000)
      return log.datagrams.map(\.at)
    }
    #expect(run(seed: 9) == run(seed: 9))
    #expect(run(seed: 9) != run(seed: 10))
  }

  @Test func aPartitionDropsMediaAndTheHealLetsItFlowAgain() {
    let (network, host) = VirtualNetwork.withMediaHost(.echo)
    let (link, log) = network.startMediaLink("ada")
    network.partition(["ada"], ["service"])
    network.schedule(at: 1_000) { link.send([1]) }
    network.runUntilIdle()
    #expect(host.received.isEmpty)
    // Ticks go on: the node runs, only its datagrams are cut.
    network.run(until: 100_000)
    #expect(log.ticks.count == 10)
    // One way, from the service: the uplink flows, the echo is dropped.
    network.heal()
    network.partition(["service"], ["ada"], oneWay: true)
    link.send([2])
    network.runUntilIdle()
    #expect(host.received.map(\.bytes) == [[2]])
    #expect(log.datagrams.isEmpty)
    network.heal()
    link.send([3])
    network.runUntilIdle()
    #expect(log.datagrams.map(\.bytes) == [[3]], "the heal brings back nothing dropped")
    // A hold drops datagrams too.
    network.hold(peer: "ada", direction: .uplink)
    link.send([4])
    network.runUntilIdle()
    #expect(host.received.count == 2)
    network.release(peer: "ada", direction: .uplink)
    link.send([5])
    network.runUntilIdle()
    #expect(host.received.count == 3)
    #expect(network.statistics[peer: "ada", direction: .uplink].datagramsDropped == 2)
  }

  @Test func aPausedNodesTicksAndDatagramsWaitForItsResume() {
    let (network, host) = VirtualNetwork.withMediaHost(.echo)
    network.setBehavior(LinkBehavior(minimumDelay: 5), peer: "ada", direction: .downlink)
    let (link, log) = network.startMediaLink("ada")
    network.run(until: 50_000)
    #expect(log.ticks.count == 5)
    link.send([1])
    network.pause(peer: "ada")
    network.run(until: 500_000)
    #expect(host.received.count == 1, "what it sent before the pause goes")
    #expect(log.ticks.count == 5 && log.datagrams.isEmpty)
    link.send([2])
    network.runUntilIdle()
    #expect(host.received.count == 1, "a paused node sends nothing")
    network.resume(peer: "ada")
    network.run(until: 500_000)
    #expect(log.datagrams.map(\.bytes) == [[1]])
    #expect(log.datagrams.first?.at == 500_000)
    #expect(log.ticks.count == 6 && log.ticks.last == 500_000, "one tick for the whole pause")
    network.run(until: 600_000)
    #expect(log.ticks.count == 16)
  }

  @Test func aKilledNodesLinkStopsAndARestartNeedsANewLink() {
    let (network, host) = VirtualNetwork.withMediaHost(.echo)
    network.setBehavior(LinkBehavior(minimumDelay: 10), peer: "ada", direction: .downlink)
    let (link, log) = network.startMediaLink("ada")
    network.run(until: 30_000)
    link.send([1])
    network.kill(peer: "ada")
    network.run(until: 1_000_000)
    #expect(host.received.count == 1, "what was on the wire still arrives")
    #expect(log.ticks.count == 3 && log.datagrams.isEmpty, "no event after the kill")
    #expect(network.statistics[peer: "ada", direction: .downlink].datagramsDropped == 1)
    link.send([2])
    network.runUntilIdle()
    #expect(host.received.count == 1)
    // Made while dead: never delivers, even after the restart.
    let (dead, deadLog) = network.startMediaLink("ada")
    network.peer("ada").restart()
    dead.send([3])
    let (fresh, freshLog) = network.startMediaLink("ada")
    fresh.send([4])
    network.run(until: 2_000_000)
    #expect(host.received.map(\.bytes) == [[1], [4]])
    #expect(deadLog.ticks.isEmpty && deadLog.datagrams.isEmpty)
    #expect(freshLog.datagrams.map(\.bytes) == [[4]] && freshLog.ticks.count == 100)
  }

  @Test func theLinkStartedLastOnANodeGetsItsDatagrams() {
    let (network, _) = VirtualNetwork.withMediaHost(.echo)
    let (first, firstLog) = network.startMediaLink("ada")
    let (second, secondLog) = network.startMediaLink("ada")
    first.send([1])
    network.runUntilIdle()
    #expect(firstLog.datagrams.isEmpty && secondLog.datagrams.map(\.bytes) == [[1]])
    second.close()
    first.send([2])
    network.runUntilIdle()
    #expect(firstLog.datagrams.isEmpty, "a closed link hands nothing back to an older one")
    // Datagrams from other peers reach the endpoint's own handler.
    var other: [(String, [UInt8])] = []
    network.datagramEndpoint(node: "ada").onReceive = { other.append(($0, $1)) }
    network.datagramEndpoint(node: "bob").send([9], to: "ada")
    network.runUntilIdle()
    #expect(other.count == 1 && other.first?.0 == "bob")
  }

  @Test func aHostRestartDropsTheMediaAttachmentUntilReattached() {
    let (network, host) = VirtualNetwork.withMediaHost(.echo)
    #expect(network.isMediaHostAttached && host.isAttached)
    let (link, log) = network.startMediaLink("ada")
    var atService: [[UInt8]] = []
    network.datagramEndpoint(node: "service").onReceive = { _, bytes in atService.append(bytes) }
    network.killHost()
    #expect(!network.isMediaHostAttached)
    link.send([1])
    network.runUntilIdle()
    #expect(host.received.isEmpty && atService == [[1]], "no media host: the endpoint's own")
    // The old host's outputs go nowhere, before and after a new host starts.
    host.emit(.send([2], to: network.mediaEndpoint(of: "ada")))
    network.startHost(ScriptedHost())
    host.emit(.send([3], to: network.mediaEndpoint(of: "ada")))
    network.runUntilIdle()
    #expect(log.datagrams.isEmpty)
    let fresh = FakeMediaHost(.echo)
    network.attachMediaHost(fresh)
    host.emit(.send([4], to: network.mediaEndpoint(of: "ada")))
    link.send([5])
    network.runUntilIdle()
    #expect(fresh.received.map(\.bytes) == [[5]])
    #expect(log.datagrams.map(\.bytes) == [[5]])
    // A replaced media host is let go of too.
    let third = FakeMediaHost(.echo)
    network.attachMediaHost(third)
    fresh.emit(.send([6], to: network.mediaEndpoint(of: "ada")))
    network.runUntilIdle()
    #expect(log.datagrams.count == 1)
  }

  @Test func aFinishedNetworkStartsNoMediaLink() {
    let (network, host) = VirtualNetwork.withMediaHost(.echo)
    let (link, log) = network.startMediaLink("ada")
    link.send([1])
    let left = network.finish()
    #expect(left.count == 1 && left.first?.channel == .datagram)
    let (late, lateLog) = network.startMediaLink("bob")
    late.send([2])
    network.run(until: 1_000_000)
    #expect(host.received.isEmpty && log.ticks.isEmpty && lateLog.ticks.isEmpty)
  }

  /// A 30-peer classroom's media plane: every peer sends 50 packets a second, each forwarded to
  /// the 29 others, about 44,000 hops a virtual second; with 10% loss downlink each peer reads
  /// about 10% missing.
  @Test func aClassroomFansOutThroughTheServiceNode() {
    let (network, host) = VirtualNetwork.withMediaHost(.fanOut)
    let names = (0..<30).map { "peer\($0)" }
    for name in names {
      network.setBehavior(
        LinkBehavior(minimumDelay: 15, loss: .bernoulli(0.1)), peer: name, direction: .downlink)
    }
    let links = names.map { network.startMediaLink($0) }
    // Everyone introduces themselves first, so the fan-out reaches all from the start.
    for (index, (link, _)) in links.enumerated() {
      network.schedule(at: Int64(index) * 100) { link.send([0]) }
    }
    for (index, (link, _)) in links.enumerated() {
      for packet in 0..<100 {
        network.schedule(at: 100_000 + Int64(packet) * 20_000 + Int64(index) * 100) {
          link.send(numberedDatagram(packet))
        }
      }
    }
    network.run(until: 3_000_000)
    #expect(host.received.count == 30 * 101)
    for (_, log) in links {
      let data = log.datagrams.filter { $0.bytes.count == 4 }
      let rate = 1 - Double(data.count) / Double(29 * 100)
      #expect(abs(rate - 0.1) < 0.03, "a peer's loss read \(rate)")
    }
  }
}

/// A network dropped with links open frees them: a node holds its links and each link its
/// node, a cycle only `close()` broke (LeakSanitizer found the leaks).
@Suite("Media links when their network goes")
struct MediaLinkLifetimeTests {
  final class Held {}

  @Test func aNetworkDroppedWithLinksOpenFreesThemAndWhatTheirHandlersHeld() {
    weak var weakLink: VirtualMediaLink?
    weak var weakHeld: Held?
    weak var weakNetwork: VirtualNetwork?
    do {
      let (network, _) = VirtualNetwork.withMediaHost(.echo)
      let held = Held()
      let link = network.peer("ada").makeMediaLink()
      link.start { _ in withExtendedLifetime(held) {} }
      network.run(until: 50_000)
      #expect((link as? VirtualMediaLink)?.isOpen == true)
      weakLink = link as? VirtualMediaLink
      weakHeld = held
      weakNetwork = network
    }
    #expect(weakNetwork == nil)
    #expect(weakLink == nil, "the open link outlived its network")
    #expect(weakHeld == nil, "what the link's handler held outlived the network")
  }

  /// The same for a reliable link (which also holds its connection, and the connection it),
  /// and a handler that keeps the network `unowned`, which kept the network's memory too.
  @Test func aNetworkDroppedWithReliableLinksOpenFreesThemAndWhatTheirHandlersHeld() {
    weak var weakLink: VirtualLink?
    weak var weakHeld: Held?
    weak var weakNetwork: VirtualNetwork?
    weak var weakPeer: VirtualPeer?
    do {
      let network = VirtualNetwork(seed: 3)
      network.startHost(ScriptedHost())
      let held = Held()
      let link = network.peer("ada").makeLink()
      link.start { [unowned network] _ in withExtendedLifetime((held, network.now)) {} }
      link.send(command(1))
      network.run(until: 50_000)
      #expect(link.connection != nil)
      // A message held on the way names its connection, which its node's list holds.
      network.hold(peer: "ada", direction: .uplink)
      link.send(command(2))
      network.run(until: 60_000)
      weakPeer = network.peer("ada")
      weakLink = link as? VirtualLink
      weakHeld = held
      weakNetwork = network
    }
    #expect(weakNetwork == nil)
    #expect(weakLink == nil, "the open link outlived its network")
    #expect(weakHeld == nil, "what the link's handler held outlived the network")
    #expect(weakPeer == nil, "a connection with a held message kept its node")
  }

  @Test func aClosedLinkWasAlwaysFreed() {
    weak var weakLink: VirtualMediaLink?
    do {
      let (network, _) = VirtualNetwork.withMediaHost(.echo)
      let link = network.peer("ada").makeMediaLink()
      link.start { _ in }
      network.run(until: 50_000)
      link.close()
      weakLink = link as? VirtualMediaLink
      withExtendedLifetime(network) {}
    }
    #expect(weakLink == nil)
  }
}
