import Testing

@testable import SessionCore

/// Spotlight in the reducer and the shared rules, both directions.
@Suite struct SpotlightRulesTests {
  /// The classroom with every camera on: 1 Teacher (host), 2 Assistant (manager), 3 Ada, 4 Ben,
  /// 5 Cy.
  static func classroomWithVideo() -> SessionState {
    var state = SessionBuilder.classroom.build()
    for id: UserID in [1, 2, 3, 4, 5] {
      _ = state.apply(.videoStatusChanged(user: id, isOn: true))
    }
    return state
  }

  @Test func theListIsSetWholeAndKeptInOrder() {
    var state = Self.classroomWithVideo()
    expectApplies(.spotlightChanged([4, 1]), to: &state) { $0.spotlighted = [4, 1] }
    expectApplies(.spotlightChanged([]), to: &state) { $0.spotlighted = [] }
  }

  @Test func anUnknownUserATwiceListedOneOrATenthAreRejected() {
    let state = Self.classroomWithVideo()
    expectRejects(.spotlightChanged([1, 9]), in: state, .unknownUser)
    expectRejects(.spotlightChanged([1, 4, 1]), in: state, .duplicateUser)
  }

  @Test func aSpotlightedUserWhoLeavesDropsOutOfTheList() {
    var state = Self.classroomWithVideo()
    _ = state.apply(.spotlightChanged([4, 5]))
    #expect(state.apply(.usersLeft([4])) == nil)
    #expect(state.spotlighted == [5])
    #expect(state.checkInvariants().isEmpty)
  }

  @Test func onlyTheHostMaySpotlightAVideoThatIsOn() {
    var state = Self.classroomWithVideo()
    #expect(state.authorize(.spotlightVideo(4), by: 1) == .success)
    #expect(state.authorize(.spotlightVideo(4), by: 2) == .sessionNoRights, "a manager")
    #expect(state.authorize(.spotlightVideo(4), by: 4) == .sessionNoRights)
    #expect(state.authorize(.spotlightVideo(9), by: 1) == .spotlightUserCannotBeSpotlighted)
    #expect(state.authorize(.unspotlightVideo(4), by: 1) == .spotlightUserNotSpotlighted)
    #expect(state.authorize(.unspotlightAllVideos, by: 3) == .sessionNoRights)
    _ = state.apply(.videoStatusChanged(user: 5, isOn: false))
    #expect(state.authorize(.spotlightVideo(5), by: 1) == .spotlightUserWithoutVideo)
    _ = state.apply(.spotlightChanged([4]))
    #expect(state.authorize(.spotlightVideo(4), by: 1) == .success, "again: nothing to do")
    #expect(state.authorize(.unspotlightVideo(4), by: 1) == .success)
  }

  @Test func nineAtMostAndNotAlone() {
    var state = SessionState()
    var users: [Participant] = []
    for id in 1...11 {
      var user = participant(UserID(UInt32(id)), "U\(id)", role: id == 1 ? .host : .participant)
      user.isVideoOn = true
      users.append(user)
    }
    state = SessionBuilder(participants: users).build()
    _ = state.apply(.spotlightChanged((2...10).map { UserID(UInt32($0)) }))
    #expect(state.authorize(.spotlightVideo(11), by: 1) == .spotlightToMuchSpotlightedUsers)
    var solo = SessionBuilder(participants: [participant(1, "Solo", role: .host)])
    solo.myself = 1
    var alone = solo.build()
    _ = alone.apply(.videoStatusChanged(user: 1, isOn: true))
    #expect(alone.authorize(.spotlightVideo(1), by: 1) == .spotlightNotEnoughUsers)
  }
}
