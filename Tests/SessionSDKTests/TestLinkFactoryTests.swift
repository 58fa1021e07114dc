import SessionCore
import SessionTestSupport
import SessionTransport
import Testing

/// The test links that replace the SDK's test hooks: pass everything through, hold closes
/// while told, remember the newest link and its media credential, and point later links
/// elsewhere.
@Suite struct TestLinkFactoryTests {
  final class Events {
    var values: [LinkEvent] = []
  }

  @Test func messagesPassThroughAndClosesToo() throws {
    let fake = FakeLinkFactory()
    let links = TestLinkFactory(wrapping: fake)
    let events = Events()
    links.makeLink().start { events.values.append($0) }
    let inner = try #require(fake.last)
    #expect(links.currentLink === inner)
    inner.deliver(.heartbeat)
    inner.fail(.closedByPeer)
    #expect(events.values == [.message(.heartbeat), .closed(.closedByPeer)])
  }

  @Test func closesWaitWhileHeldAndArriveInOrderWhenReleased() throws {
    let fake = FakeLinkFactory()
    let links = TestLinkFactory(wrapping: fake)
    let events = Events()
    links.makeLink().start { events.values.append($0) }
    links.holdCloses()
    let inner = try #require(fake.last)
    inner.deliver(.heartbeat)
    inner.fail(.failed("cut"))
    #expect(events.values == [.message(.heartbeat)], "the close waits; messages do not")
    links.releaseCloses()
    #expect(events.values == [.message(.heartbeat), .closed(.failed("cut"))])
    links.releaseCloses()
    #expect(events.values.count == 2, "a close is delivered once")
  }

  @Test func theMediaCredentialIsTheNewestLinksAndLaterLinksGoToTheNewTarget() throws {
    let first = FakeLinkFactory()
    let links = TestLinkFactory(wrapping: first)
    links.makeLink().start { _ in }
    #expect(links.mediaCredential == nil)
    let credential = MediaCredential(
      id: 7, key: Array(repeating: 1, count: MediaCredential.keySize))
    try #require(first.last).deliver(.media(.credential(credential)))
    #expect(links.mediaCredential == credential)

    let second = FakeLinkFactory()
    links.target = second
    links.makeLink().start { _ in }
    #expect(first.links.count == 1 && second.links.count == 1)
    #expect(links.currentLink === second.last)
    #expect(links.mediaCredential == nil, "a new link has not been sent one yet")
  }
}
