/// Where the local user is in the session lifecycle.
public enum SessionPhase: Sendable, Codable, Hashable {
  /// The SDK is not initialized.
  case idle
  /// `initialize` succeeded; no session.
  case initialized
  /// `joinSession` was called; waiting for `onSessionJoin` or an error.
  case joining
  /// In a session.
  case inSession
  /// `leaveSession` was called; waiting for `onSessionLeave`.
  case leaving
  /// Left a session, for the given reason.
  case left(LeaveReason)
  /// Joining failed with the given error.
  case failed(VideoSDKError)

  /// Whether session events (users, media, share, chat) apply in this phase.
  public var acceptsSessionEvents: Bool { self == .inSession || self == .leaving }

  /// Whether a new join may start from this phase.
  public var canJoin: Bool {
    switch self {
    case .initialized, .left, .failed: true
    case .idle, .joining, .inSession, .leaving: false
    }
  }
}
