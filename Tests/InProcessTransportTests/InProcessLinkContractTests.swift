import InProcessTransport
import SessionTestSupport
import SessionTransport
import Testing

/// The in-process link under the link contract suite: manual delivery and a virtual clock, so
/// that no case waits on the wall clock.
@Suite("Link contract: in-process")
struct InProcessLinkContractTests {
  @Test(arguments: LinkContract.cases)
  func contract(_ check: LinkContract) throws {
    try check.run(in: InProcessContractWorld())
  }
}

/// A ``RecordingHost`` behind an `InProcessNetwork` in manual delivery, on a virtual clock.
///
/// ``settle()`` is `network.run()`: it delivers every queued item, and what those cause, until
/// the queue is empty. ``advance(by:)`` moves the clock, ticks the host and runs the network.
///
/// Not `Sendable`: the network, the host, the links and the world are confined to the test's
/// domain, which is also the links' domain (``perform(_:)`` runs its body in place).
final class InProcessContractWorld: LinkContractWorld {
  private final class Clock {
    var now: Int64 = 1_700_000_000_000
  }

  let hostRecord = HostRecord()
  private let clock = Clock()
  private let network: InProcessNetwork
  private let domain: LinkContractDomain

  init() {
    let clock = clock
    network = InProcessNetwork(
      host: RecordingHost(record: hostRecord), delivery: .manual, now: { clock.now })
    domain = LinkContractDomain(factory: network)
  }

  var now: Int64 { clock.now }

  func perform<Result: Sendable>(
    _ body: @escaping @Sendable (LinkContractDomain) throws -> Result
  ) throws -> Result {
    try body(domain)
  }

  func settle() {
    network.run()
  }

  func advance(by milliseconds: Int64) {
    clock.now += milliseconds
    network.tick()
    network.run()
  }

  func shutdown() {
    network.run()
    #expect(!network.hasPendingMessages)
  }
}
