import SessionTestSupport
import SessionTransport
import Testing
import VirtualNetwork

/// The virtual link under the link contract suite, with ideal links and with delay, jitter
/// and loss on both directions.
@Suite("Link contract: virtual network")
struct VirtualNetworkContractTests {
  @Test(arguments: LinkContract.cases)
  func ideal(_ check: LinkContract) throws {
    try check.run(in: VirtualNetworkContractWorld(behavior: .ideal))
  }

  @Test(arguments: LinkContract.cases)
  func delayedJitteryAndLossy(_ check: LinkContract) throws {
    let behavior = LinkBehavior(
      minimumDelay: 20, distribution: .normal(mean: 15, standardDeviation: 10), jitter: 5,
      loss: .bernoulli(0.05))
    try check.run(in: VirtualNetworkContractWorld(behavior: behavior))
  }

  @Test(arguments: LinkContract.cases)
  func narrowAndBursty(_ check: LinkContract) throws {
    let behavior = LinkBehavior(
      minimumDelay: 40, distribution: .pareto(scale: 5, shape: 2.5),
      loss: .gilbertElliott(lossRate: 0.1, meanBurstLength: 3),
      bandwidth: Bandwidth(bitsPerSecond: 256_000, queueLimitBytes: 4_000))
    try check.run(in: VirtualNetworkContractWorld(behavior: behavior))
  }
}

/// The world didn't settle within the network's idle limit.
struct VirtualNetworkNotIdle: Error, CustomStringConvertible {
  var description: String
}

/// A ``RecordingHost`` on a ``VirtualNetwork``'s service node, every link from one peer.
///
/// ``settle()`` is `runUntilIdle()` (throwing if the network never went idle);
/// ``advance(by:)`` is `run(until: now + ms · 1000)`.
///
/// Not `Sendable`: the network, host, links and world are confined to the test's domain,
/// which is also the links' domain (``perform(_:)`` runs its body in place).
final class VirtualNetworkContractWorld: LinkContractWorld {
  let hostRecord = HostRecord()
  let network: VirtualNetwork
  private let domain: LinkContractDomain

  init(behavior: LinkBehavior, seed: UInt64 = 7) {
    network = VirtualNetwork(
      seed: seed, configuration: VirtualNetworkConfiguration(defaultBehavior: behavior))
    network.startHost(RecordingHost(record: hostRecord))
    domain = LinkContractDomain(factory: network.peer("client"))
  }

  var now: Int64 { network.nowMilliseconds }

  func perform<Result: Sendable>(
    _ body: @escaping @Sendable (LinkContractDomain) throws -> Result
  ) throws -> Result {
    try body(domain)
  }

  func settle() throws {
    guard network.runUntilIdle() else {
      throw VirtualNetworkNotIdle(
        description: "\(network.messagesInFlight) messages still in flight after 60 s")
    }
  }

  func advance(by milliseconds: Int64) throws {
    network.run(until: network.now + milliseconds * 1_000)
  }

  func shutdown() {
    try? settle()
    let left = network.finish()
    #expect(left.allSatisfy { $0.state == .inFlight }, "held: \(left)")
  }
}
