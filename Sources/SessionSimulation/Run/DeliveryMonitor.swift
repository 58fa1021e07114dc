import SessionCore
import SessionSDK

/// Watches one peer's callbacks for what no user should ever see broken: a duplicate or
/// missing `onUserJoin`/`onUserLeave`, a chat message twice, a callback about a user before
/// their join or after their leave, anything about users outside a session.
///
/// What it has seen lives in its column of the run's ``DeliveryLedger``: a broadcast reaches
/// every peer about the same user (or chat message), so every monitor reads and writes the
/// same few cache lines, where a bitmap of each monitor's own was two cache misses per
/// callback, a tenth of a thousand-peer run.
///
/// > Important: A view of one column of its ledger, owned by its ``SimulatedPeer``, on the
/// > world's domain. Two monitors of the same column would share what they saw.
struct DeliveryMonitor {
  private let ledger: DeliveryLedger
  /// The monitor's column in the ledger: its peer's index.
  let column: Int
  /// Whether the callbacks say the peer is in a session.
  private(set) var inSession = false
  /// What broke, in order.
  private(set) var problems: [String] = []
  /// The rows this monitor set bits in, so that clearing its column reads only those.
  private var knownRows = RowSpan()
  /// How many bits this monitor has set in its column of the known rows.
  private var knownCount = 0
  private var chatRows = RowSpan()

  /// A monitor of `column` in `ledger`, which starts with nothing seen in that column.
  ///
  /// - Parameters:
  ///   - ledger: The run's ledger.
  ///   - column: The peer's index, below the ledger's column count.
  init(ledger: DeliveryLedger, column: Int) {
    precondition(column >= 0 && column < ledger.columns, "a column beyond the ledger")
    self.ledger = ledger
    self.column = column
  }

  /// A monitor with a ledger of its own (tests, a single peer).
  init() {
    self.init(ledger: DeliveryLedger(columns: 1, chatNumbers: ChatNumbers()), column: 0)
  }

  /// Users the callbacks announced and have not taken back.
  var known: Set<UserID> {
    Set(ledger.known.rows(in: column, within: knownRows).map(UserID.init(rawValue:)))
  }

  /// How `roster` differs from the users the callbacks announced: those present but never
  /// announced, and those announced but gone, each ascending and at most `limit`.
  ///
  /// O(roster) bit tests when they agree (a count settles the extras), which is what a
  /// converged run of 5,000 replicas meets 5,000 times; the sets are built only on a failure.
  ///
  /// - Parameters:
  ///   - roster: The replica's participant ids.
  ///   - limit: The most of each kind returned.
  /// - Returns: The missing and the extra ids.
  func mismatch(
    with roster: some Collection<UserID>, limit: Int
  ) -> (missing: [UserID], extra: [UserID]) {
    if roster.count == knownCount,
      roster.allSatisfy({ ledger.known.contains(row: $0.rawValue, column: column) })
    {
      return ([], [])
    }
    let present = Set(roster)
    let known = self.known
    return (
      Array(present.subtracting(known).sorted().prefix(limit)),
      Array(known.subtracting(present).sorted().prefix(limit))
    )
  }

  /// Takes the next callback; records a problem when it breaks a delivery property.
  ///
  /// - Parameter callback: The callback.
  mutating func observe(_ callback: VideoSDKCallback) {
    switch callback {
    case .onSessionJoin:
      if inSession { problems.append("onSessionJoin while in a session") }
      inSession = true
      clearKnown()
      clearChats()
    case .onSessionLeave:
      inSession = false
      clearKnown()
    case .onUserJoin(let ids):
      requireSession(callback)
      for id in ids {
        knownRows.include(id.rawValue)
        if ledger.known.insert(row: id.rawValue, column: column) {
          knownCount += 1
        } else {
          problems.append("duplicate onUserJoin of \(id)")
        }
      }
    case .onUserLeave(let ids):
      requireSession(callback)
      for id in ids {
        if ledger.known.remove(row: id.rawValue, column: column) {
          knownCount -= 1
        } else {
          problems.append("onUserLeave of \(id), who never joined")
        }
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
      let number = ledger.chatNumbers.number(of: message.id)
      chatRows.include(number)
      if !ledger.chats.insert(row: number, column: column) {
        problems.append("chat message \(message.id) delivered twice")
      }
    default:
      break
    }
  }

  /// Whether the chat message `id` was delivered in the current session.
  ///
  /// - Parameter id: The message id.
  /// - Returns: `true` if its `onChatNewMessageNotify` came.
  func hasDeliveredChat(_ id: String) -> Bool {
    guard let number = ledger.chatNumbers.existingNumber(of: id) else { return false }
    return hasDeliveredChat(number: number)
  }

  /// Whether the chat message numbered `number` in the ledger's numbering was delivered in
  /// the current session.
  ///
  /// - Parameter number: The message's number.
  /// - Returns: `true` if its `onChatNewMessageNotify` came.
  func hasDeliveredChat(number: UInt32) -> Bool {
    ledger.chats.contains(row: number, column: column)
  }

  /// Forgets everything: the state of a new instance of the peer.
  mutating func reset() {
    clearKnown()
    clearChats()
    inSession = false
    problems = []
  }

  private mutating func clearKnown() {
    ledger.known.clear(column: column, within: knownRows)
    knownRows = RowSpan()
    knownCount = 0
  }

  private mutating func clearChats() {
    ledger.chats.clear(column: column, within: chatRows)
    chatRows = RowSpan()
  }

  private mutating func requireSession(_ callback: VideoSDKCallback) {
    if !inSession { problems.append("\(callback.name) outside a session") }
  }

  private mutating func requireKnown(_ id: UserID, _ callback: VideoSDKCallback) {
    guard inSession else {
      problems.append("\(callback.name) about \(id) outside a session")
      return
    }
    if !ledger.known.contains(row: id.rawValue, column: column) {
      problems.append("\(callback.name) about \(id) before their onUserJoin or after onUserLeave")
    }
  }
}

/// What every peer's ``DeliveryMonitor`` has seen, transposed: a row per user id (and per chat
/// message number), a bit per peer in it. The monitors of a run share one ledger.
///
/// > Important: Owned by the run's ``ScenarioRunner``, used on the world's domain. Its tables
/// > are never reached by two accesses at once (each monitor's call is one access), so their
/// > dynamic exclusivity checks are off.
final class DeliveryLedger {
  /// How many peers (columns) it holds.
  let columns: Int
  /// The run's chat numbering, which the chat rows follow.
  let chatNumbers: ChatNumbers
  /// Users each peer's callbacks announced and did not take back, by user id.
  @exclusivity(unchecked) var known: PeerBitMatrix
  /// Chat messages delivered in each peer's current session, by number.
  @exclusivity(unchecked) var chats: PeerBitMatrix

  /// A ledger for `columns` peers.
  ///
  /// - Parameters:
  ///   - columns: The run's peer count (at least 1).
  ///   - chatNumbers: The run's chat numbering.
  init(columns: Int, chatNumbers: ChatNumbers) {
    self.columns = max(1, columns)
    self.chatNumbers = chatNumbers
    known = PeerBitMatrix(columns: self.columns)
    chats = PeerBitMatrix(columns: self.columns)
  }
}

/// The lowest and highest row a monitor set a bit in.
struct RowSpan {
  private(set) var lowest: UInt32 = .max
  private(set) var highest: UInt32 = 0

  /// Whether no row was included.
  var isEmpty: Bool { lowest > highest }

  /// Widens the span to `row`.
  mutating func include(_ row: UInt32) {
    lowest = min(lowest, row)
    highest = max(highest, row)
  }
}

/// Bits by row and column: dense rows (a row of `columns` bits each, one after the other) for
/// the small rows a run uses (user ids and chat numbers, handed out one after the other), and a
/// dictionary of rows beyond a memory bound, so a large id costs a row, not a table up to it.
///
/// > Important: A value, owned by its ledger.
struct PeerBitMatrix {
  /// Words per row.
  let wordsPerRow: Int
  /// Rows below this are dense.
  let denseRowLimit: UInt32
  private var words: [UInt64] = []
  private var sparse: [UInt32: [UInt64]] = [:]

  /// A matrix of `columns` columns whose dense rows take at most `denseBytes`.
  ///
  /// - Parameters:
  ///   - columns: The columns (at least 1).
  ///   - denseBytes: The bound on the dense rows' memory (64 MiB unless told).
  init(columns: Int, denseBytes: Int = 64 << 20) {
    wordsPerRow = max(1, (columns + 63) / 64)
    denseRowLimit = UInt32(clamping: max(64, denseBytes / (wordsPerRow * 8)))
  }

  /// Whether the bit at `row`, `column` is set.
  func contains(row: UInt32, column: Int) -> Bool {
    let bit: UInt64 = 1 << UInt64(column & 63)
    guard row < denseRowLimit else {
      return (sparse[row]?[column >> 6] ?? 0) & bit != 0
    }
    let index = Int(row) &* wordsPerRow &+ column >> 6
    return index < words.count && words[index] & bit != 0
  }

  /// Sets the bit; whether it was clear.
  mutating func insert(row: UInt32, column: Int) -> Bool {
    let bit: UInt64 = 1 << UInt64(column & 63)
    guard row < denseRowLimit else {
      var words = sparse.removeValue(forKey: row) ?? Array(repeating: 0, count: wordsPerRow)
      defer { sparse[row] = words }
      let inserted = words[column >> 6] & bit == 0
      words[column >> 6] |= bit
      return inserted
    }
    let index = Int(row) &* wordsPerRow &+ column >> 6
    if index >= words.count {
      // Whole rows at a time, up to and including this one.
      let rows = Int(row) + 1
      words.append(contentsOf: repeatElement(0, count: rows &* wordsPerRow &- words.count))
    }
    let inserted = words[index] & bit == 0
    words[index] |= bit
    return inserted
  }

  /// Clears the bit; whether it was set.
  mutating func remove(row: UInt32, column: Int) -> Bool {
    guard contains(row: row, column: column) else { return false }
    let mask = ~(UInt64(1) << UInt64(column & 63))
    if row < denseRowLimit {
      words[Int(row) &* wordsPerRow &+ column >> 6] &= mask
    } else {
      sparse[row]?[column >> 6] &= mask
    }
    return true
  }

  /// Clears `column` in the rows of `span`.
  mutating func clear(column: Int, within span: RowSpan) {
    guard !span.isEmpty else { return }
    let mask = ~(UInt64(1) << UInt64(column & 63))
    let word = column >> 6
    let denseEnd = min(UInt64(span.highest), UInt64(denseRowLimit) - 1)
    if UInt64(span.lowest) <= denseEnd {
      for row in Int(span.lowest)...Int(denseEnd) {
        let index = row &* wordsPerRow &+ word
        guard index < words.count else { break }
        words[index] &= mask
      }
    }
    if span.highest >= denseRowLimit {
      for row in sparse.keys where row >= span.lowest && row <= span.highest {
        sparse[row]?[word] &= mask
      }
    }
  }

  /// The rows of `span` whose bit in `column` is set, ascending.
  func rows(in column: Int, within span: RowSpan) -> [UInt32] {
    guard !span.isEmpty else { return [] }
    var result: [UInt32] = []
    let denseEnd = min(UInt64(span.highest), UInt64(denseRowLimit) - 1)
    if UInt64(span.lowest) <= denseEnd {
      for row in span.lowest...UInt32(denseEnd) where contains(row: row, column: column) {
        result.append(row)
      }
    }
    if span.highest >= denseRowLimit {
      result += sparse.keys.filter {
        $0 >= span.lowest && $0 <= span.highest && contains(row: $0, column: column)
      }.sorted()
    }
    return result
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
  // Asked once per chat callback of every peer, never re-entered: no dynamic exclusivity
  // checks.
  @exclusivity(unchecked) private var numbers: [String: UInt32] = [:]
  @exclusivity(unchecked) private var lastID = ""
  @exclusivity(unchecked) private var lastNumber: UInt32 = 0

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
