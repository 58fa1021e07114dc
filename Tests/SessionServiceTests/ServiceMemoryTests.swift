import SessionCore
import SessionTransport
import Testing

@testable import SessionService

/// A service frees what it holds when it goes.
@Suite struct ServiceMemoryTests {
  /// Found by the service fuzzer under LeakSanitizer (`Fuzz/Regressions/service/`): each
  /// member's media identity names its session and the session holds its members, so a service
  /// dropped with a live session (the end of every simulation run and of most tests) leaked the
  /// session, its members, state and media router.
  @Test func aServiceDroppedWithLiveSessionsFreesThem() throws {
    weak var session: ServiceSession?
    weak var identity: MediaIdentity?
    do {
      let harness = ServiceHarness()
      try harness.join("Hal", role: .host)
      try harness.join("Mia")
      session = harness.service.sessions["room"]
      identity = session?.members.values.first?.media
      #expect(session != nil)
      #expect(identity != nil)
    }
    #expect(session == nil)
    #expect(identity == nil)
  }

  /// A session that ends while the service runs is freed at once.
  @Test func anEndedSessionIsFreed() throws {
    let harness = ServiceHarness()
    let hal = try harness.join("Hal", role: .host)
    try harness.join("Mia")
    weak let session = harness.service.sessions["room"]
    #expect(session != nil)
    harness.expectAccepted(.leave(end: true), on: hal)
    #expect(session == nil)
  }
}
