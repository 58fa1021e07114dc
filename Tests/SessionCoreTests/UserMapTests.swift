import Testing

@testable import SessionCore

@Suite("UserMap: participants and handles by user id")
struct UserMapTests {
  @Test(arguments: [
    [UInt32(1_000), 1_001, 1_002, 1_005], [999, 5, 1_000], [4_000_000_000, 70_000, 1],
    [1_002, 4_000_000_000, 1_003, 7],
  ])
  func storesFindsAndRemovesWhateverTheIds(ids: [UInt32]) {
    var map = UserMap<Int>()
    for (index, id) in ids.enumerated() { map[UserID(id)] = index }
    #expect(map.count == ids.count)
    for (index, id) in ids.enumerated() {
      #expect(map[UserID(id)] == index)
      #expect(map.contains(UserID(id)))
    }
    #expect(map[UserID(ids[0] &+ 100)] == nil)
    #expect(!map.contains(UserID(ids[0] &+ 100)))
    #expect(map.values.sorted() == Array(ids.indices))
    #expect(Set(map.keys) == Set(ids.map { UserID($0) }))
    #expect(map.slotCount <= 4 * map.count + 256)

    #expect(map.updateValue(42, forKey: UserID(ids[0])) == 0)
    #expect(map[UserID(ids[0])] == 42)
    #expect(map.count == ids.count, "replacing does not add")

    #expect(map.removeValue(forKey: UserID(ids[1])) == 1)
    #expect(map.removeValue(forKey: UserID(ids[1])) == nil)
    #expect(map[UserID(ids[1])] == nil)
    #expect(map.count == ids.count - 1)
    map[UserID(ids[2])] = nil
    #expect(map[UserID(ids[2])] == nil)
    #expect(map.count == ids.count - 2)
    #expect(map.count == Array(map).count, "iteration visits exactly the stored values")
  }

  @Test func anEmptiedMapStartsOverFromTheNextId() {
    var map = UserMap<Int>()
    map[5] = 1
    map[6] = 2
    map.removeValue(forKey: 5)
    map.removeValue(forKey: 6)
    #expect(map.isEmpty)
    map[9_000_000] = 3
    map[9_000_001] = 4
    #expect(map[9_000_000] == 3)
    #expect(map[9_000_001] == 4)
    #expect(map[5] == nil)
    #expect(map.count == 2)
    #expect(map.farCount == 0)
  }

  @Test func isAValue() {
    var original: UserMap<Int> = [1: 1]
    var copy = original
    copy[1] = 2
    copy[2] = 3
    #expect(original[1] == 1)
    #expect(original[2] == nil)
    #expect(original.count == 1)
    #expect(copy.count == 2)
    original[1]? += 10
    #expect(original[1] == 11)
    #expect(copy[1] == 2)
  }

  /// `withValue(forKey:_:)` reads a value where it lies, near or far; a missing id gives nil
  /// and `body` is not called. Asking for a prefetch address changes nothing, for any id.
  @Test func readsInPlaceAndPrefetchesWithoutChangingAnything() {
    var map: UserMap<[String]> = [1: ["one"], 2: ["two"], 4_000_000_000: ["far"]]
    map[3] = ["three"]
    let before = map
    #expect(map.withValue(forKey: 2) { $0[0] } == "two")
    #expect(map.withValue(forKey: 4_000_000_000) { $0.count } == 1)
    var called = false
    #expect(map.withValue(forKey: 5) { _ in called = true } == nil)
    #expect(map.withValue(forKey: 0) { _ in called = true } == nil)
    #expect(!called)
    map.removeValue(forKey: 2)
    #expect(map.withValue(forKey: 2) { _ in called = true } == nil && !called)
    map[2] = ["two"]
    map.reserveCapacity(64)
    for id in [0, 1, 2, 3, 4, 5, 60, 1_000_000, 4_000_000_000, UInt32.max] {
      _ = map.valueAddress(forKey: UserID(id))
      _ = map.slotAddress(forKey: UserID(id))  // past the last value too, within the room or not
    }
    #expect(map == before)
    #expect(map.valueAddress(forKey: 2) != nil)
    #expect(map.valueAddress(forKey: 4_000_000_000) == nil, "a far value has no slot")
    #expect(map.slotAddress(forKey: 60) != nil, "room reserved past the last value")
    #expect(map.slotAddress(forKey: 1_000_000) == nil, "beyond the room")
    let empty = UserMap<[String]>()
    #expect(empty.slotAddress(forKey: 1) == nil)
    #expect(empty.isEmpty)
  }

  @Test func changesThroughTheSubscriptHappenInPlace() {
    var map: UserMap<[Int]> = [3: [1], 4_000_000_000: [2]]
    map[3]?.append(5)
    map[4_000_000_000]?.append(6)
    map[7]?.append(1)
    #expect(map[3] == [1, 5])
    #expect(map[4_000_000_000] == [2, 6])
    #expect(map[7] == nil, "optional chaining on a missing id stores nothing")
    #expect(map.count == 2)
    if let index = map.index(forKey: 3) { map.modifyValue(at: index) { $0.append(9) } }
    #expect(map[3] == [1, 5, 9])
    if let index = map.index(forKey: 4_000_000_000) { map.modifyValue(at: index) { $0 = [0] } }
    #expect(map[4_000_000_000] == [0])
    #expect(map.index(forKey: 8) == nil)
  }

  @Test func farApartIdsStayWithinFourSlotsPerValue() {
    // Each id doubles the last: a table grown to reach them all would hold 2^31 slots.
    var map = UserMap<Int>()
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

  @Test func aLongSessionWithChurnKeepsItsIdsInTheArray() {
    // Thirty people present at a time, each replaced by a newcomer with the next id, ten
    // thousand times: the array follows the ids present instead of sending them aside.
    var map = UserMap<Int>()
    for id in UInt32(1)...30 { map[UserID(id)] = Int(id) }
    for step in UInt32(0)..<10_000 {
      map.removeValue(forKey: UserID(step + 1))
      map[UserID(step + 31)] = Int(step + 31)
      #expect(map.slotCount <= 4 * (map.count + 1) + 256)
    }
    #expect(map.count == 30)
    #expect(map.farCount == 0)
    #expect(Set(map.keys) == Set((10_001...10_030).map { UserID(UInt32($0)) }))
  }

  @Test func aTeacherWhoStaysDoesNotPushTheChurningClassAside() {
    // Ids 1...3 stay all along; thirty places churn through 20,000 newcomers. The array moves
    // to the newest ids and only the three stayers go to the dictionary.
    var map = UserMap<Int>()
    for id in UInt32(1)...33 { map[UserID(id)] = Int(id) }
    for step in UInt32(0)..<20_000 {
      map.removeValue(forKey: UserID(step + 4))
      map[UserID(step + 34)] = Int(step + 34)
      #expect(map.slotCount <= 4 * (map.count + 1) + 256)
    }
    #expect(map.count == 33)
    #expect(map.farCount <= 3)
    for id in UInt32(1)...3 { #expect(map[UserID(id)] == Int(id)) }
    for id in UInt32(20_004)...20_033 { #expect(map[UserID(id)] == Int(id)) }
  }

  @Test func equalityAndHashingIgnoreLayout() {
    var grown = UserMap<String>()
    for id in UInt32(1)...300 { grown[UserID(id)] = "u\(id)" }
    for id in UInt32(1)...298 { grown[UserID(id)] = nil }
    let fresh: UserMap<String> = [299: "u299", 300: "u300"]
    #expect(grown == fresh)
    #expect(grown.hashValue == fresh.hashValue)
    var other = fresh
    other[300] = "changed"
    #expect(other != fresh)
    other[300] = nil
    #expect(other != fresh)
    #expect(UserMap<Int>() == [:])
  }

  @Test func convertsToAndFromADictionary() {
    let dictionary: [UserID: Int] = [1: 10, 2: 20, 4_000_000_000: 30]
    let map = UserMap(dictionary)
    #expect(Dictionary(map) == dictionary)
    #expect(map.description == "[#1: 10, #2: 20, #4000000000: 30]")
    #expect(UserMap<Int>().description == "[:]")
  }

  /// Random inserts, updates, removals and lookups over ids near and far, checked against a
  /// dictionary after every step.
  @Test(arguments: [UInt64(1), 2, 3, 42, 2_026])
  func behavesLikeADictionary(seed: UInt64) {
    var random = SimulationRandom(seed: seed)
    var map = UserMap<UInt64>()
    var model: [UserID: UInt64] = [:]
    var nextID: UInt32 = 1
    for _ in 0..<3_000 {
      let id: UserID
      switch random.next() % 10 {
      case 0: id = UserID(UInt32(truncatingIfNeeded: random.next()))
      case 1, 2: id = model.keys.randomElement(using: &random) ?? UserID(nextID)
      default:
        nextID += UInt32(random.next() % 3)
        id = UserID(nextID)
      }
      let value = random.next()
      switch random.next() % 5 {
      case 0:
        #expect(map.removeValue(forKey: id) == model.removeValue(forKey: id))
      case 1:
        map[id]? &+= 1
        model[id]? &+= 1
      default:
        #expect(map.updateValue(value, forKey: id) == model.updateValue(value, forKey: id))
      }
      #expect(map[id] == model[id])
      #expect(map.count == model.count)
      #expect(map.slotCount <= 4 * (map.count + 1) + 256)
    }
    #expect(Dictionary(map) == model)
    let rebuilt = UserMap(model)
    #expect(Dictionary(rebuilt) == model)
    #expect(rebuilt.count == model.count)
    let missing = model.filter { rebuilt[$0.key] != $0.value }.count
    #expect(missing == 0)
    #expect(map == rebuilt)
  }
}
