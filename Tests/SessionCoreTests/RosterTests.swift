import Testing

@testable import SessionCore

@Suite("Roster: joins, leaves, host, managers, names, network")
struct RosterTests {
  // MARK: Joins

  @Test func usersJoinedAddsTheUserWithEveryField() {
    var state = SessionBuilder.classroom.build()
    let dee = participant(
      6, "Dee", isVideoOn: true, audio: AudioStatus(type: .voip, isMuted: false),
      network: .good, customUserKey: "dee-key")
    expectApplies(.usersJoined([dee]), to: &state) { $0.participants[6] = dee }
    #expect(state[user: 6] == dee)
    #expect(state.orderedUserIDs == [1, 2, 3, 4, 5, 6])
  }

  @Test func usersJoinedAddsABatchInJoinOrderWhateverTheirListOrder() {
    var state = SessionBuilder.classroom.build()
    let batch = [participant(8), participant(6), participant(7, role: .manager)]
    expectApplies(.usersJoined(batch), to: &state) { expected in
      for user in batch { expected.participants[user.id] = user }
    }
    #expect(state.orderedUserIDs == [1, 2, 7, 3, 4, 5, 6, 8])
  }

  @Test func aJoiningHostBecomesHostWhenThereIsNone() {
    var state = SessionBuilder.classroom.build()
    applyAll([.usersLeft([1])], to: &state)
    let newTeacher = participant(6, "New teacher", role: .host)
    expectApplies(.usersJoined([newTeacher]), to: &state) {
      $0.participants[6] = newTeacher
      $0.hostID = 6
    }
    #expect(state.orderedUserIDs.first == 6)
  }

  @Test func aUserMayJoinWithAStoppedShareStatus() {
    var state = SessionBuilder.classroom.build()
    let user = participant(6, shareStatus: .stopped)
    expectApplies(.usersJoined([user]), to: &state) { $0.participants[6] = user }
  }

  @Test func joiningAPresentUserIsADuplicate() {
    let state = SessionBuilder.classroom.build()
    expectRejects(.usersJoined([participant(4, joinOrder: 9)]), in: state, .duplicateUser)
  }

  @Test func aBatchListingAUserTwiceIsADuplicate() {
    let state = SessionBuilder.classroom.build()
    let batch = [participant(6), participant(6, joinOrder: 7)]
    expectRejects(.usersJoined(batch), in: state, .duplicateUser)
  }

  /// Batches in increasing id and join order (a snapshot) and in any other order both apply
  /// when nobody repeats, and both are refused when someone does.
  @Test func aBatchInAnyOrderAppliesUnlessSomeoneRepeats() {
    let ordered = [participant(6, joinOrder: 10), participant(7, joinOrder: 11)]
    let reversed = [participant(7, joinOrder: 11), participant(6, joinOrder: 10)]
    for batch in [ordered, reversed] {
      var state = SessionBuilder.classroom.build()
      expectApplies(.usersJoined(batch), to: &state) {
        $0.participants[6] = batch.first { $0.id == 6 }
        $0.participants[7] = batch.first { $0.id == 7 }
      }
    }
    let six = participant(6, joinOrder: 10)
    let seven = participant(7, joinOrder: 11)
    let repeats: [[Participant]] = [
      [six, seven, participant(7, joinOrder: 12)],
      [seven, six, participant(8, joinOrder: 10)],
      [six, seven, participant(8, joinOrder: 2)],
    ]
    for batch in repeats {
      expectRejects(.usersJoined(batch), in: SessionBuilder.classroom.build(), .duplicateUser)
    }
  }

  @Test func aJoinOrderHeldByAPresentUserIsADuplicate() {
    let state = SessionBuilder.classroom.build()
    expectRejects(.usersJoined([participant(6, joinOrder: 2)]), in: state, .duplicateUser)
  }

  @Test func aBatchRepeatingAJoinOrderIsADuplicate() {
    let state = SessionBuilder.classroom.build()
    let batch = [participant(6, joinOrder: 10), participant(7, joinOrder: 10)]
    expectRejects(.usersJoined(batch), in: state, .duplicateUser)
  }

  @Test func aJoinOrderOfSomeoneWhoLeftMayBeUsedAgain() {
    var state = SessionBuilder.classroom.build()
    applyAll([.usersLeft([5])], to: &state)
    let user = participant(6, joinOrder: 5)
    expectApplies(.usersJoined([user]), to: &state) { $0.participants[6] = user }
    #expect(state.orderedUserIDs == [1, 2, 3, 4, 6])
  }

  @Test func aSecondHostCannotJoin() {
    let state = SessionBuilder.classroom.build()
    expectRejects(.usersJoined([participant(6, role: .host)]), in: state, .secondHost)
  }

  @Test func aBatchWithTwoHostsIsRejectedEvenWithoutAHost() {
    var state = SessionBuilder.classroom.build()
    applyAll([.usersLeft([1])], to: &state)
    let batch = [participant(6, role: .host), participant(7, role: .host)]
    expectRejects(.usersJoined(batch), in: state, .secondHost)
  }

  @Test func anEmptyJoinChangesNothing() {
    expectRejects(.usersJoined([]), in: SessionBuilder.classroom.build(), .noChange)
  }

  @Test func nobodyJoinsWithALiveShare() {
    let state = SessionBuilder.classroom.build()
    expectRejects(
      .usersJoined([participant(6, shareStatus: .started)]), in: state, .invalidTarget)
  }

  @Test func aRejectedBatchAddsNobody() {
    let state = SessionBuilder.classroom.build()
    let batch = [participant(6), participant(7), participant(4, joinOrder: 12)]
    expectRejects(.usersJoined(batch), in: state, .duplicateUser)
  }

  // MARK: Leaves

  @Test func usersLeftRemovesThemAndEverythingThatNamesThem() {
    var builder = SessionBuilder.classroom(myself: 3, sharing: 4)
    builder.shares[0].annotators = [4]
    builder.activeSpeakers = [5, 4]
    builder.shareSetting = .multi
    builder.startShare(of: 1, annotators: [5])
    var state = builder.build()
    applyAll([.hostAskedUnmute(by: 2), .managerChanged(user: 5, isManager: true)], to: &state)
    expectApplies(.usersLeft([4, 5]), to: &state) { expected in
      expected.participants[4] = nil
      expected.participants[5] = nil
      expected.shares[4] = nil
      expected.shares[1]?.annotators = []
      expected.activeSpeakers = []
    }
    #expect(state.managers.map(\.id) == [2])
    #expect(state.unmuteRequestedBy == 2)
  }

  @Test func theHostLeavingLeavesTheSessionWithoutAHost() {
    var state = SessionBuilder.classroom.build()
    expectApplies(.usersLeft([1]), to: &state) {
      $0.participants[1] = nil
      $0.hostID = nil
    }
    #expect(state.host == nil)
    #expect(state.orderedUserIDs == [2, 3, 4, 5])
  }

  @Test func theUserWhoAskedMeToUnmuteLeavingClearsTheRequest() {
    var state = SessionBuilder.classroom.build()
    applyAll([.hostAskedUnmute(by: 2)], to: &state)
    expectApplies(.usersLeft([2]), to: &state) {
      $0.participants[2] = nil
      $0.unmuteRequestedBy = nil
    }
  }

  @Test func anUnknownUserCannotLeave() {
    expectRejects(.usersLeft([4, 9]), in: SessionBuilder.classroom.build(), .unknownUser)
  }

  @Test func aUserCannotLeaveTwiceInOneEvent() {
    expectRejects(.usersLeft([4, 4]), in: SessionBuilder.classroom.build(), .duplicateUser)
  }

  @Test func anEmptyLeaveChangesNothing() {
    expectRejects(.usersLeft([]), in: SessionBuilder.classroom.build(), .noChange)
  }

  @Test func iLeaveWithSessionLeftNotUsersLeft() {
    expectRejects(.usersLeft([4, 3]), in: SessionBuilder.classroom.build(), .invalidTarget)
  }

  // MARK: Host and managers

  @Test func hostChangedMakesTheNewHostAndTheOldHostAParticipant() {
    var state = SessionBuilder.classroom.build()
    expectApplies(.hostChanged(newHost: 4), to: &state) {
      $0.participants[1]?.role = .participant
      $0.participants[4]?.role = .host
      $0.hostID = 4
    }
    #expect(state.orderedUserIDs == [4, 2, 1, 3, 5])
  }

  @Test func hostChangedToAManagerTakesThemOutOfTheManagers() {
    var state = SessionBuilder.classroom.build()
    expectApplies(.hostChanged(newHost: 2), to: &state) {
      $0.participants[1]?.role = .participant
      $0.participants[2]?.role = .host
      $0.hostID = 2
    }
    #expect(state.managers.isEmpty)
    #expect(state.orderedUserIDs == [2, 1, 3, 4, 5])
  }

  @Test func hostChangedWithoutAHostOnlyMakesTheNewHost() {
    var state = SessionBuilder.classroom.build()
    applyAll([.usersLeft([1])], to: &state)
    expectApplies(.hostChanged(newHost: 5), to: &state) {
      $0.participants[5]?.role = .host
      $0.hostID = 5
    }
    #expect(state.orderedUserIDs == [5, 2, 3, 4])
  }

  @Test func hostChangedToTheHostChangesNothing() {
    expectRejects(.hostChanged(newHost: 1), in: SessionBuilder.classroom.build(), .noChange)
  }

  @Test func hostChangedToAnUnknownUserIsRejected() {
    expectRejects(.hostChanged(newHost: 9), in: SessionBuilder.classroom.build(), .unknownUser)
  }

  @Test func managerChangedPromotesAParticipant() {
    var state = SessionBuilder.classroom.build()
    expectApplies(.managerChanged(user: 4, isManager: true), to: &state) {
      $0.participants[4]?.role = .manager
    }
    #expect(state.managers.map(\.id) == [2, 4])
  }

  @Test func managerChangedDemotesAManager() {
    var state = SessionBuilder.classroom.build()
    expectApplies(.managerChanged(user: 2, isManager: false), to: &state) {
      $0.participants[2]?.role = .participant
    }
    #expect(state.managers.isEmpty)
  }

  @Test func theHostIsNeverMadeOrUnmadeManager() {
    let state = SessionBuilder.classroom.build()
    expectRejects(.managerChanged(user: 1, isManager: true), in: state, .invalidTarget)
    expectRejects(.managerChanged(user: 1, isManager: false), in: state, .invalidTarget)
  }

  @Test func managerChangedToTheCurrentRoleChangesNothing() {
    let state = SessionBuilder.classroom.build()
    expectRejects(.managerChanged(user: 2, isManager: true), in: state, .noChange)
    expectRejects(.managerChanged(user: 4, isManager: false), in: state, .noChange)
  }

  @Test func managerChangedForAnUnknownUserIsRejected() {
    let state = SessionBuilder.classroom.build()
    expectRejects(.managerChanged(user: 9, isManager: true), in: state, .unknownUser)
  }

  // MARK: Names and network

  @Test func nameChangedRenamesTheUser() {
    var state = SessionBuilder.classroom.build()
    expectApplies(.nameChanged(user: 4, name: "Benjamin"), to: &state) {
      $0.participants[4]?.name = "Benjamin"
    }
  }

  @Test func nameChangedForAnUnknownUserIsRejected() {
    let state = SessionBuilder.classroom.build()
    expectRejects(.nameChanged(user: 9, name: "Nobody"), in: state, .unknownUser)
  }

  @Test(arguments: NetworkQuality.allCases)
  func networkStatusChangedSetsTheQuality(quality: NetworkQuality) {
    var state = SessionBuilder.classroom.build()
    expectApplies(.networkStatusChanged(user: 5, quality: quality), to: &state) {
      $0.participants[5]?.networkQuality = quality
    }
  }

  @Test func networkStatusChangedForAnUnknownUserIsRejected() {
    let state = SessionBuilder.classroom.build()
    expectRejects(.networkStatusChanged(user: 9, quality: .bad), in: state, .unknownUser)
  }
}
