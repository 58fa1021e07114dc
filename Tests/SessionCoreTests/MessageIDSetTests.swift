import Testing

@testable import SessionCore

/// The chat id set the reducer keeps: the same answers as `Set<String>` under any mix of
/// inserts and removes (backward-shift deletion keeps every id reachable), and equality that
/// ignores the order ids came in.
@Suite struct MessageIDSetTests {
  @Test func insertsRefuseRepeatsAndRemovesForget() {
    var set = MessageIDSet()
    let added = set.insert("session-m1")
    let addedAgain = set.insert("session-m1")
    #expect(added && !addedAgain)
    #expect(set.contains("session-m1"))
    #expect(!set.contains("session-m2"))
    let removed = set.remove("session-m1")
    let removedAgain = set.remove("session-m1")
    #expect(removed && !removedAgain)
    #expect(set.isEmpty)
  }

  @Test(arguments: [1, 2, 3, 4])
  func agreesWithASetUnderRandomInsertsAndRemoves(seed: UInt64) {
    var random = SimulationRandom(seed: seed)
    var set = MessageIDSet()
    var model = Set<String>()
    for _ in 0..<20_000 {
      // A small id space, so that removes hit and tables wrap and shift.
      let id = "s-\(random.next() % 600)" + (random.next() % 2 == 0 ? "" : "-long-suffix-xyz")
      if random.next() % 3 == 0 {
        let removed = set.remove(id)
        #expect(removed == (model.remove(id) != nil))
      } else {
        let added = set.insert(id)
        #expect(added == model.insert(id).inserted)
      }
      #expect(set.count == model.count)
    }
    for index in 0..<600 {
      for id in ["s-\(index)", "s-\(index)-long-suffix-xyz"] {
        #expect(set.contains(id) == model.contains(id))
      }
    }
    #expect(set == MessageIDSet(model.shuffled(using: &random)))
    set.removeAll()
    #expect(set.isEmpty && !set.contains("s-1"))
  }

  @Test func equalityIgnoresOrderAndSeesADifference() {
    #expect(MessageIDSet(["a", "b", "c"]) == MessageIDSet(["c", "a", "b"]))
    #expect(MessageIDSet(["a", "b"]) != MessageIDSet(["a", "c"]))
    #expect(MessageIDSet(["a"]) != MessageIDSet(["a", "b"]))
  }

  @Test func aDuplicateKeptIDBreaksTheChatInvariant() throws {
    var state = SessionState()
    state.chatLog = [
      ChatMessage(id: "m1", sender: 1, receiver: nil, content: "a", timestamp: 0),
      ChatMessage(id: "m1", sender: 1, receiver: nil, content: "b", timestamp: 0),
    ]
    state.chatMessageIDs = ["m1", "m2"]
    #expect(state.checkInvariants().contains { $0.description.contains("chat message ids") })
  }

  @Test func holdsExactlyTheListItWasBuiltFromAndNothingElse() {
    var set = MessageIDSet(["a", "b", "c"])
    #expect(set.holdsExactly(["c", "a", "b"]))
    #expect(!set.holdsExactly(["a", "b"]))
    #expect(!set.holdsExactly(["a", "b", "c", "d"]))
    // As many ids, every one held, but a repeat standing in for the one it lacks.
    #expect(!set.holdsExactly(["a", "a", "b"]))
    #expect(!set.holdsExactly(["a", "b", "x"]))
    set.remove("b")
    #expect(set.holdsExactly(["a", "c"]))
    set.removeAll()
    #expect(set.holdsExactly([String]()))
    #expect(!set.holdsExactly(["a"]))
  }

  @Test func holdsExactlyAgreesWithEqualityUnderRandomChanges() {
    var random = SimulationRandom(seed: 9)
    var set = MessageIDSet()
    var model = Set<String>()
    for _ in 0..<5_000 {
      let id = "m-\(random.next() % 300)"
      if random.next() % 3 == 0 {
        set.remove(id)
        model.remove(id)
      } else {
        set.insert(id)
        model.insert(id)
      }
    }
    #expect(set.holdsExactly(Array(model)))
    #expect(!set.holdsExactly(Array(model) + ["m-extra"]))
  }
}
