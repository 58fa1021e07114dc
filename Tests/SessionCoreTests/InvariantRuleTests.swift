import Testing

@testable import SessionCore

/// Each rule of `checkInvariants` fires on a state that breaks it, and a sound state passes.
@Suite("Invariants: each rule fires when broken, and only then")
struct InvariantRuleTests {
  /// A named way to break the classroom's state directly (no reducer would).
  struct Breaker: CustomTestStringConvertible, Sendable {
    var name: String
    var expected: String
    var breakState: @Sendable (inout SessionState) -> Void
    var testDescription: String { name }
  }

  static let breakers: [Breaker] = [
    Breaker(name: "two hosts", expected: "2 hosts") { $0.participants[3]?.role = .host },
    Breaker(name: "hostID names a participant", expected: "is not host") {
      $0.hostID = 3
    },
    Breaker(name: "a host without hostID", expected: "without hostID") { $0.hostID = nil },
    Breaker(name: "a manager outside the manager order", expected: "manager order") {
      $0.participants[4]?.role = .manager
    },
    Breaker(name: "a sharer without a share", expected: "shares but has no share") {
      $0.participants[5]?.shareStatus = .started
    },
    Breaker(name: "a repeated join order", expected: "join orders are not unique") {
      let taken = $0.participants[4]?.joinOrder ?? 0
      $0.participants[5]?.joinOrder = taken
    },
    Breaker(name: "join orders out of the roster's order", expected: "ordered roster") {
      // Ada (3) now joined after Cy (5): the kept order still lists her before him.
      $0.participants[3]?.joinOrder = 99
    },
    Breaker(name: "a participant the order does not hold", expected: "order holds") {
      $0.participants[9] = Participant(id: 9, name: "Stray", joinOrder: 50)
    },
  ]

  @Test func theClassroomIsSound() {
    #expect(SessionBuilder.classroom.build().checkInvariants().isEmpty)
  }

  @Test(arguments: breakers)
  func aBrokenRuleIsReported(breaker: Breaker) {
    var state = SessionBuilder.classroom.build()
    breaker.breakState(&state)
    let problems = state.checkInvariants().map(\.description)
    #expect(problems.contains { $0.contains(breaker.expected) }, "\(problems)")
  }

  @Test func aLargeSoundRosterPassesAndOneSwappedPairFails() throws {
    var builder = SessionBuilder.classroom
    for id in 6...2_000 {
      builder.participants.append(
        participant(UserID(rawValue: UInt32(id)), "P\(id)", joinOrder: UInt64(id)))
    }
    var state = builder.build()
    #expect(state.checkInvariants().isEmpty)
    let first = try #require(state.participants[600]).joinOrder
    let second = try #require(state.participants[601]).joinOrder
    state.participants[600]?.joinOrder = second
    state.participants[601]?.joinOrder = first
    let problems = state.checkInvariants().map(\.description)
    #expect(problems.contains { $0.hasPrefix("ordered roster") })
  }
}
