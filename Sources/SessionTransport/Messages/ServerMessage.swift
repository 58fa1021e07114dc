import SessionCore

/// Consecutive numbered session events, as the service applied them.
public struct EventBatch: Sendable, Hashable, Codable {
  /// The sequence number of the first event; the next ones follow by one.
  public var firstSequence: UInt64
  /// The events, in order.
  public var events: [SessionEvent]

  /// Creates a batch.
  ///
  /// - Parameters:
  ///   - firstSequence: The sequence number of the first event.
  ///   - events: The events, in order; each numbered one more than the one before.
  public init(firstSequence: UInt64, events: [SessionEvent]) {
    self.firstSequence = firstSequence
    self.events = events
  }

  /// The sequence number of the last event; `firstSequence - 1` (wrapping) for an empty batch.
  public var lastSequence: UInt64 { firstSequence &+ UInt64(events.count) &- 1 }
}

/// A message from the service to one member.
public enum ServerMessage: Sendable, Hashable, Codable {
  /// Joined (or resumed): the state at `snapshot.sequence`. Numbered events follow.
  /// Stored out of line so that every message stays small to copy.
  indirect case joined(SessionSnapshot, resumeToken: UInt64)
  /// The join failed with this error; the connection stays open for another try.
  case joinRefused(VideoSDKError)
  /// The session needs a password (`onSessionNeedPassword`), or the one given was wrong
  /// (`onSessionPasswordWrong`). Answer with ``ClientMessage/password(_:)``.
  case passwordRequired(wrong: Bool)
  /// Session events in the service's total order.
  case events(EventBatch)
  /// A private event for this member only (for example ``SessionCore/SessionEvent/hostAskedUnmute(by:)``).
  case notice(SessionEvent)
  /// The service refused a command; nothing changed.
  case commandFailed(CommandID, VideoSDKError)
  /// The member is out of the session for this reason (`onSessionLeave`).
  case left(LeaveReason)
  /// Keep-alive answer.
  case heartbeat
  /// A media-plane notice for this member (its endpoint is bound, a subscription was refused,
  /// a key frame is wanted, its downlink estimate moved).
  case media(MediaNotice)
}
