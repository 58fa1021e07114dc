import SessionCore
import SessionTransport
import Testing

@testable import SessionService

/// A session's broadcast group: one id for the session's life, a new version whenever its list
/// of connections changes, the same version while it does not.
@Suite struct FanOutGroupTests {
  @Test func aSessionsGroupKeepsItsIDAndVersionsEveryChange() {
    let session = ServiceSession(
      key: "room", name: "Room", id: "S7-1", number: 7, idleTimeout: -1, chatHistoryLimit: 10)
    let empty = session.fanOut
    #expect(empty.id == 7 && empty.connections.isEmpty)
    #expect(session.fanOut.isCachedAs(empty), "unchanged: the same version")

    session.add(1, ServiceSession.Member(roleType: .host, resumeToken: 1))
    session.connect(1, on: ConnectionID(10))
    let one = session.fanOut
    #expect(one.connections == [ConnectionID(10)])
    #expect(!one.isCachedAs(empty))
    #expect(session.fanOut.isCachedAs(one))

    session.add(2, ServiceSession.Member(roleType: .participant, resumeToken: 2))
    session.connect(2, on: ConnectionID(11))
    let two = session.fanOut
    #expect(two.connections == [ConnectionID(10), ConnectionID(11)])
    #expect(!two.isCachedAs(one))

    session.disconnect(1, now: 0)
    let dropped = session.fanOut
    #expect(dropped.connections == [ConnectionID(11)])
    #expect(!dropped.isCachedAs(two))
    #expect(dropped.id == 7)
  }

  @Test func adHocGroupsAreNeverCached() {
    let list = [ConnectionID(1), ConnectionID(2)]
    #expect(!FanOutGroup.adHoc(list).isCachedAs(.adHoc(list)))
    let named = FanOutGroup(id: 3, version: 9, connections: list)
    #expect(named.isCachedAs(FanOutGroup(id: 3, version: 9, connections: list)))
    #expect(!named.isCachedAs(FanOutGroup(id: 3, version: 10, connections: list)))
    #expect(!named.isCachedAs(FanOutGroup(id: 4, version: 9, connections: list)))
  }
}
