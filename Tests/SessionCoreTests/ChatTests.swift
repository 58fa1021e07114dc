import Testing

@testable import SessionCore

@Suite("Chat: messages, deletions, privilege")
struct ChatTests {
  static func message(
    _ id: String, from sender: UserID = 1, to receiver: UserID? = nil, _ content: String = "hi",
    at timestamp: Int64 = 1_000
  ) -> ChatMessage {
    ChatMessage(id: id, sender: sender, receiver: receiver, content: content, timestamp: timestamp)
  }

  @Test func chatMessageReceivedAppendsTheMessageWithEveryField() {
    var state = SessionBuilder.classroom.build()
    let toAll = Self.message("m1", from: 1, "Open the worksheet", at: 1_700)
    expectApplies(.chatMessageReceived(toAll), to: &state) { $0.chatMessages = [toAll] }
    let direct = Self.message("m2", from: 4, to: 3, "Which page?", at: 1_800)
    expectApplies(.chatMessageReceived(direct), to: &state) { $0.chatMessages.append(direct) }
    #expect(state.chatMessages.map(\.id) == ["m1", "m2"])
    #expect(state.chatMessages[0].isChatToAll)
    #expect(!state.chatMessages[1].isChatToAll)
    #expect(state.chatMessages[1].receiver == 3)
    #expect(state.chatMessages[1].content == "Which page?")
    #expect(state.chatMessages[1].timestamp == 1_800)
  }

  @Test func theHistoryKeepsTheNewestMessagesAndForgetsTheirIDs() throws {
    var state = SessionState(chatHistoryLimit: 3)
    let join: [SessionEvent] = [
      .initialized, .joinRequested(sessionName: "Algebra101", userName: "Ada"),
      .sessionJoined(SessionBuilder.classroom.snapshot),
    ]
    for event in join { try state.reduce(event) }
    for index in 1...5 { applyAll([.chatMessageReceived(Self.message("m\(index)"))], to: &state) }
    #expect(state.chatMessages.map(\.id) == ["m3", "m4", "m5"])
    #expect(state.chat.isConsistent && !state.chat.contains("m2") && state.chat.contains("m3"))
    // A forgotten message is unknown: deleting it is rejected, and its id may come again.
    expectRejects(
      .chatMessageDeleted(messageID: "m1", deletedBy: .host), in: state, .unknownOrDuplicateMessage)
    applyAll([.chatMessageDeleted(messageID: "m4", deletedBy: .host)], to: &state)
    #expect(state.chatMessages.map(\.id) == ["m3", "m5"])
    // The limit survives leaving and joining again.
    applyAll([.sessionLeft(reason: .bySelf)], to: &state)
    #expect(state.chatHistoryLimit == 3)
  }

  /// Forgotten messages are dropped from the front in bulk: however many came and went, the
  /// history is the newest `limit`, deletes find what is kept, and states with the same kept
  /// messages are equal whatever they forgot.
  @Test(arguments: [0, 1, 3, 100])
  func aLongHistoryKeepsExactlyTheNewest(limit: Int) throws {
    var state = SessionState(chatHistoryLimit: limit)
    let join: [SessionEvent] = [
      .initialized, .joinRequested(sessionName: "Algebra101", userName: "Ada"),
      .sessionJoined(SessionBuilder.classroom.snapshot),
    ]
    for event in join { try state.reduce(event) }
    var fresh = state
    for index in 1...500 { try state.reduce(.chatMessageReceived(Self.message("m\(index)"))) }
    let newest = (1...500).suffix(limit).map { "m\($0)" }
    #expect(state.chatMessages.map(\.id) == newest)
    #expect(state.chat.isConsistent && newest.allSatisfy(state.chat.contains))
    #expect(state.checkInvariants().isEmpty)
    for id in newest { try fresh.reduce(.chatMessageReceived(Self.message(id))) }
    #expect(state == fresh)
    if let oldest = newest.first {
      try state.reduce(.chatMessageDeleted(messageID: oldest, deletedBy: .host))
      #expect(state.chatMessages.map(\.id) == Array(newest.dropFirst()))
    }
    expectRejects(
      .chatMessageDeleted(messageID: "m1", deletedBy: .host), in: state, .unknownOrDuplicateMessage)
  }

  @Test func theDefaultHistoryIsTheDefaultLimit() {
    #expect(SessionState().chatHistoryLimit == SessionLimits().maxChatHistory)
    #expect(SessionState(chatHistoryLimit: -4).chatHistoryLimit == 0)
  }

  @Test func aMessageIDSeenBeforeIsADuplicate() {
    var state = SessionBuilder.classroom.build()
    applyAll([.chatMessageReceived(Self.message("m1"))], to: &state)
    expectRejects(
      .chatMessageReceived(Self.message("m1", from: 4, "again")), in: state,
      .unknownOrDuplicateMessage)
  }

  @Test func aMessageFromOrToAnUnknownUserIsRejected() {
    let state = SessionBuilder.classroom.build()
    expectRejects(.chatMessageReceived(Self.message("m1", from: 9)), in: state, .unknownUser)
    expectRejects(.chatMessageReceived(Self.message("m1", to: 9)), in: state, .unknownUser)
  }

  @Test func chatMessageDeletedRemovesTheMessage() {
    var state = SessionBuilder.classroom.build()
    let first = Self.message("m1")
    let second = Self.message("m2", from: 4)
    applyAll([.chatMessageReceived(first), .chatMessageReceived(second)], to: &state)
    expectApplies(.chatMessageDeleted(messageID: "m1", deletedBy: .host), to: &state) {
      $0.chatMessages = [second]
    }
  }

  @Test func deletingAnUnknownMessageIsRejected() {
    var state = SessionBuilder.classroom.build()
    applyAll([.chatMessageReceived(Self.message("m1"))], to: &state)
    expectRejects(
      .chatMessageDeleted(messageID: "m9", deletedBy: .selfSender), in: state,
      .unknownOrDuplicateMessage)
    applyAll([.chatMessageDeleted(messageID: "m1", deletedBy: .dlp)], to: &state)
    expectRejects(
      .chatMessageDeleted(messageID: "m1", deletedBy: .selfSender), in: state,
      .unknownOrDuplicateMessage)
  }

  @Test func messagesOutliveTheirSendersMembership() {
    var state = SessionBuilder.classroom.build()
    applyAll([.chatMessageReceived(Self.message("m1", from: 4)), .usersLeft([4])], to: &state)
    #expect(state.chatMessages.map(\.sender) == [4])
  }

  @Test(arguments: ChatPrivilege.allCases)
  func chatPrivilegeChangedSetsThePrivilege(privilege: ChatPrivilege) {
    var state = SessionBuilder.classroom.build()
    expectApplies(.chatPrivilegeChanged(privilege), to: &state) { $0.chatPrivilege = privilege }
  }
}
