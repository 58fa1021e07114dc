/// What the router did with one stream for one subscriber.
///
/// Counters wrap instead of trapping, so no packet rate can stop the relay.
public struct StreamCounters: Sendable, Hashable {
  /// Packets forwarded to the subscriber.
  public var forwardedPackets: UInt64 = 0
  /// Their synthetic payload bytes.
  public var forwardedBytes: UInt64 = 0
  /// Packets of the stream the subscriber did not get because another layer was selected for
  /// it (video, share) or the speaker was not among its loudest (audio).
  public var droppedBySelection: UInt64 = 0

  /// Zero counters.
  public init() {}

  /// Creates counters with the given values.
  ///
  /// - Parameters:
  ///   - forwardedPackets: Packets forwarded to the subscriber.
  ///   - forwardedBytes: Their synthetic payload bytes.
  ///   - droppedBySelection: Packets the subscriber did not get because of layer or speaker
  ///     selection.
  public init(forwardedPackets: UInt64, forwardedBytes: UInt64, droppedBySelection: UInt64) {
    self.forwardedPackets = forwardedPackets
    self.forwardedBytes = forwardedBytes
    self.droppedBySelection = droppedBySelection
  }

  mutating func forwarded(_ bytes: UInt16) {
    forwardedPackets &+= 1
    forwardedBytes &+= UInt64(bytes)
  }
}

/// The router's counts over its lifetime, for every stream and subscriber together.
public struct RouterTotals: Sendable, Hashable {
  /// Packets forwarded, counted once per subscriber reached.
  public var forwardedPackets: UInt64 = 0
  /// Their synthetic payload bytes.
  public var forwardedBytes: UInt64 = 0
  /// Packet copies not forwarded because of layer or speaker selection.
  public var droppedBySelection: UInt64 = 0
  /// Packets refused because their publisher is not a member.
  public var rejectedUnknownPublisher: UInt64 = 0
  /// Packets refused because their stream was never announced or its layer is out of range.
  public var rejectedUnknownStream: UInt64 = 0
  /// Key frames requested from publishers.
  public var keyFrameRequests: UInt64 = 0

  /// Zero totals.
  public init() {}
}
