import Dispatch
import LoopbackFaults
import LoopbackTransport
import SessionCore
import SessionService
import SessionTestSupport
import SessionTransport

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// One timed relay run.
struct RelayResult {
  /// Forwarded copies the members received per second over the window.
  var packetsPerSecond: Double
  /// Copies the members gave up waiting for during the window (lost, or never forwarded).
  var forgiven: Int
  /// CPU nanoseconds the relay's thread spent per copy received, over the window.
  var relayNanosecondsPerCopy: Double
  /// CPU nanoseconds the client loop's thread (the blaster) spent per copy received.
  var clientNanosecondsPerCopy: Double
}

/// The relay benchmark's classroom: `members` members of one session on a
/// `LoopbackServer<SessionService>`, signalling over raw loopback links on a client loop,
/// each announcing one 180p video layer and watching the next `watching` members (wrapping),
/// all with audio on, the first `loudTalkers` talking loudly and the rest quiet. Each member's
/// media is one raw ``UDPSocket`` of a ``RelayBlaster``, bound to its member with its resume
/// token.
///
/// The baseline is a ``LoopbackTransport/UDPFanOutRelay`` on the server's loop thread (the
/// service's media plane runs there too) with the same fan-out: a member's video to its
/// watchers, loud audio to everyone else, quiet audio to nobody. The same sockets, blaster and
/// window drive both, one after the other.
///
/// > Important: Made and driven from the benchmark's main thread; everything it holds lives on
/// > the client loop or the server's loop and is reached with `runBlocking`.
final class RelayWorld {
  /// The video packet's payload: a 180p frame at 150 kbit/s and 30 fps is about 625 bytes.
  static let videoPayload: UInt16 = 600
  /// The audio packet's payload: 20 ms at 32 kbit/s.
  static let audioPayload: UInt16 = 80

  let members: Int
  let watching: Int
  let loudTalkers: Int
  let server: LoopbackServer<SessionService>
  let client: EventLoop
  let mediaPort: UInt16
  let baselinePort: UInt16
  private let links: LoopBound<RelayLinks>
  private let blaster: LoopBound<RelayBlaster>
  private let baseline: LoopBound<UDPFanOutRelay>
  /// The links' handlers reach `RelayLinks` unowned: kept until the client loop has stopped.
  private let keeper = LoopBoundKeeper()

  /// Joins, binds and subscribes every member, and starts the baseline relay.
  ///
  /// - Parameters:
  ///   - members: Members of the session.
  ///   - watching: Videos each member watches.
  ///   - loudTalkers: Members whose audio is loud (the first ones).
  ///   - window: Rounds in flight per member.
  init(members: Int = 30, watching: Int = 25, loudTalkers: Int = 3, window: Int = 4) throws {
    self.members = members
    self.watching = min(watching, members - 1)
    self.loudTalkers = loudTalkers
    raiseFileLimit(to: 4 * members + 256)
    // Both relays and every member read with 1 MiB kernel buffers, so that a window's worth of
    // datagrams always fits.
    let sockets = UDPConfiguration(receiveBufferSize: 1 << 20, sendBufferSize: 1 << 20)
    // The service and the raw relay read in batches alike (recvmmsg, 16 a call), so that the
    // ratio compares the relays, not their system calls; the members read one at a time.
    let relaySockets = UDPConfiguration(
      receiveBufferSize: 1 << 20, sendBufferSize: 1 << 20, receiveBatch: 16)
    let fixture = SessionFixture(sessionName: "Relay")
    let service = fixture.serviceConfiguration()
    server = try LoopbackServer(
      configuration: LoopbackServerConfiguration(mediaSocket: relaySockets)
    ) {
      SessionService(configuration: service)
    }
    guard let mediaPort = server.mediaPort else {
      server.shutdown()
      throw BenchmarkError("the server opened no media socket")
    }
    self.mediaPort = mediaPort
    let client = try EventLoop(name: "bench-relay")
    self.client = client
    let (port, count, window) = (server.port, members, window)
    let joined = DispatchSemaphore(value: 0)
    (links, blaster) = try client.runBlocking {
      let factory = LoopbackLinkFactory(loop: client, port: port)
      let links = RelayLinks(factory: factory, count: count, joinedAll: joined)
      links.joinAll(fixture, now: factory.clock.now())
      let blaster = try RelayBlaster(
        loop: client, count: count, window: window, configuration: sockets)
      return (LoopBound(links, loop: client), LoopBound(blaster, loop: client))
    }
    keeper.keep(links)
    let loop = server.loop
    (baseline, baselinePort) = try loop.runBlocking {
      let relay = try UDPFanOutRelay(loop: loop, targets: [], configuration: relaySockets)
      // Batched as the service's media plane is, so that the ratio compares like with like.
      relay.batchesSends = true
      return (LoopBound(relay, loop: loop), relay.localPort)
    }
    do {
      guard joined.wait(timeout: .now() + .seconds(30 * patience)) == .success else {
        throw BenchmarkError("the relay's members did not all join in \(30 * patience) s")
      }
      try setUp()
    } catch {
      shutdown()
      throw error
    }
  }

  /// Who watches whom: member `index` watches the next ``watching`` members.
  func watchers(of publisher: Int) -> [Int] {
    (0..<members).filter { subscriber in
      subscriber != publisher && (publisher - subscriber + members) % members <= watching
    }
  }

  /// Announces, subscribes, binds every socket, checks the service's router, loads the rounds
  /// and the baseline's table.
  private func setUp() throws {
    let (links, blaster, mediaPort) = (self.links, self.blaster, self.mediaPort)
    let (watching, members, loud) = (self.watching, self.members, self.loudTalkers)
    let identities = try client.runBlocking { () -> [(user: UserID, credential: MediaCredential)] in
      links.value.announceAndSubscribe(watching: watching)
      return links.value.identities
    }
    try client.runBlocking {
      blaster.value.authenticators = identities.map { MediaAuthenticator(key: $0.credential.key) }
      blaster.value.onCheck = { index, bytes in
        guard
          let body = bytes.withUnsafeBytes({ MediaDatagram.body(ofSealed: $0).map(Array.init) }),
          case .check(let nonce)? = try? MediaDatagram.decode(body)
        else { return }
        let reply = MediaDatagram.checkReply(
          credential: identities[index].credential.id, nonce: nonce
        ).encode()
        blaster.value.send(
          blaster.value.authenticators[index].sealed(reply), from: index, to: mediaPort)
      }
    }
    // Bind each socket with its member's token, again every 20 ms until every member heard
    // `bound` (UDP may lose a bind).
    let deadline = monotonicNanoseconds() + UInt64(10 * patience) * 1_000_000_000
    while try client.runBlocking({ links.value.boundCount }) < members {
      guard monotonicNanoseconds() < deadline else {
        throw BenchmarkError("the relay's media sockets did not all bind")
      }
      try client.runBlocking {
        for (index, identity) in identities.enumerated() where !links.value.isBound(index) {
          let bind = MediaDatagram.bind(
            MediaBind(user: identity.user, credential: identity.credential.id)
          ).encode()
          blaster.value.send(
            blaster.value.authenticators[index].sealed(bind), from: index, to: mediaPort)
        }
      }
      usleep(20_000)
    }
    // Subscriptions travel on TCP and were sent before the binds: they are in the router now.
    let users = identities.map(\.user)
    let counts = try server.loop.runBlocking { [server] in
      let router = server.host.mediaRouter(ofSession: "Relay")
      return users.map { router?.videoSubscriptionCount(of: $0) ?? 0 }
    }
    guard counts.allSatisfy({ $0 == watching }) else {
      throw BenchmarkError("the router holds \(counts) video subscriptions, not \(watching) each")
    }
    // The rounds, and the baseline's table by source port.
    let ports = try client.runBlocking { blaster.value.ports }
    var tables: [UInt16: (video: [UInt16], audio: [UInt16])] = [:]
    var rounds: [(round: [[UInt8]], copies: Int)] = []
    for (index, user) in users.enumerated() {
      let isLoud = index < loud
      let video = MediaPacket(
        stream: StreamID(user: user, kind: .video, layer: 0), sequence: 0,
        frameID: UInt32(index), isKeyFrame: true, sendTime: 0, payloadBytes: Self.videoPayload,
        width: 320, height: 180)
      let audio = MediaPacket(
        stream: StreamID(user: user, kind: .audio), sequence: 0, frameID: UInt32(index),
        isKeyFrame: true, sendTime: 0, payloadBytes: Self.audioPayload,
        audioLevel: isLoud ? 30 : 127)
      let watchers = watchers(of: index).map { ports[$0] }
      let hearers = isLoud ? ports.indices.filter { $0 != index }.map { ports[$0] } : []
      tables[ports[index]] = (watchers, hearers)
      rounds.append(([video.encode(), audio.encode()], watchers.count + hearers.count))
    }
    try client.runBlocking { [rounds] in
      for (index, round) in rounds.enumerated() {
        let sealer = blaster.value.authenticators[index]
        blaster.value.load(
          index, round: round.round.map { sealer.sealed($0) }, copiesPerRound: round.copies)
      }
    }
    let baseline = self.baseline
    try server.loop.runBlocking { [tables] in
      baseline.value.route = { from, bytes in
        guard bytes.count > 6, let table = tables[from] else { return [] }
        return bytes[6] == MediaKind.video.rawValue ? table.video : table.audio
      }
    }
  }

  /// One run: the blaster sends at the service's media port (or the baseline's) for
  /// `warmUp` seconds, then counts what arrives for `seconds`, then stops and lets what is
  /// in flight land.
  func run(baseline: Bool, warmUp: Double, seconds: Double) throws -> RelayResult {
    let blaster = self.blaster
    let target = baseline ? baselinePort : mediaPort
    try client.runBlocking { blaster.value.start(target: target) }
    usleep(UInt32(warmUp * 1e6))
    let cpuBefore = try (threadCPUNanoseconds(of: server.loop), threadCPUNanoseconds(of: client))
    let before = try client.runBlocking {
      (blaster.value.received, blaster.value.forgiven, monotonicNanoseconds())
    }
    usleep(UInt32(seconds * 1e6))
    let after = try client.runBlocking {
      (blaster.value.received, blaster.value.forgiven, monotonicNanoseconds())
    }
    let cpuAfter = try (threadCPUNanoseconds(of: server.loop), threadCPUNanoseconds(of: client))
    try client.runBlocking { blaster.value.stop() }
    usleep(100_000)
    let copies = Double(max(1, after.0 - before.0))
    return RelayResult(
      packetsPerSecond: Double(after.0 - before.0) / (Double(after.2 - before.2) / 1e9),
      forgiven: after.1 - before.1,
      relayNanosecondsPerCopy: Double(cpuAfter.0 - cpuBefore.0) / copies,
      clientNanosecondsPerCopy: Double(cpuAfter.1 - cpuBefore.1) / copies)
  }

  /// The service's media counters (drops by reason, forwards).
  func serviceStatistics() throws -> MediaPlaneStatistics {
    try server.loop.runBlocking { [server] in server.host.mediaStatistics }
  }

  func shutdown() {
    let (links, blaster, baseline) = (self.links, self.blaster, self.baseline)
    _ = try? client.runBlocking {
      blaster.value.close()
      for link in links.value.links { link.close() }
    }
    _ = try? server.loop.runBlocking { baseline.value.close() }
    _ = client.shutdown()
    _ = server.shutdown()
    keeper.release()
  }
}

/// The relay benchmark's signalling: raw loopback links, one per member, that join, announce
/// their video, subscribe, and note their member's id, resume token and `bound` notice.
///
/// > Important: Loop-confined: created and used on the client loop.
final class RelayLinks {
  let links: [LoopbackClientLink]
  /// Each link's member and resume token, once joined.
  private var members: [(user: UserID, token: UInt64)?]
  private var bound: [Bool]
  /// Each link's media credential, once sent.
  private var credentials: [MediaCredential?]
  private(set) var joined = 0
  private(set) var boundCount = 0
  private let joinedAll: DispatchSemaphore

  init(factory: LoopbackLinkFactory, count: Int, joinedAll: DispatchSemaphore) {
    self.joinedAll = joinedAll
    links = (0..<count).map { _ in factory.makeLoopbackLink() }
    members = Array(repeating: nil, count: count)
    bound = Array(repeating: false, count: count)
    credentials = Array(repeating: nil, count: count)
    for (index, link) in links.enumerated() {
      link.start { [unowned(unsafe) self] event in receive(event, at: index) }
    }
  }

  /// Every member's id and media credential, by link (call once all joined).
  var identities: [(user: UserID, credential: MediaCredential)] {
    members.indices.map { index in
      (
        members[index]?.0 ?? UserID(rawValue: 0),
        credentials[index] ?? MediaCredential(id: 0, key: [])
      )
    }
  }

  func isBound(_ index: Int) -> Bool { bound[index] }

  private func receive(_ event: LinkEvent, at index: Int) {
    guard case .message(let message) = event else { return }
    switch message {
    case .joined(let snapshot, let token):
      guard members[index] == nil else { return }
      members[index] = (snapshot.myself, token)
      joined += 1
      if joined == links.count { joinedAll.signal() }
    case .media(.credential(let credential)):
      credentials[index] = credential
    case .media(.bound):
      guard !bound[index] else { return }
      bound[index] = true
      boundCount += 1
    default:
      break
    }
  }

  /// Every link joins `session` with its camera and microphone on, the first as host.
  func joinAll(_ fixture: SessionFixture, now: Int64) {
    for (index, link) in links.enumerated() {
      var request = fixture.joinRequest(forMember: index, now: now)
      request.videoOn = true
      link.send(.join(request))
    }
  }

  /// Every member announces one 180p video layer and subscribes the next `watching` members'
  /// video at 180p.
  func announceAndSubscribe(watching: Int) {
    let users = identities.map(\.user)
    for (index, link) in links.enumerated() {
      link.send(
        .media(
          .announce(
            StreamID(user: users[index], kind: .video, layer: 0), bitrate: 150_000, width: 320,
            height: 180)))
      for step in 1...watching {
        link.send(
          .media(
            .subscribe(publisher: users[(index + step) % users.count], kind: .video, maxLines: 180))
        )
      }
    }
  }
}

/// Loop-confined.
@available(*, unavailable)
extension RelayLinks: Sendable {}
