import Testing

@testable import SessionCore

/// Seed 002's `refreshParticipants`: host first, then managers, then everyone else, each group
/// by join order, kept up to date as events apply.
@Suite("Role order (seed 002's refreshParticipants)")
struct RoleOrderTests {
  /// Joined in id order: 1 P, 2 M, 3 P (myself), 4 H, 5 M, 6 P.
  static func mixedRoles() -> SessionState {
    SessionBuilder(participants: [
      participant(1), participant(2, role: .manager), participant(3),
      participant(4, role: .host), participant(5, role: .manager), participant(6),
    ]).build()
  }

  @Test func hostComesFirstThenManagersThenOthersEachByJoinOrder() {
    let state = Self.mixedRoles()
    #expect(state.orderedUserIDs == [4, 2, 5, 1, 3, 6])
    #expect(state.orderedRoster.map(\.id) == [4, 2, 5, 1, 3, 6])
  }

  @Test func theOrderMatchesSortingMyselfAndTheRemoteUsersByRoleAsTheSeedDoes() {
    let state = Self.mixedRoles()
    guard let myself = state.myself else {
      Issue.record("no myself")
      return
    }
    // The seed: ([myself] + remoteUsers).sorted { rank($0) < rank($1) }, with a stable sort
    // over join order.
    let seed = ([myself] + state.remoteUsers).sorted { $0.joinOrder < $1.joinOrder }
      .sorted { $0.role < $1.role }
    #expect(state.orderedRoster == seed)
  }

  @Test func aPromotedManagerTakesTheirJoinOrderPlaceAmongManagers() {
    var state = Self.mixedRoles()
    applyAll([.managerChanged(user: 3, isManager: true)], to: &state)
    #expect(state.orderedUserIDs == [4, 2, 3, 5, 1, 6])
    applyAll([.managerChanged(user: 6, isManager: true)], to: &state)
    #expect(state.orderedUserIDs == [4, 2, 3, 5, 6, 1])
    applyAll([.managerChanged(user: 1, isManager: true)], to: &state)
    #expect(state.orderedUserIDs == [4, 1, 2, 3, 5, 6])
  }

  @Test func aDemotedManagerReturnsToTheirJoinOrderPlaceAmongOthers() {
    var state = Self.mixedRoles()
    applyAll([.managerChanged(user: 5, isManager: false)], to: &state)
    #expect(state.orderedUserIDs == [4, 2, 1, 3, 5, 6])
    applyAll([.managerChanged(user: 2, isManager: false)], to: &state)
    #expect(state.orderedUserIDs == [4, 1, 2, 3, 5, 6])
  }

  @Test func hostHandoverPutsTheNewHostFirstAndTheOldHostAmongOthers() {
    var state = Self.mixedRoles()
    applyAll([.hostChanged(newHost: 5)], to: &state)
    #expect(state.orderedUserIDs == [5, 2, 1, 3, 4, 6])
    applyAll([.hostChanged(newHost: 6)], to: &state)
    #expect(state.orderedUserIDs == [6, 2, 1, 3, 4, 5])
  }

  @Test func theHostLeavingPutsManagersFirstUntilANewHostIsNamed() {
    var state = Self.mixedRoles()
    applyAll([.usersLeft([4])], to: &state)
    #expect(state.orderedUserIDs == [2, 5, 1, 3, 6])
    // Engine policy: the earliest-joined manager takes over.
    applyAll([.hostChanged(newHost: 2)], to: &state)
    #expect(state.orderedUserIDs == [2, 5, 1, 3, 6])
    #expect(state.host?.id == 2)
  }

  @Test func lateJoinersGoLastInTheirGroup() {
    var state = Self.mixedRoles()
    applyAll([.usersJoined([participant(7, role: .manager), participant(8)])], to: &state)
    #expect(state.orderedUserIDs == [4, 2, 5, 7, 1, 3, 6, 8])
  }

  @Test func aJoinWithAnEarlierJoinOrderTakesItsPlace() {
    var state = SessionBuilder(participants: [
      participant(3, joinOrder: 10), participant(4, joinOrder: 20),
      participant(5, role: .manager, joinOrder: 30),
    ]).build()
    applyAll(
      [
        .usersJoined([participant(6, joinOrder: 15), participant(7, role: .manager, joinOrder: 5)])
      ],
      to: &state)
    #expect(state.orderedUserIDs == [7, 5, 3, 6, 4])
    #expect(state.usersInJoinOrder.map(\.id) == [7, 3, 6, 4, 5])
  }

  @Test func hundredJoinsThenEightyLeavesKeepTheOrderAndCompactTombstones() {
    // Myself (3) and the host (1) stay; 100 join, one in ten as a manager; 80 leave.
    var state = SessionBuilder(participants: [participant(1, role: .host), participant(3)])
      .build()
    for id in UInt32(10)..<110 {
      let role: Role = id % 10 == 0 ? .manager : .participant
      applyAll([.usersJoined([participant(UserID(id), role: role)])], to: &state)
    }
    #expect(state.participants.count == 102)
    var leavers = (UInt32(10)..<110).map { UserID($0) }
    var random = SimulationRandom(seed: 2)
    leavers.shuffle(using: &random)
    for id in leavers.prefix(80) {
      applyAll([.usersLeft([id])], to: &state)
      #expect(state.orderedUserIDs == Self.expectedOrder(state))
    }
    let stayers = Set(leavers.dropFirst(80))
    #expect(state.participants.count == 22)
    #expect(Set(state.participants.keys) == stayers.union([1, 3]))
    #expect(state.orderedUserIDs == Self.expectedOrder(state))
    #expect(state.remoteUsers.map(\.id) == [1] + stayers.sorted())
    // 102 slots; compaction runs once more than half are tombstones (the 52nd leave), which
    // leaves 50 slots, and the 28 leaves after it are tombstones again.
    #expect(state.order.tombstoneCount == 28)
    #expect(state.order.count == 22)
  }

  @Test func joinsAndLeavesInterleavedAtScaleKeepTheOrder() {
    var state = SessionBuilder(participants: [participant(1, role: .host), participant(3)])
      .build()
    var random = SimulationRandom(seed: 7)
    var nextID: UInt32 = 10
    var present: [UserID] = []
    for step in 0..<2_000 {
      if present.count < 50 || random.chance(50) {
        let role: Role = random.chance(10) ? .manager : .participant
        applyAll([.usersJoined([participant(UserID(nextID), role: role)])], to: &state)
        present.append(UserID(nextID))
        nextID += 1
      } else {
        let leaver = present.remove(at: random.below(present.count))
        applyAll([.usersLeft([leaver])], to: &state)
      }
      if step % 100 == 0 { #expect(state.orderedUserIDs == Self.expectedOrder(state)) }
    }
    #expect(state.orderedUserIDs == Self.expectedOrder(state))
  }

  /// The order by definition: sort by role, then join order.
  static func expectedOrder(_ state: SessionState) -> [UserID] {
    state.participants.values.sorted { ($0.role, $0.joinOrder) < ($1.role, $1.joinOrder) }
      .map(\.id)
  }
}

@Suite("Derived views: myself, remote users, host and manager")
struct DerivedViewTests {
  @Test func myselfIsTheLocalUserWhileInSession() {
    let state = SessionBuilder.classroom.build()
    #expect(state.myself == participant(3, "Ada"))
    #expect(Phase.left.state.myself == nil)
    #expect(SessionState().myself == nil)
  }

  @Test func remoteUsersExcludeMyselfAndFollowJoinOrder() {
    let state = SessionBuilder.classroom.build()
    #expect(state.remoteUsers.map(\.id) == [1, 2, 4, 5])
    #expect(state.usersInJoinOrder.map(\.id) == [1, 2, 3, 4, 5])
  }

  @Test func hostAndManagersAreFoundByRole() {
    let state = SessionBuilder.classroom.build()
    #expect(state.host?.name == "Teacher")
    #expect(state.managers.map(\.name) == ["Assistant"])
    #expect(state[user: 1].isHost)
    #expect(state[user: 2].isManager)
    #expect(!state[user: 3].isHost && !state[user: 3].isManager)
  }

  @Test(arguments: [(UserID(1), true, false), (2, false, true), (3, false, false)])
  func isHostAndIsManagerDescribeMe(myself: UserID, isHost: Bool, isManager: Bool) {
    let state = SessionBuilder.classroom(myself: myself).build()
    #expect(state.isHost == isHost)
    #expect(state.isManager == isManager)
  }

  @Test func myRoleFollowsHostAndManagerChanges() {
    var state = SessionBuilder.classroom.build()
    applyAll([.managerChanged(user: 3, isManager: true)], to: &state)
    #expect(state.isManager && !state.isHost)
    applyAll([.hostChanged(newHost: 3)], to: &state)
    #expect(state.isHost && !state.isManager)
    applyAll([.hostChanged(newHost: 1)], to: &state)
    #expect(!state.isHost && !state.isManager)
  }

  @Test func outsideASessionIAmNeitherHostNorManager() {
    for phase in Phase.allCases where phase != .inSession && phase != .leaving {
      let state = phase.state
      #expect(!state.isHost && !state.isManager && !state.isInSession, "\(phase)")
      #expect(state.orderedRoster.isEmpty && state.remoteUsers.isEmpty, "\(phase)")
    }
  }
}
