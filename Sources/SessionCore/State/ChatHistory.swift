/// A session's kept chat messages, oldest first, with an index of their ids: what a replica
/// reads and writes for every chat message to everyone, in each of a session's replicas.
///
/// The messages sit in one log; the oldest are forgotten by moving where the kept ones start
/// and dropped from the front in bulk. The index is an open-addressing table of 8-byte slots,
/// each a 32-bit hash of an id and the message's place in the log (counted from the first
/// message ever appended, wrapping): a slot whose place is before the kept ones is *stale*,
/// which a probe steps over and an insert reuses. So forgetting a message touches nothing of
/// the index (before, each forgotten id was hashed, found and shifted out: three cache misses
/// per message in each replica once the history was full), and the table is rebuilt from its
/// live slots, without hashing an id again, when live and stale slots fill half of it.
///
/// A value: owned by whoever owns the ``SessionState`` that holds it.
package struct ChatHistory: Sendable {
  /// The messages; those before ``start`` are forgotten.
  private var log: [ChatMessage] = []
  /// Where the kept messages start in ``log``.
  private var start = 0
  /// How many messages were dropped from the front of ``log`` so far: the place of `log[0]`.
  private var dropped = 0
  /// The index: a ``Slot`` per entry, a power of two of them (or none).
  private var slots: [Slot] = []
  /// Slots that are not empty, live or stale.
  private var occupied = 0
  /// Appends since the index was last rebuilt: places wrap at 2³², so the index is rebuilt
  /// long before a stale slot's place could come round to read as live again.
  private var appendsSinceRebuild = 0

  /// One index entry: `hash` 0 is an empty slot.
  private struct Slot: Sendable {
    var hash: UInt32
    var place: UInt32
  }

  /// An empty history.
  package init() {}

  /// A history of these messages, oldest first, all kept. A repeated id is kept too, and
  /// reported by ``isConsistent``: a decoded state must not hold one.
  ///
  /// - Parameter messages: The messages.
  package init(_ messages: [ChatMessage]) {
    log = messages
    rebuildIndex(rehashing: true)
  }

  /// How many messages are kept.
  package var count: Int { log.count - start }

  /// The kept messages, oldest first.
  package var messages: ArraySlice<ChatMessage> { log[start...] }

  /// The oldest kept message, if any.
  package var oldest: ChatMessage? { start < log.count ? log[start] : nil }

  /// Whether a kept message has the id `id`.
  ///
  /// - Parameter id: The message id.
  /// - Returns: `true` if one of the kept messages has it.
  package func contains(_ id: String) -> Bool {
    find(id, hash: Self.slotHash(id)).place != nil
  }

  /// The kept message with the id `id`.
  ///
  /// - Parameter id: The message id.
  /// - Returns: The message, if kept.
  package func message(withID id: String) -> ChatMessage? {
    find(id, hash: Self.slotHash(id)).place.map { log[$0 - dropped] }
  }

  /// Keeps `message` as the newest unless a kept message has its id, then forgets the oldest
  /// beyond `limit`.
  ///
  /// - Parameters:
  ///   - message: The message.
  ///   - limit: The most messages kept (0 keeps none, but still refuses nothing).
  /// - Returns: `false`, changing nothing, if a kept message has the same id.
  package mutating func append(_ message: ChatMessage, limit: Int) -> Bool {
    if (occupied + 1) * 2 > slots.count || appendsSinceRebuild >= Self.rebuildPeriod {
      rebuildIndex(rehashing: false)
    }
    let hash = Self.slotHash(message.id)
    let probe = find(message.id, hash: hash)
    guard probe.place == nil else { return false }
    guard limit > 0 else { return true }
    if slots[probe.slot].hash == 0 { occupied += 1 }
    slots[probe.slot] = Slot(hash: hash, place: UInt32(truncatingIfNeeded: dropped + log.count))
    appendsSinceRebuild += 1
    log.append(message)
    if count > limit {
      // Forgotten: their slots turn stale by themselves.
      start += count - limit
      // Dropped in bulk once as many are forgotten as are kept (at least 64): one memmove
      // per `limit` messages, not one per message.
      if start >= max(64, limit) {
        log.removeFirst(start)
        dropped += start
        start = 0
      }
    }
    return true
  }

  /// Forgets the kept message with the id `id` (a deletion; rare, so it costs O(kept)).
  ///
  /// - Parameter id: The message id.
  /// - Returns: `false`, changing nothing, if no kept message has it.
  package mutating func remove(_ id: String) -> Bool {
    guard let place = find(id, hash: Self.slotHash(id)).place else { return false }
    log.remove(at: place - dropped)
    // The places after it moved down by one: index them afresh.
    rebuildIndex(rehashing: true)
    return true
  }

  /// Whether the index finds each kept message at its own place and holds nothing else live:
  /// what the state's invariants check. O(kept + slots).
  package var isConsistent: Bool {
    for offset in start..<log.count {
      let found = find(log[offset].id, hash: Self.slotHash(log[offset].id)).place
      guard found == dropped + offset else { return false }
    }
    let live = slots.reduce(0) { $0 + (isLive($1) ? 1 : 0) }
    return live == count
  }

  /// The memory that appending a message will read and write (the index slot where its probe
  /// starts, the end of the log), for a caller that prefetches it (Decision 0009). Reads
  /// nothing of what it points at and changes nothing.
  ///
  /// Given the hash (``slotHash(_:)`` of the message's id), always inlined, and returning
  /// its addresses rather than passing them to a closure: a call made while the history is
  /// read (a closure, the hash) makes the caller copy the history for it, retaining both
  /// arrays: an atomic write to each header, which stalls on the very miss the prefetch is
  /// there to hide.
  ///
  /// - Parameter hash: The slot hash of the message's id.
  /// - Returns: The slot's address (`nil` while the index is empty) and the address past the
  ///   log's last message (`nil` when the log must grow first).
  @inline(__always)
  package func appendAddresses(
    slotHash hash: UInt32
  ) -> (slot: UnsafeRawPointer?, end: UnsafeRawPointer?) {
    let slot: UnsafeRawPointer? =
      slots.isEmpty
      ? nil
      : slots.withUnsafeBufferPointer {
        UnsafeRawPointer($0.baseAddress.unsafelyUnwrapped + (Int(hash) & ($0.count - 1)))
      }
    let end: UnsafeRawPointer? =
      log.count < log.capacity
      ? log.withUnsafeBufferPointer {
        UnsafeRawPointer($0.baseAddress.unsafelyUnwrapped + $0.count)
      }
      : nil
    return (slot, end)
  }

  // MARK: The index

  private static let rebuildPeriod = 1 << 30

  /// Whether `slot` holds a kept message's entry.
  private func isLive(_ slot: Slot) -> Bool {
    slot.hash != 0
      && slot.place &- UInt32(truncatingIfNeeded: dropped + start)
        < UInt32(truncatingIfNeeded: count)
  }

  /// The place of the kept message with the id `id`, if any, and the slot where an entry for
  /// it would go: the first stale slot on its probe, else the empty slot that ended it.
  private func find(_ id: String, hash: UInt32) -> (place: Int?, slot: Int) {
    slots.withUnsafeBufferPointer { slots in
      guard !slots.isEmpty else { return (nil, -1) }
      let mask = slots.count - 1
      let firstKept = UInt32(truncatingIfNeeded: dropped + start)
      let kept = UInt32(truncatingIfNeeded: count)
      var index = Int(hash) & mask
      var reusable = -1
      while true {
        let slot = slots[index]
        if slot.hash == 0 { return (nil, reusable >= 0 ? reusable : index) }
        let offset = slot.place &- firstKept
        if offset >= kept {
          if reusable < 0 { reusable = index }
        } else if slot.hash == hash, log[start + Int(offset)].id == id {
          return (dropped + start + Int(offset), index)
        }
        index = (index + 1) & mask
      }
    }
  }

  /// Makes a table of at least four slots per kept message and enters the live ones again:
  /// from their slots' hashes, or (`rehashing`) from the log, after places moved.
  private mutating func rebuildIndex(rehashing: Bool) {
    var capacity = 16
    while capacity < 4 * (count + 1) { capacity *= 2 }
    var fresh = [Slot](repeating: Slot(hash: 0, place: 0), count: capacity)
    let mask = capacity - 1
    func enter(_ slot: Slot) {
      var index = Int(slot.hash) & mask
      while fresh[index].hash != 0 { index = (index + 1) & mask }
      fresh[index] = slot
    }
    if rehashing {
      var seen = 0
      for offset in start..<log.count {
        let hash = Self.slotHash(log[offset].id)
        // A repeated id (only a decoded list can hold one) is entered once, at its first place.
        guard !Self.contains(log[offset].id, hash: hash, in: fresh, log: log, dropped: dropped)
        else { continue }
        enter(Slot(hash: hash, place: UInt32(truncatingIfNeeded: dropped + offset)))
        seen += 1
      }
      occupied = seen
    } else {
      var live = 0
      for slot in slots where isLive(slot) {
        enter(slot)
        live += 1
      }
      occupied = live
    }
    slots = fresh
    appendsSinceRebuild = 0
  }

  /// Whether `table` (all of its entries live) holds `id`.
  private static func contains(
    _ id: String, hash: UInt32, in table: [Slot], log: [ChatMessage], dropped: Int
  ) -> Bool {
    let mask = table.count - 1
    var index = Int(hash) & mask
    while table[index].hash != 0 {
      if table[index].hash == hash, log[Int(table[index].place) - dropped].id == id { return true }
      index = (index + 1) & mask
    }
    return false
  }

  /// The 32 bits of ``hash(_:)`` a slot keeps, never 0.
  package static func slotHash(_ id: String) -> UInt32 {
    UInt32(truncatingIfNeeded: hash(id) >> 32) | 1 << 31
  }

  /// A word-at-a-time multiply–xorshift hash of the id's UTF-8 bytes and length.
  static func hash(_ id: String) -> UInt64 {
    // `withUTF8` reads a native string in place (a bridged one is made contiguous first), so
    // every id hashes from the same bytes.
    var id = id
    return id.withUTF8 { bytes in
      let multiplier: UInt64 = 0x9E37_79B9_7F4A_7C15
      let raw = UnsafeRawBufferPointer(bytes)
      var hash = UInt64(truncatingIfNeeded: raw.count) &* multiplier
      var offset = 0
      while offset + 8 <= raw.count {
        let word = raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
        hash = (hash ^ word) &* multiplier
        hash ^= hash >> 29
        offset += 8
      }
      var tail: UInt64 = 0
      var shift: UInt64 = 0
      while offset < raw.count {
        tail |= UInt64(raw[offset]) << shift
        shift += 8
        offset += 1
      }
      hash = (hash ^ tail) &* multiplier
      hash ^= hash >> 32
      hash = hash &* 0xD6E8_FEB8_6659_FD93
      hash ^= hash >> 32
      return hash
    }
  }
}
