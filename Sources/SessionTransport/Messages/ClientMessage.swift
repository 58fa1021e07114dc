import SessionCore

/// Identifies a command within one connection, so its reply can find it.
public typealias CommandID = UInt32

/// A message from a member (an SDK instance) to the service.
public enum ClientMessage: Sendable, Hashable, Codable {
  /// Join a session.
  case join(JoinRequest)
  /// Answer to ``ServerMessage/passwordRequired(wrong:)``: a password, or `nil` to give up
  /// (`leaveSessionIgnorePassword`).
  case password(String?)
  /// Run a command.
  case command(CommandID, SessionCommand)
  /// Take a membership back after the connection dropped.
  case resume(ResumeRequest)
  /// Keep-alive; the service answers with ``ServerMessage/heartbeat``.
  case heartbeat
  /// A media-plane request (subscribe, unsubscribe, announce, withdraw); the service answers
  /// only refusals and notices, with ``ServerMessage/media(_:)``.
  case media(MediaRequest)
}
