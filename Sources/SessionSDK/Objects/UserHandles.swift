import SessionCore

/// The ``User`` handles of one session by id: created on first use, kept while the user is
/// present, so that callbacks hand out the same object every time.
///
/// A class of its own, so that the per-event callback path reaches the handles without
/// retaining the ``Session`` (its users reference it weakly, which moves its reference counts
/// into a side table, slower to change and one more cache line to touch).
///
/// The ids a service hands out are small and close together, so handles live in an array
/// indexed from the first id stored: one probe per lookup, no hashing. An id too far from
/// the others for the array to stay within a few times the handle count goes to a dictionary,
/// so memory stays proportional to the handles whatever the ids.
///
/// > Important: Not `Sendable`. Confined to its session's isolation domain.
final class UserHandles {
  // Unchecked exclusivity: confined, and each access is one read or one write (no access is
  // held across a call out), as in Decision 0006.
  @exclusivity(unchecked) private var slots: [User?] = []
  @exclusivity(unchecked) private var base: UInt32 = 0
  @exclusivity(unchecked) private var overflow: [UserID: User] = [:]
  /// How many handles are stored.
  @exclusivity(unchecked) private(set) var count = 0

  /// The slot of `id` in `slots`, when it has one. Ids below `base` wrap to large offsets.
  @inline(__always)
  private func offset(of id: UserID) -> Int {
    Int(id.rawValue &- base)
  }

  /// The handle for `id`, if one is stored.
  subscript(id: UserID) -> User? {
    let offset = offset(of: id)
    if offset < slots.count { return slots[offset] }
    return overflow.isEmpty ? nil : overflow[id]
  }

  /// Stores `user` under its id, replacing any handle there.
  func insert(_ user: User) {
    let id = user.id
    if count == 0 {
      slots.removeAll(keepingCapacity: true)
      base = id.rawValue
    }
    let offset = offset(of: id)
    if offset < slots.count {
      if slots[offset] == nil { count += 1 }
      slots[offset] = user
      return
    }
    // Grow the array only while it stays within four slots per handle (plus some room), so
    // that a few far-apart ids cannot make it huge.
    if offset == slots.count {
      slots.append(user)
      count += 1
      return
    }
    if offset < 4 * (count + 1) + 256 {
      slots.append(contentsOf: repeatElement(nil, count: offset - slots.count))
      slots.append(user)
      count += 1
      return
    }
    if overflow.updateValue(user, forKey: id) == nil { count += 1 }
  }

  /// Makes room for `additional` more handles at once (everyone in a snapshot), rather than
  /// growing step by step. Growth stays geometric: reserving exactly what one more join needs
  /// would reallocate the array on every join.
  func reserve(_ additional: Int) {
    let needed = Swift.min(slots.count + additional, 4 * (count + additional) + 256)
    guard needed > slots.capacity else { return }
    slots.reserveCapacity(Swift.max(needed, 2 * slots.capacity))
  }

  /// Removes the handle for `id`, if any.
  func remove(_ id: UserID) {
    let offset = offset(of: id)
    if offset < slots.count {
      if slots[offset] != nil { count -= 1 }
      slots[offset] = nil
    } else if overflow.removeValue(forKey: id) != nil {
      count -= 1
    }
  }

  /// Every stored handle, in no particular order.
  var all: [User] {
    slots.compactMap { $0 } + overflow.values
  }
}
