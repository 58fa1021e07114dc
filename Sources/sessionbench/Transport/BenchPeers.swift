import Dispatch
import LoopbackTransport
import SessionCore
import SessionSDK
import SessionService
import SessionTestSupport

/// SDK instances on one client loop, each over a loopback link, and the counters the
/// transport benchmark reads.
///
/// > Important: Loop-confined: created and used on the client loop (the benchmark's main
/// > thread reaches it with `EventLoop.runBlocking`).
final class BenchPeers {
  let loop: EventLoop
  let factory: LoopbackLinkFactory
  let sdks: [VideoSDK]
  /// `onUserVideoStatusChanged` callbacks at every instance.
  var videoCallbacks = 0
  /// The join storm's count.
  var storm: JoinStorm
  /// The steady fan-out, while one runs.
  var fanOut: FanOutDriver?
  /// The latency probe, while one runs.
  var latency: LatencyProbe?

  init(
    loop: EventLoop, port: UInt16, count: Int, stormDone: DispatchSemaphore,
    log: @escaping LoopbackLogHandler = { _ in }
  ) {
    self.loop = loop
    storm = JoinStorm(done: stormDone)
    factory = LoopbackLinkFactory(loop: loop, port: port, log: log)
    sdks = (0..<count).map { _ in VideoSDK() }
    for (index, sdk) in sdks.enumerated() {
      sdk.initialize(InitParams(domain: "zoom.us", transport: factory, clock: factory.clock.now))
      // `unowned(unsafe)`, and the instance by index: the observer is measurement, not the
      // SDK's cost, and retaining an instance (weakly referenced, so its reference count lives
      // in a side table) costs a slow-path retain and release per callback. This object lives
      // until the client loop has stopped (the world shuts it down before releasing it).
      sdk.callbackObserver = { [unowned(unsafe) self] callback in
        observe(callback, at: index)
      }
    }
  }

  private func observe(_ callback: VideoSDKCallback, at index: Int) {
    switch callback {
    case .onUserVideoStatusChanged:
      videoCallbacks &+= 1
      fanOut?.delivered()
      latency?.delivered()
    case .onUserJoin:
      storm.userJoined(at: sdks[index], of: sdks.count)
    default:
      break
    }
  }

  /// Every instance joins `session` now, in this loop turn; the first with a host token.
  func joinAll(_ fixture: SessionFixture) -> UInt64 {
    storm.begin(instances: sdks.count)
    let now = factory.clock.now()
    let contexts = sdks.indices.map { fixture.context(forMember: $0, now: now) }
    let start = monotonicNanoseconds()
    for (sdk, context) in zip(sdks, contexts) { sdk.joinSession(context) }
    return start
  }

  /// Whether every replica's shared facts equal `facts`.
  func allEqual(_ facts: SharedSessionFacts?) -> Bool {
    guard let facts else { return false }
    return sdks.allSatisfy { $0.store.state.sharedFacts == facts }
  }
}

/// Loop-confined.
@available(*, unavailable)
extension BenchPeers: Sendable {}

/// Drives the steady fan-out: one instance pipelines video toggles, `burst` per loop turn, with
/// at most `window` commands not yet delivered everywhere; every toggle reaches every instance.
///
/// > Important: Loop-confined, with its ``BenchPeers``.
final class FanOutDriver {
  let sdk: VideoSDK
  let receivers: Int
  let commands: Int
  let burst: Int
  let window: Int
  private var sent = 0
  private var deliveredCount = 0
  private var nextIsStart: Bool
  private(set) var start: UInt64 = 0
  private(set) var end: UInt64 = 0
  let done: DispatchSemaphore

  init(
    sdk: VideoSDK, receivers: Int, commands: Int, burst: Int, window: Int,
    done: DispatchSemaphore
  ) {
    self.sdk = sdk
    self.done = done
    self.receivers = receivers
    self.commands = commands
    self.burst = burst
    self.window = window
    nextIsStart = sdk.store.state.myself?.isVideoOn != true
  }

  /// Sends the first bursts.
  func begin() {
    start = monotonicNanoseconds()
    pump()
  }

  /// One callback delivered somewhere; top the pipeline up when a burst's worth was delivered.
  func delivered() {
    deliveredCount += 1
    if deliveredCount == commands * receivers {
      end = monotonicNanoseconds()
      done.signal()
    } else {
      pump()
    }
  }

  private func pump() {
    while sent < commands, sent * receivers - deliveredCount <= (window - burst) * receivers {
      let count = min(burst, commands - sent)
      let video: VideoHelper = sdk.getVideoHelper()
      for _ in 0..<count {
        if nextIsStart { video.startVideo() } else { video.stopVideo() }
        nextIsStart.toggle()
      }
      sent += count
    }
  }
}

/// Loop-confined.
@available(*, unavailable)
extension FanOutDriver: Sendable {}

/// Times one `startVideo`/`stopVideo` call until the last instance's
/// `onUserVideoStatusChanged`.
///
/// > Important: Loop-confined, with its ``BenchPeers``.
/// Peers a ``LatencyProbe`` can run on: SDK instances on one client loop, the first of which
/// toggles its video.
protocol LatencyProbed: AnyObject, SendableMetatype {
  var sdks: [VideoSDK] { get }
  var latency: LatencyProbe? { get set }
}

extension BenchPeers: LatencyProbed {}

/// `samples` times: the first instance toggles its video; the microseconds from the call to
/// the last instance's `onUserVideoStatusChanged`.
func sampleLatencies<Peers: LatencyProbed>(
  of peers: LoopBound<Peers>, on client: EventLoop, samples: Int
) throws -> [Double] {
  let arrived = DispatchSemaphore(value: 0)
  try client.runBlocking {
    peers.value.latency = LatencyProbe(receivers: peers.value.sdks.count, arrived: arrived)
  }
  for _ in 0..<samples {
    try client.runBlocking {
      guard let sdk = peers.value.sdks.first else { return }
      peers.value.latency?.fire(sdk)
    }
    guard arrived.wait(timeout: .now() + .seconds(10 * patience)) == .success else {
      throw BenchmarkError("a latency sample did not complete in \(10 * patience) s")
    }
  }
  return try client.runBlocking {
    let samples = peers.value.latency?.samples ?? []
    peers.value.latency = nil
    return samples
  }
}

final class LatencyProbe {
  let receivers: Int
  private var count = 0
  private var start: UInt64 = 0
  private(set) var samples: [Double] = []
  let arrived: DispatchSemaphore

  init(receivers: Int, arrived: DispatchSemaphore) {
    self.receivers = receivers
    self.arrived = arrived
  }

  /// Toggles `sdk`'s video and starts the clock.
  func fire(_ sdk: VideoSDK) {
    count = 0
    start = monotonicNanoseconds()
    if sdk.store.state.myself?.isVideoOn == true {
      sdk.getVideoHelper().stopVideo()
    } else {
      sdk.getVideoHelper().startVideo()
    }
  }

  func delivered() {
    count += 1
    guard count == receivers else { return }
    samples.append(Double(monotonicNanoseconds() - start) / 1_000)
    arrived.signal()
  }
}

/// Loop-confined.
@available(*, unavailable)
extension LatencyProbe: Sendable {}
