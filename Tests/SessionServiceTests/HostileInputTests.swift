import SessionCore
import SessionTransport
import Testing

@testable import SessionService

/// One character of `1 + marks` scalars: `"e"` and `marks` combining acute accents.
private func heavyCharacter(_ marks: Int) -> String {
  "e" + String(repeating: "\u{0301}", count: marks)
}

/// Well-formed messages with hostile values: each is refused with its error or kept within the
/// limits, and nobody else is affected (B1, B2, B5, B7 of the hardening issue, and the audit).
@Suite struct HostileInputTests {
  // MARK: B1: idle timeout minutes

  @Test(arguments: [153_722_867_280_913, Int.max, 1 << 62])
  func hugeIdleTimeoutMeansNeverAndDoesNotTrap(_ minutes: Int) throws {
    let harness = ServiceHarness { $0.heartbeatTimeout = .max }
    try harness.join("Hal", role: .host, idleTimeoutMinutes: minutes)
    harness.advance(by: 48 * 3_600_000)
    harness.advance(by: 365 * 24 * 3_600_000)
    #expect(harness.served() != nil)
    harness.assertConverged()
  }

  @Test func idleTimeoutMinutesAreMillisecondsOrNever() {
    let fallback: Int64 = 40 * 60_000
    #expect(SessionService.idleTimeout(minutes: nil, default: fallback) == fallback)
    #expect(SessionService.idleTimeout(minutes: 0, default: fallback) == 0)
    #expect(SessionService.idleTimeout(minutes: 1, default: fallback) == 60_000)
    #expect(SessionService.idleTimeout(minutes: -1, default: fallback) == -1)
    #expect(SessionService.idleTimeout(minutes: Int.min, default: fallback) == -1)
    #expect(SessionService.idleTimeout(minutes: Int.max, default: fallback) == -1)
    let largest = Int(Int64.max / 60_000)
    #expect(
      SessionService.idleTimeout(minutes: largest, default: fallback) == Int64(largest) * 60_000)
    #expect(SessionService.idleTimeout(minutes: largest + 1, default: fallback) == -1)
  }

  @Test func aZeroMinuteIdleTimeoutEndsALoneMemberSessionAtTheNextTick() throws {
    let harness = ServiceHarness()
    try harness.join("Hal", role: .host, idleTimeoutMinutes: 0)
    harness.tick()
    #expect(harness.served() == nil)
  }

  // MARK: B2: names limited in bytes

  @Test func bigNamesNeverOutgrowTheJoinSnapshot() throws {
    let harness = ServiceHarness()
    let huge = "r1" + String(repeating: "\u{0301}", count: 32_000)
    let hal = try harness.join("Hal", role: .host)
    for index in 0..<24 {
      let member = try harness.join(index.isMultiple(of: 2) ? huge : "m\(index)")
      harness.command(.changeName(user: harness.user(member), name: huge), on: member)
    }
    let late = try harness.join("Late")
    let served = try #require(harness.served())
    for participant in served.participants.values {
      #expect(participant.name.utf8.count <= 800)
      #expect(participant.name.count <= 200)
    }
    // A member who drops comes back.
    harness.close(late)
    let back = harness.resume(late)
    #expect(harness.replica(back)?.phase == .inSession)
    #expect(harness.replica(hal)?.participants.count == 26)
    harness.assertConverged()
  }

  @Test func longNamesAreCutAtAWholeCharacterWithinBothLimits() throws {
    let harness = ServiceHarness()
    let emoji = String(repeating: "👩‍👩‍👧‍👦", count: 100)  // 25 bytes a character
    let ada = try harness.join(emoji, role: .host)
    let name = try #require(harness.participant(ada)?.name)
    #expect(name.utf8.count <= 800 && name.utf8.count > 775)
    #expect(name == String(emoji.prefix(32)))
    let plain = String(repeating: "é", count: 300)
    harness.expectAccepted(.changeName(user: harness.user(ada), name: plain), on: ada)
    #expect(harness.participant(ada)?.name == String(plain.prefix(200)))
    harness.assertConverged()
  }

  @Test func aNameThatCutsToNothingIsRefused() throws {
    let harness = ServiceHarness()
    let hal = try harness.join("Hal", role: .host)
    let bob = harness.connect()
    let mark = harness.mark
    harness.send(.join(harness.joinRequest(heavyCharacter(1_000))), on: bob)
    #expect(harness.messages(to: bob, since: mark) == [.joinRefused(.joinSessionNoUserName)])
    #expect(harness.events(to: hal, since: mark).isEmpty)
    harness.expectRefused(
      .changeName(user: harness.user(hal), name: heavyCharacter(1_000)), on: hal,
      .invalidParameter)
    harness.assertConverged()
  }

  @Test func aSessionNameOverItsByteLimitIsTooLong() throws {
    let harness = ServiceHarness()
    let name = "Room" + heavyCharacter(400)  // 5 characters, 805 bytes
    let connection = harness.connect()
    harness.send(
      .join(harness.joinRequest("Ada", session: name, role: .host)), on: connection)
    #expect(harness.messages(to: connection) == [.joinRefused(.joinSessionSessionNameTooLong)])
    #expect(harness.service.liveSessionNames.isEmpty)
  }

  @Test func aUserKeyOverItsByteLimitIsRefused() throws {
    let harness = ServiceHarness()
    let connection = harness.connect()
    let key = String(repeating: heavyCharacter(40), count: 30)  // 30 characters, 2.4 KB
    var request = harness.joinRequest("Ada", role: .host)
    request.token = harness.token(role: .host, userKey: key)
    harness.send(.join(request), on: connection)
    #expect(
      harness.messages(to: connection) == [.joinRefused(.joinSessionTokenUserIdentityTooLong)])
  }

  @Test func theWorstCaseSnapshotOfAFullSessionFitsOneFrame() throws {
    let limits = SessionLimits()
    let budget = SnapshotBudget(
      limits: limits, maxUserKeyBytes: TokenLimits().maxUserKeyBytes,
      maxSessionIDBytes: SessionService.maxSessionIDBytes)
    let name = String(repeating: "x", count: 800)
    let key = String(repeating: "k", count: 144)
    let base: UInt32 = 4_000_000_000
    let users = (0..<limits.maxUsers).map { index in
      Participant(
        id: UserID(base + UInt32(index)), name: name, role: index == 0 ? .host : .participant,
        isVideoOn: true, audio: AudioStatus(type: .voip, isMuted: false, isTalking: true),
        shareStatus: .started, networkQuality: .good, joinOrder: .max - UInt64(index),
        customUserKey: key)
    }
    let shares = users.map { user in
      ActiveShare(
        owner: user.id, status: .started, kind: .view, annotators: [user.id], clearCount: .min,
        startOrder: .max - UInt64(user.id.rawValue))
    }
    let snapshot = SessionSnapshot(
      sessionName: String(repeating: "S", count: limits.maxSessionNameBytes),
      sessionID: "S18446744073709551615-ffffffff", myself: users[0].id, participants: users,
      shareSetting: .multi, shares: shares, chatPrivilege: .everyonePubliclyAndPrivately,
      activeSpeakers: users.map(\.id),
      spotlighted: users.prefix(SessionState.maxSpotlighted).map(\.id),
      sequence: .max)
    let size = WireEncoder.payload(ServerMessage.joined(snapshot, resumeToken: .max)).count
    let bound = budget.joinedPayloadBound(users: limits.maxUsers)
    #expect(size <= bound)
    #expect(bound <= WireProtocol.defaultMaxFrameSize)
    // The figures Docs/WireProtocol.md §7 and Docs/SessionService.md quote.
    #expect(bound == 1_026_118)
    #expect(budget.usersFitting(in: WireProtocol.defaultMaxFrameSize) == 1_021)
    // What a session admits with the default message size (its snapshot in fragments).
    #expect(budget.usersFitting(in: WireProtocol.defaultMaxMessageSize) == 16_395)
    let service = SessionService(configuration: ServiceConfiguration(credentials: [:]))
    #expect(service.admissionLimit == limits.maxUsers)
  }

  @Test func aFrameTooSmallForTheRosterLowersTheAdmissionLimitAndAnnouncesNoOne() throws {
    let harness = ServiceHarness { $0.maxMessageSize = 8_000 }
    let limit = harness.service.admissionLimit
    #expect(limit > 2 && limit < 10)
    let hal = try harness.join("Hal", role: .host)
    for index in 1..<limit { try harness.join("m\(index)") }
    let mark = harness.mark
    let late = harness.connect()
    harness.send(.join(harness.joinRequest("Late")), on: late)
    #expect(harness.messages(to: late, since: mark) == [.joinRefused(.sessionJoinFailed)])
    #expect(harness.events(to: hal, since: mark).isEmpty)
    harness.assertConverged()
  }

  // MARK: B5: chat that truncates to nothing

  @Test func chatThatTruncatesToNothingIsRefusedLikeEmptyChat() throws {
    let harness = ServiceHarness()
    let hal = try harness.join("Hal", role: .host)
    try harness.join("Pat")
    let heavy = heavyCharacter(5_000)  // one character, 10,001 bytes
    harness.expectRefused(.sendChat(receiver: nil, content: heavy), on: hal, .invalidParameter)
    harness.expectRefused(.sendChat(receiver: nil, content: ""), on: hal, .invalidParameter)
    // Allowed: a message that truncates to something.
    let sent = harness.expectAccepted(.sendChat(receiver: nil, content: "hi" + heavy), on: hal)
    #expect(!sent.isEmpty)
    #expect(harness.served()?.chatMessages.last?.content == "hi")
    harness.assertConverged()
  }

  // MARK: B7: bounded chat history

  @Test func chatHistoryKeepsTheNewestMessagesOnly() throws {
    let harness = ServiceHarness { $0.limits.maxChatHistory = 50 }
    let hal = try harness.join("Hal", role: .host)
    let pat = try harness.join("Pat")
    for index in 0..<130 {
      harness.command(.sendChat(receiver: nil, content: "m\(index)"), on: hal)
      harness.command(.sendChat(receiver: harness.user(hal), content: "p\(index)"), on: pat)
    }
    let history = try #require(harness.served()?.chatMessages)
    #expect(history.count == 50)
    #expect(history.last?.content == "p129")
    let session = try #require(harness.service.sessions["room"])
    #expect(session.messageStamps.count == 50)
    // A forgotten message cannot be deleted; a kept one can.
    let oldest = try #require(harness.served()?.chatMessages.first)
    let sessionID = try #require(harness.served()?.sessionID)
    harness.expectRefused(
      .deleteChatMessage(messageID: "\(sessionID)-m1"), on: hal, .invalidParameter)
    harness.expectAccepted(.deleteChatMessage(messageID: oldest.id), on: hal)
    #expect(harness.served()?.chatMessages.count == 49)
    #expect(harness.replica(hal)?.chatMessages.count ?? 0 <= 1_000)
    harness.assertConverged()
  }

  @Test func aChatHistoryOfZeroKeepsNothingButStillDelivers() throws {
    let harness = ServiceHarness { $0.limits.maxChatHistory = 0 }
    let hal = try harness.join("Hal", role: .host)
    let pat = try harness.join("Pat")
    let mark = harness.mark
    harness.expectAccepted(.sendChat(receiver: nil, content: "hello"), on: hal)
    #expect(harness.events(to: pat, since: mark).count == 1)
    #expect(harness.served()?.chatMessages.isEmpty == true)
    #expect(harness.service.sessions["room"]?.messageStamps.isEmpty == true)
  }

  // MARK: Logs

  @Test func whatAClientSentCannotForgeAServiceLogLine() throws {
    let harness = ServiceHarness()
    let connection = harness.connect()
    let forged = harness.minter.mintRaw(
      headerJSON: #"{"alg":"HS256\nwarning service: forged line","typ":"JWT"}"#,
      payloadJSON: #"{"app_key":"harnessKey"}"#)
    var request = harness.joinRequest("Ada")
    request.token = forged
    harness.send(.join(request), on: connection)
    #expect(harness.messages(to: connection) == [.joinRefused(.joinSessionInvalidSessionToken)])
    let records = harness.log.records
    #expect(!records.isEmpty)
    for record in records {
      #expect(!record.message.contains { $0.isNewline }, "\(record)")
      #expect(record.label == "service")
    }
    #expect(records.contains { $0.message.contains("\\n") && $0.level == .notice })
  }

  // MARK: Audit: ids, annotation

  @Test func aSessionThatUsedEveryUserIDRefusesNewJoinsAndKeepsItsMembers() throws {
    let harness = ServiceHarness()
    let hal = try harness.join("Hal", role: .host)
    harness.service.sessions["room"]?.nextUserID = .max - 1
    let last = try harness.join("Last")
    #expect(harness.user(last) == UserID(.max))
    let mark = harness.mark
    let refused = harness.connect()
    harness.send(.join(harness.joinRequest("One too many")), on: refused)
    #expect(harness.messages(to: refused, since: mark) == [.joinRefused(.sessionJoinFailed)])
    #expect(harness.events(to: hal, since: mark).isEmpty)
    harness.assertConverged()
  }

  @Test func aUserAnnotatesOnOneShareAtATime() throws {
    let harness = ServiceHarness()
    let hal = try harness.join("Hal", role: .host)
    let pat = try harness.join("Pat")
    let viewer = try harness.join("Vi")
    harness.expectAccepted(.enableMultiShare(true), on: hal)
    harness.expectAccepted(.startShare(kind: .view), on: hal)
    harness.expectAccepted(.startShare(kind: .view), on: pat)
    harness.expectAccepted(.startAnnotation(shareOwner: harness.user(hal)), on: viewer)
    harness.expectRefused(
      .startAnnotation(shareOwner: harness.user(pat)), on: viewer, .wrongUsage)
    harness.expectAccepted(.stopAnnotation(shareOwner: harness.user(hal)), on: viewer)
    harness.expectAccepted(.startAnnotation(shareOwner: harness.user(pat)), on: viewer)
    harness.assertConverged()
  }
}
