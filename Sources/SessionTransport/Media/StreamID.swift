import SessionCore

/// One stream of one user: a kind and a simulcast layer (0 lowest; audio and share use 0).
///
/// Streams order by user, then kind, then layer.
///
/// > Important: A value; `Sendable`.
public struct StreamID: Sendable, Hashable, Codable, Comparable {
  /// The user who sends the stream.
  public var user: UserID
  /// What the stream carries.
  public var kind: MediaKind
  /// The simulcast layer, 0 the lowest; always 0 for audio and share.
  public var layer: UInt8

  /// The number of simulcast layers a video stream may have; layers are `0..<maxLayers`.
  public static let maxLayers: UInt8 = 3

  /// Creates a stream id.
  ///
  /// - Parameters:
  ///   - user: The sender.
  ///   - kind: What the stream carries.
  ///   - layer: The simulcast layer; 0 (the default) for audio and share.
  public init(user: UserID, kind: MediaKind, layer: UInt8 = 0) {
    self.user = user
    self.kind = kind
    self.layer = layer
  }

  /// Whether the layer is allowed for the kind: below ``maxLayers`` for video, 0 otherwise.
  public var hasValidLayer: Bool {
    kind == .video ? layer < Self.maxLayers : layer == 0
  }

  /// Orders by user, then kind, then layer.
  ///
  /// - Parameters:
  ///   - lhs: A stream id.
  ///   - rhs: Another stream id.
  /// - Returns: `true` when `lhs` comes before `rhs`.
  public static func < (lhs: StreamID, rhs: StreamID) -> Bool {
    if lhs.user != rhs.user { return lhs.user < rhs.user }
    if lhs.kind != rhs.kind { return lhs.kind.rawValue < rhs.kind.rawValue }
    return lhs.layer < rhs.layer
  }
}
