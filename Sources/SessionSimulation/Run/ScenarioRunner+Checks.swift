import SessionCore
import SessionSDK

extension ScenarioRunner {
  // MARK: Assertions at times

  /// Checks an assertion on every live peer it selects.
  func check(_ assertion: AssertionSpec) {
    for peer in select(assertion.peers ?? "*") where peer.canAct {
      for problem in problems(of: assertion, on: peer) {
        fail("assertion", peer: peer.name, problem)
      }
    }
  }

  private func problems(of assertion: AssertionSpec, on peer: SimulatedPeer) -> [String] {
    let inSession = peer.isInSession
    if let expected = assertion.inSession, expected != inSession {
      return ["expected inSession \(expected), was \(inSession)"]
    }
    let state = peer.sdk.store.current
    var problems: [String] = []
    func id(_ name: String) -> UserID? { peersByName[name]?.userID }
    func named(_ id: UserID?) -> String {
      guard let id else { return "nobody" }
      return peers.first { $0.userID == id }?.name ?? "user \(id)"
    }
    if let host = assertion.host {
      if state.hostID == nil || state.hostID != id(host) {
        problems.append("expected host \(host), saw \(named(state.hostID))")
      }
    }
    if let managers = assertion.managers {
      let expected = Set(managers.compactMap(id))
      let actual = Set(state.participants.values.filter { $0.role == .manager }.map(\.id))
      if expected != actual || expected.count != managers.count {
        problems.append(
          "expected managers \(managers.sorted()), saw \(actual.map(named).sorted())")
      }
    }
    if let count = assertion.rosterCount, state.participants.count != count {
      problems.append("expected \(count) users, saw \(state.participants.count)")
    }
    for name in assertion.sees ?? [] where id(name).flatMap({ state.participants[$0] }) == nil {
      problems.append("expected to see \(name)")
    }
    for name in assertion.doesNotSee ?? [] where id(name).flatMap({ state.participants[$0] }) != nil
    {
      problems.append("expected not to see \(name)")
    }
    for name in assertion.sharing ?? [] {
      if id(name).flatMap({ state.participants[$0] })?.shareStatus.isActive != true {
        problems.append("expected \(name) to be sharing")
      }
    }
    for name in assertion.videoOn ?? [] {
      if id(name).flatMap({ state.participants[$0] })?.isVideoOn != true {
        problems.append("expected \(name)'s video on")
      }
    }
    if let locked = assertion.shareLocked, state.isShareLocked != locked {
      problems.append("expected share locked \(locked), was \(state.isShareLocked)")
    }
    if let names = assertion.spotlighted {
      let expected = names.map(id)
      if expected != state.spotlighted.map(Optional.some) {
        problems.append(
          "expected spotlighted \(names), saw \(state.spotlighted.map { named($0) })")
      }
    }
    if let least = assertion.commandsReceived, peer.commandsReceived < least {
      problems.append("expected at least \(least) commands received, saw \(peer.commandsReceived)")
    }
    if let status = assertion.subSessions, "\(state.subSessions.status)" != status {
      problems.append("expected subsessions \(status), saw \(state.subSessions.status)")
    }
    if let place = assertion.inSubSession {
      let mine = state.myselfID.flatMap { state.subSessions.subSession(of: $0)?.name } ?? "main"
      if mine != place { problems.append("expected to be in \(place), was in \(mine)") }
    }
    if let status = assertion.recording, "\(state.recording.status)" != status {
      problems.append("expected recording \(status), saw \(state.recording.status)")
    }
    if let names = assertion.recordAgreed {
      let expected = Set(names.compactMap(id))
      if expected != state.recording.agreed || expected.count != names.count {
        problems.append(
          "expected \(names) to have agreed, saw \(state.recording.agreed.sorted().map(named))")
      }
    }
    if let least = assertion.broadcastsReceived, peer.broadcastsReceived < least {
      problems.append(
        "expected at least \(least) broadcasts received, saw \(peer.broadcastsReceived)")
    }
    if !inSession, !problems.isEmpty { return ["not in the session (\(problems[0]))"] }
    return problems
  }

  // MARK: Convergence

  /// Whether the replicas look converged at a glance: every live peer that wants the session
  /// is in it, with as many participants and the same host as the service. O(1) per replica;
  /// ``divergence()`` then compares everything.
  func looksConverged() -> Bool {
    let state = world.serviceState(ofSession: scenario.session.name)
    for peer in peers where peer.life == .alive {
      let inSession = peer.isInSession
      if peer.wantsSession && !inSession { return false }
      guard inSession else { continue }
      guard let state else { return false }
      let replica = peer.sdk.store
      if replica.participantCount != state.participants.count { return false }
      if replica.hostIDInPlace != state.hostID { return false }
    }
    return true
  }

  /// The first way the replicas and the service disagree, or `nil` when every live peer that
  /// wants the session holds the service's state and the service lists exactly those peers.
  func divergence() -> String? {
    let name = scenario.session.name
    let service = world.serviceState(ofSession: name)
    let facts = service?.sharedFacts
    let serviceSequence = world.serviceSequence(ofSession: name) ?? 0
    var inSessionIDs: Set<UserID> = []
    for peer in peers {
      switch peer.life {
      case .dead, .paused:
        continue
      case .alive:
        break
      }
      let inSession = peer.isInSession
      if peer.wantsSession && !inSession {
        return "\(peer.name) wants the session but is not in it"
      }
      guard inSession else { continue }
      guard let facts else {
        return "\(peer.name) is in a session the service does not have"
      }
      let replica = peer.sdk.store.current
      if let id = replica.myselfID { inSessionIDs.insert(id) }
      if replica.sharedFacts != facts {
        return "\(peer.name) at service sequence \(peer.sdk.lastServiceSequence) "
          + "(service at \(serviceSequence)): "
          + FactsDiff.first(expected: facts, actual: replica.sharedFacts)
      }
    }
    if let facts {
      for participant in facts.participants.values where !inSessionIDs.contains(participant.id) {
        let owner = peers.first { $0.userID == participant.id }
        let why: String
        switch owner?.life {
        case .dead?: why = "a dead peer"
        case .paused?: why = "a paused peer"
        default: why = "no live peer in the session"
        }
        return "the service lists \(participant.name) (\(participant.id)), \(why)"
      }
    }
    return nil
  }

  // MARK: The end

  /// Convergence, liveness and the delivery properties, once the run has settled.
  func finalChecks(at elapsed: Int64) {
    checkEveryReplica()
    let divergence = confirmedConvergence ? nil : divergence()
    if convergedAt == nil {
      fail(
        "liveness", peer: nil,
        "not converged within \(scenario.expect.liveness) after the heal: "
          + (divergence ?? "converged only after the window"))
    }
    if scenario.expect.convergence, let divergence {
      fail("convergence", peer: nil, divergence)
    }
    // At quiescence every close a client sent has reached the service: a member still bound
    // to such a connection is a ghost (a join the service admitted on a connection its peer
    // had already given up).
    if convergedAt != nil {
      for ghost in world.ghostMembers(ofSession: scenario.session.name).prefix(3) {
        fail(
          "convergence", peer: ghost.peer,
          "the service lists user \(ghost.user) on a connection \(ghost.peer) closed")
      }
    }
    guard scenario.expect.delivery else { return }
    let expectedChat = world.expectedChat()
    // Each id numbered once, not once per receiver.
    let numberAtPlace = expectedChat.log.map {
      deliveryLedger.chatNumbers.existingNumber(of: $0)
    }
    for peer in peers {
      for problem in peer.monitor.problems.prefix(5) {
        fail("delivery", peer: peer.name, problem)
      }
      guard peer.canAct, peer.isInSession else { continue }
      // The users the peer sees: everyone, or while anyone is in a subsession, those in the
      // peer's place.
      let state = peer.sdk.store.current
      let seen =
        state.subSessions.rooms.isEmpty
        ? Array(state.participants.keys)
        : state.participants.keys.filter { id in
          state.myselfID.map { state.subSessions.together(id, $0) } ?? true
        }
      let (missing, extra) = peer.monitor.mismatch(with: seen, limit: 3)
      for missing in missing {
        fail("delivery", peer: peer.name, "no onUserJoin for \(missing), who is present")
      }
      for extra in extra {
        fail("delivery", peer: peer.name, "no onUserLeave for \(extra), who is gone")
      }
      var lost = 0
      var firstLost: String?
      expectedChat.forEachPlace(of: peer.name) { place in
        if let number = numberAtPlace[place], peer.monitor.hasDeliveredChat(number: number) {
          return
        }
        lost += 1
        if firstLost == nil { firstLost = expectedChat.log[place] }
      }
      if let firstLost {
        fail(
          "delivery", peer: peer.name,
          "\(lost) chat messages sent on its open connection never arrived "
            + "(first: \(firstLost))")
      }
    }
  }
}

/// The first difference between two sets of shared facts, in words.
enum FactsDiff {
  static func first(expected: SharedSessionFacts, actual: SharedSessionFacts) -> String {
    if expected.sessionName != actual.sessionName {
      return "session name expected \(String(describing: expected.sessionName)), "
        + "actual \(String(describing: actual.sessionName))"
    }
    for participant in expected.participants.values.sorted(by: { $0.joinOrder < $1.joinOrder }) {
      guard let mine = actual.participants[participant.id] else {
        return "expected \(participant.name) (\(participant.id)) present, actual absent"
      }
      if mine != participant {
        return "\(participant.name) (\(participant.id)) expected \(participant), actual \(mine)"
      }
    }
    for participant in actual.participants.values
    where expected.participants[participant.id] == nil {
      return "expected \(participant.name) (\(participant.id)) absent, actual present"
    }
    if expected.hostID != actual.hostID {
      return "host expected \(String(describing: expected.hostID)), "
        + "actual \(String(describing: actual.hostID))"
    }
    if expected.shareSetting != actual.shareSetting {
      return "share setting expected \(expected.shareSetting), actual \(actual.shareSetting)"
    }
    if expected.shares != actual.shares {
      return "shares expected \(expected.shares), actual \(actual.shares)"
    }
    if expected.chatPrivilege != actual.chatPrivilege {
      return "chat privilege expected \(expected.chatPrivilege), actual \(actual.chatPrivilege)"
    }
    return "active speakers expected \(expected.activeSpeakers), actual \(actual.activeSpeakers)"
  }
}
