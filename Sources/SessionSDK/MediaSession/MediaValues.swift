import SessionCore
import SessionTransport

/// One user's video, audio or share, whatever the layer: what a subscription and a receiver
/// are keyed by.
///
/// > Important: A value; `Sendable`.
struct StreamKey: Sendable, Hashable, Comparable {
  var user: UserID
  var kind: MediaKind

  static func < (lhs: StreamKey, rhs: StreamKey) -> Bool {
    if lhs.user != rhs.user { return lhs.user < rhs.user }
    return lhs.kind.rawValue < rhs.kind.rawValue
  }
}

/// What the local user sends, as its replica says: camera on, audio connected and unmuted, a
/// share started and not paused.
///
/// > Important: A value; `Sendable`.
struct LocalMedia: Sendable, Hashable {
  var video = false
  var audio = false
  var share = false

  /// Whether the kind is sent.
  func sends(_ kind: MediaKind) -> Bool {
    switch kind {
    case .video: video
    case .audio: audio
    case .share: share
    }
  }
}

/// The settings of the synthetic sources, from ``InitParams``.
///
/// > Important: A value; `Sendable`.
struct MediaSettings: Sendable, Hashable {
  /// The camera's size: its layers are the default ladder's (180p, 360p, 720p) that fit.
  var cameraWidth: Int
  var cameraHeight: Int
  /// Frames per second of the camera.
  var frameRate: Int
  /// The seed of the sources' frame sizes and talking model (each stream mixes its id in).
  var seed: UInt64

  /// The settings for a send resolution and frame rate, or `nil` when the rate is outside
  /// 1...60.
  ///
  /// - Parameters:
  ///   - resolution: The most the camera sends: 90p, 180p, 360p or 720p (``VideoResolution/auto``
  ///     is 720p).
  ///   - frameRate: Frames per second.
  ///   - seed: The sources' seed.
  init?(resolution: VideoResolution, frameRate: Int, seed: UInt64) {
    guard MediaSourceLimits.frameRates.contains(frameRate) else { return nil }
    let lines =
      switch resolution {
      case .resolution90: 90
      case .resolution180: 180
      case .resolution360: 360
      case .resolution720, .auto: 720
      }
    cameraHeight = lines
    cameraWidth = lines * 16 / 9
    self.frameRate = frameRate
    self.seed = seed
  }

  /// The layers the camera sends, lowest first.
  var layers: [SimulcastLayer] {
    SimulcastLayer.layers(of: SimulcastLayer.defaults, forWidth: cameraWidth, height: cameraHeight)
  }
}

/// A datagram the media session wants sent, before it is encoded.
///
/// > Important: A value; `Sendable`.
enum OutgoingDatagram: Sendable, Hashable {
  /// Synthetic media.
  case packet(MediaPacket)
  /// Statistics of a stream received.
  case report(ReceiverReport)
  /// Feedback on the whole downlink.
  case feedback(DownlinkFeedback)
  /// Binds the media endpoint to the member, naming its media credential.
  case bind(user: UserID, credential: UInt64)
  /// Answers the service's return-path check.
  case checkReply(credential: UInt64, nonce: UInt64)
  /// A round-trip probe.
  case ping(sendTime: Int64)
}

/// A network quality that changed.
///
/// > Important: A value; `Sendable`.
struct LevelChange: Sendable, Hashable {
  var type: DataType
  var level: NetworkQuality
  var user: UserID
}

/// What one input to the media session asks of its engine: datagrams, signalling, commands,
/// callbacks and preview frames. Reused between inputs, so that steady work allocates no
/// buffers.
///
/// > Important: A value; owned by the engine that drives the session.
struct MediaOutput: Sendable {
  var datagrams: [OutgoingDatagram] = []
  var requests: [MediaRequest] = []
  var commands: [SessionCommand] = []
  var levels: [LevelChange] = []
  var previews: [VideoFrame] = []

  /// Whether nothing is asked.
  var isEmpty: Bool {
    datagrams.isEmpty && requests.isEmpty && commands.isEmpty && levels.isEmpty
      && previews.isEmpty
  }

  /// Forgets everything, keeping the buffers.
  mutating func clear() {
    datagrams.removeAll(keepingCapacity: true)
    requests.removeAll(keepingCapacity: true)
    commands.removeAll(keepingCapacity: true)
    levels.removeAll(keepingCapacity: true)
    previews.removeAll(keepingCapacity: true)
  }
}

extension DataType {
  /// The data type of a media kind.
  init(_ kind: MediaKind) {
    switch kind {
    case .video: self = .video
    case .audio: self = .audio
    case .share: self = .share
    }
  }
}

extension MediaKind {
  /// The index of the kind in per-kind arrays (video 0, audio 1, share 2).
  var index: Int { Int(rawValue) - 1 }

  /// Every kind, in index order.
  static let all: [MediaKind] = [.video, .audio, .share]
}
