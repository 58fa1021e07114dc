import Testing

@_spi(Engine) @testable import SessionCore

@Suite("DenseIDMap: the role order's id table")
struct DenseIDMapTests {
  @Test(arguments: [
    [UInt32(1_000), 1_001, 1_002, 1_005], [999, 5, 1_000], [4_000_000_000, 70_000, 1],
    [1_002, 4_000_000_000, 1_003, 7],
  ])
  func storesFindsAndRemovesWhateverTheIds(ids: [UInt32]) {
    var map = DenseIDMap<Int>()
    for (index, id) in ids.enumerated() { map[UserID(id)] = index }
    #expect(map.count == ids.count)
    for (index, id) in ids.enumerated() { #expect(map[UserID(id)] == index) }
    #expect(map[UserID(ids[0] &+ 100)] == nil)
    #expect(map.values.sorted() == Array(ids.indices))
    #expect(map.slotCount <= 4 * map.count + 256)

    map[UserID(ids[0])] = 42
    #expect(map[UserID(ids[0])] == 42)
    #expect(map.count == ids.count, "replacing does not add")

    #expect(map.removeValue(for: UserID(ids[1])) == 1)
    #expect(map.removeValue(for: UserID(ids[1])) == nil)
    #expect(map[UserID(ids[1])] == nil)
    #expect(map.count == ids.count - 1)
    map[UserID(ids[2])] = nil
    #expect(map[UserID(ids[2])] == nil)
    #expect(map.count == ids.count - 2)
  }

  @Test func anEmptiedMapStartsOverFromTheNextId() {
    var map = DenseIDMap<Int>()
    map[5] = 1
    map[6] = 2
    map.removeValue(for: 5)
    map.removeValue(for: 6)
    #expect(map.count == 0)
    map[9_000_000] = 3
    map[9_000_001] = 4
    #expect(map[9_000_000] == 3)
    #expect(map[9_000_001] == 4)
    #expect(map[5] == nil)
    #expect(map.count == 2)
  }

  @Test func isAValue() {
    var original = DenseIDMap<Int>()
    original[1] = 1
    var copy = original
    copy[1] = 2
    copy[2] = 3
    #expect(original[1] == 1)
    #expect(original[2] == nil)
    #expect(original.count == 1)
    #expect(copy.count == 2)
  }

  @Test func farApartIdsStayWithinFourSlotsPerValue() {
    // Each id doubles the last: a table grown to reach them all would hold 2^31 slots.
    var map = DenseIDMap<Int>()
    var id: UInt32 = 1
    var stored = 0
    while id < 1 << 31 {
      map[UserID(id)] = stored
      stored += 1
      id *= 2
    }
    #expect(map.count == stored)
    #expect(map.slotCount <= 4 * map.count + 256)
    for power in 0..<stored { #expect(map[UserID(UInt32(1) << UInt32(power))] == power) }
  }
}
