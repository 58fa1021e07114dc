import SessionCore
import SessionService
import SessionTransport

/// One connection's client end, as a harness that drives a ``SessionService`` directly keeps
/// it: the replica the service's messages build, the ids and tokens they carry, and the
/// checks every member applies to what it is sent.
///
/// The service tests' harness and the `service` fuzzer keep one per connection and hand it
/// each message the service sends there, so both check the same things:
/// - `.joined` builds the replica from the snapshot, which must fit in one message;
/// - `.events` batches must be numbered without a gap and apply cleanly, as `.notice` events
///   must, and both only in session;
/// - `.left` ends the replica's session;
/// - `.media(.credential)` keeps the member's media key.
///
/// > Important: A value, confined to its harness's thread.
package struct ServedClient {
  /// Whether the connection is open (a harness closes it).
  package var isOpen = true
  /// The user this connection last joined or resumed as.
  package var user: UserID?
  /// The session it last joined.
  package var sessionID: String?
  /// The token that resumes it.
  package var resumeToken: UInt64?
  /// The replica: `nil` until the first `.joined`.
  package var state: SessionState?
  /// The number of the last event applied.
  package var lastSequence: UInt64 = 0
  /// The id of the last command sent (a harness numbers them).
  package var nextCommand: CommandID = 0
  /// The media credential the service gave, if any.
  package var credential: MediaCredential?
  /// Seals this member's datagrams to the service, under ``credential``.
  package var authenticator: MediaAuthenticator?

  /// A connection that has been sent nothing.
  package init() {}

  /// Takes one message the service sent on this connection.
  ///
  /// - Parameters:
  ///   - message: The message.
  ///   - connection: The connection, to name in a problem.
  ///   - maxMessageSize: The largest payload a transport carries; a snapshot past it is a
  ///     problem (a transport would send `goodbye(tooLarge)` instead).
  /// - Returns: What was wrong with it, a line each, naming `connection`; empty when nothing
  ///   was.
  package mutating func receive(
    _ message: ServerMessage, on connection: ConnectionID, maxMessageSize: Int
  ) -> [String] {
    var problems: [String] = []
    switch message {
    case .joined(let snapshot, let resumeToken):
      let size = WireEncoder.payload(message).count
      if size > maxMessageSize {
        problems.append("\(connection): snapshot of \(size) bytes exceeds the message limit")
      }
      do {
        state = try SessionState(snapshot: snapshot)
      } catch {
        problems.append("\(connection): snapshot refused: \(error)")
      }
      user = snapshot.myself
      sessionID = snapshot.sessionID
      self.resumeToken = resumeToken
      lastSequence = snapshot.sequence
    case .events(let batch):
      guard state?.phase == .inSession else {
        problems.append("\(connection): events while not in session: \(batch)")
        break
      }
      if batch.events.isEmpty { problems.append("\(connection): an empty batch") }
      if batch.firstSequence != lastSequence &+ 1 {
        problems.append(
          "\(connection): batch starts at \(batch.firstSequence) after \(lastSequence)")
      }
      for event in batch.events {
        if let rejection = state?.apply(event) {
          problems.append("\(connection): \(rejection)")
        }
      }
      lastSequence = batch.lastSequence
    case .notice(let event):
      guard state?.phase == .inSession else {
        problems.append("\(connection): notice while not in session: \(event)")
        break
      }
      if let rejection = state?.apply(event) {
        problems.append("\(connection): notice \(rejection)")
      }
    case .left(let reason):
      if state?.phase == .inSession {
        state?.apply(.sessionLeft(reason: reason))
      }
    case .media(.credential(let credential)):
      self.credential = credential
      authenticator = MediaAuthenticator(key: credential.key, sending: .toService)
    case .joinRefused, .passwordRequired, .commandFailed, .heartbeat, .media:
      break
    }
    return problems
  }
}
