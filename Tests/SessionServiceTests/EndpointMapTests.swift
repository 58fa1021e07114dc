import SessionCore
import SessionTransport
import Testing

@testable import SessionService

/// The service's endpoint map against a `Dictionary`, under seeded random inserts, updates
/// and removals.
@Suite struct EndpointMapTests {
  @Test(arguments: [1, 2, 3, 4, 5, 6, 7, 8] as [UInt64])
  func itAgreesWithADictionaryUnderRandomChanges(seed: UInt64) {
    var random = SimulationRandom(seed: seed)
    var map = EndpointMap<Int>()
    var reference: [UInt64: Int] = [:]
    // Keys from a small range collide often; keys shaped as the loopback table's (a counter
    // above a 16-bit slot) and large ones exercise the hash.
    func key() -> UInt64 {
      switch random.next() % 3 {
      case 0: random.next() % 64
      case 1: (random.next() % 4_096) << 16 | random.next() % 256
      default: random.next()
      }
    }
    var keys: [UInt64] = []
    for step in 0..<20_000 {
      let id =
        keys.isEmpty || random.next() % 3 == 0
        ? key() : keys[Int(random.next() % UInt64(keys.count))]
      if random.next() % 5 < 3 {
        map[MediaEndpointID(id)] = step
        reference[id] = step
        keys.append(id)
      } else {
        map[MediaEndpointID(id)] = nil
        reference[id] = nil
      }
      #expect(map[MediaEndpointID(id)] == reference[id])
      if step % 1_000 == 0 {
        #expect(map.count == reference.count)
        for (key, value) in reference where map[MediaEndpointID(key)] != value {
          Issue.record(
            "seed \(seed) step \(step): \(key) reads \(String(describing: map[MediaEndpointID(key)])), not \(value)"
          )
        }
        let pairs = map.pairs
        #expect(pairs.count == reference.count)
        #expect(pairs.allSatisfy { reference[$0.endpoint.rawValue] == $0.value })
      }
    }
    // Emptied, it reads empty.
    for key in reference.keys { map[MediaEndpointID(key)] = nil }
    #expect(map.count == 0 && map.pairs.isEmpty)
    #expect(map[MediaEndpointID(keys.first ?? 0)] == nil)
  }
}
