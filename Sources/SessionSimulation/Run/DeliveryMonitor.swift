import SessionCore
import SessionSDK

/// Watches one peer's callbacks for what no user should ever see broken: a duplicate or
/// missing `onUserJoin`/`onUserLeave`, a chat message twice, a callback about a user before
/// their join or after their leave, anything about users outside a session.
///
/// > Important: A value owned by its ``SimulatedPeer``, on the world's domain.
struct DeliveryMonitor {
  /// Users the callbacks announced and have not taken back.
  private(set) var known: Set<UserID> = []
  /// Whether the callbacks say the peer is in a session.
  private(set) var inSession = false
  /// Chat message ids delivered in the current session.
  private(set) var chatIDs: Set<String> = []
  /// What broke, in order.
  private(set) var problems: [String] = []

  /// Takes the next callback; records a problem when it breaks a delivery property.
  mutating func observe(_ callback: VideoSDKCallback) {
    switch callback {
    case .onSessionJoin:
      if inSession { problems.append("onSessionJoin while in a session") }
      inSession = true
      known = []
      chatIDs = []
    case .onSessionLeave:
      inSession = false
      known = []
    case .onUserJoin(let ids):
      requireSession(callback)
      for id in ids {
        if !known.insert(id).inserted { problems.append("duplicate onUserJoin of \(id)") }
      }
    case .onUserLeave(let ids):
      requireSession(callback)
      for id in ids {
        if known.remove(id) == nil { problems.append("onUserLeave of \(id), who never joined") }
      }
    case .onUserVideoStatusChanged(let ids), .onUserAudioStatusChanged(let ids),
      .onUserActiveAudioChanged(let ids):
      for id in ids { requireKnown(id, callback) }
    case .onUserHostChanged(let id), .onUserManagerChanged(let id), .onUserNameChanged(let id):
      requireKnown(id, callback)
    case .onUserShareStatusChanged(let id, _, _):
      requireKnown(id, callback)
    case .onChatNewMessageNotify(let message):
      requireSession(callback)
      if !chatIDs.insert(message.id).inserted {
        problems.append("chat message \(message.id) delivered twice")
      }
    default:
      break
    }
  }

  private mutating func requireSession(_ callback: VideoSDKCallback) {
    if !inSession { problems.append("\(callback.name) outside a session") }
  }

  private mutating func requireKnown(_ id: UserID, _ callback: VideoSDKCallback) {
    guard inSession else {
      problems.append("\(callback.name) about \(id) outside a session")
      return
    }
    if !known.contains(id) {
      problems.append("\(callback.name) about \(id) before their onUserJoin or after onUserLeave")
    }
  }
}
