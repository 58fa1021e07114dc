/// How a user's audio is connected: `ZoomVideoSDKAudioType`.
public enum AudioType: UInt8, Sendable, Codable, Hashable, CaseIterable {
  /// Audio not connected.
  case none = 0
  /// Connected over VoIP.
  case voip = 1
  /// Connected by telephone.
  case telephony = 2
}

/// A user's audio status: `ZoomVideoSDKAudioStatus` (`audioType`, `isMuted`, `talking`).
public struct AudioStatus: Sendable, Codable, Hashable {
  /// How audio is connected.
  public var type: AudioType
  /// Whether the microphone is muted.
  public var isMuted: Bool
  /// Whether the user is currently speaking.
  public var isTalking: Bool

  /// Creates an audio status.
  ///
  /// - Parameters:
  ///   - type: How audio is connected; `.none` when it is not.
  ///   - isMuted: Whether the microphone is muted.
  ///   - isTalking: Whether the user is speaking now.
  public init(type: AudioType = .none, isMuted: Bool = true, isTalking: Bool = false) {
    self.type = type
    self.isMuted = isMuted
    self.isTalking = isTalking
  }

  /// Audio not connected.
  public static let disconnected = AudioStatus()
}
