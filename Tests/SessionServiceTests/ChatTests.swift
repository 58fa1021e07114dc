import SessionCore
import SessionService
import SessionTransport
import Testing

@Suite struct ChatTests {
  /// Host Hal, manager Mia, participants Pat and Quinn.
  private func classroom() throws -> (
    ServiceHarness, hal: ConnectionID, mia: ConnectionID,
    pat: ConnectionID, quinn: ConnectionID
  ) {
    let harness = ServiceHarness()
    let hal = try harness.join("Hal", role: .host)
    let mia = try harness.join("Mia", role: .host)
    let pat = try harness.join("Pat")
    let quinn = try harness.join("Quinn")
    return (harness, hal, mia, pat, quinn)
  }

  /// The message in the last `chatMessageReceived` sent to `connection`.
  private func lastMessage(_ harness: ServiceHarness, to connection: ConnectionID) -> ChatMessage? {
    for message in harness.messages(to: connection).reversed() {
      switch message {
      case .events(let batch):
        for case .chatMessageReceived(let chat) in batch.events.reversed() { return chat }
      case .notice(.chatMessageReceived(let chat)):
        return chat
      default:
        continue
      }
    }
    return nil
  }

  @Test func chatToAllIsANumberedEventForEveryone() throws {
    let (harness, hal, mia, pat, quinn) = try classroom()
    let sequence = harness.service.lastSequence(ofSession: "Room") ?? 0
    let mark = harness.mark
    harness.expectAccepted(.sendChat(receiver: nil, content: "hello"), on: pat)
    let message = try #require(lastMessage(harness, to: pat))
    #expect(message.sender == harness.user(pat))
    #expect(message.receiver == nil)
    #expect(message.content == "hello")
    #expect(message.timestamp == harness.now)
    for member in [hal, mia, pat, quinn] {
      #expect(
        harness.messages(to: member, since: mark) == [
          .events(EventBatch(firstSequence: sequence + 1, events: [.chatMessageReceived(message)]))
        ])
      #expect(harness.replica(member)?.chatMessages == [message])
    }
    harness.assertConverged()
  }

  @Test func chatToOneReachesOnlySenderAndReceiver() throws {
    let (harness, hal, _, pat, quinn) = try classroom()
    let sequence = harness.service.lastSequence(ofSession: "Room")
    let mark = harness.mark
    harness.expectAccepted(.sendChat(receiver: harness.user(quinn), content: "psst"), on: pat)
    let message = try #require(lastMessage(harness, to: quinn))
    #expect(message.receiver == harness.user(quinn))
    #expect(
      harness.records(since: mark) == [
        .init(connection: pat, output: .send(.notice(.chatMessageReceived(message)))),
        .init(connection: quinn, output: .send(.notice(.chatMessageReceived(message)))),
      ])
    #expect(harness.service.lastSequence(ofSession: "Room") == sequence)
    #expect(harness.replica(hal)?.chatMessages.isEmpty == true)
    harness.assertConverged()
  }

  @Test func chatToSelfOrAbsentUserIsInvalid() throws {
    let (harness, _, _, pat, _) = try classroom()
    harness.expectRefused(
      .sendChat(receiver: harness.user(pat), content: "me"), on: pat, .invalidParameter)
    harness.expectRefused(.sendChat(receiver: 9_999, content: "ghost"), on: pat, .invalidParameter)
  }

  @Test func emptyChatIsRefused() throws {
    let (harness, _, _, pat, quinn) = try classroom()
    harness.expectRefused(.sendChat(receiver: nil, content: ""), on: pat, .invalidParameter)
    harness.expectRefused(
      .sendChat(receiver: harness.user(quinn), content: ""), on: pat, .invalidParameter)
  }

  @Test func longChatIsTruncatedToTenThousandBytes() throws {
    let (harness, _, _, pat, quinn) = try classroom()
    // 4,999 two-byte characters and a three-byte one do not fit in 10,000 bytes.
    let content = String(repeating: "é", count: 4_999) + "€" + "tail"
    harness.expectAccepted(.sendChat(receiver: nil, content: content), on: pat)
    let message = try #require(lastMessage(harness, to: quinn))
    #expect(message.content == String(repeating: "é", count: 4_999))
    #expect(message.content.utf8.count <= 10_000)
    let exact = String(repeating: "x", count: 10_000)
    harness.expectAccepted(.sendChat(receiver: nil, content: exact), on: pat)
    #expect(lastMessage(harness, to: quinn)?.content == exact)
  }

  @Test func noOnePrivilegeRefusesParticipantsButNotModerators() throws {
    let (harness, hal, mia, pat, quinn) = try classroom()
    let mark = harness.mark
    harness.expectAccepted(.changeChatPrivilege(.noOne), on: mia)
    #expect(harness.events(to: pat, since: mark) == [.chatPrivilegeChanged(.noOne)])
    harness.expectRefused(.sendChat(receiver: nil, content: "hi"), on: pat, .sessionNoRights)
    harness.expectRefused(
      .sendChat(receiver: harness.user(hal), content: "hi"), on: quinn, .sessionNoRights)
    harness.expectAccepted(.sendChat(receiver: nil, content: "quiet please"), on: hal)
    harness.expectAccepted(.sendChat(receiver: harness.user(pat), content: "you too"), on: mia)
    harness.assertConverged()
  }

  @Test func everyonePubliclyRefusesPrivateChat() throws {
    let (harness, hal, mia, pat, quinn) = try classroom()
    harness.expectAccepted(.changeChatPrivilege(.everyonePublicly), on: hal)
    harness.expectAccepted(.sendChat(receiver: nil, content: "hi all"), on: pat)
    harness.expectRefused(
      .sendChat(receiver: harness.user(quinn), content: "psst"), on: pat, .sessionNoRights)
    harness.expectAccepted(.sendChat(receiver: harness.user(quinn), content: "note"), on: mia)
    harness.assertConverged()
  }

  @Test func participantMayNotChangeChatPrivilege() throws {
    let (harness, _, _, pat, _) = try classroom()
    harness.expectRefused(.changeChatPrivilege(.noOne), on: pat, .sessionNoRights)
  }

  @Test func unknownChatPrivilegeIsInvalid() throws {
    let (harness, hal, _, _, _) = try classroom()
    harness.expectRefused(.changeChatPrivilege(.unknown), on: hal, .invalidParameter)
  }

  @Test func senderDeletesOwnMessage() throws {
    let (harness, hal, _, pat, _) = try classroom()
    harness.command(.sendChat(receiver: nil, content: "oops"), on: pat)
    let message = try #require(lastMessage(harness, to: pat))
    let mark = harness.mark
    harness.expectAccepted(.deleteChatMessage(messageID: message.id), on: pat)
    #expect(
      harness.notices(to: hal, since: mark) + harness.events(to: hal, since: mark) == [
        .chatMessageDeleted(messageID: message.id, deletedBy: .selfSender)
      ])
    #expect(harness.replica(hal)?.chatMessages.isEmpty == true)
    #expect(harness.served()?.chatMessages.isEmpty == true)
    harness.expectRefused(.deleteChatMessage(messageID: message.id), on: pat, .invalidParameter)
    harness.assertConverged()
  }

  @Test func participantMayNotDeleteOthersMessages() throws {
    let (harness, hal, mia, pat, quinn) = try classroom()
    harness.command(.sendChat(receiver: nil, content: "one"), on: quinn)
    let message = try #require(lastMessage(harness, to: quinn))
    harness.expectRefused(.deleteChatMessage(messageID: message.id), on: pat, .sessionNoRights)
    harness.expectAccepted(.deleteChatMessage(messageID: message.id), on: mia)
    #expect(
      harness.notices(to: hal).contains(
        .chatMessageDeleted(messageID: message.id, deletedBy: .host))
        || harness.events(to: hal).contains(
          .chatMessageDeleted(messageID: message.id, deletedBy: .host))
    )
    harness.assertConverged()
  }

  @Test func deletingAnUnknownMessageIsInvalid() throws {
    let (harness, hal, _, _, _) = try classroom()
    harness.expectRefused(.deleteChatMessage(messageID: "nope"), on: hal, .invalidParameter)
  }

  @Test func deletingAPrivateMessageTellsOnlyItsTwoUsers() throws {
    let (harness, _, _, pat, quinn) = try classroom()
    harness.command(.sendChat(receiver: harness.user(quinn), content: "psst"), on: pat)
    let message = try #require(lastMessage(harness, to: quinn))
    let mark = harness.mark
    harness.expectAccepted(.deleteChatMessage(messageID: message.id), on: pat)
    let deleted = ServiceHarness.Output.send(
      .notice(.chatMessageDeleted(messageID: message.id, deletedBy: .selfSender)))
    #expect(
      harness.records(since: mark) == [
        .init(connection: pat, output: deleted), .init(connection: quinn, output: deleted),
      ])
    harness.assertConverged()
  }

  @Test func deletingAMessageSkipsMembersWhoNeverSawIt() throws {
    let (harness, hal, _, pat, _) = try classroom()
    harness.command(.sendChat(receiver: nil, content: "before you came"), on: pat)
    let message = try #require(lastMessage(harness, to: pat))
    let late = try harness.join("Late")
    let mark = harness.mark
    harness.expectAccepted(.deleteChatMessage(messageID: message.id), on: hal)
    #expect(harness.messages(to: late, since: mark).isEmpty)
    #expect(harness.replica(pat)?.chatMessages.isEmpty == true)
    #expect(harness.problems.isEmpty, "\(harness.problems)")
    harness.assertConverged()
  }
}
