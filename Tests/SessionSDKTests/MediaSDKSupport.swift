import SessionCore
import SessionTransport

@testable import SessionSDK

// Fakes for driving an SDK instance's media plane: a media link whose ticks and datagrams the
// test injects at chosen times and which records what the instance sends, and a sink.

/// A media link the test drives by hand.
final class FakeMediaLink: MediaLink {
  let tickInterval: Int64 = 10_000
  private(set) var handler: ((MediaLinkEvent) -> Void)?
  private(set) var sent: [[UInt8]] = []
  private(set) var isStarted = false
  private(set) var isClosed = false

  func start(_ handler: @escaping (MediaLinkEvent) -> Void) {
    self.handler = handler
    isStarted = true
  }

  func send(_ datagram: [UInt8]) {
    guard !isClosed else { return }
    sent.append(datagram)
  }

  func close() {
    isClosed = true
    handler = nil
  }

  /// A tick at `now` µs.
  func tick(_ now: Int64) {
    handler?(.tick(now: now))
  }

  /// A datagram arriving at `time` µs, tagged under the test service's media key (as the
  /// service tags its pongs and checks; a forwarded packet carries its publisher's tag).
  func deliver(_ bytes: [UInt8], at time: Int64) {
    deliverRaw(service.sealed(bytes), at: time)
  }

  /// Bytes arriving at `time` µs exactly as given (no tag added).
  func deliverRaw(_ bytes: [UInt8], at time: Int64) {
    handler?(.datagram(bytes, at: time))
  }

  /// Whether every datagram sent carries the right tag under the test service's key.
  var everySentDatagramIsAuthentic: Bool { sent.allSatisfy { service.isAuthentic($0) } }

  /// The test service's end of the key: seals as the service does, checks members' datagrams.
  private let service = MediaAuthenticator(key: MiniService.mediaKey, sending: .toMember)

  /// The datagrams sent, decoded (without their tags).
  var datagrams: [MediaDatagram] { sent.compactMap(Self.decodeSealed) }

  /// A sealed datagram's body, decoded.
  static func decodeSealed(_ bytes: [UInt8]) -> MediaDatagram? {
    bytes.withUnsafeBytes { sealed in
      MediaDatagram.body(ofSealed: sealed).flatMap { try? MediaDatagram.decode($0) }
    }
  }

  /// Takes the datagrams sent so far, decoded.
  func take() -> [MediaDatagram] {
    defer { sent.removeAll() }
    return datagrams
  }
}

/// Makes ``FakeMediaLink``s and remembers them.
final class FakeMediaLinkFactory: MediaLinkFactory {
  private(set) var links: [FakeMediaLink] = []

  func makeMediaLink() -> any MediaLink {
    let link = FakeMediaLink()
    links.append(link)
    return link
  }

  var last: FakeMediaLink? { links.last }
}

/// A view that keeps the frames it receives.
final class FrameSink: VideoSink {
  var frames: [VideoFrame] = []
  /// Called after each frame is kept.
  var onFrame: ((VideoFrame) -> Void)?

  func onFrameReceived(_ frame: VideoFrame) {
    frames.append(frame)
    onFrame?(frame)
  }
}

/// One SDK instance with a media plane, on a ``MiniService``.
@MainActor
final class MediaMember {
  let sdk: VideoSDK
  let log = CallbackLog()
  let media = FakeMediaLinkFactory()
  let service: MiniService

  init(
    _ name: String, service: MiniService, resolution: VideoResolution = .resolution720,
    frameRate: Int = 30, videoOn: Bool = false, audio: Bool = false, muted: Bool = false,
    withMedia: Bool = true
  ) {
    self.service = service
    sdk = VideoSDK()
    let log = self.log
    sdk.callbackObserver = { log.callbacks.append($0) }
    let params = InitParams(domain: "zoom.us", transport: service)
    params.media = withMedia ? media : nil
    params.videoSendResolution = resolution
    params.videoFrameRate = frameRate
    params.mediaSeed = 42
    sdk.initialize(params)
    sdk.joinSession(
      SessionContext(
        token: "header.payload.signature", sessionName: "Algebra101", userName: name,
        audioOption: AudioOptions(connect: audio, mute: muted),
        videoOption: VideoOptions(localVideoOn: videoOn)))
  }

  /// The local user's id.
  var id: UserID { sdk.store.state.myselfID ?? 0 }

  /// The current media link.
  var link: FakeMediaLink { media.last ?? FakeMediaLink() }

  /// A remote user's handle.
  func user(_ id: UserID) -> User? { sdk.getSession()?.user(withID: id) }

  /// The local user's handle.
  var myself: User? { sdk.getSession()?.getMySelf() }

  /// Ticks from `start` to `end` (exclusive) every `step` µs.
  func run(from start: Int64, to end: Int64, step: Int64 = 10_000) {
    var now = start
    while now < end {
      link.tick(now)
      now += step
    }
  }

  /// Marks the media endpoint bound (the service's notice).
  func bind() {
    service.notify(id, .bound)
  }

  /// The media requests sent since the last call.
  func requests() -> [MediaRequest] { service.takeMediaRequests(of: id) }

  /// The `onUserNetworkStatusChanged` callbacks since the last call, dropping the rest.
  func networkChanges() -> [VideoSDKCallback] {
    log.take().filter {
      if case .onUserNetworkStatusChanged = $0 { return true }
      return false
    }
  }
}

/// The packets a source sends over `[start, end)`, polled every 10 ms.
func packets(
  of source: inout VideoSource, from start: Int64, to end: Int64
) -> [MediaPacket] {
  var out: [MediaPacket] = []
  var now = start
  while now < end {
    out += source.packets(until: now)
    now += 10_000
  }
  return out
}

/// Packets of one 720p-only stream (a single-layer camera) from `user`.
func singleLayerSource(_ user: UserID, frameRate: Int = 30) throws -> VideoSource {
  try VideoSource(
    user: user, width: 1_280, height: 720, frameRate: frameRate, ladder: [.p720], seed: 7,
    start: 0)
}

extension Array where Element == MediaDatagram {
  /// The packets among the datagrams.
  var packets: [MediaPacket] {
    compactMap { if case .packet(let packet) = $0 { packet } else { nil } }
  }

  /// The reports among the datagrams.
  var reports: [ReceiverReport] {
    compactMap { if case .report(let report) = $0 { report } else { nil } }
  }

  /// The binds among the datagrams.
  var binds: [MediaBind] {
    compactMap { if case .bind(let bind) = $0 { bind } else { nil } }
  }

  /// The pings' send times.
  var pings: [Int64] {
    compactMap { if case .ping(let time) = $0 { time } else { nil } }
  }
}
