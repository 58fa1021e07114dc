import SessionCore

extension MediaRouter {
  /// The router's limits and the downlink controller's bounds.
  ///
  /// Values out of range are brought into range when a router is made (a negative limit is 0,
  /// an estimate bound that is not a positive finite number takes its default, the initial
  /// estimate lies between the bounds), so no configuration can make a router trap.
  public struct Configuration: Sendable, Hashable {
    /// The most video subscriptions one subscriber may hold; the next fails with
    /// ``SubscribeRefusal/exceededLimit``. Default `SessionLimits().maxVideoSubscriptions` (25),
    /// the limit the SDK checks.
    public var maxVideoSubscriptions: Int
    /// A new member's downlink estimate, bits per second. Default 4 Mbit/s.
    public var initialEstimate: Double
    /// The least a loss cut leaves of an estimate, bits per second. Default 50 kbit/s.
    public var minimumEstimate: Double
    /// The most an estimate grows to, bits per second. Default 50 Mbit/s. Growth also stops
    /// at ``estimateHeadroom`` times what the subscriber's subscriptions could use (but never
    /// below ``initialEstimate``).
    public var maximumEstimate: Double
    /// How far above the bitrate its subscriptions could use an estimate may grow. Default 1.5.
    public var estimateHeadroom: Double
    /// The least time between two key-frame requests for one layer, µs. Default 500 ms.
    public var keyFrameRequestInterval: Int64
    /// How many talkers each member hears. Default 3.
    public var loudestSpeakers: Int
    /// The quietest audio level (RFC 6464: 0 loudest, 127 silence) that counts as talking.
    /// Default 60 (−60 dBov).
    public var talkingLevel: UInt8

    /// Creates a configuration; every parameter has the default documented on its property.
    ///
    /// - Parameters:
    ///   - maxVideoSubscriptions: The most video subscriptions one subscriber may hold.
    ///   - initialEstimate: A new member's downlink estimate, bits per second.
    ///   - minimumEstimate: The least a loss cut leaves of an estimate, bits per second.
    ///   - maximumEstimate: The most an estimate grows to, bits per second.
    ///   - estimateHeadroom: How far above the bitrate its subscriptions could use an estimate may
    ///     grow, as a factor.
    ///   - keyFrameRequestInterval: The least time between two key-frame requests for one layer, in
    ///     microseconds.
    ///   - loudestSpeakers: How many talkers each member hears.
    ///   - talkingLevel: The quietest audio level (RFC 6464: 0 loudest, 127 silence) that counts as
    ///     talking.
    public init(
      maxVideoSubscriptions: Int = SessionLimits().maxVideoSubscriptions,
      initialEstimate: Double = 4_000_000,
      minimumEstimate: Double = 50_000,
      maximumEstimate: Double = 50_000_000,
      estimateHeadroom: Double = 1.5,
      keyFrameRequestInterval: Int64 = 500_000,
      loudestSpeakers: Int = 3,
      talkingLevel: UInt8 = 60
    ) {
      self.maxVideoSubscriptions = maxVideoSubscriptions
      self.initialEstimate = initialEstimate
      self.minimumEstimate = minimumEstimate
      self.maximumEstimate = maximumEstimate
      self.estimateHeadroom = estimateHeadroom
      self.keyFrameRequestInterval = keyFrameRequestInterval
      self.loudestSpeakers = loudestSpeakers
      self.talkingLevel = talkingLevel
    }

    /// The configuration with every value brought into range.
    var sanitized: Configuration {
      let defaults = Configuration()
      func positive(_ value: Double, _ fallback: Double) -> Double {
        value.isFinite && value > 0 ? value : fallback
      }
      var result = self
      result.maxVideoSubscriptions = max(0, maxVideoSubscriptions)
      result.minimumEstimate = positive(minimumEstimate, defaults.minimumEstimate)
      result.maximumEstimate = max(
        result.minimumEstimate, positive(maximumEstimate, defaults.maximumEstimate))
      result.initialEstimate = min(
        result.maximumEstimate,
        max(result.minimumEstimate, positive(initialEstimate, defaults.initialEstimate)))
      result.estimateHeadroom = max(1, positive(estimateHeadroom, defaults.estimateHeadroom))
      result.keyFrameRequestInterval = max(0, keyFrameRequestInterval)
      result.loudestSpeakers = min(max(0, loudestSpeakers), 64)
      result.talkingLevel = min(127, talkingLevel)
      return result
    }
  }
}
