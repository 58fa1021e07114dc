import SessionTransport
import Testing

@testable import LoopbackTransport

@Suite("Media endpoint table")
struct MediaEndpointTableTests {
  @Test func anEndpointIsStablePerPortAndIdsAreNeverReused() {
    var table = MediaEndpointTable(capacity: 4)
    let a = table.endpoint(forPort: 5_000)
    let b = table.endpoint(forPort: 5_001)
    #expect(a != b)
    #expect(table.endpoint(forPort: 5_000) == a)
    #expect(table.port(of: a) == 5_000 && table.port(of: b) == 5_001)
    #expect(table.count == 2 && table.made == 2)
    #expect(table.port(of: MediaEndpointID(0)) == nil)
    #expect(table.port(of: MediaEndpointID(.max)) == nil)
    #expect(table.port(of: MediaEndpointID(a.rawValue ^ 1 << 40)) == nil, "a stale id")
  }

  @Test func aFullTableEvictsTheOldestNeverSentToFirst() {
    var table = MediaEndpointTable(capacity: 3)
    let member = table.endpoint(forPort: 1)
    #expect(table.port(sendingTo: member) == 1)
    let x = table.endpoint(forPort: 2)
    let y = table.endpoint(forPort: 3)
    let z = table.endpoint(forPort: 4)
    #expect(table.evicted == 1 && table.count == 3)
    #expect(table.port(of: x) == nil, "the oldest unaddressed went")
    #expect(table.port(of: member) == 1 && table.port(of: y) == 3 && table.port(of: z) == 4)
    // Port 2 heard again gets a new id.
    let again = table.endpoint(forPort: 2)
    #expect(again != x && table.port(of: again) == 2)
    #expect(table.port(of: y) == nil)
    for port in UInt16(100)..<1_100 { _ = table.endpoint(forPort: port) }
    #expect(table.count == 3 && table.port(of: member) == 1)
    #expect(table.evicted == 1_002)
  }

  @Test func whenEveryEndpointWasSentToTheLeastRecentlyHeardGoes() {
    var table = MediaEndpointTable(capacity: 3)
    let ids = (UInt16(1)...3).map { table.endpoint(forPort: $0) }
    for id in ids { _ = table.port(sendingTo: id) }
    _ = table.endpoint(forPort: 1)
    _ = table.endpoint(forPort: 3)
    let newcomer = table.endpoint(forPort: 9)
    #expect(table.port(of: ids[1]) == nil, "port 2 was heard from least recently")
    #expect(table.port(of: ids[0]) == 1 && table.port(of: ids[2]) == 3)
    #expect(table.port(of: newcomer) == 9)
  }

  @Test func capacityIsClamped() {
    #expect(MediaEndpointTable(capacity: 0).capacity == 1)
    #expect(MediaEndpointTable(capacity: -5).capacity == 1)
    #expect(MediaEndpointTable(capacity: .max).capacity == 65_536)
    var one = MediaEndpointTable(capacity: 1)
    let a = one.endpoint(forPort: 7)
    let b = one.endpoint(forPort: 8)
    #expect(one.port(of: a) == nil && one.port(of: b) == 8 && one.count == 1)
    // Every port fits in a table as large as the port space, with no eviction.
    var all = MediaEndpointTable(capacity: 65_536)
    for port in 0...UInt16.max { _ = all.endpoint(forPort: port) }
    #expect(all.count == 65_536 && all.evicted == 0)
    #expect(LoopbackServerConfiguration(maxMediaEndpoints: 0).maxMediaEndpoints == 1)
    #expect(LoopbackServerConfiguration(maxMediaEndpoints: 1 << 40).maxMediaEndpoints == 65_536)
  }

  @Test func theQueueOfUnaddressedEndpointsStaysBoundedUnderChurn() {
    var table = MediaEndpointTable(capacity: 16)
    for round in 0..<20_000 { _ = table.endpoint(forPort: UInt16(round % 60_000)) }
    #expect(table.count == 16 && table.evicted == 20_000 - 16)
    #expect(table.unaddressedBacklog <= 1_100)
  }
}
