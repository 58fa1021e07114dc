import SessionTransport

/// A map from media endpoints to values for the packet path: open addressing with linear
/// probing under a multiplicative (Fibonacci) hash, so that a lookup is a multiply, a shift
/// and usually one probe, where a `Dictionary` spends about 250 instructions in SipHash.
///
/// SipHash's seed protects a dictionary from keys chosen to collide; these keys need no such
/// protection, because no client chooses them: the transport names each source address
/// (`MediaHost`), and the loopback transport's names are a slot and a counter of its own.
///
/// A value type owned by whoever holds it (the ``SessionService``, in its isolation domain).
///
/// - Complexity: Lookup, insertion and removal O(1) on average; the table doubles when half
///   full.
struct EndpointMap<Value> {
  private var keys: [UInt64] = []
  private var values: [Value?] = []
  /// How many values are stored.
  private(set) var count = 0
  /// The table's size is 2^bits.
  private var bits = 0

  /// An empty map.
  init() {}

  /// The first slot to probe for `key`.
  @inline(__always)
  private func home(of key: UInt64) -> Int {
    Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) >> UInt64(64 - bits))
  }

  /// The slot holding `key`, if any.
  @inline(__always)
  private func slot(of key: UInt64) -> Int? {
    guard count > 0 else { return nil }
    let mask = values.count - 1
    var slot = home(of: key)
    while values[slot] != nil {
      if keys[slot] == key { return slot }
      slot = (slot + 1) & mask
    }
    return nil
  }

  /// The value for `endpoint`, if any; setting `nil` removes it.
  subscript(endpoint: MediaEndpointID) -> Value? {
    @inline(__always) get { slot(of: endpoint.rawValue).flatMap { values[$0] } }
    set {
      if let newValue {
        insert(newValue, for: endpoint.rawValue)
      } else {
        remove(endpoint.rawValue)
      }
    }
  }

  /// Every endpoint and its value, in no particular order.
  var pairs: [(endpoint: MediaEndpointID, value: Value)] {
    values.indices.compactMap { slot in
      values[slot].map { (MediaEndpointID(keys[slot]), $0) }
    }
  }

  private mutating func insert(_ value: Value, for key: UInt64) {
    if let slot = slot(of: key) {
      values[slot] = value
      return
    }
    if (count + 1) * 2 > values.count { grow() }
    let mask = values.count - 1
    var slot = home(of: key)
    while values[slot] != nil { slot = (slot + 1) & mask }
    keys[slot] = key
    values[slot] = value
    count += 1
  }

  /// Removes `key` and moves back the entries after it in its run that may fill the gap, so
  /// that no probe stops early (no tombstones).
  private mutating func remove(_ key: UInt64) {
    guard var gap = slot(of: key) else { return }
    let mask = values.count - 1
    values[gap] = nil
    count -= 1
    var slot = (gap + 1) & mask
    while values[slot] != nil {
      let home = home(of: keys[slot])
      // The entry may move to the gap unless its home lies cyclically in (gap, slot].
      let staysPut = gap <= slot ? (gap < home && home <= slot) : (gap < home || home <= slot)
      if !staysPut {
        keys[gap] = keys[slot]
        values[gap] = values[slot]
        values[slot] = nil
        gap = slot
      }
      slot = (slot + 1) & mask
    }
  }

  private mutating func grow() {
    let old = zip(keys, values).compactMap { key, value in value.map { (key, $0) } }
    bits = max(4, bits + 1)
    keys = Array(repeating: 0, count: 1 << bits)
    values = Array(repeating: nil, count: 1 << bits)
    count = 0
    for (key, value) in old { insert(value, for: key) }
  }
}

extension EndpointMap: Sendable where Value: Sendable {}
