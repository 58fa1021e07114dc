import SessionCore
import SessionService
import SessionTransport
import Testing

/// A host-only command about another user.
enum HostOnlyCommand: String, Sendable, CaseIterable {
  case makeHost, makeManager, revokeManager, removeUser

  func command(_ target: UserID) -> SessionCommand {
    switch self {
    case .makeHost: .makeHost(target)
    case .makeManager: .makeManager(target)
    case .revokeManager: .revokeManager(target)
    case .removeUser: .removeUser(target)
    }
  }
}

@Suite struct RoleTests {
  /// Host Hal (role 1), manager Mia (role 1), participants Pat and Quinn (role 0).
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

  @Test func firstRoleTypeOneJoinerIsHostAndLaterOnesAreManagers() throws {
    let (harness, hal, mia, pat, _) = try classroom()
    let moe = try harness.join("Moe", role: .host)
    #expect(harness.participant(hal)?.role == .host)
    #expect(harness.participant(mia)?.role == .manager)
    #expect(harness.participant(moe)?.role == .manager)
    #expect(harness.participant(pat)?.role == .participant)
    #expect(harness.served()?.hostID == harness.user(hal))
    #expect(
      harness.replica(pat)?.orderedRoster.map(\.name) == ["Hal", "Mia", "Moe", "Pat", "Quinn"])
    harness.assertConverged()
  }

  @Test func participantsMayJoinBeforeTheHost() throws {
    let harness = ServiceHarness()
    let pat = try harness.join("Pat")
    try harness.join("Quinn")
    #expect(harness.served()?.hostID == nil)
    #expect(harness.participant(pat)?.role == .participant)
    let hal = try harness.join("Hal", role: .host)
    #expect(harness.served()?.hostID == harness.user(hal))
    #expect(harness.replica(pat)?.host?.name == "Hal")
    harness.assertConverged()
  }

  @Test func hostLeavingHandsHostToEarliestManager() throws {
    let (harness, hal, mia, pat, _) = try classroom()
    let moe = try harness.join("Moe", role: .host)
    let mark = harness.mark
    harness.expectAccepted(.leave(end: false), on: hal)
    #expect(harness.messages(to: hal, since: mark) == [.left(.bySelf)])
    #expect(
      harness.events(to: pat, since: mark) == [
        .usersLeft([harness.user(hal)]), .hostChanged(newHost: harness.user(mia)),
      ])
    #expect(harness.participant(mia)?.role == .host)
    #expect(harness.participant(moe)?.role == .manager)
    harness.assertConverged()
  }

  @Test func hostLeavingWithoutManagersHandsHostToEarliestUser() throws {
    let harness = ServiceHarness()
    let pat = try harness.join("Pat")
    let hal = try harness.join("Hal", role: .host)
    let quinn = try harness.join("Quinn")
    let mark = harness.mark
    harness.command(.leave(end: false), on: hal)
    #expect(
      harness.events(to: quinn, since: mark) == [
        .usersLeft([harness.user(hal)]), .hostChanged(newHost: harness.user(pat)),
      ])
    #expect(harness.participant(pat)?.role == .host)
    harness.assertConverged()
  }

  @Test func nonHostLeavingChangesNoRoles() throws {
    let (harness, hal, mia, pat, quinn) = try classroom()
    let mark = harness.mark
    harness.command(.leave(end: false), on: mia)
    #expect(harness.events(to: pat, since: mark) == [.usersLeft([harness.user(mia)])])
    #expect(harness.participant(hal)?.role == .host)
    #expect(harness.participant(quinn)?.role == .participant)
    harness.assertConverged()
  }

  @Test func rejoiningRoleTypeOneUserIsManagerUntilReclaimingHost() throws {
    let (harness, hal, mia, pat, _) = try classroom()
    harness.command(.leave(end: false), on: hal)
    #expect(harness.participant(mia)?.role == .host)
    let back = try harness.join("Hal", role: .host)
    #expect(harness.participant(back)?.role == .manager)
    let mark = harness.mark
    harness.expectAccepted(.reclaimHost, on: back)
    // Mia held host as a role_type 1 co-host; she goes back to being a manager.
    #expect(
      harness.events(to: pat, since: mark) == [
        .hostChanged(newHost: harness.user(back)),
        .managerChanged(user: harness.user(mia), isManager: true),
      ])
    #expect(harness.participant(back)?.role == .host)
    #expect(harness.participant(mia)?.role == .manager)
    harness.assertConverged()
  }

  @Test func reclaimHostNeedsARoleTypeOneToken() throws {
    let (harness, hal, _, pat, _) = try classroom()
    harness.expectRefused(.reclaimHost, on: pat, .sessionNoRights)
    // The host reclaiming what they hold is wrong usage.
    harness.expectRefused(.reclaimHost, on: hal, .wrongUsage)
    harness.assertConverged()
  }

  @Test func participantHandedHostMayNotReclaimAfterLosingIt() throws {
    let harness = ServiceHarness()
    let pat = try harness.join("Pat")
    let hal = try harness.join("Hal", role: .host)
    try harness.join("Quinn")
    harness.command(.leave(end: false), on: hal)
    #expect(harness.participant(pat)?.role == .host)
    let back = try harness.join("Hal", role: .host)
    harness.expectAccepted(.reclaimHost, on: back)
    harness.expectRefused(.reclaimHost, on: pat, .sessionNoRights)
    harness.assertConverged()
  }

  // MARK: Host-only commands

  @Test(arguments: HostOnlyCommand.allCases)
  func hostOnlyCommandByHostIsAccepted(_ kind: HostOnlyCommand) throws {
    let (harness, hal, mia, pat, quinn) = try classroom()
    let target = kind == .revokeManager ? mia : pat
    let mark = harness.mark
    harness.expectAccepted(kind.command(harness.user(target)), on: hal)
    let expected: [SessionEvent] =
      switch kind {
      case .makeHost: [.hostChanged(newHost: harness.user(pat))]
      case .makeManager: [.managerChanged(user: harness.user(pat), isManager: true)]
      case .revokeManager: [.managerChanged(user: harness.user(mia), isManager: false)]
      case .removeUser: [.usersLeft([harness.user(pat)])]
      }
    #expect(harness.events(to: quinn, since: mark) == expected)
    harness.assertConverged()
  }

  @Test(arguments: HostOnlyCommand.allCases)
  func hostOnlyCommandByManagerOrParticipantIsRefused(_ kind: HostOnlyCommand) throws {
    let (harness, _, mia, pat, quinn) = try classroom()
    let target = kind == .revokeManager ? mia : quinn
    harness.expectRefused(kind.command(harness.user(target)), on: mia, .sessionNoRights)
    harness.expectRefused(kind.command(harness.user(target)), on: pat, .sessionNoRights)
    harness.assertConverged()
  }

  @Test(arguments: HostOnlyCommand.allCases)
  func hostOnlyCommandOnSelfIsRefused(_ kind: HostOnlyCommand) throws {
    let (harness, hal, _, _, _) = try classroom()
    harness.expectRefused(kind.command(harness.user(hal)), on: hal, .invalidParameter)
  }

  @Test(arguments: HostOnlyCommand.allCases)
  func hostOnlyCommandOnUserWhoLeftIsRefused(_ kind: HostOnlyCommand) throws {
    let (harness, hal, mia, pat, _) = try classroom()
    let gone = kind == .revokeManager ? mia : pat
    let goneID = harness.user(gone)
    harness.command(.leave(end: false), on: gone)
    harness.expectRefused(kind.command(goneID), on: hal, .invalidParameter)
    harness.expectRefused(kind.command(UserID(9_999)), on: hal, .invalidParameter)
    harness.assertConverged()
  }

  @Test func makeManagerOnManagerAndRevokeOnParticipantAreWrongUsage() throws {
    let (harness, hal, mia, pat, _) = try classroom()
    harness.expectRefused(.makeManager(harness.user(mia)), on: hal, .wrongUsage)
    harness.expectRefused(.revokeManager(harness.user(pat)), on: hal, .wrongUsage)
  }

  @Test func makeHostDemotesTheOldHostAndPromotesAManager() throws {
    let (harness, hal, mia, _, _) = try classroom()
    harness.expectAccepted(.makeHost(harness.user(mia)), on: hal)
    #expect(harness.participant(hal)?.role == .participant)
    #expect(harness.participant(mia)?.role == .host)
    #expect(harness.served()?.managers.isEmpty == true)
    // The old host lost its rights.
    harness.expectRefused(.makeHost(harness.user(hal)), on: hal, .sessionNoRights)
    harness.assertConverged()
  }

  @Test func removedUserIsKickedAndOthersSeeThemLeave() throws {
    let (harness, hal, mia, pat, quinn) = try classroom()
    let patID = harness.user(pat)
    let mark = harness.mark
    harness.expectAccepted(.removeUser(patID), on: hal)
    #expect(harness.messages(to: pat, since: mark) == [.left(.kickByHost)])
    for other in [hal, mia, quinn] {
      #expect(harness.events(to: other, since: mark) == [.usersLeft([patID])])
    }
    #expect(harness.replica(pat)?.phase == .left(.kickByHost))
    // The kicked connection is no longer a member.
    let id = harness.command(.startVideo, on: pat)
    #expect(harness.messages(to: pat).last == .commandFailed(id, .notInSession))
    harness.assertConverged()
  }

  @Test func newHostMayUseHostRights() throws {
    let (harness, hal, mia, pat, _) = try classroom()
    harness.command(.leave(end: false), on: hal)
    harness.expectAccepted(.makeManager(harness.user(pat)), on: mia)
    #expect(harness.participant(pat)?.role == .manager)
    harness.assertConverged()
  }

  // MARK: Names

  @Test func userMayRenameThemself() throws {
    let (harness, _, _, pat, quinn) = try classroom()
    let mark = harness.mark
    harness.expectAccepted(.changeName(user: harness.user(pat), name: "Patricia"), on: pat)
    #expect(
      harness.events(to: quinn, since: mark) == [
        .nameChanged(user: harness.user(pat), name: "Patricia")
      ])
    harness.assertConverged()
  }

  @Test func onlyModeratorsRenameOthers() throws {
    let (harness, hal, mia, pat, quinn) = try classroom()
    harness.expectRefused(
      .changeName(user: harness.user(quinn), name: "Q"), on: pat, .sessionNoRights)
    harness.expectAccepted(.changeName(user: harness.user(quinn), name: "Q"), on: mia)
    harness.expectAccepted(.changeName(user: harness.user(pat), name: "P"), on: hal)
    #expect(harness.participant(quinn)?.name == "Q")
    harness.assertConverged()
  }

  @Test func renameRefusesEmptyNamesAndAbsentUsers() throws {
    let (harness, hal, _, pat, _) = try classroom()
    harness.expectRefused(
      .changeName(user: harness.user(pat), name: ""), on: pat, .invalidParameter)
    harness.expectRefused(.changeName(user: 9_999, name: "Ghost"), on: hal, .invalidParameter)
  }

  @Test func renameTruncatesLongNames() throws {
    let (harness, _, _, pat, _) = try classroom()
    harness.expectAccepted(
      .changeName(user: harness.user(pat), name: String(repeating: "p", count: 300)), on: pat)
    #expect(harness.participant(pat)?.name.count == 200)
    harness.assertConverged()
  }
}
