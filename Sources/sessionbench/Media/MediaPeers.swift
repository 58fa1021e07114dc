import Dispatch
import LoopbackTransport
import SessionCore
import SessionSDK
import SessionService
import SessionTestSupport
import SessionTransport

/// A view that only counts the frames it receives: what the media benchmark's canvases show
/// their subscriptions in.
///
/// > Important: Confined to the client loop, with the SDK instance that calls it.
final class FrameCounter: VideoSink {
  /// Frames received whole.
  private(set) var frames = 0

  func onFrameReceived(_ frame: VideoFrame) { frames &+= 1 }
}

/// Loop-confined.
@available(*, unavailable)
extension FrameCounter: Sendable {}

/// SDK instances on one client loop over loopback links, each with its camera on (180p,
/// 30 fps) and its microphone on, with a media plane when a media port is given; the canvases
/// they watch, and the counters the media benchmark reads.
///
/// > Important: Loop-confined: created and used on the client loop (the benchmark's main
/// > thread reaches it with `EventLoop.runBlocking`).
final class MediaPeers: LatencyProbed {
  let loop: EventLoop
  let factory: LoopbackLinkFactory
  let sdks: [VideoSDK]
  /// Each instance's canvases' views, held here: the SDK holds views weakly.
  private(set) var views: [[FrameCounter]]
  /// The join storm's count.
  private(set) var storm: JoinStorm
  /// The latency probe, while one runs.
  var latency: LatencyProbe?

  /// - Parameters:
  ///   - loop: The client loop; the caller is on its thread.
  ///   - port: The server's signalling port.
  ///   - mediaPort: The server's media port, or `nil` for instances without a media plane.
  ///   - count: Instances.
  ///   - stormDone: Signalled when every replica holds the whole roster.
  init(loop: EventLoop, port: UInt16, mediaPort: UInt16?, count: Int, stormDone: DispatchSemaphore)
  {
    self.loop = loop
    storm = JoinStorm(done: stormDone)
    factory = LoopbackLinkFactory(loop: loop, port: port)
    let media = mediaPort.map { LoopbackMediaLinkFactory(loop: loop, port: $0) }
    sdks = (0..<count).map { _ in VideoSDK() }
    views = Array(repeating: [], count: count)
    for (index, sdk) in sdks.enumerated() {
      let params = InitParams(domain: "zoom.us", transport: factory, clock: factory.clock.now)
      params.media = media
      params.videoSendResolution = .resolution180
      params.videoFrameRate = 30
      params.mediaSeed = UInt64(index + 1)
      sdk.initialize(params)
      // As BenchPeers': unowned(unsafe) and by index, since the observer is measurement; this
      // object lives until the client loop has stopped.
      sdk.callbackObserver = { [unowned(unsafe) self] callback in
        observe(callback, at: index)
      }
    }
  }

  private func observe(_ callback: VideoSDKCallback, at index: Int) {
    switch callback {
    case .onUserVideoStatusChanged:
      latency?.delivered()
    case .onUserJoin:
      storm.userJoined(at: sdks[index], of: sdks.count)
    default:
      break
    }
  }

  /// Every instance joins `session` now, microphone on, camera on unless `cameraOff`; the
  /// first with a host token. Returns the monotonic start time.
  func joinAll(_ fixture: SessionFixture, cameraOff: Bool = false) -> UInt64 {
    storm.begin(instances: sdks.count)
    let now = factory.clock.now()
    let contexts = sdks.indices.map { index in
      let context = fixture.context(forMember: index, now: now)
      context.audioOption = AudioOptions(connect: true, mute: false)
      context.videoOption = VideoOptions(localVideoOn: !cameraOff)
      return context
    }
    let start = monotonicNanoseconds()
    for (sdk, context) in zip(sdks, contexts) { sdk.joinSession(context) }
    return start
  }

  /// Starts every instance's camera, spread evenly over `milliseconds` (a frame interval), a
  /// slice each millisecond, as cameras that start at different moments; a camera that
  /// starts with the others sends its frames in the same ticks as theirs.
  func startCameras(over milliseconds: Int) throws {
    let timer = try UVTimer(loop: loop)
    let perSlice = max(1, (sdks.count + milliseconds - 1) / max(1, milliseconds))
    var next = 0
    timer.schedule(afterMilliseconds: 1, repeatingEvery: 1) { [unowned(unsafe) self] in
      for sdk in sdks[next..<min(next + perSlice, sdks.count)] {
        _ = sdk.getVideoHelper().startVideo()
      }
      next += perSlice
      if next >= sdks.count { timer.close() }
    }
  }

  /// Every instance subscribes canvases of the next `watching` instances' video (wrapping
  /// around the roster), at 180p; returns the subscriptions that did not succeed.
  func subscribeAll(watching: Int) -> Int {
    let users = sdks.map { $0.store.state.myselfID }
    var failed = 0
    for (index, sdk) in sdks.enumerated() {
      guard let session = sdk.getSession() else {
        failed += watching
        continue
      }
      for step in 1...min(watching, sdks.count - 1) {
        let view = FrameCounter()
        guard let user = users[(index + step) % sdks.count],
          let canvas = session.user(withID: user)?.getVideoCanvas(),
          canvas.subscribe(with: view, aspectMode: .panAndScan, andResolution: .resolution180)
            == .success
        else {
          failed += 1
          continue
        }
        views[index].append(view)
      }
    }
    return failed
  }

  /// Whether every replica sees every participant's camera on.
  var allCamerasOn: Bool {
    sdks.allSatisfy { sdk in
      sdk.store.state.participants.count == sdks.count
        && sdk.store.state.participants.values.allSatisfy(\.isVideoOn)
    }
  }

  /// Subscribed video streams that have delivered a packet, over every instance.
  var flowingSubscriptions: Int {
    sdks.reduce(0) { total, sdk in
      total
        + sdk.mediaFigures.streams.count { stream in
          stream.kind == .video && stream.isSubscribed && stream.packetsReceived > 0
        }
    }
  }

  /// Every instance's media figures now.
  func figures() -> [MediaFigures] { sdks.map(\.mediaFigures) }

  /// Whether every replica's shared facts equal `facts`.
  func allEqual(_ facts: SharedSessionFacts?) -> Bool {
    guard let facts else { return false }
    return sdks.allSatisfy { $0.store.state.sharedFacts == facts }
  }
}

/// Loop-confined.
@available(*, unavailable)
extension MediaPeers: Sendable {}
