import SessionCore
import SessionSDK
import Testing

@testable import SessionSimulation

/// The delivery properties, both ways: a well-formed sequence passes, each break is named.
@Suite struct DeliveryMonitorTests {
  private func monitor(_ callbacks: [VideoSDKCallback]) -> DeliveryMonitor {
    var monitor = DeliveryMonitor()
    let numbers = ChatNumbers()
    for callback in callbacks { monitor.observe(callback, numbers: numbers) }
    return monitor
  }

  private func chat(_ id: String) -> ChatMessage {
    ChatMessage(id: id, sender: 2, receiver: nil, content: "hi", timestamp: 0)
  }

  @Test func aWellFormedSessionHasNoProblems() {
    let seen = monitor([
      .onSessionJoin, .onUserJoin([1, 2]), .onUserVideoStatusChanged([2]),
      .onUserHostChanged(1), .onChatNewMessageNotify(chat("m1")), .onUserLeave([2]),
      .onUserJoin([3]), .onSessionLeave(.bySelf), .onSessionJoin, .onUserJoin([1, 3]),
    ])
    #expect(seen.problems.isEmpty)
    #expect(seen.known.elements == [1, 3])
    #expect(seen.inSession)
  }

  @Test func aSecondJoinOfTheSameUserIsADuplicate() {
    let seen = monitor([.onSessionJoin, .onUserJoin([1, 2]), .onUserJoin([2])])
    #expect(seen.problems == ["duplicate onUserJoin of #2"])
  }

  @Test func aLeaveOfAUserNeverJoinedIsNamed() {
    let seen = monitor([.onSessionJoin, .onUserJoin([1]), .onUserLeave([5])])
    #expect(seen.problems.count == 1)
    #expect(seen.problems.first?.contains("never joined") == true)
  }

  @Test func aCallbackAboutAUserAfterTheirLeaveIsNamed() {
    let seen = monitor([
      .onSessionJoin, .onUserJoin([1, 2]), .onUserLeave([2]), .onUserAudioStatusChanged([2]),
    ])
    #expect(seen.problems.count == 1)
    #expect(seen.problems.first?.contains("after onUserLeave") == true)
  }

  @Test func aCallbackBeforeTheSessionJoinIsNamed() {
    let seen = monitor([.onUserJoin([1]), .onUserNameChanged(1)])
    #expect(seen.problems.count == 2)
  }

  @Test func aChatMessageTwiceIsADuplicate() {
    let seen = monitor([
      .onSessionJoin, .onUserJoin([1, 2]), .onChatNewMessageNotify(chat("m1")),
      .onChatNewMessageNotify(chat("m1")),
    ])
    #expect(seen.problems == ["chat message m1 delivered twice"])
  }

  @Test func theSameChatIdInALaterSessionIsNoDuplicate() {
    let seen = monitor([
      .onSessionJoin, .onUserJoin([1, 2]), .onChatNewMessageNotify(chat("m1")),
      .onSessionLeave(.bySelf), .onSessionJoin, .onUserJoin([1, 2]),
      .onChatNewMessageNotify(chat("m1")),
    ])
    #expect(seen.problems.isEmpty)
  }
}
