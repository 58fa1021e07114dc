import SessionCore
import SessionTransport

extension SDKEngine {
  /// Applies one event to the replica and fires its callbacks. Called only from the pump.
  ///
  /// - Returns: Whether the event applied.
  @discardableResult
  func apply(_ event: SessionEvent) -> Bool {
    apply(event, as: EventPlan(event))
  }

  /// Applies one event by its plan (see ``EventPlan``): facts the callbacks need from before
  /// the event are captured first, cheaply (no copy of the state is kept across the
  /// reduction, so the store mutates in place), then each step runs in its place.
  ///
  /// - Returns: Whether the event applied.
  ///
  /// The plan is consumed, so that the steady state's has nothing left to drop.
  @discardableResult
  func apply(_ event: SessionEvent, as plan: consuming EventPlan) -> Bool {
    switch consume plan {
    case .plain:
      // While anyone is in a subsession, callbacks are filtered by place (the board is read
      // from before the event).
      if store.currentHasSubSessionMembers {
        return apply(event, with: EventPlan.Bookkeeping(readsStateBefore: true))
      }
      guard reduce(event) else { return false }
      fireCallbacks(for: event, context: .plain)
      return true
    case .bookkept(let bookkeeping):
      return apply(event, with: bookkeeping)
    }
  }

  private func apply(_ event: SessionEvent, with bookkeeping: EventPlan.Bookkeeping) -> Bool {
    let helperOwners: Set<UserID> =
      local.annotationHelpers.isEmpty ? [] : Set(local.annotationHelpers.keys)
    // While anyone is in a subsession every event's callbacks are filtered by place, which
    // reads the board before the event.
    let context =
      bookkeeping.readsStateBefore || store.currentHasSubSessionMembers
      ? CallbackMapping.Context.capture(
        before: event, from: store, annotationHelperOwners: helperOwners)
      : CallbackMapping.Context(annotationHelperOwners: helperOwners)
    let session = currentSession
    prepare(bookkeeping.before)
    guard reduce(event) else { return false }
    follow(bookkeeping.afterReduce)
    fireCallbacks(for: event, context: context)
    finish(bookkeeping.afterCallbacks, session: session)
    // A move took users out of the local user's place: their streams no longer come (the
    // service ended the subscriptions that crossed the border), so the local ones end too
    // and a canvas subscribed again once they are back starts afresh.
    if case .subSession = event, let left = context.subSessions?.left {
      for id in left {
        local.subscriptions.removeAll(of: id)
        mediaPlane.session?.forget(id)
      }
    }
    return true
  }

  /// Tells the media session when the service withdrew the local user's streams: its camera
  /// went off, or its share ended (see ``MediaSession/serviceWithdrew(_:)``).
  @inline(__always)
  private func noteWithdrawals(by event: SessionEvent) {
    switch event {
    case .videoStatusChanged(let user, isOn: false):
      if mediaPlane.session?.me == user {
        mediaPlane.session?.serviceWithdrew(.video)
      }
    case .shareStatusChanged(let user, .stopped, _):
      if mediaPlane.session?.me == user {
        mediaPlane.session?.serviceWithdrew(.share)
      }
    default:
      break
    }
  }

  /// Sends `event` to the store.
  ///
  /// - Returns: Whether it applied.
  @inline(__always)
  private func reduce(_ event: SessionEvent) -> Bool {
    switch store.send(event) {
    case .applied:
      noteWithdrawals(by: event)
      return true
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
  }

  /// Fires the callbacks of an applied event.
  ///
  /// The mapping reads only the event and the context captured before it, and calls into the
  /// SDK from a callback are queued by the pump, so each callback can go out as the mapping
  /// produces it.
  @inline(__always)
  private func fireCallbacks(for event: SessionEvent, context: CallbackMapping.Context) {
    CallbackMapping.forEachCallback(for: event, context: context, oneUser: &oneUserIDs) {
      deliver($0, view: nil)
    }
  }

  /// Remembers what handles must still answer after the event removes it from the replica.
  private func prepare(_ step: EventPlan.Before) {
    guard let session = currentSession else { return }
    switch step {
    case .nothing:
      break
    case .leavers(let ids):
      for id in ids {
        guard let participant = store.currentParticipant(id) else { continue }
        if let user = handles[id] {
          user.lastKnown = participant
        } else if delegate != nil {
          handle(for: id, in: session).lastKnown = participant
        }
        if let action = session.shareActions[id] {
          action.lastShare = store.currentShare(of: id) ?? action.lastShare
        }
      }
    case .stoppedShare(let owner):
      if let action = session.shareActions[owner], let share = store.currentShare(of: owner) {
        action.lastShare = share
      }
    case .resync(let snapshot):
      // Users gone while the link was down keep answering in their callbacks.
      guard store.currentPhase == .inSession else { return }
      let present = Set(snapshot.participants.map(\.id))
      for (id, participant) in store.current.participants where !present.contains(id) {
        handle(for: id, in: session).lastKnown = participant
      }
    case .everyone:
      recordLastKnown(of: handles.all)
    }
  }

  /// Local-only state beside the replica that follows the event: annotation helpers and
  /// commands awaiting a possible refusal.
  private func follow(_ step: EventPlan.AfterReduce) {
    guard !local.annotationHelpers.isEmpty || !local.pendingCommands.isEmpty else { return }
    let me = store.currentMyselfID
    switch step {
    case .nothing:
      break
    case .shareStarted(let user):
      guard user == me else { return }
      local.pendingCommands = local.pendingCommands.filter {
        if case .startShare = $0.value { return false }
        return true
      }
    case .annotationStarted(let user, let owner):
      guard user == me else { return }
      local.pendingCommands = local.pendingCommands.filter {
        if case .startAnnotation(owner) = $0.value { return false }
        return true
      }
    case .annotationStopped(let user, let owner):
      guard user == me else { return }
      local.annotationHelpers[owner]?.isStarted = false
    case .viewerAnnotationDisabled(let owner):
      guard owner != me else { return }
      local.annotationHelpers[owner]?.isStarted = false
    case .annotationCleared(let user, let owner, let type):
      if let me { local.annotationHelpers[owner]?.applyClear(type, by: user, me: me) }
    }
  }

  /// Forgets what the event ended, after its callbacks ran.
  ///
  /// - Parameter session: The session that was current when the event began to apply.
  private func finish(_ step: EventPlan.AfterCallbacks, session: Session?) {
    switch step {
    case .nothing:
      break
    case .forget(let ids):
      for id in ids {
        forgetHandle(of: id)
        local.subscriptions.removeAll(of: id)
        mediaPlane.session?.forget(id)
      }
    case .endSession(let ending):
      // A join the app started from one of the callbacks (a retry from `onError`, a rejoin
      // from `onSessionLeave`) owns the link and the current session from now on.
      if currentSession === session {
        if lifecycle.replicaEnded(ending) { closeLink() }
        currentSession = nil
        local.pendingCommands.removeAll()
        stopMedia()
      }
      local.subscriptions.removeAll()
      for helper in local.annotationHelpers.values { helper.markCleanedUp() }
      local.annotationHelpers.removeAll()
      local.annotationView = nil
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
