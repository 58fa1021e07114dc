import SessionCore

extension SDKEngine {
  /// Applies one event to the replica and fires its callbacks. Called only from the pump.
  ///
  /// Facts the callbacks need from before the event are captured first, cheaply (no copy of
  /// the state is kept across the reduction, so the store mutates in place).
  ///
  /// - Returns: Whether the event applied.
  @discardableResult
  func apply(_ event: SessionEvent) -> Bool {
    let isPlain = Self.needsNoBookkeeping(event)
    let context: CallbackMapping.Context
    if isPlain {
      context = CallbackMapping.Context()
    } else {
      let helperOwners: Set<UserID> =
        annotationHelpers.isEmpty ? [] : Set(annotationHelpers.keys)
      context = CallbackMapping.Context.capture(
        before: event, from: store, annotationHelperOwners: helperOwners)
      prepare(for: event)
    }
    switch store.send(event) {
    case .applied:
      break
    case .rejected(let rejection):
      diagnostics.rejectedEvents += 1
      log(.warning, "\(rejection)")
      return false
    case .queued:
      // Only when something sends to the store while it reduces; the store applies it later
      // without callbacks.
      log(.warning, "\(event.name) queued by the store; its callbacks are lost")
      return false
    }
    if !isPlain { didApply(event) }
    // The mapping reads only the event and the context captured before it, and calls into
    // the SDK from a callback are queued by the pump, so each callback can go out as the
    // mapping produces it.
    CallbackMapping.forEachCallback(for: event, context: context, oneUser: &oneUserIDs) {
      deliver($0, view: nil)
    }
    if !isPlain { finish(event) }
    return true
  }

  /// Whether `event` needs nothing beside the replica and the mapping: no state from before it
  /// in the callback context (``CallbackMapping/Context/needsStateBefore(_:)``), no annotation
  /// helper owners, and nothing for `prepare`, `didApply` or `finish` to do. These are the
  /// events of a session's steady state, skipped past that bookkeeping on every delivery.
  /// Keep in step with those four.
  static func needsNoBookkeeping(_ event: SessionEvent) -> Bool {
    switch event {
    case .videoStatusChanged, .audioStatusChanged, .activeSpeakersChanged, .hostAskedUnmute,
      .shareSettingChanged, .hostChanged, .managerChanged, .nameChanged, .usersJoined,
      .chatMessageReceived, .chatMessageDeleted, .chatPrivilegeChanged, .networkStatusChanged:
      true
    default:
      false
    }
  }

  /// Remembers what handles must still answer after the event removes it from the replica.
  private func prepare(for event: SessionEvent) {
    switch event {
    case .usersLeft, .shareStatusChanged(_, .stopped, _), .sessionJoined, .sessionLeft: break
    default: return
    }
    guard let session = currentSession else { return }
    switch event {
    case .usersLeft(let ids):
      for id in ids {
        guard let participant = store.state.participants[id] else { continue }
        if let user = session.existingUser(id) {
          user.lastKnown = participant
        } else if delegate != nil {
          session.user(for: id).lastKnown = participant
        }
        if let action = session.shareActions[id] {
          action.lastShare = store.state.shares[id] ?? action.lastShare
        }
      }
    case .shareStatusChanged(let owner, .stopped, _):
      if let action = session.shareActions[owner], let share = store.state.shares[owner] {
        action.lastShare = share
      }
    case .sessionJoined(let snapshot) where store.state.phase == .inSession:
      // A resync: users gone while the link was down keep answering in their callbacks.
      let present = Set(snapshot.participants.map(\.id))
      for (id, participant) in store.state.participants where !present.contains(id) {
        session.user(for: id).lastKnown = participant
      }
    case .sessionLeft:
      let participants = store.state.participants
      for user in session.allUsers {
        if let participant = participants[user.id] { user.lastKnown = participant }
      }
    default:
      break
    }
  }

  /// Local-only state beside the replica that follows the event: annotation helpers and
  /// commands awaiting a possible refusal.
  private func didApply(_ event: SessionEvent) {
    guard !annotationHelpers.isEmpty || !pendingCommands.isEmpty else { return }
    let me = store.state.myselfID
    switch event {
    case .shareStatusChanged(let user, .started, _) where user == me:
      pendingCommands = pendingCommands.filter {
        if case .startShare = $0.value { return false }
        return true
      }
    case .annotationStarted(let user, let owner) where user == me:
      pendingCommands = pendingCommands.filter {
        if case .startAnnotation(owner) = $0.value { return false }
        return true
      }
    case .annotationStopped(let user, let owner) where user == me:
      annotationHelpers[owner]?.isStarted = false
    case .annotationPrivilegeChanged(let owner, true) where owner != me:
      annotationHelpers[owner]?.isStarted = false
    case .annotationCleared(let user, let owner, let type):
      if let me { annotationHelpers[owner]?.applyClear(type, by: user, me: me) }
    default:
      break
    }
  }

  /// Forgets what the event ended, after its callbacks ran.
  private func finish(_ event: SessionEvent) {
    switch event {
    case .usersLeft(let ids):
      for id in ids {
        currentSession?.forget(id)
        subscriptions.removeAll(of: id)
      }
    case .sessionLeft, .joinFailed:
      closeLink()
      currentSession = nil
      pendingCommands.removeAll()
      subscriptions.removeAll()
      for helper in annotationHelpers.values { helper.markCleanedUp() }
      annotationHelpers.removeAll()
      annotationView = nil
    default:
      break
    }
  }

  // MARK: Replay

  /// Applies an event as if the service had sent it, firing its callbacks: for test support
  /// that replays a recorded trace into an instance with no service behind it.
  ///
  /// Lifecycle events are accepted too, so a whole trace (`initialized`, `joinRequested`,
  /// `sessionJoined`, …) replays; `joinRequested` starts a new ``Session`` object. The
  /// instance need not be initialized, and nothing is sent anywhere.
  ///
  /// - Returns: Whether the event applied; `false` also when called from inside a callback,
  ///   where the event is queued and applies after it.
  @discardableResult
  func replay(_ event: SessionEvent) -> Bool {
    let result = ReplayResult()
    submit(.replay(event, result))
    return result.applied
  }

  func startReplay(_ event: SessionEvent) -> Bool {
    switch event {
    case .joinRequested(let name, _):
      currentSession = Session(sdk: self, name: name, password: nil)
    case .sessionJoined(let snapshot):
      if currentSession == nil {
        currentSession = Session(sdk: self, name: snapshot.sessionName, password: nil)
      }
      currentSession?.myselfID = snapshot.myself
    default:
      break
    }
    return apply(event)
  }
}

/// Where a replayed event's outcome lands.
final class ReplayResult {
  var applied = false
}
