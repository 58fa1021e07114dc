/// What a network status or a statistic is about: `ZoomVideoSDKDataType`.
public enum DataType: UInt8, Sendable, Codable, Hashable, CaseIterable {
  /// Unknown.
  case unknown = 0
  /// Microphone audio.
  case audio = 1
  /// Camera video.
  case video = 2
  /// A screen share.
  case share = 3
}
