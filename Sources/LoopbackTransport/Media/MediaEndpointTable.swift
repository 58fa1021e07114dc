import SessionTransport

/// The server's map between the ports media datagrams come from and the
/// ``SessionTransport/MediaEndpointID``s its media host knows them by, bounded.
///
/// Every source port gets an endpoint the first time it is heard from, and keeps it while it
/// stays in the table. An id is never given twice: its low 16 bits are the endpoint's slot (so
/// finding a port to send to is an index, not a hash) and the bits above count every endpoint
/// ever made. The table holds at most `capacity` endpoints: a new source when it is full evicts
/// one, first the oldest the host never sent anything to (a flood of made-up sources, which the
/// host drops unbound, evicts only its own kind), else the one heard from least recently.
/// An endpoint the host bound to a member (``pin(_:)``, from
/// ``SessionTransport/MediaHostOutput/endpointBound(_:)``) is never evicted: a flood of any
/// size from unbound sources cannot take a member's endpoint, and a new source when every
/// endpoint is pinned is refused (``refused``). An evicted endpoint's id is stale: outputs
/// naming it are dropped, and its port, if heard again, gets a new id.
///
/// Lookups are O(1): a flat array of 65,536 slot numbers indexed by port (256 KiB, made with the
/// table), and the slots themselves. Eviction is O(1) amortised while unaddressed endpoints
/// remain, and a scan of the slots otherwise (only when every endpoint in a full table has
/// been sent to: more members than the capacity).
///
/// > Important: A value owned by the server's media plane, on its loop.
struct MediaEndpointTable {
  /// One endpoint: its port, id, whether the host has sent to it, and when it was last heard.
  struct Slot {
    var port: UInt16 = 0
    /// The id's raw value; 0 while the slot is free.
    var id: UInt64 = 0
    var isAddressed = false
    /// Bound to a member by the host: never evicted.
    var isPinned = false
    var lastHeard: UInt64 = 0
  }

  /// The most endpoints the table holds.
  let capacity: Int
  /// The slot of each port, or -1.
  private var slotOfPort: [Int32]
  private(set) var slots: [Slot] = []
  /// Endpoints never sent to, in the order they were made (some entries are stale: the slot
  /// was sent to, or evicted, since; they are skipped when met). Read from `unaddressedHead`.
  private var unaddressed: [(slot: Int32, id: UInt64)] = []
  private var unaddressedHead = 0
  /// Counts datagrams heard, as the table's clock for "least recently heard".
  private var heard: UInt64 = 0
  /// Endpoints made so far (the counter in the ids' high bits).
  private(set) var made: UInt64 = 0
  /// Endpoints evicted to make room so far.
  private(set) var evicted = 0
  /// Datagrams from new sources refused because every endpoint was pinned.
  private(set) var refused = 0
  /// Endpoints pinned now.
  private(set) var pinned = 0
  /// Endpoints in the table now.
  private(set) var count = 0

  /// Entries of the queue of unaddressed endpoints, stale ones included (tests: it stays
  /// bounded).
  var unaddressedBacklog: Int { unaddressed.count }

  /// The largest capacity: one endpoint per port.
  static let maximumCapacity = 1 << 16

  /// A table of at most `capacity` endpoints, clamped to `1...65_536`.
  init(capacity: Int) {
    self.capacity = min(max(capacity, 1), Self.maximumCapacity)
    slotOfPort = Array(repeating: -1, count: Self.maximumCapacity)
  }

  /// The endpoint of a source port, made (evicting one if the table is full) on first hearing;
  /// `nil` for a new source when every endpoint is pinned.
  @inline(__always)
  mutating func endpoint(forPort port: UInt16) -> MediaEndpointID? {
    heard &+= 1
    let slot = Int(slotOfPort[Int(port)])
    if slot >= 0 {
      slots[slot].lastHeard = heard
      return MediaEndpointID(slots[slot].id)
    }
    return makeEndpoint(port: port)
  }

  /// The port an endpoint stands for, marking it as sent to; `nil` for an id that is not (or
  /// no longer) in the table.
  @inline(__always)
  mutating func port(sendingTo endpoint: MediaEndpointID) -> UInt16? {
    let slot = Int(endpoint.rawValue & 0xFFFF)
    guard slot < slots.count, slots[slot].id == endpoint.rawValue, endpoint.rawValue != 0 else {
      return nil
    }
    // Written once: a forward's every send only reads.
    if !slots[slot].isAddressed { slots[slot].isAddressed = true }
    return slots[slot].port
  }

  /// The port an endpoint stands for, without marking it.
  func port(of endpoint: MediaEndpointID) -> UInt16? {
    let slot = Int(endpoint.rawValue & 0xFFFF)
    guard slot < slots.count, slots[slot].id == endpoint.rawValue, endpoint.rawValue != 0 else {
      return nil
    }
    return slots[slot].port
  }

  /// Marks an endpoint as bound to a member: it is not evicted until ``unpin(_:)``.
  mutating func pin(_ endpoint: MediaEndpointID) {
    guard let slot = slot(of: endpoint), !slots[slot].isPinned else { return }
    slots[slot].isPinned = true
    pinned += 1
  }

  /// Lets an endpoint be evicted again.
  mutating func unpin(_ endpoint: MediaEndpointID) {
    guard let slot = slot(of: endpoint), slots[slot].isPinned else { return }
    slots[slot].isPinned = false
    pinned -= 1
  }

  private func slot(of endpoint: MediaEndpointID) -> Int? {
    let slot = Int(endpoint.rawValue & 0xFFFF)
    guard slot < slots.count, slots[slot].id == endpoint.rawValue, endpoint.rawValue != 0 else {
      return nil
    }
    return slot
  }

  @inline(never)
  private mutating func makeEndpoint(port: UInt16) -> MediaEndpointID? {
    let slot: Int
    if slots.count < capacity {
      slot = slots.count
      slots.append(Slot())
    } else {
      guard pinned < slots.count else {
        refused += 1
        return nil
      }
      slot = evict()
    }
    made &+= 1
    // `made` is at least 1, so no id is 0 (a free slot's mark).
    let id = made << 16 | UInt64(slot)
    slots[slot] = Slot(port: port, id: id, isAddressed: false, lastHeard: heard)
    slotOfPort[Int(port)] = Int32(slot)
    unaddressed.append((Int32(slot), id))
    count += 1
    return MediaEndpointID(id)
  }

  /// Frees a slot of a full table and returns it.
  private mutating func evict() -> Int {
    var victim = -1
    while unaddressedHead < unaddressed.count {
      let (slot, id) = unaddressed[unaddressedHead]
      unaddressedHead += 1
      if slots[Int(slot)].id == id, !slots[Int(slot)].isAddressed, !slots[Int(slot)].isPinned {
        victim = Int(slot)
        break
      }
    }
    if unaddressedHead >= 1_024, unaddressedHead * 2 >= unaddressed.count {
      unaddressed.removeFirst(unaddressedHead)
      unaddressedHead = 0
    }
    if victim < 0 {
      // Every unpinned endpoint was sent to: the one heard from least recently goes (there is
      // one: the caller checked that not every endpoint is pinned).
      for index in slots.indices where !slots[index].isPinned {
        if victim < 0 || slots[index].lastHeard < slots[victim].lastHeard { victim = index }
      }
    }
    slotOfPort[Int(slots[victim].port)] = -1
    slots[victim] = Slot()
    evicted += 1
    count -= 1
    return victim
  }
}
