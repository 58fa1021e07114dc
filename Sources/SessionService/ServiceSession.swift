import SessionCore
import SessionTransport

/// One live session inside a ``SessionService``: the authoritative state and its members.
///
/// > Important: Confined to its service's isolation domain.
final class ServiceSession {
  /// A member's standing.
  struct Member {
    var connection: ConnectionID?
    var roleType: TokenRole
    var resumeToken: UInt64
    /// When the connection dropped, while waiting for a resume.
    var disconnectedAt: Int64?
  }

  let key: String
  var state: SessionState
  var sequence: UInt64 = 0
  var members: [UserID: Member] = [:]
  var password: String?
  var sessionKey: String?
  var selfUnmuteAllowed = true
  var idleTimeout: Int64
  /// When the session last dropped to one member.
  var idleSince: Int64?
  var nextMessage: UInt64 = 0

  init(key: String, name: String, id: String, idleTimeout: Int64) {
    self.key = key
    self.state = .serviceView(sessionName: name, sessionID: id)
    self.idleTimeout = idleTimeout
  }

  /// Members whose connection is up, with it.
  var connectedMembers: some Sequence<(UserID, ConnectionID)> {
    members.lazy.compactMap { id, member in member.connection.map { (id, $0) } }
  }
}
