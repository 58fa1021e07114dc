import SessionTransport
import Testing
import VirtualNetwork

@Suite("Virtual clock and event queue")
struct ClockAndQueueTests {
  @Test func timeStartsAtZeroAndMovesOnlyWhenRun() {
    let network = VirtualNetwork(seed: 1)
    #expect(network.now == 0)
    #expect(network.nowMilliseconds == network.configuration.epochMilliseconds)
    #expect(!network.step())
    network.run(until: 2_500)
    #expect(network.now == 2_500)
    #expect(network.nowMilliseconds == 1_767_225_600_002)
    // Never back.
    network.run(until: 100)
    #expect(network.now == 2_500)
  }

  @Test func eventsRunInTimeOrderAndTiesInSchedulingOrder() {
    let network = VirtualNetwork(seed: 1)
    var order: [String] = []
    network.schedule(at: 300) { order.append("c") }
    network.schedule(at: 100) { order.append("a1") }
    network.schedule(at: 100) { order.append("a2") }
    network.schedule(after: 200) { order.append("b") }
    network.schedule(at: 100) { order.append("a3") }
    network.schedule(at: 100) {
      // Scheduled from inside at the same time: after everything already due then.
      network.schedule(at: 100) { order.append("a5") }
      order.append("a4")
    }
    network.run(until: 1_000)
    #expect(order == ["a1", "a2", "a3", "a4", "a5", "b", "c"])
  }

  @Test func schedulesInThePastRunNowAndHugeTimesDoNotTrap() {
    let network = VirtualNetwork(seed: 1)
    network.run(until: 500)
    var ran: [Int64] = []
    network.schedule(at: -10) { ran.append(network.now) }
    network.schedule(after: -10) { ran.append(network.now) }
    network.schedule(after: .max) { ran.append(network.now) }
    network.schedule(at: .max) { ran.append(network.now) }
    #expect(network.step() && network.step())
    #expect(ran == [500, 500])
    network.run(until: 1_000_000)
    #expect(ran.count == 2)
    network.run(until: .max)
    #expect(ran == [500, 500, .max, .max])
  }

  @Test func theHostIsTickedAtItsIntervalWhileItRuns() {
    let network = VirtualNetwork(
      seed: 1, configuration: VirtualNetworkConfiguration(hostTickInterval: 250))
    let host = ScriptedHost()
    network.startHost(host)
    #expect(network.isHostRunning)
    network.run(until: ms(1_000))
    #expect(host.ticks == 4)
    network.killHost()
    #expect(!network.isHostRunning)
    network.run(until: ms(2_000))
    #expect(host.ticks == 4)
  }

  @Test func runUntilIdleStopsWhenNothingIsInFlightOrAtItsLimit() {
    let network = VirtualNetwork(
      seed: 1, configuration: VirtualNetworkConfiguration(heartbeatInterval: 0, heartbeatTimeout: 0)
    )
    network.startHost(ScriptedHost())
    #expect(network.runUntilIdle())
    #expect(network.now == 0, "idle already: time did not move")
    network.setBehavior(LinkBehavior(minimumDelay: 90_000), peer: "slow", direction: .uplink)
    let (link, _) = network.startLink("slow")
    #expect(network.messagesInFlight == 1)
    #expect(!network.runUntilIdle(limit: ms(60_000)))
    #expect(network.now == ms(60_000))
    #expect(network.runUntilIdle())
    #expect(network.now == ms(90_000))
    withExtendedLifetime(link) {}
  }

  @Test func badConfigurationValuesAreClamped() {
    let fast = VirtualNetwork(
      seed: 1, configuration: VirtualNetworkConfiguration(hostTickInterval: -5))
    let host = ScriptedHost()
    fast.startHost(host)
    fast.run(until: ms(10))
    #expect(host.ticks == 10, "a tick interval below 1 ms counts as 1 ms")

    let late = VirtualNetwork(
      seed: 1, configuration: VirtualNetworkConfiguration(epochMilliseconds: .max))
    late.run(until: .max / 2)
    #expect(late.nowMilliseconds == .max, "the clock saturates")

    let quiet = VirtualNetwork(
      seed: 1,
      configuration: VirtualNetworkConfiguration(
        heartbeatInterval: 0, heartbeatTimeout: -1, retransmissionTimeout: .min))
    let quietHost = ScriptedHost()
    quiet.startHost(quietHost)
    let (link, log) = quiet.startLink("quiet")
    quiet.run(until: ms(3_600_000))
    // No heartbeats and no silence check: the link stays open, quiet.
    #expect(log.closeReason == nil)
    #expect(quietHost.records.count == 1)
    withExtendedLifetime(link) {}
  }
}
