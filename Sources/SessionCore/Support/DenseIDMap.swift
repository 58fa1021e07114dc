/// A map from user ids to values, for the per-event paths that look users up in every replica.
///
/// The ids a service hands out are small and close together, so values live in an array
/// indexed from the first id stored: one probe per lookup, no hashing. An id too far from the
/// others for the array to stay within four slots per value (plus some room) goes to a
/// dictionary, so memory stays proportional to the values whatever the ids.
///
/// A value type with copy-on-write storage, like the collections it is built from. The SDK's
/// `UserHandles` is the same table for `User` objects, written out for its one type: used
/// across the module boundary, this generic one cost the SDK's per-event path about 400
/// instructions more (callgrind), `@inlinable` or not.
struct DenseIDMap<Value> {
  private var slots: [Value?] = []
  private var base: UInt32 = 0
  private var overflow: [UserID: Value] = [:]
  /// How many values are stored.
  private(set) var count = 0

  /// An empty map.
  init() {}

  /// Slots in the array, used or not; for tests of the memory bound.
  var slotCount: Int { slots.count }

  /// The slot of `id` in `slots`, when it has one. Ids below `base` wrap to large offsets.
  @inline(__always)
  private func offset(of id: UserID) -> Int {
    Int(id.rawValue &- base)
  }

  /// The value for `id`, if any; setting `nil` removes it.
  subscript(id: UserID) -> Value? {
    get {
      let offset = offset(of: id)
      if offset < slots.count { return slots[offset] }
      return overflow.isEmpty ? nil : overflow[id]
    }
    set {
      if let newValue { insert(newValue, for: id) } else { removeValue(for: id) }
    }
  }

  /// Stores `value` under `id`, replacing any value there.
  mutating func insert(_ value: Value, for id: UserID) {
    if count == 0 {
      slots.removeAll(keepingCapacity: true)
      overflow.removeAll(keepingCapacity: true)
      base = id.rawValue
    }
    let offset = offset(of: id)
    if offset < slots.count {
      if slots[offset] == nil { count += 1 }
      slots[offset] = value
      return
    }
    if offset == slots.count {
      slots.append(value)
      count += 1
      return
    }
    // Grow the array only while it stays within four slots per value (plus some room), so
    // that a few far-apart ids cannot make it huge.
    if offset < 4 * (count + 1) + 256 {
      slots.append(contentsOf: repeatElement(nil, count: offset - slots.count))
      slots.append(value)
      count += 1
      return
    }
    if overflow.updateValue(value, forKey: id) == nil { count += 1 }
  }

  /// Removes and returns the value for `id`, if any.
  @discardableResult
  mutating func removeValue(for id: UserID) -> Value? {
    let offset = offset(of: id)
    if offset < slots.count {
      guard let value = slots[offset] else { return nil }
      slots[offset] = nil
      count -= 1
      return value
    }
    guard let value = overflow.removeValue(forKey: id) else { return nil }
    count -= 1
    return value
  }

  /// Makes room for `additional` more values at once (everyone in a snapshot), rather than
  /// growing step by step. Growth stays geometric: reserving exactly what one more join needs
  /// would reallocate the array on every join.
  mutating func reserve(_ additional: Int) {
    let needed = Swift.min(slots.count + additional, 4 * (count + additional) + 256)
    guard needed > slots.capacity else { return }
    slots.reserveCapacity(Swift.max(needed, 2 * slots.capacity))
  }

  /// Every stored value, in no particular order.
  var values: [Value] {
    slots.compactMap { $0 } + overflow.values
  }
}

extension DenseIDMap: Sendable where Value: Sendable {}
