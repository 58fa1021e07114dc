import SessionCore
import SessionTransport
import Synchronization

extension SDKEngine {
  // MARK: The link

  /// Opens a fresh link for a join; messages from older links are ignored from now on.
  ///
  /// The link's handler holds the engine strongly, so a delivery loads no weak reference
  /// (Decision 0008). That makes a cycle while the link is open (engine → link factory → link
  /// → handler → engine); closing the link breaks it, and the facade closes the link when the
  /// app lets go of it (`ownerReleased()`).
  func openLink(_ factory: any SessionLinkFactory) -> any SessionLink {
    closeLink()
    let link = factory.makeLink()
    self.link = link
    linkForRelease.withLock { $0 = LinkBox(link: link) }
    let generation = linkGeneration
    link.setLookahead(self)
    link.start { event in
      switch event {
      case .message(let message):
        self.receive(message, generation: generation)
      case .closed(let reason):
        self.submit(.linkClosed(reason, generation: generation))
      }
    }
    return link
  }

  /// Closes the current link, if any; harmless twice.
  func closeLink() {
    linkGeneration &+= 1
    isPasswordPromptOpen = false
    guard let link else { return }
    self.link = nil
    linkForRelease.withLock { $0 = nil }
    link.close()
  }

  /// The facade is gone: close the link, which drops its handler and with it the engine.
  ///
  /// Runs where the app released its last reference to the facade, which may be off the
  /// engine's domain (a `LoopBound` dropped on another thread), so it touches nothing but the
  /// lock-guarded copy of the link; a link whose `close()` is confined to a loop hops there.
  /// The service sees the connection close, as when a peer's process dies (Decision 0004).
  func ownerReleased() {
    let box = linkForRelease.withLock { box in
      defer { box = nil }
      return box
    }
    box?.link.close()
  }

  // MARK: Looking ahead

  /// A fan-out's next message for this instance: start fetching the participant and the
  /// handle list its callback will touch, while the instance before this one works
  /// (Decision 0009). Nothing is read that a view could observe, and nothing changes.
  func linkWillDeliver(_ message: ServerMessage) {
    guard case .events(let batch) = message, !batch.events.isEmpty else { return }
    if let user = batch.events[0].statusSubject {
      store.prefetchParticipant(user)
      handles.prefetch(user)
    } else if case .usersJoined(let joiners) = batch.events[0], joiners.count == 1 {
      // A join storm: every member appends the joiner to its tables and makes a handle.
      store.prefetchJoiner(joiners[0].id)
      handles.prefetchSlot(joiners[0].id)
    }
  }

  // MARK: The pump

  /// Runs `work` now, or after the work in progress when called from inside it (from a
  /// callback, a store observer or a link delivering synchronously). Everything that changes
  /// the replica goes through here, so each event's callbacks finish before the next applies.
  func submit(_ work: Work) {
    guard !isPumping else {
      inbox.append(work)
      return
    }
    isPumping = true
    defer { isPumping = false }
    // The inbox is empty whenever nothing is pumping, so this work goes first: run it without
    // the round trip through the inbox (a copy in, a copy out).
    process(work)
    drainInbox()
  }

  /// A message from the link: `submit(.message(message, generation:))` without wrapping the
  /// message in a `Work` value when nothing is pumping (every delivery of a fan-out).
  private func receive(_ message: ServerMessage, generation: UInt64) {
    guard !isPumping else {
      inbox.append(.message(message, generation: generation))
      return
    }
    isPumping = true
    defer { isPumping = false }
    // The generation alone tells a current link: closing one moves the generation on, and
    // `link` is set for the generation a new link starts with.
    if generation == linkGeneration { handle(message) }
    drainInbox()
  }

  /// Runs the work queued while something was pumping, and what that queues, in order.
  private func drainInbox() {
    guard inboxHead < inbox.count else { return }
    while inboxHead < inbox.count {
      let next = inbox[inboxHead]
      inboxHead += 1
      process(next)
      if inboxHead > 1_024, inboxHead * 2 > inbox.count {
        inbox.removeFirst(inboxHead)
        inboxHead = 0
      }
    }
    inbox.removeAll(keepingCapacity: true)
    inboxHead = 0
  }

  private func process(_ work: Work) {
    switch work {
    case .local(let event):
      apply(event)
    case .message(let message, let generation):
      guard generation == linkGeneration, link != nil else { return }
      handle(message)
    case .linkClosed(let reason, let generation):
      guard generation == linkGeneration, link != nil else { return }
      if holdsLinkClosures {
        heldLinkClosure = reason
        return
      }
      linkDidClose(reason)
    case .callback(let callback, let view):
      deliver(callback, view: view.view)
    case .replay(let event, let result):
      result.applied = startReplay(event)
    }
  }

  // MARK: Service messages

  private func handle(_ message: ServerMessage) {
    switch message {
    case .joined(let snapshot, let token):
      let phase = store.state.phase
      guard phase == .joining || phase == .inSession else {
        ignore("joined while \(phase)")
        return
      }
      resumeToken = token
      isPasswordPromptOpen = false
      if isResuming {
        isResuming = false
        reconnectAttemptsMade = 0
        diagnostics.resumes += 1
        log(.info, "resumed at sequence \(snapshot.sequence) (had \(lastServiceSequence))")
      }
      currentSession?.myselfID = snapshot.myself
      if apply(.sessionJoined(snapshot)) {
        lastServiceSequence = snapshot.sequence
      } else if phase == .joining {
        closeLink()
        apply(.joinFailed(error: .sessionJoinFailed))
      }

    case .joinRefused(let error):
      guard store.state.phase == .joining else {
        ignore("joinRefused(\(error.sdkName)) while \(store.state.phase)")
        return
      }
      closeLink()
      apply(.joinFailed(error: error))

    case .passwordRequired(let wrong):
      guard store.state.phase == .joining else {
        ignore("passwordRequired while \(store.state.phase)")
        return
      }
      passwordPrompt &+= 1
      isPasswordPromptOpen = true
      deliver(wrong ? .onSessionPasswordWrong : .onSessionNeedPassword, view: nil)

    case .events(let batch):
      applyBatch(batch)

    case .notice(let event):
      guard !Self.isLifecycle(event) else {
        ignore("lifecycle event \(event.name) as a notice")
        return
      }
      apply(event)

    case .commandFailed(let id, let error):
      let pending = pendingCommands.removeValue(forKey: id)
      log(.info, "command \(id) refused: \(error.sdkName)")
      apply(.errorOccurred(error: error, detail: Int(id)))
      switch pending {
      case .startShare?:
        if let me = currentSession?.myselfID { deliver(.onFailedToStartShare(me), view: nil) }
      case .startAnnotation(let owner)?:
        annotationHelpers[owner]?.isStarted = false
      case nil:
        break
      }

    case .left(let reason):
      let phase = store.state.phase
      closeLink()
      isResuming = false
      if phase == .joining {
        apply(.joinFailed(error: .sessionJoinFailed))
      } else if phase.acceptsSessionEvents {
        apply(.sessionLeft(reason: reason))
      } else {
        ignore("left while \(phase)")
      }

    case .heartbeat:
      break
    }
  }

  private func applyBatch(_ batch: EventBatch) {
    for (offset, event) in batch.events.enumerated() {
      let sequence = batch.firstSequence + UInt64(offset)
      guard sequence > lastServiceSequence else {
        diagnostics.duplicateEventsDropped += 1
        continue
      }
      if sequence > lastServiceSequence + 1 {
        diagnostics.sequenceGaps += 1
        log(.warning, "events \(lastServiceSequence + 1)..<\(sequence) missing; applying on")
      }
      lastServiceSequence = sequence
      guard !Self.isLifecycle(event) else {
        ignore("lifecycle event \(event.name) in a batch")
        continue
      }
      apply(event)
    }
  }

  private func linkDidClose(_ reason: LinkCloseReason) {
    let phase = store.state.phase
    closeLink()
    log(.warning, "link closed (\(reason)) while \(phase)")
    switch phase {
    case .joining:
      apply(.joinFailed(error: .sessionJoinFailed))
    case .inSession:
      if !tryResume() { apply(.sessionLeft(reason: .networkError)) }
    case .leaving:
      apply(.sessionLeft(reason: .bySelf))
    default:
      break
    }
  }

  /// Opens a fresh link and asks the service to take the membership back (Decision 0004).
  ///
  /// - Returns: `false` when there is nothing to resume or the attempts are used up.
  private func tryResume() -> Bool {
    guard let configuration, reconnectAttemptsMade < configuration.reconnectAttempts,
      let resumeToken, let sessionID = store.state.sessionID, let me = store.state.myselfID
    else { return false }
    reconnectAttemptsMade += 1
    log(.info, "link lost; resume attempt \(reconnectAttemptsMade)")
    isResuming = true
    let link = openLink(configuration.transport)
    link.send(
      .resume(
        ResumeRequest(
          sessionID: sessionID, user: me, resumeToken: resumeToken,
          lastSequence: lastServiceSequence)))
    return true
  }

  /// Answers a password prompt; the completion handed to the delegate calls it.
  func answerPassword(prompt: UInt64, password: String?, leave: Bool) -> VideoSDKError {
    guard let configuration else { return .uninitialize }
    guard isPasswordPromptOpen, prompt == passwordPrompt, let link,
      store.state.phase == .joining
    else { return .wrongUsage }
    if leave {
      isPasswordPromptOpen = false
      link.send(.password(nil))
      return .success
    }
    guard let password, !password.isEmpty else { return .invalidParameter }
    guard configuration.limits.isValidPassword(password) else {
      return .joinSessionInvalidPassword
    }
    isPasswordPromptOpen = false
    currentSession?.password = password
    link.send(.password(password))
    return .success
  }

  static func isLifecycle(_ event: SessionEvent) -> Bool {
    switch event {
    case .initialized, .cleanedUp, .joinRequested, .sessionJoined, .joinFailed, .leaveRequested,
      .sessionLeft:
      true
    default:
      false
    }
  }

  private func ignore(_ what: String) {
    diagnostics.ignoredMessages += 1
    log(.warning, "ignored \(what)")
  }

  // MARK: Logging

  func log(_ level: SDKLogRecord.Level, _ message: @autoclosure () -> String) {
    let keep = configuration?.enableLog ?? false
    guard keep || logHandler != nil else { return }
    let record = SDKLogRecord(level: level, message: message(), timestamp: clock.now())
    logHandler?(record)
    if keep {
      if recentLogs.count >= 256 { recentLogs.removeFirst(recentLogs.count - 255) }
      recentLogs.append(record)
    }
  }
}

// MARK: - Test hooks

extension SDKEngine {
  /// The link in use, if any.
  var currentLinkForTesting: (any SessionLink)? { link }

  /// Holds back the news that the link closed, as if the instance had not noticed yet.
  func suspendLinkForTesting() { holdsLinkClosures = true }

  /// Delivers a held-back link closure, which starts a resume.
  func resumeLinkForTesting() {
    holdsLinkClosures = false
    guard let reason = heldLinkClosure else { return }
    heldLinkClosure = nil
    submit(.linkClosed(reason, generation: linkGeneration))
  }

  /// Points later links at another service, as after a service restart.
  func replaceTransportForTesting(_ transport: any SessionLinkFactory) {
    configuration?.transport = transport
  }
}

/// The engine's current link, for the facade's `deinit` to close from whatever thread it runs
/// on.
///
/// `@unchecked Sendable`: the box only carries the link to `ownerReleased()` through the
/// engine's lock; the link is used there only through `close()`, which ``SessionLink``
/// allows from another thread when the instance that owns it is released there.
struct LinkBox: @unchecked Sendable {
  let link: any SessionLink
}
