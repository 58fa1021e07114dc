import Dispatch
import LoopbackTransport
import SessionCore
import SessionSDK
import SessionService
import SessionTestSupport
import SessionTransport

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// What one capacity window showed, from the differences of every instance's media figures
/// between the window's start and end.
struct MediaWindow {
  /// Instances.
  var peers: Int
  /// The window, seconds.
  var seconds: Double
  /// The worst receiver's loss over its subscribed video streams (lost / expected).
  var worstLoss: Double
  /// The worst receiver's p99 one-way video delay, µs.
  var worstP99: Int64
  /// Every receiver's video delays merged: p50 and p99, µs.
  var mergedP50: Int64
  var mergedP99: Int64
  /// The loss over every subscribed video stream of every receiver together.
  var totalLoss: Double
  /// Subscribed video streams that delivered nothing in the window.
  var silentSubscriptions: Int
  /// Video packets received per second by every instance together.
  var videoPacketsPerSecond: Double
  /// CPU seconds per second of the client loop's thread and of the server's, over the window.
  var clientLoad = Double.nan
  var serverLoad = Double.nan

  /// The bars of `max_peers_30fps`: under 1% loss and a p99 under 50 ms on every receiver,
  /// every subscription flowing.
  var passed: Bool { worstLoss < 0.01 && worstP99 < 50_000 && silentSubscriptions == 0 }

  /// Differences `before` from `after` (the same instances, in order).
  init(before: [MediaFigures], after: [MediaFigures], seconds: Double) {
    peers = after.count
    self.seconds = seconds
    worstLoss = 0
    worstP99 = 0
    silentSubscriptions = 0
    var merged = DelayHistogram()
    var lost: Int64 = 0
    var expected: Int64 = 0
    var received: Int64 = 0
    for (earlier, later) in zip(before, after) {
      var old: [StreamKey: MediaFigures.Stream] = [:]
      for stream in earlier.streams { old[StreamKey(stream)] = stream }
      var video = (lost: Int64(0), expected: Int64(0))
      for stream in later.streams {
        let start = old[StreamKey(stream)]
        let deltaExpected = stream.packetsExpected - (start?.packetsExpected ?? 0)
        let deltaLost = stream.packetsLost - (start?.packetsLost ?? 0)
        let deltaReceived = stream.packetsReceived - (start?.packetsReceived ?? 0)
        // Audio is left out: only the loudest talkers reach a receiver, so its sequence gaps
        // are the selection's, not losses.
        guard stream.kind == .video, stream.isSubscribed else { continue }
        if deltaReceived <= 0 { silentSubscriptions += 1 }
        video.lost += max(0, deltaLost)
        video.expected += max(0, deltaExpected)
        received += max(0, deltaReceived)
      }
      lost += video.lost
      expected += video.expected
      worstLoss = max(
        worstLoss, video.expected == 0 ? 0 : Double(video.lost) / Double(video.expected))
      let delays = later.videoDelays.subtracting(earlier.videoDelays)
      worstP99 = max(worstP99, delays.percentile(0.99))
      merged.merge(delays)
    }
    mergedP50 = merged.percentile(0.5)
    mergedP99 = merged.percentile(0.99)
    totalLoss = expected == 0 ? 0 : Double(lost) / Double(expected)
    videoPacketsPerSecond = Double(received) / seconds
  }

  /// A stream's identity in the figures.
  struct StreamKey: Hashable {
    var publisher: UserID
    var kind: MediaKind

    init(_ stream: MediaFigures.Stream) {
      publisher = stream.publisher
      kind = stream.kind
    }
  }
}

/// A `SessionService` behind a `LoopbackServer` and `count` SDK instances on one client loop
/// thread, as the transport benchmark's world, with the media plane on or off: the capacity
/// and signalling parts of `sessionbench media`.
///
/// One client loop, as TransportWorld: the machine has two cores, and the server's loop (the
/// service and its media plane) takes one; a second client loop would only take turns with
/// the first on the other core while adding a thread to schedule.
///
/// > Important: Made and driven from the benchmark's main thread.
final class MediaWorld {
  static let session = "Media"
  /// The server's media socket's receive buffer, bytes (`SO_RCVBUF`; Linux caps it at
  /// `net.core.rmem_max` and doubles it).
  static let mediaReceiveBuffer = 4 << 20

  let server: LoopbackServer<SessionService>
  let client: EventLoop
  let peers: LoopBound<MediaPeers>
  let fixture = SessionFixture(sessionName: MediaWorld.session)
  let count: Int
  let hasMedia: Bool
  let stormDone = DispatchSemaphore(value: 0)
  /// The observers reach `MediaPeers` unowned: kept until the client loop has stopped.
  private let keeper = LoopBoundKeeper()

  /// - Parameters:
  ///   - count: SDK instances.
  ///   - media: Whether the instances have a media plane (`InitParams.media`).
  init(peers count: Int, media: Bool) throws {
    // A signalling and a media socket per peer on the client, one of each on the server.
    raiseFileLimit(to: 4 * count + 256)
    self.count = count
    hasMedia = media
    let configuration = fixture.serviceConfiguration()
    // The media socket's kernel buffer: the system's default (208 KiB here) overflows already
    // with 50 peers, whose frames leave in bursts (one client loop, sources started together)
    // while the server forwards the last burst; an SFU sizes its socket for that.
    let server = LoopbackServerConfiguration(
      mediaSocket: UDPConfiguration(receiveBufferSize: Self.mediaReceiveBuffer))
    self.server = try LoopbackServer(configuration: server) {
      SessionService(configuration: configuration)
    }
    let client = try EventLoop(name: "bench-media-peers")
    self.client = client
    let (port, stormDone) = (self.server.port, self.stormDone)
    let mediaPort = media ? self.server.mediaPort : nil
    peers = try client.runBlocking {
      LoopBound(
        MediaPeers(
          loop: client, port: port, mediaPort: mediaPort, count: count, stormDone: stormDone),
        loop: client)
    }
    keeper.keep(peers)
  }

  /// Every instance joins at once; returns the seconds until every replica held the roster.
  ///
  /// - Parameter staggered: Whether the cameras start after the storm, spread over a frame
  ///   interval, rather than with the join; then it returns once every replica sees every
  ///   camera on.
  func joinStorm(staggered: Bool = false) throws -> Double {
    let (peers, fixture) = (self.peers, self.fixture)
    let start = try client.runBlocking {
      peers.value.joinAll(fixture, cameraOff: staggered)
    }
    guard stormDone.wait(timeout: .now() + .seconds(60 * patience)) == .success else {
      throw BenchmarkError("the join storm of \(count) did not complete in \(60 * patience) s")
    }
    let end = try client.runBlocking { peers.value.storm.end }
    guard staggered else { return Double(end - start) / 1e9 }
    try client.runBlocking { try peers.value.startCameras(over: 33) }
    let deadline = monotonicNanoseconds() + UInt64(30 * patience) * 1_000_000_000
    while try !client.runBlocking({ peers.value.allCamerasOn }) {
      guard monotonicNanoseconds() < deadline else {
        throw BenchmarkError("the cameras of \(count) did not all start in \(30 * patience) s")
      }
      usleep(20_000)
    }
    return Double(end - start) / 1e9
  }

  /// Every instance watches the next `watching` instances; with media, waits until every
  /// subscription has delivered a packet. Returns the seconds that took.
  func subscribe(watching: Int, timeout: Double) throws -> Double {
    let peers = self.peers
    let start = monotonicNanoseconds()
    let failed = try client.runBlocking { peers.value.subscribeAll(watching: watching) }
    guard failed == 0 else {
      throw BenchmarkError("\(failed) of \(count) x \(watching) subscriptions failed")
    }
    guard hasMedia else { return 0 }
    let wanted = count * min(watching, count - 1)
    let deadline = start + UInt64(timeout * Double(patience) * 1e9)
    while true {
      let flowing = try client.runBlocking { peers.value.flowingSubscriptions }
      if flowing == wanted { break }
      guard monotonicNanoseconds() < deadline else {
        throw BenchmarkError(
          "\(wanted - flowing) of \(wanted) subscriptions delivered nothing in "
            + "\(Int(timeout * Double(patience))) s")
      }
      usleep(100_000)
    }
    return Double(monotonicNanoseconds() - start) / 1e9
  }

  /// The media figures' differences over `seconds`.
  func window(seconds: Double) throws -> MediaWindow {
    let peers = self.peers
    let before = try client.runBlocking { peers.value.figures() }
    let start = monotonicNanoseconds()
    let cpuBefore = try (threadCPUNanoseconds(of: client), threadCPUNanoseconds(of: server.loop))
    usleep(UInt32(seconds * 1e6))
    let cpuAfter = try (threadCPUNanoseconds(of: client), threadCPUNanoseconds(of: server.loop))
    let after = try client.runBlocking { peers.value.figures() }
    let elapsed = Double(monotonicNanoseconds() - start)
    var window = MediaWindow(before: before, after: after, seconds: elapsed / 1e9)
    window.clientLoad = Double(cpuAfter.0 - cpuBefore.0) / elapsed
    window.serverLoad = Double(cpuAfter.1 - cpuBefore.1) / elapsed
    return window
  }

  /// `samples` times: the first instance toggles its video; the microseconds from the call to
  /// the last instance's `onUserVideoStatusChanged` (``sampleLatencies(of:on:samples:)``).
  func latencies(samples: Int) throws -> [Double] {
    try sampleLatencies(of: peers, on: client, samples: samples)
  }

  /// Connections the server accepted beyond one per peer: members whose link failed and
  /// resumed.
  func extraConnections() throws -> Int {
    try server.statistics().connectionsAccepted - count
  }

  /// The server's media plane counters, if it has one.
  func mediaStatistics() throws -> LoopbackMediaStatistics? {
    try server.statistics().media
  }

  func shutdown() {
    _ = client.shutdown()
    _ = server.shutdown()
    keeper.release()
  }
}
