import SessionCore
import SessionSDK
import SessionService
import SessionTransport
import Testing
import VirtualNetwork

@Suite("Determinism and the end of a run")
struct DeterminismTests {
  /// A run with random delays, loss and three members; its whole trace.
  func trace(seed: UInt64, extraPeer: Bool = false) -> [String] {
    let behavior = LinkBehavior(
      minimumDelay: 10, distribution: .exponential(mean: 30), jitter: 5, loss: .bernoulli(0.1))
    let scenario = Scenario(
      seed: seed, configuration: VirtualNetworkConfiguration(defaultBehavior: behavior))
    var lines: [String] = []
    scenario.network.observer = { lines.append($0.description) }
    let ada = scenario.join("ada", role: .host)
    scenario.join("bob")
    scenario.join("cyd")
    if extraPeer { scenario.network.peer("zed").makeLink().start { _ in } }
    scenario.network.schedule(at: 500_000) { _ = ada.sdk.getVideoHelper().startVideo() }
    scenario.run(for: 12_000)
    return lines
  }

  /// When each of a peer's messages reached its receiver, from a trace.
  func deliveries(of peer: String, in trace: [String]) -> [String] {
    trace.filter { $0.contains(" delivered ") && $0.contains(peer) }
      .map { line in
        // "time #seq delivered from->to cN summary": drop the trace's own numbering.
        let parts = line.split(separator: " ", maxSplits: 2)
        return "\(parts[0]) \(parts[2])"
      }
  }

  @Test func theSameSeedGivesTheSameTraceAndAnotherSeedAnother() {
    let first = trace(seed: 5)
    #expect(first.count > 50)
    #expect(first == trace(seed: 5))
    #expect(first != trace(seed: 6))
  }

  @Test func addingAPeerDoesNotChangeAnotherPeersDraws() {
    let without = trace(seed: 5)
    let with = trace(seed: 5, extraPeer: true)
    #expect(without != with)
    // Ada's and Bob's messages arrive at the same times: their streams are their own (the
    // service answers the newcomer too, but on the newcomer's downlink).
    for peer in ["ada->service", "service->bob"] {
      #expect(deliveries(of: peer, in: without) == deliveries(of: peer, in: with))
    }
  }

  @Test func finishReportsWhatIsInFlightHeldAndWaitingThenStopsEverything() throws {
    let network = VirtualNetwork(seed: 1)
    let host = ScriptedHost()
    network.startHost(host)
    network.setBehavior(LinkBehavior(minimumDelay: 500), peer: "slow", direction: .uplink)
    let (slow, _) = network.startLink("slow")
    let (held, _) = network.startLink("held")
    let (napping, napLog) = network.startLink("napping")
    network.runUntilIdle()
    slow.send(command(1))
    network.hold(peer: "held", direction: .uplink)
    held.send(command(2))
    network.pause(peer: "napping")
    let nappingConnection = try #require(napping.connection)
    host.send(.heartbeat, to: nappingConnection)
    network.run(until: network.now + ms(100))
    let report = network.finish()
    #expect(
      report.map(\.description) == [
        "slow->service c1 command #1 startVideo (reliable, inFlight, sent at 500000)",
        "held->service c2 command #2 startVideo (reliable, held, sent at 500000)",
        "service->napping c3 heartbeat (reliable, waiting, sent at 500000)",
      ])
    #expect(network.hasFinished && network.messagesInFlight == 0 && network.messagesHeld == 0)
    // Nothing moves any more: no timers, no sends, no ticks.
    let ticks = host.ticks
    #expect(!network.step())
    network.resume(peer: "napping")
    slow.send(command(3))
    network.run(until: network.now + ms(60_000))
    #expect(host.ticks == ticks && napLog.events.isEmpty && host.commandIDs.isEmpty)
  }

  @Test func aHeldMessageWhoseConnectionEndedIsDiscardedOnRelease() throws {
    let network = VirtualNetwork(seed: 1)
    let host = ScriptedHost()
    network.startHost(host)
    let (link, log) = network.startLink("ada")
    network.runUntilIdle()
    let connection = try #require(link.connection)
    network.hold(peer: "ada", direction: .downlink)
    host.send(.heartbeat, to: connection)
    link.close()
    network.runUntilIdle()
    #expect(network.messagesHeld == 1)
    network.release(peer: "ada", direction: .downlink)
    network.runUntilIdle()
    #expect(log.events.isEmpty)
    #expect(network.statistics[peer: "ada", direction: .downlink].dropped == 1)
    #expect(network.finish().isEmpty)
  }

  @Test func releaseLeavesWhatAPartitionStillBlocks() throws {
    let network = VirtualNetwork(seed: 1)
    let host = ScriptedHost()
    network.startHost(host)
    let (link, _) = network.startLink("ada")
    network.runUntilIdle()
    network.hold(peer: "ada", direction: .uplink)
    network.partition(["ada"], ["service"])
    link.send(command(1))
    network.release(peer: "ada", direction: .uplink)
    network.runUntilIdle()
    #expect(host.commandIDs.isEmpty)
    network.heal()
    network.runUntilIdle()
    #expect(host.commandIDs == [1])
    // A partition between two other nodes blocks nothing of Ada's.
    network.partition(["bob"], ["service"])
    link.send(command(2))
    network.runUntilIdle()
    #expect(host.commandIDs == [1, 2])
  }
}
