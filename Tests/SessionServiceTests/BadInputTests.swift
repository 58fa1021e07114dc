import SessionCore
import SessionService
import SessionTransport
import Testing

@Suite struct BadInputTests {
  /// One command of each kind, about `target`.
  static func everyCommand(about target: UserID) -> [SessionCommand] {
    [
      .leave(end: false), .leave(end: true), .startVideo, .stopVideo, .startAudio, .stopAudio,
      .muteAudio(user: target), .unmuteAudio(user: target), .muteAllAudio(allowUnmute: true),
      .unmuteAllAudio, .allowAudioUnmutedBySelf(false), .startShare(kind: .view), .pauseShare,
      .resumeShare, .stopShare, .lockShare(true), .enableMultiShare(true),
      .disableViewerAnnotation(true), .startAnnotation(shareOwner: target),
      .stopAnnotation(shareOwner: target), .clearAnnotation(shareOwner: target, type: .all),
      .makeHost(target), .makeManager(target), .revokeManager(target), .removeUser(target),
      .reclaimHost, .changeName(user: target, name: "N"),
      .sendChat(receiver: nil, content: "hi"), .sendChat(receiver: target, content: "hi"),
      .deleteChatMessage(messageID: "m"), .changeChatPrivilege(.noOne), .reportTalking(true),
      .reportNetworkQuality(.good),
    ]
  }

  @Test func commandsBeforeJoinAreNotInSession() throws {
    let harness = ServiceHarness()
    let hal = try harness.join("Hal", role: .host)
    let stranger = harness.connect()
    for command in Self.everyCommand(about: harness.user(hal)) {
      harness.expectRefused(command, on: stranger, .notInSession)
    }
    harness.assertConverged()
  }

  @Test func commandsWhileAwaitingPasswordAreNotInSession() throws {
    let harness = ServiceHarness()
    let hal = try harness.join("Hal", role: .host, password: "pw")
    let bob = harness.connect()
    harness.send(.join(harness.joinRequest("Bob")), on: bob)
    for command in Self.everyCommand(about: harness.user(hal)) {
      harness.expectRefused(command, on: bob, .notInSession)
    }
  }

  @Test func commandsAfterLeavingAreNotInSession() throws {
    let harness = ServiceHarness()
    let hal = try harness.join("Hal", role: .host)
    let pat = try harness.join("Pat")
    harness.command(.leave(end: false), on: pat)
    for command in Self.everyCommand(about: harness.user(hal)) {
      harness.expectRefused(command, on: pat, .notInSession)
    }
    harness.assertConverged()
  }

  @Test func leavingTwiceIsNotInSession() throws {
    let harness = ServiceHarness()
    try harness.join("Hal", role: .host)
    let pat = try harness.join("Pat")
    let mark = harness.mark
    harness.expectAccepted(.leave(end: false), on: pat)
    harness.expectRefused(.leave(end: false), on: pat, .notInSession)
    harness.expectRefused(.leave(end: true), on: pat, .notInSession)
    #expect(harness.messages(to: pat, since: mark).filter { $0 == .left(.bySelf) }.count == 1)
    harness.assertConverged()
  }

  @Test func commandsAboutAUserWhoLeftAreInvalid() throws {
    let harness = ServiceHarness()
    let hal = try harness.join("Hal", role: .host)
    let pat = try harness.join("Pat")
    let patID = harness.user(pat)
    harness.command(.startShare(kind: .view), on: pat)
    harness.command(.leave(end: false), on: pat)
    for command: SessionCommand in [
      .muteAudio(user: patID), .unmuteAudio(user: patID), .makeHost(patID), .makeManager(patID),
      .revokeManager(patID), .removeUser(patID), .changeName(user: patID, name: "Ghost"),
      .sendChat(receiver: patID, content: "hello?"),
    ] {
      harness.expectRefused(command, on: hal, .invalidParameter)
    }
    for command: SessionCommand in [
      .startAnnotation(shareOwner: patID), .stopAnnotation(shareOwner: patID),
      .clearAnnotation(shareOwner: patID, type: .all),
    ] {
      harness.expectRefused(command, on: hal, .sessionShareError)
    }
    harness.assertConverged()
  }

  @Test func messagesFromAnUnknownConnectionAreDropped() throws {
    let harness = ServiceHarness()
    try harness.join("Hal", role: .host)
    let before = harness.served()
    let unknown = ConnectionID(4_242)
    let mark = harness.mark
    harness.send(.command(1, .startVideo), on: unknown)
    harness.send(.join(harness.joinRequest("Eve")), on: unknown)
    harness.send(.heartbeat, on: unknown)
    harness.send(.password("x"), on: unknown)
    #expect(harness.records(since: mark).isEmpty)
    #expect(harness.served() == before)
    #expect(harness.service.connectionCount == 1)
  }

  @Test func messagesOnAClosedConnectionAreDropped() throws {
    let harness = ServiceHarness()
    try harness.join("Hal", role: .host)
    let pat = try harness.join("Pat")
    harness.close(pat)
    let before = harness.served()
    let mark = harness.mark
    harness.send(.command(99, .startVideo), on: pat)
    #expect(harness.records(since: mark).isEmpty)
    #expect(harness.served() == before)
  }

  @Test func closingAnUnknownConnectionIsHarmless() throws {
    let harness = ServiceHarness()
    try harness.join("Hal", role: .host)
    let before = harness.served()
    harness.service.connectionClosed(ConnectionID(777), now: harness.now)
    #expect(harness.served() == before)
  }

  @Test func refusedJoinChangesNothingForMembers() throws {
    let harness = ServiceHarness()
    let hal = try harness.join("Hal", role: .host)
    let mark = harness.mark
    for bad in BadJoinToken.all {
      let connection = harness.connect()
      harness.send(.join(harness.joinRequest("Eve", token: bad.make(harness))), on: connection)
    }
    #expect(harness.messages(to: hal, since: mark).isEmpty)
    #expect(harness.served()?.participants.count == 1)
  }
}

/// The command channel from a client that skips the SDK's own checks: every field is input.
@Suite struct CommandChannelBadInputTests {
  @Test func commandsTheRulesRefuseReachNobodyAndChangeNothing() throws {
    let harness = ServiceHarness()
    let hal = try harness.join("Hal", role: .host)
    let pat = try harness.join("Pat")
    let patID = harness.user(pat)
    for command: SessionCommand in [
      .sendCommand(receiver: nil, content: ""),
      .sendCommand(receiver: nil, content: String(repeating: "x", count: 513)),
      .sendCommand(receiver: nil, content: String(repeating: "🙋", count: 513)),
      .sendCommand(receiver: nil, content: String(repeating: "x", count: 1_000_000)),
      .sendCommand(receiver: patID, content: "to myself"),
      .sendCommand(receiver: UserID(rawValue: .max), content: "to nobody"),
    ] {
      harness.expectRefused(command, on: pat, .invalidParameter)
    }
    #expect(
      harness.notices(to: hal).allSatisfy { if case .commandReceived = $0 { false } else { true } })
    harness.assertConverged()
  }

  @Test func theSessionsRateHoldsForEveryoneTogetherAndAFloodCostsOthersNothing() throws {
    let harness = ServiceHarness()
    let hal = try harness.join("Hal", role: .host)
    let pat = try harness.join("Pat")
    let halID = harness.user(hal)
    let mark = harness.mark
    harness.expectAccepted(.sendCommand(receiver: halID, content: "1"), on: pat)
    harness.expectAccepted(.sendCommand(receiver: nil, content: "2"), on: hal)
    // A flood from Pat within the second: each one refused, nothing delivered, nothing kept.
    for _ in 0..<1_000 {
      harness.expectRefused(
        .sendCommand(receiver: halID, content: "3"), on: pat, .callTooFrequently)
    }
    #expect(
      harness.notices(to: hal, since: mark) == [
        .commandReceived(sender: harness.user(pat), content: "1")
      ])
    harness.advance(by: 1_000)
    harness.expectAccepted(.sendCommand(receiver: halID, content: "4"), on: pat)
    #expect(harness.notices(to: hal, since: mark).count == 2)
    harness.assertConverged()
  }
}
