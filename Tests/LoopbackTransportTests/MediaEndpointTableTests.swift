import SessionTransport
import Testing

@testable import LoopbackTransport

@Suite("Media endpoint table")
struct MediaEndpointTableTests {
  @Test func anEndpointIsStablePerPortAndIdsAreNeverReused() {
    var table = MediaEndpointTable(capacity: 4)
    let a = table.id(forPort: 5_000)
    let b = table.id(forPort: 5_001)
    #expect(a != b)
    #expect(table.id(forPort: 5_000) == a)
    #expect(table.port(of: a) == 5_000 && table.port(of: b) == 5_001)
    #expect(table.count == 2 && table.made == 2)
    #expect(table.port(of: MediaEndpointID(0)) == nil)
    #expect(table.port(of: MediaEndpointID(.max)) == nil)
    #expect(table.port(of: MediaEndpointID(a.rawValue ^ 1 << 40)) == nil, "a stale id")
  }

  @Test func aFullTableEvictsTheOldestNeverSentToFirst() {
    var table = MediaEndpointTable(capacity: 3)
    let member = table.id(forPort: 1)
    #expect(table.port(sendingTo: member) == 1)
    let x = table.id(forPort: 2)
    let y = table.id(forPort: 3)
    let z = table.id(forPort: 4)
    #expect(table.evicted == 1 && table.count == 3)
    #expect(table.port(of: x) == nil, "the oldest unaddressed went")
    #expect(table.port(of: member) == 1 && table.port(of: y) == 3 && table.port(of: z) == 4)
    // Port 2 heard again gets a new id.
    let again = table.id(forPort: 2)
    #expect(again != x && table.port(of: again) == 2)
    #expect(table.port(of: y) == nil)
    for port in UInt16(100)..<1_100 { _ = table.id(forPort: port) }
    #expect(table.count == 3 && table.port(of: member) == 1)
    #expect(table.evicted == 1_002)
  }

  @Test func whenEveryEndpointWasSentToTheLeastRecentlyHeardGoes() {
    var table = MediaEndpointTable(capacity: 3)
    let ids = (UInt16(1)...3).map { table.id(forPort: $0) }
    for id in ids { _ = table.port(sendingTo: id) }
    _ = table.id(forPort: 1)
    _ = table.id(forPort: 3)
    let newcomer = table.id(forPort: 9)
    #expect(table.port(of: ids[1]) == nil, "port 2 was heard from least recently")
    #expect(table.port(of: ids[0]) == 1 && table.port(of: ids[2]) == 3)
    #expect(table.port(of: newcomer) == 9)
  }

  @Test func capacityIsClamped() {
    #expect(MediaEndpointTable(capacity: 0).capacity == 1)
    #expect(MediaEndpointTable(capacity: -5).capacity == 1)
    #expect(MediaEndpointTable(capacity: .max).capacity == 65_536)
    var one = MediaEndpointTable(capacity: 1)
    let a = one.id(forPort: 7)
    let b = one.id(forPort: 8)
    #expect(one.port(of: a) == nil && one.port(of: b) == 8 && one.count == 1)
    // Every port fits in a table as large as the port space, with no eviction.
    var all = MediaEndpointTable(capacity: 65_536)
    for port in 0...UInt16.max { _ = all.id(forPort: port) }
    #expect(all.count == 65_536 && all.evicted == 0)
    #expect(LoopbackServerConfiguration(maxMediaEndpoints: 0).maxMediaEndpoints == 1)
    #expect(LoopbackServerConfiguration(maxMediaEndpoints: 1 << 40).maxMediaEndpoints == 65_536)
  }

  @Test func theQueueOfUnaddressedEndpointsStaysBoundedUnderChurn() {
    var table = MediaEndpointTable(capacity: 16)
    for round in 0..<20_000 { _ = table.id(forPort: UInt16(round % 60_000)) }
    #expect(table.count == 16 && table.evicted == 20_000 - 16)
    #expect(table.unaddressedBacklog <= 1_100)
  }
}

extension MediaEndpointTable {
  /// The endpoint of a port, which a table with an unpinned slot always has.
  fileprivate mutating func id(forPort port: UInt16) -> MediaEndpointID {
    guard let endpoint = endpoint(forPort: port) else {
      Issue.record("port \(port) was refused")
      return MediaEndpointID(0)
    }
    return endpoint
  }
}

/// N3: bound (pinned) endpoints against floods of new sources.
@Suite struct MediaEndpointPinningTests {
  @Test func aFloodOfNewSourcesNeverEvictsABoundEndpointEvenOneNeverSentTo() {
    var table = MediaEndpointTable(capacity: 8)
    // A publisher that never pings: bound, never sent to, heard long ago.
    let publisher = table.id(forPort: 5_000)
    table.pin(publisher)
    for port in UInt16(10_000)..<UInt16(16_000) {
      _ = table.endpoint(forPort: port)
    }
    #expect(table.port(of: publisher) == 5_000)
    #expect(table.id(forPort: 5_000) == publisher)
    #expect(table.evicted == 6_000 - 7)
  }

  @Test func aTableFullOfBoundEndpointsRefusesNewcomersAndTakesThemOnceOneIsReleased() {
    var table = MediaEndpointTable(capacity: 3)
    let bound = (0..<3).map { table.id(forPort: UInt16(1_000 + $0)) }
    for endpoint in bound { table.pin(endpoint) }
    #expect(table.endpoint(forPort: 9_000) == nil)
    #expect(table.refused == 1)
    #expect(bound.allSatisfy { table.port(of: $0) != nil })
    table.unpin(bound[1])
    let newcomer = table.endpoint(forPort: 9_000)
    #expect(newcomer != nil)
    #expect(table.port(of: bound[1]) == nil)
    #expect(table.port(of: bound[0]) == 1_000 && table.port(of: bound[2]) == 1_002)
  }

  @Test func pinningAStaleOrUnknownIdChangesNothing() {
    var table = MediaEndpointTable(capacity: 2)
    table.pin(MediaEndpointID(12_345))
    table.unpin(MediaEndpointID(0))
    #expect(table.pinned == 0)
    let first = table.id(forPort: 1)
    table.pin(first)
    table.pin(first)
    #expect(table.pinned == 1)
  }
}
