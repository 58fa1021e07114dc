/// A map from user ids to values, for the per-event paths that look users up in every replica.
///
/// The ids a service hands out are small and close together, so values live in an array
/// indexed from the first id stored: one probe per lookup, no hashing. An id too far from the
/// others for the array to stay within four slots per value (plus some room) goes to a
/// dictionary, so memory stays proportional to the values whatever the ids.
///
/// A value type with copy-on-write storage, like the collections it is built from, and
/// `Sendable` when its values are: it belongs to whoever holds it, like any value.
///
/// Public only to the package's own modules, through `@_spi(Engine)` (the SDK's user handles
/// use it), and inlinable so that they get it specialized: used from another module without
/// that, or as a `package` type, it was not, and cost the SDK's per-event path about 400
/// instructions more (callgrind).
@_spi(Engine) public struct DenseIDMap<Value> {
  @usableFromInline var slots: [Value?] = []
  @usableFromInline var base: UInt32 = 0
  @usableFromInline var overflow: [UserID: Value] = [:]
  @usableFromInline var storedCount = 0

  /// How many values are stored.
  @inlinable public var count: Int { storedCount }

  /// An empty map.
  @inlinable public init() {}

  /// Slots in the array, used or not; for tests of the memory bound.
  var slotCount: Int { slots.count }

  /// The slot of `id` in `slots`, when it has one. Ids below `base` wrap to large offsets.
  @inlinable @inline(__always)
  func offset(of id: UserID) -> Int {
    Int(id.rawValue &- base)
  }

  /// The value for `id`, if any; setting `nil` removes it.
  @inlinable public subscript(id: UserID) -> Value? {
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
  @inlinable public mutating func insert(_ value: Value, for id: UserID) {
    if count == 0 {
      slots.removeAll(keepingCapacity: true)
      overflow.removeAll(keepingCapacity: true)
      base = id.rawValue
    }
    let offset = offset(of: id)
    if offset < slots.count {
      if slots[offset] == nil { storedCount += 1 }
      slots[offset] = value
      return
    }
    if offset == slots.count {
      slots.append(value)
      storedCount += 1
      return
    }
    // Grow the array only while it stays within four slots per value (plus some room), so
    // that a few far-apart ids cannot make it huge.
    if offset < 4 * (count + 1) + 256 {
      slots.append(contentsOf: repeatElement(nil, count: offset - slots.count))
      slots.append(value)
      storedCount += 1
      return
    }
    if overflow.updateValue(value, forKey: id) == nil { storedCount += 1 }
  }

  /// Removes and returns the value for `id`, if any.
  @inlinable @discardableResult
  public mutating func removeValue(for id: UserID) -> Value? {
    let offset = offset(of: id)
    if offset < slots.count {
      guard let value = slots[offset] else { return nil }
      slots[offset] = nil
      storedCount -= 1
      return value
    }
    guard let value = overflow.removeValue(forKey: id) else { return nil }
    storedCount -= 1
    return value
  }

  /// Makes room for `additional` more values at once (everyone in a snapshot), rather than
  /// growing step by step. Growth stays geometric: reserving exactly what one more join needs
  /// would reallocate the array on every join.
  @inlinable public mutating func reserve(_ additional: Int) {
    let needed = Swift.min(slots.count + additional, 4 * (count + additional) + 256)
    guard needed > slots.capacity else { return }
    slots.reserveCapacity(Swift.max(needed, 2 * slots.capacity))
  }

  /// Every stored value, in no particular order.
  @inlinable public var values: [Value] {
    slots.compactMap { $0 } + overflow.values
  }
}

@_spi(Engine) extension DenseIDMap: Sendable where Value: Sendable {}
