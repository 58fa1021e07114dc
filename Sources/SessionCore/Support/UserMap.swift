/// A dictionary from user ids to values, laid out for the small, close ids a session service
/// hands out: the map of a replica's participants, and of an SDK instance's user handles.
///
/// Values live in an array indexed from the lowest id stored, so a lookup is one probe with no
/// hashing, and users who joined one after the other sit side by side in memory (a fan-out that
/// walks users in join order walks memory in order). An id too far from the others for the
/// array to stay within four slots per value (plus some room) goes to an ordinary dictionary
/// instead, so memory stays proportional to the values whatever the ids; after churn the array
/// moves to the newest ids (the few users who stayed from the start go to the dictionary), at a
/// cost spread over the inserts since it last moved.
///
/// It reads like `[UserID: Value]`: a subscript by id, `keys`, `values`, `count`, iteration over
/// `(key, value)` pairs, `removeValue(forKey:)`, dictionary literals. Iteration order is
/// unspecified, as for a dictionary (today: ascending ids in the array, then the others).
///
/// A value type with copy-on-write storage, like the collections it is built from: it belongs
/// to whoever holds it, and is `Sendable` when its values are.
///
/// - Complexity: Lookup, update and removal O(1); insertion amortised O(1).
public struct UserMap<Value> {
  // Inlinable storage: the SDK's per-event path reads these from another module, and
  // unspecialized generic access there cost about 400 instructions per delivery (Decision 0008).
  @usableFromInline var slots: [Value?] = [] {
    // Kept beside the array so that a lookup need not read the array's header, a cache line
    // of its own when the slot is far from it: at a thousand replicas each lookup misses.
    didSet { slotEnd = slots.count }
  }
  @usableFromInline var slotEnd = 0
  @usableFromInline var base: UInt32 = 0
  @usableFromInline var far: [UserID: Value] = [:]
  @usableFromInline var storedCount = 0
  @usableFromInline var insertsSinceRebase = 0

  /// An empty map.
  @inlinable public init() {}

  /// A map holding the pairs of `dictionary`.
  ///
  /// - Parameter dictionary: The ids and values to store.
  @inlinable public init(_ dictionary: [UserID: Value]) {
    self.init()
    reserveCapacity(dictionary.count)
    for (id, value) in dictionary { self[id] = value }
  }

  /// How many values are stored.
  @inlinable public var count: Int { storedCount }

  /// Whether no value is stored.
  @inlinable public var isEmpty: Bool { storedCount == 0 }

  /// Array slots, used or not; for tests of the memory bound.
  var slotCount: Int { slotEnd }

  /// The slots the array has room for, used or not: its share of memory, for the soak's
  /// reading of what the user tables hold (`sessionbench soak`).
  package var slotCapacity: Int { slots.capacity }

  /// How far past the lowest id the array may reach for `count` values: where its memory
  /// stops growing as ids drift with churn (`sessionbench soak` waits for the drift).
  ///
  /// - Parameter count: The values stored.
  /// - Returns: The most slots the array spans for them.
  package static func idSpanBound(for count: Int) -> Int { slotLimit(for: count) }

  /// Values kept in the dictionary for far ids; for tests.
  var farCount: Int { far.count }

  /// The slot of `id` in `slots`, when it has one. Ids below `base` wrap to large offsets.
  @inlinable @inline(__always)
  func offset(of id: UserID) -> Int {
    Int(id.rawValue &- base)
  }

  /// The slot at `offset`, which must be below `slotEnd`; reads no array header.
  @inlinable @inline(__always)
  func slot(at offset: Int) -> Value? {
    slots.withUnsafeBufferPointer { $0.baseAddress.unsafelyUnwrapped[offset] }
  }

  /// How far past the first slot the array may reach for `count` values.
  @inlinable @inline(__always)
  static func slotLimit(for count: Int) -> Int {
    4 * (count + 1) + 256
  }

  /// The value for `id`, if any; setting `nil` removes it. Changes through the subscript
  /// (`map[id]?.field = x`) happen in place.
  ///
  /// - Parameter id: The user id to look up.
  /// - Returns: The value stored for `id`, or `nil` if there is none.
  @inlinable public subscript(id: UserID) -> Value? {
    get {
      let offset = offset(of: id)
      if offset < slotEnd { return slot(at: offset) }
      return far.isEmpty ? nil : far[id]
    }
    set {
      if let newValue { updateValue(newValue, forKey: id) } else { removeValue(forKey: id) }
    }
    _modify {
      let offset = offset(of: id)
      if offset < slots.count, slots[offset] != nil {
        // Present in the array: change it where it lies. Setting nil through here removes it.
        yield &slots[offset]
        if slots[offset] == nil { storedCount -= 1 }
      } else {
        var value = self[id]
        yield &value
        self[id] = value
      }
    }
  }

  /// Whether a value is stored for `id`.
  ///
  /// - Parameter id: The user id to look up.
  /// - Returns: `true` if the map stores a value for `id`; `false` otherwise.
  @inlinable public func contains(_ id: UserID) -> Bool {
    let offset = offset(of: id)
    if offset < slotEnd { return slot(at: offset) != nil }
    return !far.isEmpty && far[id] != nil
  }

  /// Stores `value` under `id`.
  ///
  /// - Parameters:
  ///   - value: The value to store.
  ///   - id: The user id to store it under.
  /// - Returns: The value it replaced, or `nil` if `id` was not stored before.
  @inlinable @discardableResult
  public mutating func updateValue(_ value: Value, forKey id: UserID) -> Value? {
    if storedCount == 0 {
      slots.removeAll(keepingCapacity: true)
      far.removeAll(keepingCapacity: true)
      base = id.rawValue
      insertsSinceRebase = 0
    }
    let offset = offset(of: id)
    if offset < slots.count {
      let old = slots[offset]
      slots[offset] = value
      if old == nil { inserted() }
      return old
    }
    if !far.isEmpty, far[id] != nil { return far.updateValue(value, forKey: id) }
    if offset == slots.count, offset < Self.slotLimit(for: storedCount) {
      slots.append(value)
      inserted()
      return nil
    }
    insertNew(value, for: id, at: offset)
    return nil
  }

  @inlinable @inline(__always)
  mutating func inserted() {
    storedCount += 1
    insertsSinceRebase += 1
  }

  /// A value for an id with no slot: grow the array to it while it stays within bounds, move
  /// the array up to the ids present if that brings it within bounds, else keep it aside.
  @usableFromInline mutating func insertNew(_ value: Value, for id: UserID, at offset: Int) {
    let limit = Self.slotLimit(for: storedCount)
    // Ids below `base` wrap to offsets far beyond any limit.
    if offset < limit {
      growSlots(to: offset + 1)
      slots[offset] = value
      inserted()
      return
    }
    // Moving costs O(slots), so do it only after as many inserts as values stored.
    if insertsSinceRebase >= Swift.max(16, storedCount) {
      rebase(including: id)
      let offset = self.offset(of: id)
      if offset < Self.slotLimit(for: storedCount) {
        if offset >= slots.count { growSlots(to: offset + 1) }
        slots[offset] = value
        inserted()
        return
      }
    }
    far[id] = value
    inserted()
  }

  /// Extends the array to `count` slots, moving in the far values whose ids it now covers:
  /// an id with a slot is never kept aside, so a lookup that finds an empty slot is done.
  @usableFromInline mutating func growSlots(to count: Int) {
    let old = slots.count
    guard count > old else { return }
    slots.append(contentsOf: repeatElement(nil, count: count - old))
    guard !far.isEmpty else { return }
    for offset in old..<count {
      if let value = far.removeValue(forKey: UserID(base &+ UInt32(offset))) {
        slots[offset] = value
      }
    }
  }

  /// Lays the array out again for the ids present and `id`: from the lowest when they all fit,
  /// else over the newest, with half the array free above the highest for those still to come.
  /// The older ids left below then go to the dictionary: in a session with churn these are the
  /// few who stayed from the start (a teacher, say), against many who came and went.
  @usableFromInline mutating func rebase(including id: UserID) {
    var pairs: [(UserID, Value)] = []
    pairs.reserveCapacity(storedCount)
    var lowest = id.rawValue
    var highest = id.rawValue
    for (index, slot) in slots.enumerated() {
      guard let slot else { continue }
      let key = UserID(base &+ UInt32(index))
      pairs.append((key, slot))
      lowest = Swift.min(lowest, key.rawValue)
      highest = Swift.max(highest, key.rawValue)
    }
    for (key, value) in far {
      pairs.append((key, value))
      lowest = Swift.min(lowest, key.rawValue)
      highest = Swift.max(highest, key.rawValue)
    }
    let limit = Self.slotLimit(for: storedCount + 1)
    slots.removeAll(keepingCapacity: true)
    far.removeAll(keepingCapacity: true)
    // The span exceeds `limit` in the else branch, so the subtraction stays above `lowest`.
    base = Int(highest - lowest) < limit ? lowest : highest - UInt32(limit / 2)
    for (key, value) in pairs {
      // Ids below `base` wrap to offsets beyond any limit, and go aside.
      let offset = self.offset(of: key)
      if offset < limit {
        if offset >= slots.count { growSlots(to: offset + 1) }
        slots[offset] = value
      } else {
        far[key] = value
      }
    }
    insertsSinceRebase = 0
  }

  /// Removes and returns the value for `id`, if any.
  ///
  /// - Parameter id: The user id whose value to remove.
  /// - Returns: The value that was stored for `id`, or `nil` if there was none.
  @inlinable @discardableResult
  public mutating func removeValue(forKey id: UserID) -> Value? {
    let offset = offset(of: id)
    if offset < slots.count {
      guard let value = slots[offset] else { return nil }
      slots[offset] = nil
      storedCount -= 1
      return value
    }
    guard !far.isEmpty, let value = far.removeValue(forKey: id) else { return nil }
    storedCount -= 1
    return value
  }

  /// Removes every value, keeping the storage when asked.
  ///
  /// - Parameter keep: Whether to keep the storage for values to come; `false` frees it.
  @inlinable public mutating func removeAll(keepingCapacity keep: Bool = false) {
    slots.removeAll(keepingCapacity: keep)
    far.removeAll(keepingCapacity: keep)
    storedCount = 0
    insertsSinceRebase = 0
  }

  /// Makes room for `additional` more values at once (everyone in a snapshot), rather than
  /// growing step by step. Growth stays geometric: reserving exactly what one more join needs
  /// would reallocate the array on every join.
  ///
  /// - Parameter additional: How many more values to make room for.
  @inlinable package mutating func reserveCapacity(_ additional: Int) {
    let needed = Swift.min(slots.count + additional, Self.slotLimit(for: count + additional))
    guard needed > slots.capacity else { return }
    slots.reserveCapacity(Swift.max(needed, 2 * slots.capacity))
  }
}

// MARK: - Collection

extension UserMap: Collection {
  /// A position in the map: a slot of the array, or past the array, an entry of the far ids.
  public struct Index: Comparable {
    @usableFromInline let slot: Int
    @usableFromInline let farIndex: Dictionary<UserID, Value>.Index?

    @inlinable init(slot: Int, farIndex: Dictionary<UserID, Value>.Index?) {
      self.slot = slot
      self.farIndex = farIndex
    }

    /// Array slots come first, in order, then the far entries in the dictionary's order.
    ///
    /// - Parameters:
    ///   - lhs: A position in the map.
    ///   - rhs: Another position in the same map.
    /// - Returns: `true` if `lhs` comes before `rhs` in the map's order.
    @inlinable public static func < (lhs: Index, rhs: Index) -> Bool {
      if lhs.slot != rhs.slot { return lhs.slot < rhs.slot }
      switch (lhs.farIndex, rhs.farIndex) {
      case (let left?, let right?): return left < right
      case (nil, _?): return true
      default: return false
      }
    }
  }

  /// A stored id and its value.
  public typealias Element = (key: UserID, value: Value)

  /// The position of the first value; O(empty slots before it).
  @inlinable public var startIndex: Index { firstIndex(fromSlot: 0) }

  /// The position past the last value.
  @inlinable public var endIndex: Index { Index(slot: slots.count, farIndex: far.endIndex) }

  /// The position of the next value.
  ///
  /// - Parameter index: A valid position of the map, before ``endIndex``.
  /// - Returns: The position right after it, or ``endIndex`` after the last value.
  @inlinable public func index(after index: Index) -> Index {
    if index.slot < slots.count { return firstIndex(fromSlot: index.slot + 1) }
    guard let farIndex = index.farIndex else { preconditionFailure("UserMap index out of range") }
    return Index(slot: slots.count, farIndex: far.index(after: farIndex))
  }

  /// The id and value at a valid position.
  ///
  /// - Parameter position: A valid position of the map, before ``endIndex``.
  /// - Returns: The stored id and its value.
  @inlinable public subscript(position: Index) -> Element {
    if position.slot < slots.count {
      guard let value = slots[position.slot] else {
        preconditionFailure("UserMap index of no value")
      }
      return (UserID(base &+ UInt32(position.slot)), value)
    }
    guard let farIndex = position.farIndex else {
      preconditionFailure("UserMap index out of range")
    }
    let (key, value) = far[farIndex]
    return (key, value)
  }

  @inlinable func firstIndex(fromSlot start: Int) -> Index {
    var slot = start
    while slot < slots.count, slots[slot] == nil { slot += 1 }
    return Index(slot: slot, farIndex: slot < slots.count ? nil : far.startIndex)
  }

  /// Changes the value at a valid position in place, like a dictionary's
  /// `values[index].field = x`, and returns what `body` returns.
  ///
  /// A method taking a closure rather than a `_modify` accessor: the accessor's coroutine,
  /// nested in the array's, allocated a frame on every call where it was not inlined.
  ///
  /// - Parameters:
  ///   - position: A valid position of the map, before ``endIndex``.
  ///   - body: Changes the value in place.
  /// - Returns: What `body` returns.
  @inlinable
  package mutating func modifyValue<Result>(
    at position: Index, _ body: (inout Value) -> Result
  ) -> Result {
    if position.slot < slots.count {
      return slots.withUnsafeMutableBufferPointer { slots in
        guard slots[position.slot] != nil else {
          preconditionFailure("UserMap index of no value")
        }
        // Changed where it lies. Moving it out and back instead (`take()`) cost this
        // per-event path about 140 instructions more (callgrind).
        // swift-format-ignore: NeverForceUnwrap
        return body(&slots[position.slot]!)
      }
    }
    guard let farIndex = position.farIndex else {
      preconditionFailure("UserMap index out of range")
    }
    return body(&far.values[farIndex])
  }

  /// The address of `id`'s slot, for a caller that will read or change that value soon and
  /// wants to prefetch it (Decision 0009); `nil` for an id outside the array. Reads nothing
  /// from the slot. Valid only until the map next changes.
  @inlinable package func valueAddress(forKey id: UserID) -> UnsafeRawPointer? {
    let offset = offset(of: id)
    guard offset < slotEnd else { return nil }
    // Only the address: holding the array across a later call would retain it.
    return slots.withUnsafeBufferPointer {
      UnsafeRawPointer($0.baseAddress.unsafelyUnwrapped + offset)
    }
  }

  /// The address of the slot `id` has, or would have if inserted next: what
  /// ``valueAddress(forKey:)`` gives for a value about to be inserted after the last one, into
  /// room the array already has; `nil` beyond that room. Reads nothing.
  @inlinable package func slotAddress(forKey id: UserID) -> UnsafeRawPointer? {
    let offset = offset(of: id)
    guard offset < slots.capacity else { return nil }
    // Within the array's allocation, though perhaps past its last element: only the address
    // is formed, and a prefetch of it never faults.
    return slots.withUnsafeBufferPointer {
      UnsafeRawPointer($0.baseAddress.unsafelyUnwrapped + offset)
    }
  }

  /// Calls `body` with the value for `id` where it is stored, without copying it, and returns
  /// what `body` returns; `nil` when no value is stored.
  ///
  /// For reading one field of a value that holds references: the subscript copies the whole
  /// value, which retains (and then releases) every reference in it.
  @inlinable package func withValue<Result>(
    forKey id: UserID, _ body: (borrowing Value) -> Result
  ) -> Result? {
    let offset = offset(of: id)
    if offset < slotEnd {
      return slots.withUnsafeBufferPointer { buffer in
        // Borrowed where it lies: `map` passes the payload to `body` without copying it, and
        // assumes nothing about how an optional lays its payload out.
        buffer[offset].map { value in body(value) }
      }
    }
    guard !far.isEmpty, let index = far.index(forKey: id) else { return nil }
    return body(far.values[index])
  }

  /// The position of `id`'s value, if one is stored.
  ///
  /// - Parameter id: The user id to look up.
  /// - Returns: The position of its value, or `nil` if no value is stored for `id`.
  @inlinable package func index(forKey id: UserID) -> Index? {
    let offset = offset(of: id)
    if offset < slotEnd {
      return slot(at: offset) == nil ? nil : Index(slot: offset, farIndex: nil)
    }
    guard !far.isEmpty, let farIndex = far.index(forKey: id) else { return nil }
    return Index(slot: slots.count, farIndex: farIndex)
  }

  /// The stored ids, in the map's order.
  @inlinable public var keys: LazyMapCollection<UserMap, UserID> { lazy.map { $0.key } }

  /// The stored values, in the map's order.
  @inlinable public var values: Values { Values(map: self) }

  /// The values of a ``UserMap``, in its order.
  public struct Values: Collection {
    @usableFromInline let map: UserMap
    @inlinable init(map: UserMap) { self.map = map }
    /// The map's first position.
    @inlinable public var startIndex: Index { map.startIndex }
    /// The map's end position.
    @inlinable public var endIndex: Index { map.endIndex }
    /// How many values the map stores; O(1).
    @inlinable public var count: Int { map.count }
    /// Whether the map is empty; O(1).
    @inlinable public var isEmpty: Bool { map.isEmpty }
    /// The map's next position.
    ///
    /// - Parameter index: A valid position of the map, before ``endIndex``.
    /// - Returns: The position right after it, or ``endIndex`` after the last value.
    @inlinable public func index(after index: Index) -> Index { map.index(after: index) }
    /// The value at a valid position.
    ///
    /// - Parameter position: A valid position of the map, before ``endIndex``.
    /// - Returns: The value stored at `position`.
    @inlinable public subscript(position: Index) -> Value { map[position].value }
  }
}

// MARK: - Conformances

extension UserMap: ExpressibleByDictionaryLiteral {
  /// A map of the literal's pairs; a repeated id keeps its last value.
  ///
  /// - Parameter elements: The ids and values of the literal, in order.
  @inlinable public init(dictionaryLiteral elements: (UserID, Value)...) {
    self.init()
    for (id, value) in elements { self[id] = value }
  }
}

extension UserMap: Equatable where Value: Equatable {
  /// Maps are equal when they store the same values under the same ids, however laid out.
  ///
  /// - Parameters:
  ///   - lhs: A map.
  ///   - rhs: Another map.
  /// - Returns: `true` if both maps store equal values under the same ids.
  @inlinable public static func == (lhs: UserMap, rhs: UserMap) -> Bool {
    guard lhs.count == rhs.count else { return false }
    if lhs.base == rhs.base, lhs.far.isEmpty, rhs.far.isEmpty {
      let shared = Swift.min(lhs.slots.count, rhs.slots.count)
      // Equal counts, so any values beyond the shared slots would differ somewhere inside.
      return lhs.slots.withUnsafeBufferPointer { left in
        rhs.slots.withUnsafeBufferPointer { right in
          for offset in 0..<shared {
            // Slots whose bits are the same hold the same value (strings that share storage,
            // the same small string): taken as equal without a copy, as an array is equal to
            // itself without comparing its elements. Others are compared by value.
            if Self.sameBits(
              left.baseAddress.unsafelyUnwrapped + offset,
              right.baseAddress.unsafelyUnwrapped + offset)
            {
              continue
            }
            if left[offset] != right[offset] { return false }
          }
          return true
        }
      }
    }
    return lhs.allSatisfy { rhs[$0.key] == $0.value }
  }
}

extension UserMap {
  /// Whether the slots at `left` and `right` hold the same bits, read a word at a time; `false`
  /// when the slot's size is not a whole number of words (the caller then compares values).
  @inlinable @inline(__always)
  static func sameBits(_ left: UnsafePointer<Value?>, _ right: UnsafePointer<Value?>) -> Bool {
    let size = MemoryLayout<Value?>.size
    guard size & 7 == 0 else { return false }
    let a = UnsafeRawPointer(left)
    let b = UnsafeRawPointer(right)
    var offset = 0
    while offset < size {
      if a.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
        != b.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
      {
        return false
      }
      offset &+= 8
    }
    return true
  }
}

extension UserMap: Hashable where Value: Hashable {
  /// Hashes the pairs regardless of their order or layout, as a dictionary does.
  ///
  /// - Parameter hasher: The hasher to feed the count and the pairs to.
  public func hash(into hasher: inout Hasher) {
    var combined = 0
    for (key, value) in self {
      var element = Hasher()
      element.combine(key)
      element.combine(value)
      combined ^= element.finalize()
    }
    hasher.combine(count)
    hasher.combine(combined)
  }
}

extension UserMap: Sendable where Value: Sendable {}
extension UserMap.Index: Sendable where Value: Sendable {}
extension UserMap.Values: Sendable where Value: Sendable {}

extension UserMap: CustomStringConvertible, CustomDebugStringConvertible {
  /// The pairs in ascending id order, written like a dictionary literal.
  public var description: String {
    guard !isEmpty else { return "[:]" }
    let pairs = sorted { $0.key.rawValue < $1.key.rawValue }
    return "[" + pairs.map { "\($0.key): \($0.value)" }.joined(separator: ", ") + "]"
  }

  /// The pairs in ascending id order, marked as a `UserMap`.
  public var debugDescription: String { "UserMap(\(description))" }
}

extension Dictionary where Key == UserID {
  /// A dictionary of the pairs of `map`.
  ///
  /// - Parameter map: The ids and values to store.
  @inlinable public init(_ map: UserMap<Value>) {
    self.init(minimumCapacity: map.count)
    for (id, value) in map { self[id] = value }
  }
}
