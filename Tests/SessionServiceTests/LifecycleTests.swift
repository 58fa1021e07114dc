import SessionCore
import SessionService
import SessionTestSupport
import SessionTransport
import Testing

@Suite struct LifecycleTests {
  // MARK: Ending

  @Test func hostEndingEndsTheSessionForEveryone() throws {
    let harness = ServiceHarness()
    let hal = try harness.join("Hal", role: .host)
    let mia = try harness.join("Mia", role: .host)
    let pat = try harness.join("Pat")
    let mark = harness.mark
    harness.expectAccepted(.leave(end: true), on: hal)
    #expect(harness.messages(to: hal, since: mark) == [.left(.bySelf)])
    #expect(harness.messages(to: mia, since: mark) == [.left(.endByHost)])
    #expect(harness.messages(to: pat, since: mark) == [.left(.endByHost)])
    #expect(harness.records(since: mark).count == 3)
    #expect(harness.served() == nil)
    #expect(harness.replica(pat)?.phase == .left(.endByHost))
    // The name is free for a new session.
    let again = try harness.join("Pat", on: pat)
    #expect(harness.replica(again)?.sessionID != harness.replica(hal)?.sessionID)
    harness.assertConverged()
  }

  @Test(arguments: [false, true])
  func nonHostEndingOnlyLeaves(_ manager: Bool) throws {
    let harness = ServiceHarness()
    let hal = try harness.join("Hal", role: .host)
    let leaver = try harness.join("Lee", role: manager ? .host : .participant)
    let leaverID = harness.user(leaver)
    let mark = harness.mark
    harness.expectAccepted(.leave(end: true), on: leaver)
    #expect(harness.messages(to: leaver, since: mark) == [.left(.bySelf)])
    #expect(harness.events(to: hal, since: mark) == [.usersLeft([leaverID])])
    #expect(harness.served()?.participants.count == 1)
    harness.assertConverged()
  }

  @Test func lastMemberLeavingEndsTheSession() throws {
    let harness = ServiceHarness()
    let ann = try harness.join("Ann")
    let bob = try harness.join("Bob")
    harness.command(.leave(end: false), on: ann)
    #expect(harness.served()?.participants.count == 1)
    let mark = harness.mark
    harness.command(.leave(end: false), on: bob)
    #expect(harness.messages(to: bob, since: mark) == [.left(.bySelf)])
    #expect(harness.service.liveSessionNames.isEmpty)
  }

  @Test func loneMemberIsEndedAfterTheIdleTimeout() throws {
    let harness = ServiceHarness { $0.heartbeatTimeout = .max }
    let ann = try harness.join("Ann", idleTimeoutMinutes: 1)
    let bob = try harness.join("Bob")
    harness.advance(by: 50_000)
    harness.command(.leave(end: false), on: bob)
    // Idle counts from when the session dropped to one member.
    harness.advance(by: 59_999)
    #expect(harness.served() != nil)
    let mark = harness.mark
    harness.advance(by: 1)
    #expect(harness.served() == nil)
    #expect(
      harness.records(since: mark) == [.init(connection: ann, output: .send(.left(.unknown)))])
  }

  @Test func defaultIdleTimeoutIsFortyMinutes() throws {
    let harness = ServiceHarness { $0.heartbeatTimeout = .max }
    let ann = try harness.join("Ann")
    harness.advance(by: 40 * 60_000 - 1)
    #expect(harness.served() != nil)
    harness.advance(by: 1)
    #expect(harness.served() == nil)
    #expect(harness.replica(ann)?.phase == .left(.unknown))
  }

  @Test func negativeIdleTimeoutNeverEnds() throws {
    let harness = ServiceHarness { $0.heartbeatTimeout = .max }
    try harness.join("Ann", idleTimeoutMinutes: -1)
    harness.advance(by: 48 * 3_600_000)
    #expect(harness.served() != nil)
  }

  @Test func secondMemberStopsTheIdleClock() throws {
    let harness = ServiceHarness { $0.heartbeatTimeout = .max }
    try harness.join("Ann", idleTimeoutMinutes: 1)
    harness.advance(by: 30_000)
    try harness.join("Bob")
    harness.advance(by: 3_600_000)
    #expect(harness.served()?.participants.count == 2)
    harness.assertConverged()
  }

  // MARK: Reconnect

  @Test func droppedMemberKeepsTheirPlaceDuringTheGrace() throws {
    let harness = ServiceHarness()
    let ann = try harness.join("Ann", role: .host)
    let bob = try harness.join("Bob")
    let before = harness.served()
    let mark = harness.mark
    harness.close(ann)
    harness.advance(by: 9_999)
    #expect(harness.records(since: mark).isEmpty)
    #expect(harness.served() == before)
    _ = bob
  }

  @Test func resumeGetsAFreshSnapshotAndThenEvents() throws {
    let harness = ServiceHarness()
    let ann = try harness.join("Ann", role: .host)
    let bob = try harness.join("Bob")
    harness.close(ann)
    harness.advance(by: 2_000)
    // Things happen while Ann is away.
    harness.command(.startVideo, on: bob)
    harness.command(.sendChat(receiver: nil, content: "anyone?"), on: bob)
    let mark = harness.mark
    let back = harness.resume(ann)
    #expect(harness.records(since: mark).map(\.connection) == [back])
    guard case .joined(let snapshot, _)? = harness.messages(to: back, since: mark).first else {
      Issue.record("not resumed: \(harness.messages(to: back, since: mark))")
      return
    }
    #expect(snapshot.myself == harness.user(ann))
    #expect(snapshot.sequence == harness.service.lastSequence(ofSession: "Room"))
    #expect(harness.replica(back)?.participants[harness.user(bob)]?.isVideoOn == true)
    // Further events arrive on the new connection, numbered after the snapshot.
    harness.command(.stopVideo, on: bob)
    #expect(
      harness.events(to: back, since: mark) == [
        .videoStatusChanged(user: harness.user(bob), isOn: false)
      ])
    harness.expectAccepted(.startVideo, on: back)
    harness.assertConverged()
  }

  @Test func graceExpiryRemovesTheMemberAndHandsOverHost() throws {
    let harness = ServiceHarness()
    let ann = try harness.join("Ann", role: .host)
    let bob = try harness.join("Bob")
    let annID = harness.user(ann)
    harness.close(ann)
    harness.send(.heartbeat, on: bob)
    harness.advance(by: 9_999)
    let mark = harness.mark
    harness.advance(by: 1)
    #expect(
      harness.events(to: bob, since: mark) == [
        .usersLeft([annID]), .hostChanged(newHost: harness.user(bob)),
      ])
    // Too late to resume.
    let back = harness.resume(ann)
    #expect(harness.messages(to: back) == [.left(.networkError)])
    harness.assertConverged()
  }

  @Test func resumeWithWrongTokenIsRefused() throws {
    let harness = ServiceHarness()
    let ann = try harness.join("Ann")
    let bob = try harness.join("Bob")
    harness.close(ann)
    let mark = harness.mark
    let token = harness.clients[ann]?.resumeToken ?? 0
    let imposter = harness.resume(ann, resumeToken: token &+ 1)
    #expect(
      harness.records(since: mark) == [
        .init(connection: imposter, output: .send(.left(.networkError)))
      ])
    // The real one still can.
    let back = harness.resume(ann)
    guard case .joined? = harness.messages(to: back).first else {
      Issue.record("not resumed")
      return
    }
    _ = bob
    harness.assertConverged()
  }

  @Test func resumeOfAnUnknownSessionIsRefused() {
    let harness = ServiceHarness()
    let connection = harness.connect()
    harness.send(
      .resume(ResumeRequest(sessionID: "nope", user: 1, resumeToken: 1, lastSequence: 0)),
      on: connection)
    #expect(harness.messages(to: connection) == [.left(.networkError)])
  }

  @Test func resumeWhileStillConnectedMovesTheMembership() throws {
    let harness = ServiceHarness()
    let ann = try harness.join("Ann")
    let bob = try harness.join("Bob")
    let mark = harness.mark
    let back = harness.resume(ann)
    #expect(harness.records(since: mark).first == .init(connection: ann, output: .close))
    #expect(harness.clients[ann]?.isOpen == false)
    harness.command(.startVideo, on: bob)
    #expect(harness.events(to: back, since: mark).count == 1)
    #expect(harness.events(to: ann, since: mark).isEmpty)
    // The old connection is no longer a member.
    harness.assertConverged()
  }

  @Test func resumeOnAMemberConnectionIsRefused() throws {
    let harness = ServiceHarness()
    let ann = try harness.join("Ann")
    let bob = try harness.join("Bob")
    let client = try #require(harness.clients[ann])
    let mark = harness.mark
    harness.send(
      .resume(
        ResumeRequest(
          sessionID: client.sessionID ?? "", user: harness.user(ann),
          resumeToken: client.resumeToken ?? 0, lastSequence: client.lastSequence)),
      on: bob)
    #expect(
      harness.records(since: mark) == [
        .init(connection: bob, output: .send(.joinRefused(.sessionAlreadyInProgress)))
      ])
    harness.expectAccepted(.startVideo, on: bob)
    harness.assertConverged()
  }

  @Test func silentConnectionIsClosedThenTheGraceApplies() throws {
    let harness = ServiceHarness()
    let ann = try harness.join("Ann", role: .host)
    let bob = try harness.join("Bob")
    let annID = harness.user(ann)
    harness.advance(by: 10_000)
    harness.send(.heartbeat, on: bob)
    #expect(harness.messages(to: bob).last == .heartbeat)
    let mark = harness.mark
    harness.advance(by: 5_000)
    #expect(harness.records(since: mark) == [.init(connection: ann, output: .close)])
    #expect(harness.served()?.participants[annID] != nil)
    harness.send(.heartbeat, on: bob)
    harness.advance(by: 9_000)
    harness.send(.heartbeat, on: bob)
    let expiry = harness.mark
    harness.advance(by: 1_000)
    #expect(
      harness.events(to: bob, since: expiry) == [
        .usersLeft([annID]), .hostChanged(newHost: harness.user(bob)),
      ])
    harness.assertConverged()
  }

  @Test func silentMemberMayResumeWithinTheGrace() throws {
    let harness = ServiceHarness()
    let ann = try harness.join("Ann")
    let bob = try harness.join("Bob")
    harness.advance(by: 10_000)
    harness.send(.heartbeat, on: bob)
    harness.advance(by: 5_000)
    #expect(harness.clients[ann]?.isOpen == false)
    let back = harness.resume(ann)
    guard case .joined? = harness.messages(to: back).first else {
      Issue.record("not resumed: \(harness.messages(to: back))")
      return
    }
    harness.advance(by: 10_000)
    #expect(harness.served()?.participants.count == 2)
    harness.assertConverged()
  }

  @Test func zeroGraceRemovesAtOnce() throws {
    let harness = ServiceHarness { $0.reconnectGrace = 0 }
    let ann = try harness.join("Ann")
    let bob = try harness.join("Bob")
    let mark = harness.mark
    harness.close(ann)
    #expect(harness.events(to: bob, since: mark) == [.usersLeft([harness.user(ann)])])
    harness.assertConverged()
  }

  @Test func droppedLastMemberEndsTheSessionAfterTheGrace() throws {
    let harness = ServiceHarness()
    let ann = try harness.join("Ann")
    harness.close(ann)
    harness.advance(by: 9_999)
    #expect(harness.served() != nil)
    harness.advance(by: 1)
    #expect(harness.served() == nil)
  }

  @Test func membersDroppedTogetherLeaveInJoinOrder() throws {
    let harness = ServiceHarness()
    let watcher = try harness.join("Watcher")
    var dropped: [ConnectionID] = []
    for index in 0..<6 { dropped.append(try harness.join("D\(index)")) }
    for connection in dropped.reversed() { harness.close(connection) }
    harness.advance(by: 5_000)
    harness.send(.heartbeat, on: watcher)
    let mark = harness.mark
    harness.advance(by: 5_000)
    #expect(
      harness.events(to: watcher, since: mark) == dropped.map { .usersLeft([harness.user($0)]) })
    harness.assertConverged()
  }
}
