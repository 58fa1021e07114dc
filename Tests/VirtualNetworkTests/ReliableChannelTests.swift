import SessionCore
import SessionTransport
import Testing
import VirtualNetwork

@Suite("Reliable channel")
struct ReliableChannelTests {
  let network: VirtualNetwork
  let host = ScriptedHost()

  init() {
    network = VirtualNetwork(seed: 21)
    network.startHost(host)
  }

  /// Host-clock milliseconds since the run started, of each record.
  func times(_ records: [(time: Int64, record: ScriptedHost.Record)]) -> [Int64] {
    records.map { $0.time - network.configuration.epochMilliseconds }
  }

  @Test func aMessageArrivesAfterItsDelayBehindTheOpen() {
    network.setBehavior(LinkBehavior(minimumDelay: 30), peer: "ada", direction: .uplink)
    let (link, _) = network.startLink("ada")
    link.send(command(1))
    #expect(host.records.isEmpty)
    network.runUntilIdle()
    #expect(
      host.records.map(\.record) == [
        .opened(ConnectionID(1)), .received(ConnectionID(1), command(1)),
      ])
    #expect(times(host.records) == [30, 30])
  }

  @Test func messagesStayInOrderUnderJitter() {
    network.setBehavior(
      LinkBehavior(minimumDelay: 5, distribution: .exponential(mean: 20), jitter: 10),
      peer: "ada", direction: .uplink)
    let (link, _) = network.startLink("ada")
    for id in 1...100 {
      network.schedule(at: Int64(id) * 1_000) { link.send(command(CommandID(id))) }
    }
    network.run(until: ms(2_000))
    #expect(host.commandIDs == Array(1...100))
    let arrivals = times(host.records)
    #expect(zip(arrivals, arrivals.dropFirst()).allSatisfy { $0 <= $1 })
  }

  @Test func lossCostsRetransmissionsButLosesNothing() {
    network.setBehavior(
      LinkBehavior(minimumDelay: 10, loss: .bernoulli(0.3)), peer: "ada", direction: .uplink)
    let (link, _) = network.startLink("ada")
    for id in 1...200 { link.send(command(CommandID(id))) }
    network.runUntilIdle()
    #expect(host.commandIDs == Array(1...200))
    let counters = network.statistics[peer: "ada", direction: .uplink]
    // The open, the commands, and any heartbeat sent while the link waited.
    #expect(counters.sent >= 201 && counters.delivered == counters.sent)
    #expect(counters.retransmitted > 30 && counters.retransmitted < 130)
    // FIFO: one lost message holds the ones behind it at least one timeout (200 ms).
    #expect(times(host.records).last ?? 0 >= 210)
  }

  @Test func eachLossAddsADoublingTimeoutOfAtLeastTwiceTheDelay() {
    // Every attempt lost: 16 timeouts, doubling six times, then it arrives anyway.
    let network = VirtualNetwork(
      seed: 1, configuration: VirtualNetworkConfiguration(heartbeatInterval: 0, heartbeatTimeout: 0)
    )
    let host = ScriptedHost()
    network.startHost(host)
    network.setBehavior(
      LinkBehavior(minimumDelay: 150, loss: .bernoulli(1)), peer: "ada", direction: .uplink)
    let (link, _) = network.startLink("ada")
    network.runUntilIdle(limit: ms(600_000))
    // max(200, 2 × 150) = 300 ms: 300 · (1 + 2 + … + 64) + 300 · 64 · 9, plus the delay.
    let expected: Int64 = 300 * 127 + 300 * 64 * 9 + 150
    #expect(host.records.map { $0.time - network.configuration.epochMilliseconds } == [expected])
    #expect(network.statistics[peer: "ada", direction: .uplink].retransmitted == 16)
    withExtendedLifetime(link) {}
  }

  @Test func bandwidthSerialisesMessagesOneAfterAnother() {
    // 8,000 bit/s: a byte a millisecond.
    network.setBehavior(
      LinkBehavior(bandwidth: Bandwidth(bitsPerSecond: 8_000, queueLimitBytes: 1_000)),
      peer: "ada", direction: .uplink)
    let size = Int64(WireEncoder.payload(command(1)).count + 4)
    let (link, _) = network.startLink("ada")
    for id in 1...3 { link.send(command(CommandID(id))) }
    network.runUntilIdle()
    // The open costs 5 bytes, then each command `size`.
    #expect(times(host.records) == [5, 5 + size, 5 + 2 * size, 5 + 3 * size])
    #expect(network.statistics[peer: "ada", direction: .uplink].bytes == Int(5 + 3 * size))
  }

  @Test func aFullQueueLosesAReliableMessageWhichIsRetransmitted() {
    network.setBehavior(
      LinkBehavior(bandwidth: Bandwidth(bitsPerSecond: 8_000, queueLimitBytes: 20)),
      peer: "ada", direction: .uplink)
    let (link, _) = network.startLink("ada")
    for id in 1...10 { link.send(command(CommandID(id))) }
    network.runUntilIdle()
    #expect(host.commandIDs == Array(1...10))
    #expect(network.statistics[peer: "ada", direction: .uplink].retransmitted > 0)
  }

  @Test func aBroadcastCopyFollowsEachPeersOwnDownlink() {
    network.setBehavior(LinkBehavior(minimumDelay: 10), peer: "near", direction: .downlink)
    network.setBehavior(LinkBehavior(minimumDelay: 70), peer: "far", direction: .downlink)
    let (near, nearLog) = network.startLink("near")
    let (far, farLog) = network.startLink("far")
    network.runUntilIdle()
    let start = network.now
    host.broadcast(.heartbeat)
    network.runUntilIdle()
    #expect(nearLog.events.map(\.time) == [start + ms(10)])
    #expect(farLog.events.map(\.time) == [start + ms(70)])
    withExtendedLifetime((near, far)) {}
  }

  @Test func theHostClosingReachesTheLinkOnceAndTheHostHearsOnce() throws {
    network.setBehavior(LinkBehavior(minimumDelay: 25), peer: "ada", direction: .downlink)
    let (link, log) = network.startLink("ada")
    network.runUntilIdle()
    let connection = try #require(link.connection)
    host.close(connection)
    network.runUntilIdle()
    #expect(log.closeReason == .closedByPeer)
    #expect(log.events.count == 1)
    #expect(host.closed == [connection])
    // What the link sends afterwards goes nowhere.
    link.send(command(1))
    link.close()
    network.runUntilIdle()
    #expect(host.commandIDs.isEmpty && host.closed == [connection])
  }

  @Test func closingLocallyTellsTheHostAfterTheDelayAndDeliversNothingMore() throws {
    network.setBehavior(LinkBehavior(minimumDelay: 40), peer: "ada", direction: .uplink)
    let (link, log) = network.startLink("ada")
    network.runUntilIdle()
    let connection = try #require(link.connection)
    host.send(.heartbeat, to: connection)
    link.close()
    link.close()
    network.runUntilIdle()
    #expect(log.events.isEmpty, "nothing after close, not even .closed")
    #expect(host.closed == [connection])
    #expect(network.statistics[peer: "ada", direction: .downlink].dropped == 1)
  }

  /// The ghost member: a connection closed while its open was still being retransmitted never
  /// reaches the host, nor does anything sent on it, as a TCP socket closed before its
  /// handshake completed.
  @Test func aConnectionClosedBeforeItsOpenArrivesNeverReachesTheHost() {
    network.setBehavior(
      LinkBehavior(minimumDelay: 20, loss: .bernoulli(1)), peer: "ada", direction: .uplink)
    let (abandoned, _) = network.startLink("ada")
    abandoned.send(command(1))
    network.run(until: network.now + ms(1_000))
    #expect(host.open.isEmpty, "the open is still being retransmitted")
    abandoned.close()
    // The uplink heals; the abandoned open and command would arrive now.
    network.setBehavior(LinkBehavior(minimumDelay: 20), peer: "ada", direction: .uplink)
    let (second, _) = network.startLink("ada")
    second.send(command(2))
    network.runUntilIdle(limit: ms(600_000))
    #expect(host.open.count == 1, "only the second connection opened: \(host.open)")
    #expect(host.commandIDs == [2])
    #expect(host.closed.isEmpty)
    #expect(network.statistics[peer: "ada", direction: .uplink].dropped >= 2)
  }

  @Test func aConnectionClosedAfterItsOpenArrivedClosesAfterItsData() throws {
    network.setBehavior(LinkBehavior(minimumDelay: 40), peer: "ada", direction: .uplink)
    let (link, _) = network.startLink("ada")
    network.runUntilIdle()
    let connection = try #require(link.connection)
    link.send(command(1))
    link.close()
    // Until the close arrives, the host holds a connection its client closed; not after.
    #expect(network.connectionsOpenAfterClientClose() == [connection: "ada"])
    network.runUntilIdle()
    #expect(network.connectionsOpenAfterClientClose().isEmpty)
    #expect(host.commandIDs == [1])
    #expect(host.closed == [connection])
  }

  @Test func aKilledNodesConnectionIsNotOneItsClientClosed() throws {
    let (link, _) = network.startLink("ada")
    network.runUntilIdle()
    #expect(link.connection != nil)
    network.kill(peer: "ada")
    network.runUntilIdle()
    // No close was sent: the host finds out by the heartbeat timeout, not from the client.
    #expect(network.connectionsOpenAfterClientClose().isEmpty)
    #expect(host.closed.isEmpty)
  }

  @Test func aLinkStartedWithNoHostIsRefusedAfterARoundTrip() {
    network.killHost()
    network.setBehavior(LinkBehavior(minimumDelay: 15), peer: "ada", direction: .uplink)
    network.setBehavior(LinkBehavior(minimumDelay: 25), peer: "ada", direction: .downlink)
    let (link, log) = network.startLink("ada")
    network.runUntilIdle()
    #expect(log.closeReason == .failed("connection refused"))
    #expect(log.events.map(\.time) == [ms(40)])
    withExtendedLifetime(link) {}
  }

  @Test func theLinkHeartbeatsWhenQuietAndFailsWhenNothingComes() throws {
    let (link, log) = network.startLink("ada")
    network.run(until: ms(12_000))
    let connection = try #require(link.connection)
    let heartbeats = host.records.filter { $0.record == .received(connection, .heartbeat) }
    #expect(times(heartbeats) == [5_000, 10_000])
    #expect(log.messages == [.heartbeat, .heartbeat])
    #expect(log.closeReason == nil)
    // Sending resets the heartbeat clock.
    link.send(command(1))
    network.run(until: ms(16_000))
    #expect(host.records.filter { $0.record == .received(connection, .heartbeat) }.count == 2)
    // The host stops answering: the link fails 15 s after it last heard anything.
    network.hold(peer: "ada", direction: .downlink)
    network.run(until: ms(40_000))
    #expect(log.closeReason == .failed("heartbeat timeout"))
    #expect(log.events.last?.time == ms(10_000 + 15_000))
    #expect(host.closed == [connection], "the link told the host over the network")
  }
}
