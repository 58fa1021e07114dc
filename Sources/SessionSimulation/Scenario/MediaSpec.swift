import Foundation

/// A resolution as a scenario file names it: `"90p"`, `"180p"`, `"360p"`, `"720p"` or `"auto"`.
///
/// > Important: A value; `Sendable`.
public enum MediaResolutionSpec: String, Sendable, Hashable, Codable, CaseIterable {
  /// 160 × 90.
  case p90 = "90p"
  /// 320 × 180.
  case p180 = "180p"
  /// 640 × 360.
  case p360 = "360p"
  /// 1280 × 720.
  case p720 = "720p"
  /// No limit: the best the downlink allows.
  case auto
}

/// What a peer's synthetic media does: what it sends and what it watches (the `media` object
/// of a peer).
///
/// A peer sends what its state says: video while its camera is on (simulcast layers up to
/// ``send``), audio while its microphone is connected and unmuted (with the talking model),
/// and its share while it shares. It subscribes a canvas to the video of each present peer
/// whose name matches ``SubscribeSpec/video``, up to ``SubscribeSpec/maxVideo``, and to the
/// share on screen when ``SubscribeSpec/share`` is set. A run gives every peer a media plane
/// as soon as one peer has a `media` object.
///
/// > Important: A value; `Sendable`.
public struct PeerMediaSpec: Sendable, Hashable, Codable {
  /// The top simulcast layer the peer sends (`"720p"` sends 180p, 360p and 720p).
  public var send: MediaResolutionSpec
  /// Video frames per second, 1–60.
  public var frameRate: Int
  /// What the peer watches.
  public var subscribe: SubscribeSpec

  /// Creates a media description.
  ///
  /// - Parameters:
  ///   - send: The top layer sent.
  ///   - frameRate: Frames per second.
  ///   - subscribe: What the peer watches.
  public init(
    send: MediaResolutionSpec = .p720, frameRate: Int = 30,
    subscribe: SubscribeSpec = SubscribeSpec()
  ) {
    self.send = send
    self.frameRate = frameRate
    self.subscribe = subscribe
  }

  private enum CodingKeys: String, CodingKey {
    case send, frameRate, subscribe
  }

  /// Decodes a description; missing keys take their defaults.
  ///
  /// - Parameter decoder: The decoder.
  /// - Throws: A decoding error for a value of the wrong type.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    send = try container.decodeIfPresent(MediaResolutionSpec.self, forKey: .send) ?? .p720
    frameRate = try container.decodeIfPresent(Int.self, forKey: .frameRate) ?? 30
    subscribe =
      try container.decodeIfPresent(SubscribeSpec.self, forKey: .subscribe) ?? SubscribeSpec()
  }
}

/// Which canvases a peer subscribes (`media.subscribe`).
///
/// > Important: A value; `Sendable`.
public struct SubscribeSpec: Sendable, Hashable, Codable {
  /// Peer names whose video the peer watches: exact names, or a prefix ending in `*`
  /// (`"student-*"`). The peer itself never counts.
  public var video: [String]
  /// The most video canvases it subscribes at once, 0–100; the SDK refuses the 26th with
  /// `HasSubscribeExceededLimit`, which a scenario may want to see.
  public var maxVideo: Int
  /// The resolution each canvas asks for.
  public var resolution: MediaResolutionSpec
  /// Whether it watches the share on screen.
  public var share: Bool

  /// Creates a subscription description.
  ///
  /// - Parameters:
  ///   - video: Name patterns.
  ///   - maxVideo: The most canvases.
  ///   - resolution: What each asks for.
  ///   - share: Whether to watch the share.
  public init(
    video: [String] = [], maxVideo: Int = 25, resolution: MediaResolutionSpec = .auto,
    share: Bool = false
  ) {
    self.video = video
    self.maxVideo = maxVideo
    self.resolution = resolution
    self.share = share
  }

  private enum CodingKeys: String, CodingKey {
    case video, maxVideo, resolution, share
  }

  /// Decodes a description; missing keys take their defaults.
  ///
  /// - Parameter decoder: The decoder.
  /// - Throws: A decoding error for a value of the wrong type.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    video = try container.decodeIfPresent([String].self, forKey: .video) ?? []
    maxVideo = try container.decodeIfPresent(Int.self, forKey: .maxVideo) ?? 25
    resolution =
      try container.decodeIfPresent(MediaResolutionSpec.self, forKey: .resolution) ?? .auto
    share = try container.decodeIfPresent(Bool.self, forKey: .share) ?? false
  }

  /// Whether the peer watches `name`'s video.
  ///
  /// - Parameter name: A peer's name.
  /// - Returns: Whether a pattern matches it.
  public func watches(_ name: String) -> Bool {
    video.contains { pattern in
      pattern.hasSuffix("*") ? name.hasPrefix(pattern.dropLast()) : name == pattern
    }
  }
}

/// What a run with media must show at its end (`expect.media`): tracks and paused tracks as
/// they are at the end, after the heal; loss and delay over the whole run.
///
/// > Important: A value; `Sendable`.
public struct MediaExpectations: Sendable, Hashable, Codable {
  /// Every peer receives every track it should (its subscriptions whose publisher sends).
  public var tracks: Bool
  /// The most loss any received track may show, in percent.
  public var maxLossPercent: Double?
  /// The most p99 one-way delay any peer may show, in milliseconds.
  public var maxP99DelayMs: Double?
  /// The most tracks the service's stream allocator may hold paused for any one peer at the
  /// end (paused tracks are not counted by ``tracks``).
  public var maxPausedTracks: Int?
  /// How soon after the last timed fault ends every peer's subscriptions must be back at
  /// their top layer, none paused (the service's view): a downlink that recovered is used
  /// again.
  public var recoverWithin: SimDuration?

  /// Creates expectations.
  ///
  /// - Parameters:
  ///   - tracks: Whether every expected track must arrive.
  ///   - maxLossPercent: The loss bound.
  ///   - maxP99DelayMs: The delay bound.
  ///   - maxPausedTracks: The bound on tracks paused at the end, per peer.
  ///   - recoverWithin: How soon after the last timed fault every subscription is at its top.
  public init(
    tracks: Bool = true, maxLossPercent: Double? = nil, maxP99DelayMs: Double? = nil,
    maxPausedTracks: Int? = nil, recoverWithin: SimDuration? = nil
  ) {
    self.recoverWithin = recoverWithin
    self.tracks = tracks
    self.maxLossPercent = maxLossPercent
    self.maxP99DelayMs = maxP99DelayMs
    self.maxPausedTracks = maxPausedTracks
  }

  private enum CodingKeys: String, CodingKey {
    case tracks, maxLossPercent, maxP99DelayMs, maxPausedTracks, recoverWithin
  }

  /// Decodes expectations; missing keys take their defaults.
  ///
  /// - Parameter decoder: The decoder.
  /// - Throws: A decoding error for a value of the wrong type.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    tracks = try container.decodeIfPresent(Bool.self, forKey: .tracks) ?? true
    maxLossPercent = try container.decodeIfPresent(Double.self, forKey: .maxLossPercent)
    maxP99DelayMs = try container.decodeIfPresent(Double.self, forKey: .maxP99DelayMs)
    maxPausedTracks = try container.decodeIfPresent(Int.self, forKey: .maxPausedTracks)
    recoverWithin = try container.decodeIfPresent(SimDuration.self, forKey: .recoverWithin)
  }
}
