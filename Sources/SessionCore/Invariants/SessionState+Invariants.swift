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
  /// - Complexity: O(participants × log participants). Debug builds and tests run it after
  ///   every event; release builds never do.
  /// - Returns: The violations; empty when the state is sound.
  public func checkInvariants() -> [InvariantViolation] {
    var problems: [String] = []
    let hosts = participants.values.filter { $0.role == .host }
    if hosts.count > 1 { problems.append("\(hosts.count) hosts") }
    if let hostID {
      if participants[hostID]?.role != .host { problems.append("hostID \(hostID) is not host") }
    } else if !hosts.isEmpty {
      problems.append("host \(hosts[0].id) without hostID")
    }
    let managerIDs = Set(participants.values.lazy.filter { $0.role == .manager }.map(\.id))
    if Set(order.managers) != managerIDs || order.managers.count != managerIDs.count {
      problems.append("manager order \(order.managers) disagrees with roster \(managerIDs)")
    }
    if shareSetting != .multi, shares.count > 1 {
      problems.append("\(shares.count) shares without multi-share")
    }
    for (owner, share) in shares {
      if share.owner != owner { problems.append("share keyed \(owner) owned by \(share.owner)") }
      if participants[owner]?.shareStatus != share.status {
        problems.append("share of \(owner) disagrees with its participant")
      }
      for annotator in share.annotators where participants[annotator] == nil {
        problems.append("annotator \(annotator) is not present")
      }
    }
    let annotations = shares.values.reduce(0) { $0 + $1.annotators.count }
    if Set(shares.values.lazy.flatMap(\.annotators)).count != annotations {
      problems.append("a user annotates on two shares")
    }
    for participant in participants.values
    where participant.shareStatus.isActive && shares[participant.id] == nil {
      problems.append("\(participant.id) shares but has no share")
    }
    for speaker in activeSpeakers where participants[speaker] == nil {
      problems.append("speaker \(speaker) is not present")
    }
    if phase.acceptsSessionEvents {
      if let myselfID {
        if participants[myselfID] == nil { problems.append("myself is not in the roster") }
      } else if !isServiceView {
        problems.append("in session without myself")
      }
    }
    let ordered = orderedUserIDs
    let expected = participants.values.sorted {
      ($0.role, $0.joinOrder) < ($1.role, $1.joinOrder)
    }.map(\.id)
    if ordered != expected {
      problems.append("ordered roster \(ordered) should be \(expected)")
    }
    if order.count != participants.count {
      problems.append("order holds \(order.count) users, roster \(participants.count)")
    }
    if !chatMessageIDs.holdsExactly(chatLog[chatLogStart...].lazy.map(\.id)) {
      problems.append("chat message ids disagree with messages")
    }
    if Set(participants.values.lazy.map(\.joinOrder)).count != participants.count {
      problems.append("join orders are not unique")
    }
    if shareSetting == .none, !shares.isEmpty {
      problems.append("a share is live while sharing is off")
    }
    return problems.map(InvariantViolation.init(description:))
  }
}
