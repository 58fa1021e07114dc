/// Why subscribing a canvas failed: `ZoomVideoSDKSubscribeFailReason`.
public enum SubscribeFailReason: UInt8, Sendable, Codable, Hashable, CaseIterable {
  /// No failure.
  case none = 0
  /// A share is already subscribed.
  case hasSubscribeShare = 1
  /// Too many video subscriptions (``SessionCore/SessionLimits/maxVideoSubscriptions``).
  case hasSubscribeExceededLimit = 2
  /// A 1080p or 720p subscription is already held.
  case hasSubscribe1080POr720P = 3
  /// A second share was subscribed.
  case hasSubscribeOneShare = 4
  /// Subscribed too often.
  case tooFrequentCall = 5
}
