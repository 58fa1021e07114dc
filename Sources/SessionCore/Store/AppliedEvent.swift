/// An event a store applied, with its place in that store's order and the time it applied.
public struct AppliedEvent: Sendable, Codable, Hashable {
  /// 1 for the first event the store applied, then one more for each.
  public var sequence: UInt64
  /// When it applied, in milliseconds of the store's injected clock.
  public var timestamp: Int64
  /// The event.
  public var event: SessionEvent

  /// Creates an applied event.
  ///
  /// - Parameters:
  ///   - sequence: Its place in the store's order, from 1.
  ///   - timestamp: When it applied, in milliseconds of the store's clock.
  ///   - event: The event.
  public init(sequence: UInt64, timestamp: Int64, event: SessionEvent) {
    self.sequence = sequence
    self.timestamp = timestamp
    self.event = event
  }
}
