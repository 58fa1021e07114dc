extension SessionState {
  /// Present users' ids in display order: host, then managers, then everyone else, each group
  /// by join order (what seed 002's `refreshParticipants` computes by hand).
  ///
  /// - Complexity: O(participants), with no sorting: the order is maintained as events apply.
  public var orderedUserIDs: [UserID] {
    var result: [UserID] = []
    result.reserveCapacity(participants.count)
    if let hostID { result.append(hostID) }
    result.append(contentsOf: order.managers)
    for id in order.joinOrdered where participants[id]?.role == .participant {
      result.append(id)
    }
    return result
  }

  /// Present users in display order; see ``orderedUserIDs``.
  public var orderedRoster: [Participant] {
    orderedUserIDs.compactMap { participants[$0] }
  }

  /// Present users in join order (`getRemoteUsers` plus myself).
  public var usersInJoinOrder: [Participant] {
    order.joinOrdered.compactMap { participants[$0] }
  }

  /// The local user, while in a session (`getMySelf`).
  public var myself: Participant? {
    myselfID.flatMap { participants[$0] }
  }

  /// Everyone but the local user, in join order (`getRemoteUsers`).
  public var remoteUsers: [Participant] {
    order.joinOrdered.compactMap { $0 == myselfID ? nil : participants[$0] }
  }

  /// The host, if there is one (`getSessionHost`).
  public var host: Participant? { hostID.flatMap { participants[$0] } }

  /// Managers in join order.
  public var managers: [Participant] { order.managers.compactMap { participants[$0] } }

  /// Whether the local user is the host.
  public var isHost: Bool { myselfID != nil && myselfID == hostID }

  /// Whether the local user is a manager.
  public var isManager: Bool { myself?.role == .manager }

  /// Whether the local user is in a session (`isInSession`).
  public var isInSession: Bool { phase == .inSession }
}
