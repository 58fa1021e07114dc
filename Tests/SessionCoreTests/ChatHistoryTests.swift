import Testing

@testable import SessionCore

/// The chat history the reducer keeps: the same answers as a plain list of the newest `limit`
/// messages under any mix of appends, repeats and deletions (stale slots stepped over and
/// reused, rebuilds keeping every kept id reachable), and an invariant that sees a repeat.
@Suite struct ChatHistoryTests {
  private func message(_ id: String, _ content: String = "hi") -> ChatMessage {
    ChatMessage(id: id, sender: 1, receiver: nil, content: content, timestamp: 0)
  }

  @Test func appendsRefuseAKeptIDAndDeletionsForgetIt() {
    var history = ChatHistory()
    let added = history.append(message("m1"), limit: 10)
    let addedAgain = history.append(message("m1", "again"), limit: 10)
    #expect(added && !addedAgain)
    #expect(history.contains("m1") && !history.contains("m2"))
    #expect(history.message(withID: "m1")?.content == "hi")
    let removed = history.remove("m1")
    let removedAgain = history.remove("m1")
    #expect(removed && !removedAgain)
    #expect(history.count == 0 && history.oldest == nil && history.isConsistent)
  }

  @Test func theOldestBeyondTheLimitAreForgottenAndTheirIDsAcceptedAgain() {
    var history = ChatHistory()
    for index in 0..<5 { _ = history.append(message("m\(index)"), limit: 3) }
    #expect(history.messages.map(\.id) == ["m2", "m3", "m4"])
    #expect(history.oldest?.id == "m2" && !history.contains("m1"))
    // A forgotten id is no longer a repeat.
    let again = history.append(message("m0"), limit: 3)
    #expect(again)
    #expect(history.messages.map(\.id) == ["m3", "m4", "m0"])
    #expect(history.isConsistent)
  }

  @Test func aLimitOfZeroKeepsNothingAndRefusesNothing() {
    var history = ChatHistory()
    let first = history.append(message("m1"), limit: 0)
    let second = history.append(message("m1"), limit: 0)
    #expect(first && second)
    #expect(history.count == 0 && !history.contains("m1") && history.isConsistent)
  }

  @Test(arguments: [1, 2, 3, 4])
  func agreesWithAListUnderRandomAppendsAndDeletions(seed: UInt64) {
    var random = SimulationRandom(seed: seed)
    let limit = Int(random.next() % 300) + 1
    var history = ChatHistory()
    var model: [ChatMessage] = []
    for step in 0..<6_000 {
      // A small id space, so that repeats, forgotten ids and deletions all happen.
      let id = "s-\(random.next() % 700)" + (random.next() % 2 == 0 ? "" : "-long-suffix-xyz")
      if random.next() % 8 == 0 {
        let removed = history.remove(id)
        let index = model.firstIndex { $0.id == id }
        #expect(removed == (index != nil))
        if let index { model.remove(at: index) }
      } else {
        let added = history.append(message(id, "\(step)"), limit: limit)
        let repeated = model.contains { $0.id == id }
        #expect(added == !repeated)
        if !repeated {
          model.append(message(id, "\(step)"))
          if model.count > limit { model.removeFirst(model.count - limit) }
        }
      }
      #expect(history.count == model.count)
    }
    #expect(Array(history.messages) == model)
    #expect(history.isConsistent)
    for index in 0..<700 {
      for id in ["s-\(index)", "s-\(index)-long-suffix-xyz"] {
        #expect(history.contains(id) == model.contains { $0.id == id })
        #expect(history.message(withID: id) == model.first { $0.id == id })
      }
    }
  }

  @Test func aRepeatedIDInADecodedListBreaksTheChatInvariant() {
    let history = ChatHistory([message("m1", "a"), message("m1", "b")])
    #expect(!history.isConsistent)
    var state = SessionState()
    state.chat = history
    #expect(state.checkInvariants().contains { $0.description.contains("chat message ids") })
    #expect(ChatHistory([message("m1"), message("m2")]).isConsistent)
  }
}
