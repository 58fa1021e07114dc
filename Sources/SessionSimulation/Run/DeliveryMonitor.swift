import SessionCore
import SessionSDK

/// Watches one peer's callbacks for what no user should ever see broken: a duplicate or
/// missing `onUserJoin`/`onUserLeave`, a chat message twice, a callback about a user before
/// their join or after their leave, anything about users outside a session.
///
/// > Important: A value owned by its ``SimulatedPeer``, on the world's domain.
struct DeliveryMonitor {
  /// Users the callbacks announced and have not taken back.
  private(set) var known = UserIDSet()
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
      known.removeAll()
      chatIDs = []
    case .onSessionLeave:
      inSession = false
      known.removeAll()
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

/// A set of user ids, as a bitmap for the small ids a service hands out (one after the other,
/// from 1) and a hash set for the rest: a thousand-peer run asks each peer's set about every
/// callback, and a bitmap answers from one cache line, without hashing.
///
/// > Important: A value, owned by its monitor.
struct UserIDSet {
  /// Ids below this many are bits of ``words``: at most 128 KiB per set.
  static let bitmapLimit: UInt32 = 1 << 20
  private var words: [UInt64] = []
  private var others: Set<UserID> = []

  /// Whether `id` is in the set.
  func contains(_ id: UserID) -> Bool {
    let raw = id.rawValue
    guard raw < Self.bitmapLimit else { return others.contains(id) }
    let word = Int(raw >> 6)
    return word < words.count && words[word] & (1 << UInt64(raw & 63)) != 0
  }

  /// Adds `id`; whether it was not there.
  mutating func insert(_ id: UserID) -> (inserted: Bool, memberAfterInsert: UserID) {
    let raw = id.rawValue
    guard raw < Self.bitmapLimit else { return others.insert(id) }
    let word = Int(raw >> 6)
    if word >= words.count {
      words.append(contentsOf: repeatElement(0, count: word + 1 - words.count))
    }
    let bit: UInt64 = 1 << UInt64(raw & 63)
    let inserted = words[word] & bit == 0
    words[word] |= bit
    return (inserted, id)
  }

  /// Removes `id`; it, if it was there.
  @discardableResult
  mutating func remove(_ id: UserID) -> UserID? {
    let raw = id.rawValue
    guard raw < Self.bitmapLimit else { return others.remove(id) }
    let word = Int(raw >> 6)
    let bit: UInt64 = 1 << UInt64(raw & 63)
    guard word < words.count, words[word] & bit != 0 else { return nil }
    words[word] &= ~bit
    return id
  }

  /// Every id in the set (for the final checks).
  var elements: Set<UserID> {
    var result = others
    for (index, word) in words.enumerated() where word != 0 {
      for bit in 0..<64 where word & (1 << UInt64(bit)) != 0 {
        result.insert(UserID(UInt32(index * 64 + bit)))
      }
    }
    return result
  }

  /// Empties the set, keeping its storage.
  mutating func removeAll() {
    for index in words.indices { words[index] = 0 }
    others.removeAll()
  }
}
