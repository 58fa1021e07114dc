/// A set of message ids (chat message ids are strings the service makes, tens of bytes long)
/// that hashes each id with a cheap word-at-a-time function instead of `Hasher`, and keeps
/// each slot's hash apart from its id so that a probe compares strings only on a hash match.
///
/// Every replica of a session checks every chat message against its kept ids, so a
/// thousand-member session hashes each message a few thousand times: with `Set<String>` that
/// was a fifth of a chat-heavy simulation's time. Open addressing with linear probing, at most
/// half full, and backward-shift deletion (no tombstones, so a long run never degrades).
/// Deterministic: the same ids in the same order give the same table on every run.
///
/// The hash is not keyed: a replica's ids come from its service, and a flood of ids made to
/// collide would cost that replica time, not correctness.
///
/// > Important: A value; owned by whoever holds it.
package struct MessageIDSet: Sendable {
  /// Each slot's hash, 0 for an empty slot (a stored hash is never 0): probes read only this
  /// compact array, and an id only on a hash match.
  private var hashes: [UInt64] = []
  /// Each slot's id ("" when empty).
  private var ids: [String] = []
  /// How many ids the set holds.
  package private(set) var count = 0
  /// The wrapping sum of the held ids' hashes: with ``count``, what tells a list of ids that
  /// it holds the same ids without building a set of it (``holdsExactly(_:)``).
  private var hashSum: UInt64 = 0

  /// An empty set.
  package init() {}

  /// A set of these ids.
  ///
  /// - Parameter ids: The ids; repeats count once.
  package init(_ ids: some Sequence<String>) {
    for id in ids { insert(id) }
  }

  /// Whether the set holds no ids.
  package var isEmpty: Bool { count == 0 }

  /// Whether the set holds `id`.
  ///
  /// - Parameter id: The id to look for.
  /// - Returns: `true` if it is in the set.
  package func contains(_ id: String) -> Bool {
    guard count > 0 else { return false }
    return find(id, hash: Self.hash(id)).found
  }

  /// Adds `id` unless it is already there.
  ///
  /// - Parameter id: The id to add.
  /// - Returns: `true` if it was added, `false` if the set already held it (nothing changed).
  @discardableResult
  package mutating func insert(_ id: String) -> Bool {
    if (count + 1) * 2 > hashes.count { grow() }
    let hash = Self.hash(id)
    let (found, index) = find(id, hash: hash)
    guard !found else { return false }
    hashes[index] = hash
    ids[index] = id
    count += 1
    hashSum &+= hash
    return true
  }

  /// Takes `id` out of the set.
  ///
  /// - Parameter id: The id to remove.
  /// - Returns: `true` if the set held it.
  @discardableResult
  package mutating func remove(_ id: String) -> Bool {
    guard count > 0 else { return false }
    let (found, start) = find(id, hash: Self.hash(id))
    guard found else { return false }
    hashSum &-= hashes[start]
    // Backward shift: move each later slot of the run back into the hole when its home is not
    // between the hole and itself (cyclically), so that every probe still reaches its id.
    let mask = hashes.count - 1
    var hole = start
    var next = (hole + 1) & mask
    while hashes[next] != 0 {
      let home = Int(truncatingIfNeeded: hashes[next]) & mask
      if (next - home) & mask >= (next - hole) & mask {
        hashes[hole] = hashes[next]
        ids.swapAt(hole, next)
        hole = next
      }
      next = (next + 1) & mask
    }
    hashes[hole] = 0
    ids[hole] = ""
    count -= 1
    return true
  }

  /// Empties the set, keeping its storage.
  package mutating func removeAll() {
    guard count > 0 else { return }
    for index in hashes.indices where hashes[index] != 0 {
      hashes[index] = 0
      ids[index] = ""
    }
    count = 0
    hashSum = 0
  }

  /// Whether the set holds exactly the ids of `list`, each once: as many ids, every one held,
  /// and the same sum of hashes (a repeat in `list` standing in for an id it lacks would
  /// change the sum). Builds nothing; O(`list`).
  ///
  /// - Parameter list: The ids, in any order.
  /// - Returns: `true` if the set is the set of `list` and `list` repeats no id.
  package func holdsExactly(_ list: some Collection<String>) -> Bool {
    guard list.count == count else { return false }
    var sum: UInt64 = 0
    for id in list {
      let hash = Self.hash(id)
      guard find(id, hash: hash).found else { return false }
      sum &+= hash
    }
    return sum == hashSum
  }

  /// The addresses of the slot where a probe for `id` starts (its hash and its id), for a
  /// caller about to insert or look for `id` that prefetches them (Decision 0009): `body` gets
  /// each. Reads nothing from the slot and changes nothing; nothing when the set has no room.
  package func forEachProbeAddress(of id: String, _ body: (UnsafeRawPointer) -> Void) {
    guard !hashes.isEmpty else { return }
    let home = Int(truncatingIfNeeded: Self.hash(id)) & (hashes.count - 1)
    // Only the addresses: holding the arrays across `body` would retain them.
    let hash = hashes.withUnsafeBufferPointer {
      UnsafeRawPointer($0.baseAddress.unsafelyUnwrapped + home)
    }
    let slot = ids.withUnsafeBufferPointer {
      UnsafeRawPointer($0.baseAddress.unsafelyUnwrapped + home)
    }
    body(hash)
    body(slot)
  }

  /// The slot that holds `id`, or the empty slot where it would go.
  private func find(_ id: String, hash: UInt64) -> (found: Bool, index: Int) {
    hashes.withUnsafeBufferPointer { hashes in
      let mask = hashes.count - 1
      var index = Int(truncatingIfNeeded: hash) & mask
      while true {
        let slot = hashes[index]
        if slot == 0 { return (false, index) }
        if slot == hash, ids[index] == id { return (true, index) }
        index = (index + 1) & mask
      }
    }
  }

  private mutating func grow() {
    let oldHashes = hashes
    let oldIDs = ids
    let capacity = max(16, oldHashes.count * 2)
    hashes = Array(repeating: 0, count: capacity)
    ids = Array(repeating: "", count: capacity)
    let mask = capacity - 1
    for (slot, hash) in oldHashes.enumerated() where hash != 0 {
      var index = Int(truncatingIfNeeded: hash) & mask
      while hashes[index] != 0 { index = (index + 1) & mask }
      hashes[index] = hash
      ids[index] = oldIDs[slot]
    }
  }

  /// A word-at-a-time multiply–xorshift hash of the id's UTF-8 bytes and length, never 0.
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
      return hash | 1 << 63
    }
  }
}

extension MessageIDSet: Equatable {
  /// Whether both sets hold the same ids, in whatever order they were added.
  package static func == (lhs: MessageIDSet, rhs: MessageIDSet) -> Bool {
    guard lhs.count == rhs.count else { return false }
    return lhs.hashes.indices.allSatisfy { lhs.hashes[$0] == 0 || rhs.contains(lhs.ids[$0]) }
  }
}

extension MessageIDSet: ExpressibleByArrayLiteral {
  /// A set of the listed ids.
  package init(arrayLiteral ids: String...) {
    self.init(ids)
  }
}
