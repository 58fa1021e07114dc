import Dispatch
import Foundation
import InProcessTransport
import LoopbackTransport
import SessionCore
import SessionSDK
import SessionService
import SessionTestSupport
import SessionTransport

/// Resident memory per idle connected peer beyond its replica, measured in fresh child
/// processes (so that one measurement's freed memory doesn't hide the next one's growth):
///
/// - `loopback`: a loopback server and a client loop are started, RSS is read, then `peers` SDK
///   instances connect over loopback and join sessions of `sessionSize`; once every roster is
///   complete, RSS is read again.
/// - `replicas`: the same instances and sessions over an `InProcessNetwork` (no sockets, no
///   loops), read the same way: the replicas, the SDK objects and the service's state alone.
///
/// Per peer: (loopback growth − replica growth) / peers. Both ends of every connection (the
/// client link and the server's connection) live in the loopback child, so the figure counts
/// both.
enum ResidentMemory {
  /// Runs one child of `mode` and returns its RSS growth in KB.
  static func measureInChild(mode: String, peers: Int, sessionSize: Int) throws -> Double {
    let text = try runProcess(
      ownExecutable,
      ["transport", "--rss-child", mode, "--peers", "\(peers)", "--session-size", "\(sessionSize)"])
    guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix("rss_growth_kb ") }),
      let value = Double(line.dropFirst("rss_growth_kb ".count))
    else { throw BenchmarkError("the \(mode) memory child failed: \(text)") }
    return value
  }

  /// The child's body: prints `rss_growth_kb N`.
  static func runChild(mode: String, peers: Int, sessionSize: Int) throws {
    let growth: Double
    switch mode {
    case "loopback": growth = try loopbackGrowth(peers: peers, sessionSize: sessionSize)
    case "replicas": growth = replicaGrowth(peers: peers, sessionSize: sessionSize)
    default: throw usageError("unknown --rss-child mode \(mode)")
    }
    print("rss_growth_kb \(growth)")
  }

  /// The resident set in KB, from `/proc/self/statm`.
  static func residentKB() -> Double {
    guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else {
      return .nan
    }
    let fields = text.split(separator: " ")
    guard fields.count > 1, let pages = Double(fields[1]) else { return .nan }
    return pages * Double(sysconf(Int32(_SC_PAGESIZE))) / 1_024
  }

  /// Member `index` of `peers` joins session `Room-k`, `sessionSize` members a session, the
  /// first of each its host.
  private static func contexts(peers: Int, sessionSize: Int, now: Int64) -> [SessionContext] {
    let fixture = SessionFixture()
    return (0..<peers).map { index in
      fixture.context(
        forMember: index % sessionSize, sessionName: "Room-\(index / sessionSize)", now: now)
    }
  }

  private static func loopbackGrowth(peers: Int, sessionSize: Int) throws -> Double {
    raiseFileLimit(to: 2 * peers + 256)
    let configuration = SessionFixture().serviceConfiguration()
    let server = try LoopbackServer { SessionService(configuration: configuration) }
    let client = try EventLoop(name: "rss-peers")
    let port = server.port
    let done = DispatchSemaphore(value: 0)
    let before = residentKB()
    let group = try client.runBlocking {
      let peersObject = BenchPeers(loop: client, port: port, count: peers, stormDone: done)
      peersObject.storm.expectedRoster = sessionSize
      let contexts = contexts(
        peers: peers, sessionSize: sessionSize, now: peersObject.factory.clock.now())
      for (sdk, context) in zip(peersObject.sdks, contexts) { sdk.joinSession(context) }
      return LoopBound(peersObject, loop: client)
    }
    guard done.wait(timeout: .now() + .seconds(120)) == .success else {
      throw BenchmarkError("the peers did not all join in 120 s")
    }
    // Let the last frames settle: one idle round trip through both loops.
    _ = try server.statistics()
    _ = try client.runBlocking { group.value.storm.completeRosters }
    let after = residentKB()
    // The instances' observers reach `group` unowned: keep it until the loop has stopped.
    withExtendedLifetime(group) {
      _ = client.shutdown()
      _ = server.shutdown()
    }
    return after - before
  }

  private static func replicaGrowth(peers: Int, sessionSize: Int) -> Double {
    let now = Int64(Date().timeIntervalSince1970 * 1_000)
    let service = SessionFixture().makeService()
    let network = InProcessNetwork(host: service, now: { now })
    let before = residentKB()
    let contexts = contexts(peers: peers, sessionSize: sessionSize, now: now)
    var sdks: [VideoSDK] = []
    sdks.reserveCapacity(peers)
    for context in contexts {
      let sdk = VideoSDK()
      sdk.initialize(InitParams(domain: "zoom.us", transport: network, clock: { now }))
      sdk.callbackObserver = { _ in }
      sdk.joinSession(context)
      sdks.append(sdk)
    }
    precondition(
      sdks.allSatisfy { $0.isInSession() }, "an in-process replica did not join")
    let after = residentKB()
    withExtendedLifetime((sdks, network)) {}
    return after - before
  }
}
