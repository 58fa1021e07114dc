/// The roster's display order, maintained incrementally: host, then managers, then everyone
/// else, each group by join order.
///
/// It is a cache that ``SessionState`` derives from its participants; it is neither encoded nor
/// compared. Joins append (O(1)), leaves leave a tombstone that a later compaction removes
/// (amortised O(1)), and manager changes touch only the manager list (O(managers)).
struct RoleOrder: Sendable {
  private struct Slot: Sendable {
    var joinOrder: UInt64
    var id: UserID
    var isAlive: Bool
  }

  /// Everyone, by join order, with tombstones for users who left.
  private var slots: [Slot] = []
  /// Where each present user's slot is.
  private var slotIndex = UserMap<Int>()
  private var deadCount = 0
  /// Managers by join order.
  private(set) var managers: [UserID] = []
  private var managerJoinOrders: [UInt64] = []

  init() {}

  /// Makes room for `count` users, so a snapshot fills the order without regrowing it.
  mutating func reserveCapacity(_ count: Int) {
    slots.reserveCapacity(count)
    slotIndex.reserveCapacity(count)
  }

  /// The addresses inserting `id` last will write (Decision 0009's hint, for a join): the slot
  /// after the last (`nil` when the array is full), and `id`'s index slot.
  func insertionAddresses(of id: UserID) -> (UnsafeRawPointer?, UnsafeRawPointer?) {
    let next: UnsafeRawPointer? =
      slots.count < slots.capacity
      ? slots.withUnsafeBufferPointer {
        UnsafeRawPointer($0.baseAddress.unsafelyUnwrapped + $0.count)
      } : nil
    return (next, slotIndex.slotAddress(forKey: id))
  }

  /// Adds a user in join order.
  mutating func insert(_ id: UserID, joinOrder: UInt64) {
    if let last = slots.last, last.joinOrder > joinOrder {
      let position = Self.insertionPoint(in: slots.lazy.map(\.joinOrder), for: joinOrder)
      slots.insert(Slot(joinOrder: joinOrder, id: id, isAlive: true), at: position)
      for index in position..<slots.count where slots[index].isAlive {
        slotIndex[slots[index].id] = index
      }
    } else {
      slotIndex[id] = slots.count
      slots.append(Slot(joinOrder: joinOrder, id: id, isAlive: true))
    }
  }

  /// Whether a present user has this join order: O(1) for a join order later than every
  /// other, else O(log n).
  func containsPresent(joinOrder: UInt64) -> Bool {
    guard let last = slots.last, last.joinOrder >= joinOrder else { return false }
    var index = Self.lowerBound(in: slots.lazy.map(\.joinOrder), for: joinOrder)
    while index < slots.count, slots[index].joinOrder == joinOrder {
      if slots[index].isAlive { return true }
      index += 1
    }
    return false
  }

  /// Removes a user; amortised O(1), plus O(managers) if they were a manager.
  mutating func remove(_ id: UserID, wasManager: Bool) {
    guard let index = slotIndex.removeValue(forKey: id) else { return }
    slots[index].isAlive = false
    deadCount += 1
    if wasManager { removeManager(id) }
    if deadCount > 32 && deadCount * 2 > slots.count { compact() }
  }

  /// Records that a user became a manager.
  mutating func insertManager(_ id: UserID, joinOrder: UInt64) {
    let position = Self.insertionPoint(in: managerJoinOrders, for: joinOrder)
    managers.insert(id, at: position)
    managerJoinOrders.insert(joinOrder, at: position)
  }

  /// Records that a user is no longer a manager.
  mutating func removeManager(_ id: UserID) {
    guard let index = managers.firstIndex(of: id) else { return }
    managers.remove(at: index)
    managerJoinOrders.remove(at: index)
  }

  /// Present users in join order, whatever their role.
  var joinOrdered: some Sequence<UserID> {
    slots.lazy.filter(\.isAlive).map(\.id)
  }

  /// Number of present users.
  var count: Int { slotIndex.count }

  /// Slots of users who left and are not compacted away yet; for tests.
  var tombstoneCount: Int { deadCount }

  private mutating func compact() {
    slots.removeAll { !$0.isAlive }
    deadCount = 0
    for (index, slot) in slots.enumerated() { slotIndex[slot.id] = index }
  }

  /// The first position whose join order is not less than `joinOrder`.
  private static func lowerBound(
    in orders: some RandomAccessCollection<UInt64>, for joinOrder: UInt64
  ) -> Int {
    partitionPoint(in: orders) { $0 < joinOrder }
  }

  /// The first position whose join order is greater than `joinOrder`: where a newcomer with
  /// it goes, after any equal ones.
  private static func insertionPoint(
    in orders: some RandomAccessCollection<UInt64>, for joinOrder: UInt64
  ) -> Int {
    partitionPoint(in: orders) { $0 <= joinOrder }
  }

  /// The first offset at which `isBefore` stops holding, by binary search over orders sorted
  /// so that it holds for a prefix.
  private static func partitionPoint(
    in orders: some RandomAccessCollection<UInt64>, where isBefore: (UInt64) -> Bool
  ) -> Int {
    var low = 0
    var high = orders.count
    while low < high {
      let mid = (low + high) / 2
      if isBefore(orders[orders.index(orders.startIndex, offsetBy: mid)]) {
        low = mid + 1
      } else {
        high = mid
      }
    }
    return low
  }
}
