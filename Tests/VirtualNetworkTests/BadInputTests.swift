import SessionTransport
import Testing
import VirtualNetwork

@Suite("Bad input on the network")
struct BadInputTests {
  @Test func zeroAndNaNBandwidthCountAsOneBitPerSecond() {
    let network = VirtualNetwork(
      seed: 1, configuration: VirtualNetworkConfiguration(heartbeatInterval: 0, heartbeatTimeout: 0)
    )
    let host = ScriptedHost()
    network.startHost(host)
    for (name, rate) in [("zero", 0.0), ("nan", Double.nan), ("negative", -5.0)] {
      network.setBehavior(
        LinkBehavior(bandwidth: Bandwidth(bitsPerSecond: rate, queueLimitBytes: -1)), peer: name,
        direction: .uplink)
      _ = network.startLink(name)
    }
    network.runUntilIdle(limit: ms(3_600_000))
    // An open is 5 bytes: 40 s at one bit a second.
    #expect(
      host.records.map(\.time).allSatisfy { $0 == network.configuration.epochMilliseconds + 40_000 }
    )
    #expect(host.records.count == 3)
  }

  @Test func hugeDelaysAndRatesAreBounded() {
    let network = VirtualNetwork(seed: 1)
    let host = ScriptedHost()
    network.startHost(host)
    network.setBehavior(
      LinkBehavior(
        minimumDelay: 1e300, jitter: .infinity, loss: .bernoulli(.nan),
        bandwidth: Bandwidth(
          bitsPerSecond: .infinity, queueLimitBytes: .max,
          packetOverheadBytes: .max)),
      peer: "far", direction: .uplink)
    let (link, _) = network.startLink("far")
    network.runUntilIdle(limit: .max)
    // Each message: at most an hour of serialisation, behind the one before, and an hour of
    // delay. The link times out long before its open arrives, so (as a TCP socket closed
    // before its handshake completed) the host never hears of it: the open and the two
    // heartbeats arrive within four hours and are dropped, and no close is sent.
    #expect(host.records.isEmpty)
    #expect(network.now == ms(4 * 3_600_000))
    #expect(network.statistics[peer: "far", direction: .uplink].dropped == 3)
    withExtendedLifetime(link) {}
  }

  @Test func oddNamesAndRepeatedFaultsChangeNothingElse() {
    let network = VirtualNetwork(seed: 1)
    let host = ScriptedHost()
    network.startHost(host)
    let long = String(repeating: "x", count: 100_000)
    for name in ["", long, "ünïcødé"] {
      let (link, _) = network.startLink(name)
      link.send(command(1))
      network.kill(peer: name)
      network.kill(peer: name)
      network.peer(name).restart()
      network.peer(name).restart()
      network.resume(peer: name)
      network.release(peer: name, direction: .downlink)
      network.pause(peer: name)
      network.pause(peer: name)
      network.resume(peer: name)
    }
    network.heal()
    network.runUntilIdle()
    #expect(host.commandIDs == [1, 1, 1], "what was on the wire still arrived")
    network.killHost()
    network.killHost()
    network.runUntilIdle()
    #expect(network.peerNames == ["", long, "ünïcødé"])
  }

  @Test func aLinkOfADeadNodeOrAFinishedNetworkStaysSilent() {
    let network = VirtualNetwork(seed: 1)
    let host = ScriptedHost()
    network.startHost(host)
    network.kill(peer: "ghost")
    let (ghost, ghostLog) = network.startLink("ghost")
    ghost.send(command(1))
    network.runUntilIdle()
    #expect(host.records.isEmpty && ghostLog.events.isEmpty)
    // A link made before the restart belongs to the dead incarnation.
    let stale = network.peer("ghost").makeLink()
    network.peer("ghost").restart()
    stale.start { _ in }
    stale.send(command(2))
    network.runUntilIdle()
    #expect(host.records.isEmpty)
    _ = network.finish()
    let (late, _) = network.startLink("late")
    late.send(command(3))
    #expect(!network.step() && host.records.isEmpty)
  }
}
