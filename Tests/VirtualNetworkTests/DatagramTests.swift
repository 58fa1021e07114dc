import SessionTransport
import Testing
import VirtualNetwork

@Suite("Lossy channel")
struct DatagramTests {
  /// Sends `count` numbered datagrams from one node to another, one a millisecond, and
  /// returns the numbers received, in order of arrival.
  func exchange(
    _ network: VirtualNetwork, count: Int, from: String = "ada", to: String = "service"
  ) -> [Int] {
    let sender = network.datagramEndpoint(node: from)
    let receiver = network.datagramEndpoint(node: to)
    var received: [Int] = []
    receiver.onReceive = { source, bytes in
      #expect(source == from)
      received.append(Int(bytes[0]) << 8 | Int(bytes[1]))
    }
    for index in 0..<count {
      network.schedule(at: Int64(index) * 1_000) {
        sender.send([UInt8(index >> 8), UInt8(index & 0xFF)], to: to)
      }
    }
    network.run(until: Int64(count) * 1_000 + 60_000_000)
    return received
  }

  @Test func anIdealChannelDeliversEverythingInOrder() {
    let network = VirtualNetwork(seed: 1)
    #expect(exchange(network, count: 300) == Array(0..<300))
    #expect(network.datagramEndpoint(node: "ada") === network.datagramEndpoint(node: "ada"))
    let counters = network.statistics[peer: "ada", direction: .uplink]
    #expect(counters.datagramsSent == 300 && counters.datagramsDelivered == 300)
    #expect(counters.bytes == 600)
  }

  @Test func bernoulliLossDropsAboutItsRate() {
    let network = VirtualNetwork(seed: 2)
    network.setBehavior(LinkBehavior(loss: .bernoulli(0.2)), peer: "ada", direction: .uplink)
    let received = exchange(network, count: 10_000)
    let rate = 1 - Double(received.count) / 10_000
    #expect(abs(rate - 0.2) < 0.015)
    #expect(
      network.statistics[peer: "ada", direction: .uplink].datagramsDropped == 10_000
        - received.count)
  }

  @Test func gilbertElliottLossHasItsRateAndBurstLength() {
    let network = VirtualNetwork(seed: 3)
    network.setBehavior(
      LinkBehavior(loss: .gilbertElliott(lossRate: 0.1, meanBurstLength: 4)), peer: "ada",
      direction: .uplink)
    let count = 20_000
    let received = Set(exchange(network, count: count))
    let lost = (0..<count).map { !received.contains($0) }
    let rate = Double(lost.count { $0 }) / Double(count)
    #expect(abs(rate - 0.1) < 0.02)
    var bursts: [Int] = []
    var run = 0
    for isLost in lost {
      if isLost {
        run += 1
      } else if run > 0 {
        bursts.append(run)
        run = 0
      }
    }
    let meanBurst = Double(bursts.reduce(0, +)) / Double(bursts.count)
    #expect(abs(meanBurst - 4) < 0.4)
    // Independent losses at the same rate come in bursts of about 1.1.
    #expect(meanBurst > 2)
  }

  @Test func reorderingOnlyWhereAllowed() {
    let jittery = LinkBehavior(minimumDelay: 10, jitter: 8)
    let fifo = VirtualNetwork(seed: 4)
    fifo.setBehavior(jittery, peer: "ada", direction: .uplink)
    #expect(exchange(fifo, count: 500) == Array(0..<500))
    let loose = VirtualNetwork(seed: 4)
    var reordering = jittery
    reordering.allowsReordering = true
    loose.setBehavior(reordering, peer: "ada", direction: .uplink)
    let received = exchange(loose, count: 500)
    #expect(received.sorted() == Array(0..<500))
    #expect(received != Array(0..<500))
  }

  @Test func duplicatesArriveTwice() {
    let network = VirtualNetwork(seed: 5)
    network.setBehavior(
      LinkBehavior(minimumDelay: 5, duplicateProbability: 0.25), peer: "ada", direction: .uplink)
    let received = exchange(network, count: 4_000)
    let extra = received.count - 4_000
    #expect(abs(Double(extra) / 4_000 - 0.25) < 0.03)
    #expect(network.statistics[peer: "ada", direction: .uplink].datagramsDuplicated == extra)
    #expect(Set(received).count == 4_000)
  }

  @Test func aFullQueueDropsAtTheTailAndSerialisationDelays() {
    let network = VirtualNetwork(seed: 6)
    // 80 kbit/s: 10 bytes a millisecond; room for five 100-byte datagrams, the one being
    // serialised included.
    network.setBehavior(
      LinkBehavior(bandwidth: Bandwidth(bitsPerSecond: 80_000, queueLimitBytes: 500)),
      peer: "ada", direction: .uplink)
    let sender = network.datagramEndpoint(node: "ada")
    var arrivals: [Int64] = []
    // Unowned: the network holds the endpoint, which holds this closure.
    network.datagramEndpoint(node: "service").onReceive = { [unowned network] _, _ in
      arrivals.append(network.now)
    }
    for _ in 0..<20 { sender.send([UInt8](repeating: 0, count: 100), to: "service") }
    network.runUntilIdle()
    #expect(arrivals == [10_000, 20_000, 30_000, 40_000, 50_000])
    #expect(network.statistics[peer: "ada", direction: .uplink].datagramsDropped == 15)
  }

  @Test func peerToPeerCrossesBothAccessLinks() {
    let network = VirtualNetwork(seed: 7)
    network.setBehavior(LinkBehavior(minimumDelay: 15), peer: "ada", direction: .uplink)
    network.setBehavior(LinkBehavior(minimumDelay: 25), peer: "bob", direction: .downlink)
    var arrivals: [Int64] = []
    // Unowned: the network holds the endpoint, which holds this closure.
    network.datagramEndpoint(node: "bob").onReceive = { [unowned network] _, _ in
      arrivals.append(network.now)
    }
    network.datagramEndpoint(node: "ada").send([1], to: "bob")
    network.runUntilIdle()
    #expect(arrivals == [40_000])
  }

  @Test func partitionsHoldsDeadAndPausedNodes() {
    let network = VirtualNetwork(seed: 8)
    let ada = network.datagramEndpoint(node: "ada")
    var received = 0
    network.datagramEndpoint(node: "bob").onReceive = { _, _ in received += 1 }
    network.partition(["ada"], ["bob"])
    ada.send([1], to: "bob")
    network.heal()
    network.hold(peer: "bob", direction: .downlink)
    ada.send([2], to: "bob")
    network.heal()
    network.runUntilIdle()
    #expect(received == 0, "partitions and holds drop datagrams; heal brings nothing back")
    network.pause(peer: "bob")
    ada.send([3], to: "bob")
    network.runUntilIdle()
    #expect(received == 0)
    network.resume(peer: "bob")
    network.runUntilIdle()
    #expect(received == 1, "a paused node reads what waited")
    network.kill(peer: "bob")
    ada.send([4], to: "bob")
    network.kill(peer: "ada")
    ada.send([5], to: "bob")
    network.runUntilIdle()
    #expect(received == 1)
  }
}
