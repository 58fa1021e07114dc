/// Counts of what an SDK instance received from its service but could not use as is.
///
/// All zero in a healthy run; tests and simulations assert on them.
public struct LinkDiagnostics: Sendable, Hashable, Codable {
  /// Numbered events dropped because their sequence was not after the last applied one.
  public var duplicateEventsDropped = 0
  /// Times a batch started after a missing sequence number.
  public var sequenceGaps = 0
  /// Service events the local reducer rejected (the replica may have diverged).
  public var rejectedEvents = 0
  /// Messages that made no sense in the instance's state (for example `joined` while idle).
  public var ignoredMessages = 0
  /// Memberships taken back on a fresh link after the link failed.
  public var resumes = 0

  /// No counts.
  public init() {}
}
