extension SessionState {
  /// Applies one event in place, or rejects it and leaves the state exactly as it was.
  ///
  /// Every check runs before the first mutation, so a rejected event changes nothing.
  ///
  /// - Parameter event: The event to apply.
  /// - Complexity: O(1) amortised in the number of participants for every event but
  ///   ``SessionEvent/sessionJoined(_:)`` (O(snapshot)), batches (O(batch)), and manager
  ///   changes (O(managers)).
  /// - Throws: ``EventRejection`` naming why the event cannot apply.
  public mutating func reduce(_ event: SessionEvent) throws(EventRejection) {
    switch event {
    case .initialized:
      guard phase == .idle else { throw reject(.outOfPhase, event, "already initialized") }
      phase = .initialized

    case .cleanedUp:
      switch phase {
      case .initialized, .left, .failed: self = SessionState(chatHistoryLimit: chatHistoryLimit)
      default: throw reject(.outOfPhase, event, "cleanup while \(phase)")
      }

    case .joinRequested(let sessionName, _):
      guard phase.canJoin else { throw reject(.outOfPhase, event, "join while \(phase)") }
      resetSession()
      self.sessionName = sessionName
      phase = .joining

    case .sessionJoined(let snapshot):
      try applySnapshot(snapshot, event)

    case .joinFailed(let error):
      guard phase == .joining else { throw reject(.outOfPhase, event, "not joining") }
      phase = .failed(error)
      lastError = error

    case .leaveRequested:
      guard phase == .inSession else { throw reject(.outOfPhase, event, "not in session") }
      phase = .leaving

    case .sessionLeft(let reason):
      guard phase.acceptsSessionEvents else {
        throw reject(.outOfPhase, event, "not in session")
      }
      let name = sessionName
      resetSession()
      sessionName = name
      phase = .left(reason)

    case .errorOccurred(let error, _):
      lastError = error

    default:
      guard phase.acceptsSessionEvents else {
        throw reject(.outOfPhase, event, "not in session (\(phase))")
      }
      try reduceInSession(event)
    }
  }

  /// Applies an event and returns the rejection instead of throwing it.
  ///
  /// - Parameter event: The event to apply.
  /// - Returns: `nil` when the event applied; otherwise why it was rejected (the state is
  ///   left as it was).
  @discardableResult
  public mutating func apply(_ event: SessionEvent) -> EventRejection? {
    do {
      try reduce(event)
      return nil
    } catch {
      return error
    }
  }

  // MARK: - In session

  private mutating func reduceInSession(_ event: SessionEvent) throws(EventRejection) {
    switch event {
    case .usersJoined(let users):
      try addUsers(users, event)

    case .usersLeft(let ids):
      try removeUsers(ids, event)

    case .videoStatusChanged(let user, let isOn):
      let index = try indexOf(user, event)
      participants.modifyValue(at: index) { $0.isVideoOn = isOn }

    case .audioStatusChanged(let user, let type, let isMuted):
      let index = try indexOf(user, event)
      participants.modifyValue(at: index) {
        $0.audio.type = type
        $0.audio.isMuted = isMuted
        if isMuted || type == .none { $0.audio.isTalking = false }
      }
      if user == myselfID, !isMuted { unmuteRequestedBy = nil }

    case .activeSpeakersChanged(let speakers):
      try requireDistinctPresent(speakers, event)
      for id in activeSpeakers {
        if let index = participants.index(forKey: id) {
          participants.modifyValue(at: index) { $0.audio.isTalking = false }
        }
      }
      for id in speakers {
        if let index = participants.index(forKey: id) {
          participants.modifyValue(at: index) { $0.audio.isTalking = true }
        }
      }
      activeSpeakers = speakers

    case .hostAskedUnmute(let asker):
      let index = try indexOf(asker, event)
      guard participants[index].value.role != .participant else {
        throw reject(.invalidTarget, event, "\(asker) is neither host nor manager")
      }
      unmuteRequestedBy = asker

    case .shareStatusChanged(let user, let status, let kind):
      try changeShare(of: user, to: status, kind: kind, event)

    case .shareSettingChanged(let setting):
      // One share in each place (a subsession, or the main session) stays possible.
      if setting != .multi, Set(shares.keys.map { subSessions.rooms[$0] }).count < shares.count {
        throw reject(.shareNotAllowed, event, "\(shares.count) shares live; stop them first")
      }
      if setting == .none, !shares.isEmpty {
        throw reject(.shareNotAllowed, event, "a share is live; stop it first")
      }
      shareSetting = setting

    case .hostChanged(let newHost):
      let index = try indexOf(newHost, event)
      guard newHost != hostID else { throw reject(.noChange, event, "\(newHost) is host") }
      if let old = hostID, let oldIndex = participants.index(forKey: old) {
        participants.modifyValue(at: oldIndex) { $0.role = .participant }
      }
      if participants[index].value.role == .manager { order.removeManager(newHost) }
      participants.modifyValue(at: index) { $0.role = .host }
      hostID = newHost

    case .managerChanged(let user, let isManager):
      let index = try indexOf(user, event)
      let role = participants[index].value.role
      guard role != .host else { throw reject(.invalidTarget, event, "\(user) is the host") }
      guard isManager != (role == .manager) else {
        throw reject(.noChange, event, "\(user) already \(isManager ? "is" : "is not") manager")
      }
      participants.modifyValue(at: index) { $0.role = isManager ? .manager : .participant }
      if isManager {
        order.insertManager(user, joinOrder: participants[index].value.joinOrder)
      } else {
        order.removeManager(user)
      }

    case .nameChanged(let user, let name):
      let index = try indexOf(user, event)
      participants.modifyValue(at: index) { $0.name = name }

    case .networkStatusChanged(let user, let quality):
      let index = try indexOf(user, event)
      participants.modifyValue(at: index) { $0.networkQuality = quality }

    case .annotationStarted(let user, let owner):
      _ = try indexOf(user, event)
      let share = try liveShare(of: owner, event)
      if user != owner, share.isViewerAnnotationDisabled {
        throw reject(.annotationNotAllowed, event, "\(owner) disabled viewer annotation")
      }
      guard !share.annotators.contains(user) else {
        throw reject(.noChange, event, "\(user) already annotates on \(owner)'s share")
      }
      if let other = annotatedShare(of: user) {
        throw reject(.annotationNotAllowed, event, "\(user) already annotates on \(other)'s share")
      }
      guard subSessions.together(user, owner) else {
        throw reject(.annotationNotAllowed, event, "\(owner)'s share is in another subsession")
      }
      shares[owner]?.annotators.insert(user)

    case .annotationStopped(let user, let owner):
      let share = try liveShare(of: owner, event)
      guard share.annotators.contains(user) else {
        throw reject(.annotationNotAllowed, event, "\(user) is not annotating on \(owner)'s share")
      }
      shares[owner]?.annotators.remove(user)

    case .annotationCleared(let user, let owner, let type):
      let index = try indexOf(user, event)
      _ = try liveShare(of: owner, event)
      guard subSessions.together(user, owner) else {
        throw reject(.annotationNotAllowed, event, "\(owner)'s share is in another subsession")
      }
      let role = participants[index].value.role
      let allowed =
        switch type {
        case .all: role != .participant || user == owner
        case .others: user == owner
        case .mine: true
        }
      guard allowed else {
        throw reject(.annotationNotAllowed, event, "\(user) may not clear \(type)")
      }
      // Wrapping: the count only tells views to redraw, and a snapshot may start it anywhere.
      shares[owner]?.clearCount &+= 1

    case .annotationPrivilegeChanged(let owner, let disabled):
      _ = try liveShare(of: owner, event)
      shares[owner]?.isViewerAnnotationDisabled = disabled
      if disabled { shares[owner]?.annotators.formIntersection([owner]) }

    case .chatMessageReceived(let message):
      _ = try indexOf(message.sender, event)
      if let receiver = message.receiver { _ = try indexOf(receiver, event) }
      // One probe both checks and keeps (the oldest beyond the limit forgotten): a refused
      // message changes nothing.
      guard chat.append(message, limit: chatHistoryLimit) else {
        throw reject(.unknownOrDuplicateMessage, event, "message \(message.id) already present")
      }

    case .chatMessageDeleted(let messageID, _):
      guard chat.remove(messageID) else {
        throw reject(.unknownOrDuplicateMessage, event, "no message \(messageID)")
      }

    case .chatPrivilegeChanged(let privilege):
      chatPrivilege = privilege

    case .spotlightChanged(let users):
      try requireDistinctPresent(users, event)
      guard users.count <= Self.maxSpotlighted else {
        throw reject(
          .invalidTarget, event, "\(users.count) spotlighted, over \(Self.maxSpotlighted)")
      }
      spotlighted = users

    case .commandReceived(let sender, _):
      // Nothing to keep: the command is the callback. Its sender must be here.
      _ = try indexOf(sender, event)

    case .subSession(let change):
      try reduceSubSession(change, event)

    case .recording(let change):
      try reduceRecording(change, event)

    case .initialized, .cleanedUp, .joinRequested, .sessionJoined, .joinFailed, .leaveRequested,
      .sessionLeft, .errorOccurred:
      preconditionFailure("lifecycle events are handled by reduce(_:)")
    }
  }

  // MARK: - Helpers

  // The hot helpers are inlined: as out-of-line methods on a non-mutating `self`, each call
  // copied the whole state (160 bytes) to pass it. Rejections are built out of line.

  @inline(__always)
  func indexOf(_ user: UserID, _ event: SessionEvent) throws(EventRejection)
    -> UserMap<Participant>.Index
  {
    guard let index = participants.index(forKey: user) else {
      throw reject(.unknownUser, event, "\(user) is not in the session")
    }
    return index
  }

  @inline(__always)
  private func liveShare(of owner: UserID, _ event: SessionEvent) throws(EventRejection)
    -> ActiveShare
  {
    guard let share = shares[owner] else {
      throw reject(.annotationNotAllowed, event, "\(owner) is not sharing")
    }
    return share
  }

  private func requireDistinctPresent(_ ids: [UserID], _ event: SessionEvent)
    throws(EventRejection)
  {
    if ids.count == 1 {
      guard participants.index(forKey: ids[0]) != nil else {
        throw reject(.unknownUser, event, "\(ids[0]) is not in the session")
      }
      return
    }
    var seen = Set<UserID>(minimumCapacity: ids.count)
    for id in ids {
      guard participants[id] != nil else {
        throw reject(.unknownUser, event, "\(id) is not in the session")
      }
      guard seen.insert(id).inserted else {
        throw reject(.duplicateUser, event, "\(id) is listed twice")
      }
    }
  }

  private mutating func resetSession() {
    let keepPhase = phase
    let keepError = lastError
    self = SessionState(chatHistoryLimit: chatHistoryLimit)
    phase = keepPhase
    lastError = keepError
  }

  private mutating func addUsers(_ users: [Participant], _ event: SessionEvent)
    throws(EventRejection)
  {
    guard !users.isEmpty else { throw reject(.noChange, event, "no users") }
    // Within the batch, no id and no join order may repeat. A batch in strictly increasing ids
    // and join orders (a service's snapshot, listed in join order) cannot repeat either: one
    // comparison per user settles it. Other batches of more than one check with sets (an
    // allocation each, so never for the usual join of one user).
    let checksWithSets =
      users.count > 1
      && !users.indices.dropFirst().allSatisfy {
        users[$0 - 1].id < users[$0].id && users[$0 - 1].joinOrder < users[$0].joinOrder
      }
    var seen = Set<UserID>()
    var seenJoinOrders = Set<UInt64>()
    if checksWithSets {
      seen.reserveCapacity(users.count)
      seenJoinOrders.reserveCapacity(users.count)
    }
    var newHost = hostID
    // By index: reading fields in place copies no participant (with its strings).
    for index in users.indices {
      let id = users[index].id
      let joinOrder = users[index].joinOrder
      guard participants.index(forKey: id) == nil, !checksWithSets || seen.insert(id).inserted
      else {
        throw reject(.duplicateUser, event, "\(id) is already in the session")
      }
      guard !order.containsPresent(joinOrder: joinOrder),
        !checksWithSets || seenJoinOrders.insert(joinOrder).inserted
      else {
        throw reject(.duplicateUser, event, "join order \(joinOrder) is taken")
      }
      guard !users[index].shareStatus.isActive else {
        throw reject(.invalidTarget, event, "\(id) joins with a live share")
      }
      if users[index].role == .host {
        guard newHost == nil else {
          throw reject(.secondHost, event, "\(id) would be a second host")
        }
        newHost = id
      }
    }
    for user in users { insertParticipant(user) }
    hostID = newHost
  }

  private mutating func insertParticipant(_ user: Participant) {
    participants[user.id] = user
    order.insert(user.id, joinOrder: user.joinOrder)
    if user.role == .manager { order.insertManager(user.id, joinOrder: user.joinOrder) }
    if user.role == .host { hostID = user.id }
    if user.joinOrder > lastJoinOrder { lastJoinOrder = user.joinOrder }
  }

  private mutating func removeUsers(
    _ ids: [UserID], _ event: SessionEvent
  ) throws(EventRejection) {
    guard !ids.isEmpty else { throw reject(.noChange, event, "no users") }
    try requireDistinctPresent(ids, event)
    if let myself = myselfID, ids.contains(myself) {
      throw reject(.invalidTarget, event, "the local user leaves with sessionLeft, not usersLeft")
    }
    for id in ids {
      let left = participants.removeValue(forKey: id)
      order.remove(id, wasManager: left?.role == .manager)
      if hostID == id { hostID = nil }
      if unmuteRequestedBy == id { unmuteRequestedBy = nil }
      if !shares.isEmpty {
        shares.removeValue(forKey: id)
        for owner in shares.keys where shares[owner]?.annotators.contains(id) == true {
          shares[owner]?.annotators.remove(id)
        }
      }
      if !activeSpeakers.isEmpty, let index = activeSpeakers.firstIndex(of: id) {
        activeSpeakers.remove(at: index)
      }
      if !spotlighted.isEmpty, let index = spotlighted.firstIndex(of: id) {
        spotlighted.remove(at: index)
      }
      if !subSessions.rooms.isEmpty { subSessions.rooms.removeValue(forKey: id) }
      if !recording.agreed.isEmpty { recording.agreed.remove(id) }
    }
  }

  private mutating func changeShare(
    of user: UserID, to status: ShareStatus, kind: ShareKind, _ event: SessionEvent
  ) throws(EventRejection) {
    let index = try indexOf(user, event)
    let current = participants[index].value.shareStatus
    switch status {
    case .started:
      guard !current.isActive else {
        throw reject(.invalidShareTransition, event, "\(user) is already sharing")
      }
      let role = participants[index].value.role
      switch shareSetting {
      case .none:
        throw reject(.shareNotAllowed, event, "sharing is disabled")
      case .locked where role == .participant:
        throw reject(.shareNotAllowed, event, "share is locked to host and managers")
      case .locked, .single:
        // One share at a time in each subsession and in the main session.
        if let other = shares.keys.first(where: { subSessions.together($0, user) }) {
          throw reject(.shareNotAllowed, event, "\(other) is sharing (single share)")
        }
      case .multi:
        break
      }
      // Derived from the live shares alone, so that equal states stay equal after a start.
      let startOrder = (shares.values.lazy.map(\.startOrder).max() ?? 0) &+ 1
      shares[user] = ActiveShare(owner: user, status: .started, kind: kind, startOrder: startOrder)
    case .paused:
      guard current == .started || current == .resumed else {
        throw reject(.invalidShareTransition, event, "\(user) cannot pause from \(current)")
      }
      shares[user]?.status = .paused
    case .resumed:
      guard current == .paused else {
        throw reject(.invalidShareTransition, event, "\(user) cannot resume from \(current)")
      }
      shares[user]?.status = .resumed
    case .stopped:
      guard current.isActive else {
        throw reject(.invalidShareTransition, event, "\(user) is not sharing")
      }
      shares.removeValue(forKey: user)
    case .none:
      throw reject(.invalidShareTransition, event, "a share cannot return to none")
    }
    participants.modifyValue(at: index) { $0.shareStatus = status }
  }

  private mutating func applySnapshot(_ snapshot: SessionSnapshot, _ event: SessionEvent)
    throws(EventRejection)
  {
    guard phase == .joining || phase == .inSession else {
      throw reject(.outOfPhase, event, "snapshot while \(phase)")
    }
    var next = SessionState(chatHistoryLimit: chatHistoryLimit)
    next.phase = .inSession
    next.sessionName = snapshot.sessionName
    next.sessionID = snapshot.sessionID
    next.myselfID = snapshot.myself
    next.shareSetting = snapshot.shareSetting
    next.chatPrivilege = snapshot.chatPrivilege
    next.lastError = lastError
    var hosts = 0
    var sharing = 0
    var previousJoinOrder: UInt64?
    // Sized once: a snapshot of n users would otherwise regrow both tables log n times. A
    // quarter more, for the users who join next: a table that is full doubles at the next join
    // (in a join storm, every member's, one after the other).
    let room = snapshot.participants.count + snapshot.participants.count / 4 + 8
    next.participants.reserveCapacity(room)
    next.order.reserveCapacity(room)
    // Inserted in join order (the role order appends in O(1) then). Sort positions, not whole
    // participants (each a copy with its strings), and only when the list is out of order.
    let listed = snapshot.participants
    let inJoinOrder = listed.indices.dropFirst().allSatisfy {
      listed[$0 - 1].joinOrder < listed[$0].joinOrder
    }
    let positions =
      inJoinOrder
      ? Array(listed.indices)
      : listed.indices.sorted { listed[$0].joinOrder < listed[$1].joinOrder }
    for position in positions {
      let user = listed[position]
      guard next.participants[user.id] == nil else {
        throw reject(.invalidSnapshot, event, "\(user.id) is listed twice")
      }
      guard user.joinOrder != previousJoinOrder else {
        throw reject(.invalidSnapshot, event, "join order \(user.joinOrder) is listed twice")
      }
      previousJoinOrder = user.joinOrder
      if user.role == .host { hosts += 1 }
      if user.shareStatus.isActive { sharing += 1 }
      next.insertParticipant(user)
    }
    guard hosts <= 1 else { throw reject(.invalidSnapshot, event, "\(hosts) hosts") }
    guard next.participants[snapshot.myself] != nil else {
      throw reject(.invalidSnapshot, event, "myself \(snapshot.myself) is not in the roster")
    }
    try next.adoptSubSessions(snapshot.subSessions, event)
    try next.adoptRecording(snapshot.recording, event)
    if snapshot.shareSetting != .multi,
      Set(snapshot.shares.map { next.subSessions.rooms[$0.owner] }).count
        < snapshot.shares.count
    {
      throw reject(.invalidSnapshot, event, "two shares in one place in single share")
    }
    if snapshot.shareSetting == .none, !snapshot.shares.isEmpty {
      throw reject(.invalidSnapshot, event, "a share is live while sharing is off")
    }
    var annotating = Set<UserID>()
    for share in snapshot.shares {
      guard let owner = next.participants[share.owner], owner.shareStatus == share.status,
        share.status.isActive, next.shares[share.owner] == nil,
        share.annotators.allSatisfy({
          next.participants[$0] != nil && annotating.insert($0).inserted
            && next.subSessions.together($0, share.owner)
        })
      else {
        throw reject(.invalidSnapshot, event, "share of \(share.owner) is inconsistent")
      }
      next.shares[share.owner] = share
    }
    guard sharing == next.shares.count else {
      throw reject(.invalidSnapshot, event, "share statuses disagree with the share list")
    }
    var speakers = Set<UserID>(minimumCapacity: snapshot.activeSpeakers.count)
    for id in snapshot.activeSpeakers {
      guard next.participants[id] != nil, speakers.insert(id).inserted else {
        throw reject(.invalidSnapshot, event, "speaker \(id) is absent or listed twice")
      }
    }
    next.activeSpeakers = snapshot.activeSpeakers
    var lit = Set<UserID>(minimumCapacity: snapshot.spotlighted.count)
    for id in snapshot.spotlighted {
      guard next.participants[id] != nil, lit.insert(id).inserted else {
        throw reject(.invalidSnapshot, event, "spotlighted \(id) is absent or listed twice")
      }
    }
    guard snapshot.spotlighted.count <= Self.maxSpotlighted else {
      throw reject(.invalidSnapshot, event, "more than \(Self.maxSpotlighted) spotlighted")
    }
    next.spotlighted = snapshot.spotlighted
    self = next
  }
}

/// Builds a rejection; kept out of line so that the reducer's happy paths stay small. Every
/// reducer file uses this one.
@inline(never)
func reject(
  _ code: EventRejection.Code, _ event: SessionEvent, _ detail: String
) -> EventRejection {
  EventRejection(code, event: event.name, detail: detail)
}
