import CLibUV
import Dispatch
import Foundation
import LoopbackTransport
import SessionCore
import SessionSDK
import SessionService
import SessionSimulation
import SessionTestSupport
import SessionTransport

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

let soakUsage = """
  usage: sessionbench soak [--minutes M] [--peers N] [--watching W] [--frame-rate F]
                           [--churn-per-minute C] [--churn KINDS] [--warm-up M] [--json]

  A long run over loopback (not in CI): a SessionService with its media plane behind a
  LoopbackServer and N SDK instances (default 200) on one client loop, each sending 180p video
  at F fps (default 15) and audio, and watching the next W videos (default 4). The session
  churns the whole time: C times a minute (default 120) the next instance in turn leaves and
  joins again 2 s later (a new TCP connection and a new media socket, subscriptions anew),
  turns its camera off and on, or moves one of its subscriptions to another user, in turn
  (--churn leave,camera,move picks the kinds; default all three).

  Every minute it prints the process's resident memory (RSS), its open file descriptors, and
  the libuv handles of the client loop and of the server's loop. After M minutes (default 30)
  the churn stops, every instance settles back into the session, and it checks:

    - RSS at the end grew under 5% over RSS at the end of the warm-up;
    - descriptors and handles are back to their count at the start (every instance in the
      session, every subscription flowing);
    - every replica holds the whole roster.

  The warm-up (--warm-up M) lasts by default until the churn has moved the user ids past
  what the per-user tables span (every rejoin is a new id; a table keyed by id keeps an array
  reaching at most 4 × (N + 1) + 256 ids from its lowest, so its memory grows, in steps,
  until the ids have drifted that far): (4 × (N + 1) + 256 − N) / leaves a minute, plus one
  minute, and at least 5 minutes. At the defaults that is 23 minutes, so --minutes must be
  longer: run it with --minutes 60.

  exit status: 0 every criterion held, 1 one did not, 2 usage error
  """

/// One minute's reading.
struct SoakSample: Codable {
  var minute: Int
  var rssKB: Int
  var descriptors: Int
  var clientHandles: Int
  var serverHandles: Int
  var inSession: Int
  var churned: Int
  /// The C heap in use (`mallinfo2`: `uordblks` + `hblkhd`), kB: what RSS holds apart from
  /// freed memory the allocator kept.
  var heapKB: Int
  /// What the instances' participant tables take (every replica's `UserMap` of participants:
  /// array capacity × slot stride), kB.
  var participantTablesKB: Int
}

/// `sessionbench soak`: see ``soakUsage``.
func runSoakBenchmark(_ arguments: [String]) throws {
  var minutes = 30.0
  var peers = 200
  var watching = 4
  var frameRate = 15
  var churn = 120.0
  var warmUpOption: Double?
  var json = false
  var kinds: [SoakPeers.Step] = SoakPeers.Step.allCases
  var iterator = arguments.makeIterator()
  func number(_ option: String) throws -> Double {
    guard let text = iterator.next(), let value = Double(text), value.isFinite, value >= 0 else {
      throw usageError("\(option) needs a number\n\(soakUsage)")
    }
    return value
  }
  // Whole numbers read as such: a huge one is refused below, never converted from a Double.
  func integer(_ option: String) throws -> Int {
    guard let text = iterator.next(), let value = Int(text), value >= 0 else {
      throw usageError("\(option) needs a whole number\n\(soakUsage)")
    }
    return value
  }
  while let argument = iterator.next() {
    switch argument {
    case "--minutes": minutes = try number(argument)
    case "--peers": peers = try integer(argument)
    case "--watching": watching = try integer(argument)
    case "--frame-rate": frameRate = try integer(argument)
    case "--churn-per-minute": churn = try number(argument)
    case "--warm-up": warmUpOption = try number(argument)
    case "--json": json = true
    case "--churn":
      let names = (iterator.next() ?? "").split(separator: ",").map(String.init)
      kinds = names.compactMap(SoakPeers.Step.init(rawValue:))
      guard !kinds.isEmpty, kinds.count == names.count else {
        throw usageError("--churn takes leave, camera and move, comma-separated\n\(soakUsage)")
      }
    default: throw usageError("unknown option \(argument)\n\(soakUsage)")
    }
  }
  guard peers >= 2, peers <= 1_000, watching >= 1, watching < peers, (1...60).contains(frameRate),
    minutes > 0, churn <= 6_000
  else {
    throw usageError(
      "--peers 2–1000, --watching 1 to peers−1, --frame-rate 1–60, --churn-per-minute to 6000\n"
        + soakUsage)
  }
  let drift = soakTableDriftMinutes(peers: peers, churn: churn, kinds: kinds)
  let warmUp = warmUpOption ?? max(5, (drift + 1).rounded(.up))
  guard warmUp < minutes else {
    throw usageError(
      "--warm-up (\(String(format: "%.0f", warmUp.rounded(.up))) minutes) must end before --minutes "
        + "(\(minutes)): the default waits for the user ids to drift past the tables' span\n"
        + soakUsage)
  }
  let log = StandardError()
  log.line(
    "soak: warm-up \(warmUp) minutes (the ids drift past the tables' span in "
      + "\(String(format: "%.1f", drift)) minutes)")
  let world = try SoakWorld(peers: peers, watching: watching, frameRate: frameRate)
  defer { world.shutdown() }
  log.line("soak: \(peers) peers joining, each watching \(watching) at \(frameRate) fps")
  try world.joinAndSubscribe()
  let start = try world.sample(minute: 0)
  log.line(start.line)
  var samples = [start]
  try world.startChurn(perMinute: churn, kinds: kinds)
  let began = monotonicNanoseconds()
  var minute = 1
  while Double(minute) <= minutes {
    let due = began + UInt64(Double(minute) * 60e9)
    while monotonicNanoseconds() < due { usleep(200_000) }
    let sample = try world.sample(minute: minute)
    log.line(sample.line)
    samples.append(sample)
    minute += 1
  }
  try world.stopChurn()
  log.line("soak: churn stopped; settling")
  try world.settle()
  let end = try world.sample(minute: minute - 1)
  log.line("end \(end.line)")
  let warm = samples.last { Double($0.minute) <= warmUp } ?? start
  let growth = Double(end.rssKB - warm.rssKB) / Double(max(1, warm.rssKB))
  let roster = try world.everyRosterWhole()
  let checks: [(String, Bool)] = [
    (
      "RSS grew \(String(format: "%.2f", growth * 100))% from minute \(warm.minute) "
        + "(\(warm.rssKB) kB) to the end (\(end.rssKB) kB): under 5%", growth < 0.05
    ),
    (
      "descriptors at the end \(end.descriptors), at the start \(start.descriptors)",
      end.descriptors == start.descriptors
    ),
    (
      "client loop handles at the end \(end.clientHandles), at the start \(start.clientHandles)",
      end.clientHandles == start.clientHandles
    ),
    (
      "server loop handles at the end \(end.serverHandles), at the start \(start.serverHandles)",
      end.serverHandles == start.serverHandles
    ),
    ("every replica holds all \(peers) members", roster),
  ]
  if json {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    for sample in samples + [end] {
      print(String(decoding: try encoder.encode(sample), as: UTF8.self))
    }
  }
  let churned = end.churned
  print("sessionbench soak: \(peers) peers over \(minutes) minutes, \(churned) churn steps")
  print("  rss_growth_percent  \(String(format: "%8.2f", growth * 100))   bar 5")
  print("  rss_max_kb          \((samples + [end]).map(\.rssKB).max() ?? 0)")
  for (text, held) in checks { print("  \(held ? "ok    " : "FAILED") \(text)") }
  if checks.contains(where: { !$0.1 }) {
    throw ToolFailure("the soak failed a criterion", status: 1)
  }
}

/// The minutes the churn takes to move the user ids past what a per-user table spans for
/// `peers` users: every rejoin is a new id, and a table's array reaches at most
/// ``UserMap/idSpanBound(for:)`` ids from its lowest, so its memory grows until then.
///
/// - Parameters:
///   - peers: The instances, each a user.
///   - churn: Churn steps a minute.
///   - kinds: The steps, taken in turn.
/// - Returns: The minutes; 0 when no step makes a new id.
func soakTableDriftMinutes(peers: Int, churn: Double, kinds: [SoakPeers.Step]) -> Double {
  let leaves = churn * Double(kinds.filter { $0 == .leave }.count) / Double(max(1, kinds.count))
  guard leaves > 0 else { return 0 }
  return Double(UserMap<Participant>.idSpanBound(for: peers) - peers) / leaves
}

extension SoakSample {
  var line: String {
    "minute \(minute): rss \(rssKB) kB, descriptors \(descriptors), handles client "
      + "\(clientHandles) server \(serverHandles), in session \(inSession), churn steps \(churned), "
      + "heap \(heapKB) kB, participant tables \(participantTablesKB) kB"
  }
}

/// The C heap in use, kB: glibc's bytes in allocated chunks and in mapped blocks; 0 without
/// glibc.
func heapInUseKilobytes() -> Int {
  Int(se_heap_in_use() / 1024)
}

/// The resident set size of this process, kB (`VmRSS` of `/proc/self/status`).
func residentKilobytes() -> Int {
  guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else {
    return 0
  }
  for line in text.split(separator: "\n") where line.hasPrefix("VmRSS:") {
    return Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
  }
  return 0
}

/// The descriptors this process has open (the entries of `/proc/self/fd`, less the one
/// reading it).
func openDescriptors() -> Int {
  ((try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd"))?.count ?? 1) - 1
}

/// The soak's server, client loop and instances.
///
/// > Important: Made and driven from the benchmark's main thread; ``SoakPeers`` lives on the
/// > client loop.
final class SoakWorld {
  let server: LoopbackServer<SessionService>
  let client: EventLoop
  let peers: LoopBound<SoakPeers>
  private let keeper = LoopBoundKeeper()
  let count: Int

  init(peers count: Int, watching: Int, frameRate: Int) throws {
    raiseFileLimit(to: 4 * count + 256)
    self.count = count
    let fixture = SessionFixture(sessionName: MediaWorld.session)
    let configuration = fixture.serviceConfiguration()
    let serverConfiguration = LoopbackServerConfiguration(
      mediaSocket: UDPConfiguration(receiveBufferSize: MediaWorld.mediaReceiveBuffer))
    server = try LoopbackServer(configuration: serverConfiguration) {
      SessionService(configuration: configuration)
    }
    let client = try EventLoop(name: "bench-soak-peers")
    self.client = client
    let (port, mediaPort) = (server.port, server.mediaPort)
    peers = try client.runBlocking {
      LoopBound(
        try SoakPeers(
          loop: client, port: port, mediaPort: mediaPort, count: count, watching: watching,
          frameRate: frameRate, fixture: fixture),
        loop: client)
    }
    keeper.keep(peers)
  }

  /// Every instance joins; waits until every replica holds the roster and every subscription
  /// delivered.
  func joinAndSubscribe() throws {
    let peers = self.peers
    try client.runBlocking { peers.value.joinAll() }
    try wait(seconds: 300, "every instance in the session and every subscription flowing") {
      $0.subscribeMissingAndCheckSettled()
    }
  }

  func startChurn(perMinute: Double, kinds: [SoakPeers.Step]) throws {
    let peers = self.peers
    try client.runBlocking { try peers.value.startChurn(perMinute: perMinute, kinds: kinds) }
  }

  func stopChurn() throws {
    let peers = self.peers
    try client.runBlocking { peers.value.stopChurn() }
  }

  /// Waits until every instance is back in the session with its subscriptions flowing, and
  /// two more seconds for the connections that closed to finish closing.
  func settle() throws {
    try wait(seconds: 300, "every instance back in the session, subscriptions flowing") {
      $0.subscribeMissingAndCheckSettled()
    }
    usleep(2_000_000)
  }

  func everyRosterWhole() throws -> Bool {
    let (peers, count) = (self.peers, self.count)
    return try client.runBlocking {
      peers.value.sdks.allSatisfy { $0.store.state.participants.count == count }
    }
  }

  func sample(minute: Int) throws -> SoakSample {
    let peers = self.peers
    let (client, serverLoop) = (self.client, server.loop)
    let (clientHandles, inSession, churned, slots) = try client.runBlocking {
      (
        client.handleCount, peers.value.inSessionCount, peers.value.churned,
        peers.value.sdks.reduce(0) { $0 + $1.store.state.participants.slotCapacity }
      )
    }
    let serverHandles = try serverLoop.runBlocking { serverLoop.handleCount }
    return SoakSample(
      minute: minute, rssKB: residentKilobytes(), descriptors: openDescriptors(),
      clientHandles: clientHandles, serverHandles: serverHandles, inSession: inSession,
      churned: churned, heapKB: heapInUseKilobytes(),
      participantTablesKB: slots * MemoryLayout<Participant?>.stride / 1024)
  }

  private func wait(
    seconds: Double, _ what: String, _ done: @escaping @Sendable (SoakPeers) -> Bool
  ) throws {
    let peers = self.peers
    let deadline = monotonicNanoseconds() + UInt64(seconds * 1e9)
    while true {
      let finished = try client.runBlocking { done(peers.value) }
      if finished { return }
      guard monotonicNanoseconds() < deadline else {
        let detail = try client.runBlocking { peers.value.unsettled }
        throw BenchmarkError("soak: not \(what) after \(Int(seconds)) s: \(detail)")
      }
      usleep(250_000)
    }
  }

  func shutdown() {
    _ = client.shutdown()
    _ = server.shutdown()
    keeper.release()
  }
}

/// The soak's SDK instances and their churn, on the client loop.
///
/// > Important: Loop-confined: made and used on the client loop's thread.
final class SoakPeers {
  /// A kind of churn step.
  enum Step: String, CaseIterable, Sendable {
    case leave, camera, move
  }

  let loop: EventLoop
  let sdks: [VideoSDK]
  let watching: Int
  let fixture: SessionFixture
  private let factory: LoopbackLinkFactory
  /// Each instance's views by the user it watches (the SDK holds views weakly).
  private var views: [[UserID: FrameCounter]]
  /// Instances that left and join again when their time comes.
  private var rejoining: [(index: Int, at: UInt64)] = []
  private var churnTimer: UVTimer?
  private var next = 0
  private(set) var churned = 0
  private var kinds: [Step] = Step.allCases

  init(
    loop: EventLoop, port: UInt16, mediaPort: UInt16?, count: Int, watching: Int,
    frameRate: Int, fixture: SessionFixture
  ) throws {
    self.loop = loop
    self.watching = watching
    self.fixture = fixture
    factory = LoopbackLinkFactory(loop: loop, port: port)
    let media = mediaPort.map { LoopbackMediaLinkFactory(loop: loop, port: $0) }
    sdks = (0..<count).map { _ in VideoSDK() }
    views = Array(repeating: [:], count: count)
    for (index, sdk) in sdks.enumerated() {
      let params = InitParams(domain: "zoom.us", transport: factory, clock: factory.clock.now)
      params.media = media
      params.videoSendResolution = .resolution180
      params.videoFrameRate = frameRate
      params.mediaSeed = UInt64(index + 1)
      sdk.initialize(params)
      // By index and unowned(unsafe), as MediaPeers: this object outlives the client loop.
      sdk.callbackObserver = { [unowned(unsafe) self] callback in
        if case .onSessionJoin = callback { views[index] = [:] }
      }
    }
  }

  func joinAll() {
    for index in sdks.indices { join(index) }
  }

  private func join(_ index: Int) {
    let context = fixture.context(forMember: index, now: factory.clock.now())
    context.audioOption = AudioOptions(connect: true, mute: false)
    context.videoOption = VideoOptions(localVideoOn: true)
    sdks[index].joinSession(context)
  }

  /// Subscribes what instance `index` should watch and does not: the next `watching` users in
  /// session after it, by instance order, that are present.
  private func subscribeMissing(_ index: Int) {
    guard let session = sdks[index].getSession() else { return }
    let present = sdks.indices.filter { $0 != index && sdks[$0].getSession() != nil }
    guard !present.isEmpty else { return }
    let after = present.filter { $0 > index } + present.filter { $0 < index }
    let wanted = after.prefix(watching).compactMap { sdks[$0].store.state.myselfID }
    for user in views[index].keys where !wanted.contains(user) {
      if let view = views[index].removeValue(forKey: user) {
        _ = session.user(withID: user)?.getVideoCanvas()?.unSubscribe(with: view)
      }
    }
    for user in wanted where views[index][user] == nil {
      let view = FrameCounter()
      guard let canvas = session.user(withID: user)?.getVideoCanvas(),
        canvas.subscribe(with: view, aspectMode: .panAndScan, andResolution: .resolution180)
          == .success
      else { continue }
      views[index][user] = view
    }
  }

  /// `perMinute` churn steps a minute, instance by instance in turn, plus a pass that joins
  /// those whose time came and tops up subscriptions.
  func startChurn(perMinute: Double, kinds: [Step]) throws {
    self.kinds = kinds
    let timer = try UVTimer(loop: loop)
    churnTimer = timer
    let every = UInt64(max(10, 60_000 / max(perMinute, 1)))
    var tick: UInt64 = 0
    timer.schedule(afterMilliseconds: every, repeatingEvery: every) { [unowned(unsafe) self] in
      tick += 1
      if perMinute > 0 { churnStep() }
      rejoinDue()
      // Subscriptions follow the roster: a few instances a tick, all within a few seconds.
      for _ in 0..<max(1, sdks.count / 40) {
        subscribeMissing(Int(tick % UInt64(sdks.count)))
        tick += 1
      }
    }
  }

  func stopChurn() {
    churnTimer?.close()
    churnTimer = nil
    // What is left to do, done by a plain timer until settled.
    if let timer = try? UVTimer(loop: loop) {
      churnTimer = timer
      timer.schedule(afterMilliseconds: 100, repeatingEvery: 100) { [unowned(unsafe) self] in
        rejoinDue(force: true)
        for index in sdks.indices { subscribeMissing(index) }
        if subscribeMissingAndCheckSettled() {
          churnTimer?.close()
          churnTimer = nil
        }
      }
    }
  }

  private func churnStep() {
    let index = next
    next = (next + 1) % sdks.count
    guard sdks[index].getSession() != nil else { return }
    churned += 1
    let sdk = sdks[index]
    switch kinds[churned % kinds.count] {
    case .leave:
      _ = sdk.leaveSession(false)
      views[index] = [:]
      rejoining.append((index, loop.now + 2_000))
    case .camera:
      let helper = sdk.getVideoHelper()
      _ = helper?.stopVideo()
      _ = helper?.startVideo()
    case .move:
      // Move one subscription: drop the first and let the top-up take another.
      if let (user, view) = views[index].first,
        let canvas = sdk.getSession()?.user(withID: user)?.getVideoCanvas()
      {
        _ = canvas.unSubscribe(with: view)
        views[index][user] = nil
      }
    }
  }

  private func rejoinDue(force: Bool = false) {
    let now = loop.now
    rejoining.removeAll { entry in
      guard force || entry.at <= now else { return false }
      if sdks[entry.index].getSession() == nil { join(entry.index) }
      return true
    }
  }

  /// The instances that keep ``subscribeMissingAndCheckSettled()`` false, in words (the first five).
  var unsettled: String {
    var lines: [String] = []
    if !rejoining.isEmpty { lines.append("\(rejoining.count) waiting to rejoin") }
    for (index, sdk) in sdks.enumerated() {
      let state = sdk.store.state
      let flowing = sdk.mediaFigures.streams.count { stream in
        stream.kind == .video && stream.isSubscribed && stream.packetsReceived > 0
      }
      if sdk.getSession() == nil || state.participants.count != sdks.count
        || views[index].count < watching || flowing < watching
      {
        let streams = sdk.mediaFigures.streams.filter { $0.kind == .video }.map { stream in
          "\(stream.publisher):\(stream.isSubscribed ? "sub" : "-"):\(stream.packetsReceived)"
            + ":\(state.participants[stream.publisher]?.isVideoOn == true ? "on" : "off")"
        }
        lines.append(
          "#\(index) phase \(state.phase) roster \(state.participants.count) views "
            + "\(views[index].keys.sorted()) flowing \(flowing) streams \(streams)")
      }
    }
    return lines.prefix(6).joined(separator: "; ")
  }

  var inSessionCount: Int { sdks.count { $0.getSession() != nil } }

  /// Subscribes what instances short of their views miss (an action, hence a method), then
  /// says whether every instance is in the session with the whole roster, every wanted
  /// subscription made and delivering.
  func subscribeMissingAndCheckSettled() -> Bool {
    guard rejoining.isEmpty else { return false }
    // Subscriptions follow the roster: every instance short of its views tries again now.
    var settled = true
    for index in sdks.indices where views[index].count < watching {
      subscribeMissing(index)
      settled = false
    }
    guard settled else { return false }
    for sdk in sdks {
      guard sdk.getSession() != nil, sdk.store.state.participants.count == sdks.count else {
        return false
      }
      let flowing = sdk.mediaFigures.streams.count { stream in
        stream.kind == .video && stream.isSubscribed && stream.packetsReceived > 0
      }
      if flowing < watching { return false }
    }
    return true
  }
}
