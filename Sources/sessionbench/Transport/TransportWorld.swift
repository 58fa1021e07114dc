import Dispatch
import LoopbackTransport
import SessionCore
import SessionService
import SessionTestSupport

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A `SessionService` behind a `LoopbackServer` (its own loop thread) and `count` SDK
/// instances on one client loop thread: the transport benchmark's world.
final class TransportWorld {

  let server: LoopbackServer<SessionService>
  let client: EventLoop
  let peers: LoopBound<BenchPeers>
  let fixture = SessionFixture(sessionName: "Bench")
  let count: Int
  /// Signalled by the client loop when every replica holds the whole roster.
  let stormDone = DispatchSemaphore(value: 0)

  /// - Parameters:
  ///   - count: SDK instances.
  ///   - coalescing: Whether the server merges a turn's event broadcasts
  ///     (`LoopbackServerConfiguration.coalescesEventBatches`).
  ///   - logs: Whether the server's and the links' log records (info and above) go to standard
  ///     error (`--log`).
  init(peers count: Int, coalescing: Bool = false, logs: Bool = false) throws {
    raiseFileLimit(to: 2 * count + 256)
    self.count = count
    let configuration = fixture.serviceConfiguration()
    let log: LoopbackLogHandler = { record in
      if logs, record.level >= .info { StandardError().line("log: \(record)") }
    }
    server = try LoopbackServer(
      configuration: LoopbackServerConfiguration(coalescesEventBatches: coalescing), log: log
    ) { SessionService(configuration: configuration) }
    let client = try EventLoop(name: "bench-peers")
    self.client = client
    let (port, stormDone) = (server.port, self.stormDone)
    peers = try client.runBlocking {
      LoopBound(
        BenchPeers(loop: client, port: port, count: count, stormDone: stormDone, log: log),
        loop: client)
    }
  }

  /// Every instance joins `session` at once; returns the seconds until every replica held the
  /// whole roster, after checking that every replica equals the service's state.
  func joinStorm(session: String = "Bench") throws -> Double {
    var fixture = self.fixture
    fixture.sessionName = session
    let (peers, members) = (self.peers, fixture)
    let start = try client.runBlocking { peers.value.joinAll(members) }
    guard stormDone.wait(timeout: .now() + .seconds(120 * patience)) == .success
    else { throw BenchmarkError("the join storm did not complete in \(120 * patience) s") }
    let end = try client.runBlocking { peers.value.storm.end }
    try checkConvergence(session: session, after: "the join storm")
    return Double(end - start) / 1e9
  }

  /// Checks that every replica equals the service's state of `session`, waiting up to 10 s for
  /// stragglers.
  func checkConvergence(session: String, after phase: String) throws {
    let peers = self.peers
    let deadline = monotonicNanoseconds() + UInt64(patience) * 10_000_000_000
    while true {
      let facts = try server.loop.runBlocking { [server] in
        server.host.state(ofSession: session)?.sharedFacts
      }
      if try client.runBlocking({ peers.value.allEqual(facts) }) { return }
      guard monotonicNanoseconds() < deadline else {
        throw BenchmarkError("replicas differ from the service after \(phase)")
      }
      usleep(1_000)
    }
  }

  func shutdown() {
    _ = client.shutdown()
    _ = server.shutdown()
  }
}

/// How many times longer than a release build the benchmark waits before it calls a run stuck.
/// A debug build is far slower: every SDK replica re-checks its session's invariants after
/// every event, so a join storm of N peers costs O(N³) (250 peers: about 40 s).
#if DEBUG
  let patience = 20
#else
  let patience = 1
#endif
