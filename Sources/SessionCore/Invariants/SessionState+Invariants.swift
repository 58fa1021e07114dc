/// A broken rule of ``SessionState``: a bug in whoever built the state.
public struct InvariantViolation: Sendable, Hashable, CustomStringConvertible {
  /// What is wrong.
  public var description: String
}

extension SessionState {
  /// Checks every rule the reducer maintains.
  ///
  /// At most one host; `hostID` names them; every manager is in the roster and in the manager
  /// order; at most one live share unless multi-share; share statuses agree with the shares;
  /// annotators and speakers are present, each annotator on one share; myself is in the roster while in session; the ordered
  /// roster is a permutation of the roster in role and join order; join orders are unique; no
  /// share is live while sharing is off; chat ids agree.
  ///
  /// - Complexity: O(participants × log participants), for a sort of the join orders. Debug
  ///   builds and tests run it after every event; release builds never do.
  /// - Returns: The violations; empty when the state is sound.
  public func checkInvariants() -> [InvariantViolation] {
    var problems: [String] = []
    // One pass over the roster gathers what the rules below compare.
    var hostCount = 0
    var firstHost: UserID?
    var managerIDs: Set<UserID> = []
    var joinOrders: [UInt64] = []
    joinOrders.reserveCapacity(participants.count)
    for participant in participants.values {
      switch participant.role {
      case .host:
        hostCount += 1
        if firstHost == nil { firstHost = participant.id }
      case .manager: managerIDs.insert(participant.id)
      case .participant: break
      }
      joinOrders.append(participant.joinOrder)
      if participant.shareStatus.isActive && shares[participant.id] == nil {
        problems.append("\(participant.id) shares but has no share")
      }
    }
    if hostCount > 1 { problems.append("\(hostCount) hosts") }
    if let hostID {
      if participants[hostID]?.role != .host { problems.append("hostID \(hostID) is not host") }
    } else if let firstHost {
      problems.append("host \(firstHost) without hostID")
    }
    if Set(order.managers) != managerIDs || order.managers.count != managerIDs.count {
      problems.append("manager order \(order.managers) disagrees with roster \(managerIDs)")
    }
    if shareSetting != .multi,
      Set(shares.keys.map { subSessions.rooms[$0] }).count < shares.count
    {
      problems.append("two shares in one place without multi-share")
    }
    for (owner, share) in shares {
      if share.owner != owner { problems.append("share keyed \(owner) owned by \(share.owner)") }
      if participants[owner]?.shareStatus != share.status {
        problems.append("share of \(owner) disagrees with its participant")
      }
      for annotator in share.annotators where participants[annotator] == nil {
        problems.append("annotator \(annotator) is not present")
      }
      for annotator in share.annotators where !subSessions.together(annotator, owner) {
        problems.append("annotator \(annotator) is not where \(owner)'s share is")
      }
    }
    let annotations = shares.values.reduce(0) { $0 + $1.annotators.count }
    if Set(shares.values.lazy.flatMap(\.annotators)).count != annotations {
      problems.append("a user annotates on two shares")
    }
    for speaker in activeSpeakers where participants[speaker] == nil {
      problems.append("speaker \(speaker) is not present")
    }
    for user in spotlighted where participants[user] == nil {
      problems.append("spotlighted \(user) is not present")
    }
    if Set(spotlighted).count != spotlighted.count {
      problems.append("a user is spotlighted twice")
    }
    if spotlighted.count > Self.maxSpotlighted {
      problems.append("\(spotlighted.count) spotlighted, over \(Self.maxSpotlighted)")
    }
    if phase.acceptsSessionEvents {
      if let myselfID {
        if participants[myselfID] == nil { problems.append("myself is not in the roster") }
      } else if !isServiceView {
        problems.append("in session without myself")
      }
    }
    // Join orders unique: sorted, no two neighbours equal.
    joinOrders.sort()
    let uniqueJoinOrders = zip(joinOrders, joinOrders.dropFirst()).allSatisfy { $0 < $1 }
    if !uniqueJoinOrders { problems.append("join orders are not unique") }
    // The ordered roster is the roster sorted by role, then join order: with unique join
    // orders, that is as many ids as the roster, each present, each strictly after the one
    // before in (role, join order). O(participants), no sort of participants.
    let ordered = orderedUserIDs
    var inOrder = ordered.count == participants.count
    var previous: (Role, UInt64)?
    for id in ordered where inOrder {
      guard let participant = participants[id] else {
        inOrder = false
        break
      }
      let key = (participant.role, participant.joinOrder)
      inOrder = previous.map { $0 < key } ?? true
      previous = key
    }
    if uniqueJoinOrders && !inOrder {
      let expected = participants.values.sorted {
        ($0.role, $0.joinOrder) < ($1.role, $1.joinOrder)
      }.map(\.id)
      problems.append("ordered roster \(ordered) should be \(expected)")
    }
    if order.count != participants.count {
      problems.append("order holds \(order.count) users, roster \(participants.count)")
    }
    if !chat.isConsistent {
      problems.append("chat message ids disagree with messages")
    }
    problems += subSessionProblems()
    for user in recording.agreed where participants[user] == nil {
      problems.append("\(user) agreed to be recorded and is not present")
    }
    if !recording.agreed.isEmpty, !recording.isRecording {
      problems.append("agreements kept while the recording is \(recording.status)")
    }
    if recording.status == .diskFull || recording.status == .connecting {
      problems.append("recording status \(recording.status) is never kept")
    }
    if shareSetting == .none, !shares.isEmpty {
      problems.append("a share is live while sharing is off")
    }
    return problems.map(InvariantViolation.init(description:))
  }
}

extension SessionState {
  /// The subsession board's rules: a list only with a status that has one, at most
  /// ``maxSubSessions`` distinct subsessions, members in subsessions only while started, each
  /// present and in a listed subsession.
  fileprivate func subSessionProblems() -> [String] {
    var problems: [String] = []
    let board = subSessions
    switch board.status {
    case .none, .withdrawn:
      if !board.list.isEmpty { problems.append("a subsession list while \(board.status)") }
    case .committed, .started, .stopped:
      if !Self.validSubSessionNames(board.list.map(\.name)) {
        problems.append("the committed names are not a list one could commit")
      }
      if board.list.contains(where: {
        $0.id.isEmpty || $0.id.utf8.count > Self.maxSubSessionIDBytes
      }) {
        problems.append("a subsession id is empty or too long")
      }
    case .stopping, .commitFailed, .withdrawFailed, .startFailed, .stopFailed:
      problems.append("subsession status \(board.status) is never kept")
    }
    if Set(board.list.map(\.id)).count != board.list.count {
      problems.append("two subsessions share an id")
    }
    if !board.rooms.isEmpty, !board.isStarted {
      problems.append("members in subsessions that are not started")
    }
    let ids = Set(board.list.map(\.id))
    for (user, room) in board.rooms {
      if participants[user] == nil { problems.append("\(user) in \(room) is not present") }
      if !ids.contains(room) { problems.append("\(user) is in unlisted subsession \(room)") }
    }
    return problems
  }
}
