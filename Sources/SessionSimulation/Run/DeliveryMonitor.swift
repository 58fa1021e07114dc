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
  /// Chat messages delivered in the current session, by their numbers in the run's
  /// ``ChatNumbers``: a bit each, where a set of ids hashed every id once per receiver and
  /// grew with the run (a quarter of a chat-heavy thousand-peer run's time).
  private var chats = NumberSet()
  /// What broke, in order.
  private(set) var problems: [String] = []

  /// Takes the next callback; records a problem when it breaks a delivery property.
  ///
  /// - Parameters:
  ///   - callback: The callback.
  ///   - numbers: The run's chat message numbering, shared by every peer's monitor.
  mutating func observe(_ callback: VideoSDKCallback, numbers: ChatNumbers) {
    switch callback {
    case .onSessionJoin:
      if inSession { problems.append("onSessionJoin while in a session") }
      inSession = true
      known.removeAll()
      chats.removeAll()
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
      if !chats.insert(numbers.number(of: message.id)) {
        problems.append("chat message \(message.id) delivered twice")
      }
    default:
      break
    }
  }

  /// Whether the chat message `id` was delivered in the current session.
  ///
  /// - Parameters:
  ///   - id: The message id.
  ///   - numbers: The numbering ``observe(_:numbers:)`` was given.
  /// - Returns: `true` if its `onChatNewMessageNotify` came.
  func hasDeliveredChat(_ id: String, numbers: ChatNumbers) -> Bool {
    guard let number = numbers.existingNumber(of: id) else { return false }
    return chats.contains(number)
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
  private var numbers = NumberSet()

  /// Whether `id` is in the set.
  func contains(_ id: UserID) -> Bool { numbers.contains(id.rawValue) }

  /// Adds `id`; whether it was not there.
  mutating func insert(_ id: UserID) -> (inserted: Bool, memberAfterInsert: UserID) {
    (numbers.insert(id.rawValue), id)
  }

  /// Removes `id`; it, if it was there.
  @discardableResult
  mutating func remove(_ id: UserID) -> UserID? {
    numbers.remove(id.rawValue) ? id : nil
  }

  /// Every id in the set (for the final checks).
  var elements: Set<UserID> { Set(numbers.elements.map { UserID($0) }) }

  /// Empties the set, keeping its storage.
  mutating func removeAll() { numbers.removeAll() }
}

/// A set of numbers, as a bitmap below ``bitmapLimit`` and a hash set above.
///
/// > Important: A value, owned by its monitor.
struct NumberSet {
  /// Numbers below this are bits of ``words``: at most 128 KiB per set.
  static let bitmapLimit: UInt32 = 1 << 20
  private var words: [UInt64] = []
  private var others: Set<UInt32> = []

  /// Whether `number` is in the set.
  func contains(_ number: UInt32) -> Bool {
    guard number < Self.bitmapLimit else { return others.contains(number) }
    let word = Int(number >> 6)
    return word < words.count && words[word] & (1 << UInt64(number & 63)) != 0
  }

  /// Adds `number`; whether it was not there.
  mutating func insert(_ number: UInt32) -> Bool {
    guard number < Self.bitmapLimit else { return others.insert(number).inserted }
    let word = Int(number >> 6)
    if word >= words.count {
      words.append(contentsOf: repeatElement(0, count: word + 1 - words.count))
    }
    let bit: UInt64 = 1 << UInt64(number & 63)
    let inserted = words[word] & bit == 0
    words[word] |= bit
    return inserted
  }

  /// Removes `number`; whether it was there.
  mutating func remove(_ number: UInt32) -> Bool {
    guard number < Self.bitmapLimit else { return others.remove(number) != nil }
    let word = Int(number >> 6)
    let bit: UInt64 = 1 << UInt64(number & 63)
    guard word < words.count, words[word] & bit != 0 else { return false }
    words[word] &= ~bit
    return true
  }

  /// Every number in the set, in no particular order.
  var elements: [UInt32] {
    var result = Array(others)
    for (index, word) in words.enumerated() where word != 0 {
      for bit in 0..<64 where word & (1 << UInt64(bit)) != 0 {
        result.append(UInt32(index * 64 + bit))
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

/// Numbers the chat message ids a run delivers, once each, in the order first seen: every
/// peer's ``DeliveryMonitor`` keeps a bit per number instead of a set of ids.
///
/// A broadcast reaches its receivers one after the other, so the id asked for is nearly
/// always the one asked for last; that one is answered without hashing (two strings that
/// share their storage compare equal at once).
///
/// > Important: Owned by the run's ``ScenarioRunner`` and used on the world's domain.
final class ChatNumbers {
  private var numbers: [String: UInt32] = [:]
  private var lastID = ""
  private var lastNumber: UInt32 = 0

  /// The number of `id`, given it now if it has none.
  func number(of id: String) -> UInt32 {
    if id == lastID, !numbers.isEmpty { return lastNumber }
    let next = UInt32(truncatingIfNeeded: numbers.count)
    let number = numbers[id, default: next]
    if number == next { numbers[id] = next }
    lastID = id
    lastNumber = number
    return number
  }

  /// The number of `id`, if it was ever delivered.
  func existingNumber(of id: String) -> UInt32? {
    if id == lastID, !numbers.isEmpty { return lastNumber }
    return numbers[id]
  }
}
