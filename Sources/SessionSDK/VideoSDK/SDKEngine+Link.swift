@_spi(Package) import SessionCore
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
    (link as? any LookaheadLink)?.setLookahead(self)
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
    let mediaBox = mediaLinkForRelease.withLock { box in
      defer { box = nil }
      return box
    }
    mediaBox?.link.close()
  }

  // MARK: Looking ahead

  /// The store's first six cache lines hold the flags and the state's table headers, which
  /// ``linkWillDeliver(_:)`` reads to find what to fetch next: a network prefetches them a few
  /// deliveries ahead. The store is a constant of the engine, so the address holds as long as
  /// the link holds the engine.
  var lookaheadAddress: UnsafeRawPointer? {
    UnsafeRawPointer(Unmanaged.passUnretained(store).toOpaque())
  }

  /// A fan-out's next message for this instance: start fetching the participant and the
  /// handle list its callback will touch, while the instance before this one works
  /// (Decision 0009). Nothing is read that a view could observe, and nothing changes.
  func linkWillDeliver(_ message: ServerMessage) {
    guard case .events(let batch) = message, !batch.events.isEmpty else { return }
    if let user = batch.events[0].statusSubject {
      if let address = store.participantAddress(user) { prefetchMemory(at: address) }
      handles.prefetch(user)
      return
    }
    switch batch.events[0] {
    case .usersJoined(let joiners) where joiners.count == 1:
      // A join storm: every member appends the joiner to its tables and makes a handle.
      store.forEachJoinerAddress(joiners[0].id) { prefetchMemory(at: $0) }
      handles.prefetchSlot(joiners[0].id)
    case .chatMessageReceived(let message):
      // A chat to everyone: every member finds the sender, checks and keeps the id, and
      // appends the message.
      store.forEachChatAddress(message) { prefetchMemory(at: $0) }
    default:
      break
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

  /// An event from the media link: `submit(.media(event, generation:))` without wrapping it in
  /// a `Work` value when nothing is pumping (every datagram and tick).
  func receiveMedia(_ event: MediaLinkEvent, generation: UInt64) {
    guard !isPumping else {
      inbox.append(.media(event, generation: generation))
      return
    }
    isPumping = true
    defer { isPumping = false }
    if generation == mediaGeneration { handleMedia(event) }
    drainInbox()
  }

  /// Runs the work queued while something was pumping, and what that queues, in order.
  ///
  /// The check comes first and alone: on the path of every delivery the inbox is empty, and an
  /// empty pop would make and drop an optional `Work` (about 50 instructions; callgrind).
  @inline(__always)
  private func drainInbox() {
    guard !inbox.isEmpty else { return }
    while let next = inbox.popFirst() { process(next) }
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
      linkDidClose(reason)
    case .callback(let callback, let view):
      deliver(callback, view: view.view)
    case .replay(let event, let result):
      result.applied = startReplay(event)
    case .media(let event, let generation):
      guard generation == mediaGeneration else { return }
      handleMedia(event)
    }
  }

  // MARK: Service messages

  private func handle(_ message: ServerMessage) {
    switch message {
    case .events(let batch):
      applyBatch(batch)

    case .joined(let snapshot, let token):
      let before = lifecycle.state
      switch lifecycle.joined(resumeToken: token) {
      case .ignore:
        ignore("joined while \(before)")
      case .join:
        currentSession?.myselfID = snapshot.myself
        // Before the join's callbacks, which may subscribe canvases.
        startMedia(me: snapshot.myself)
        if apply(.sessionJoined(snapshot)) {
          serviceSequence = snapshot.sequence
        } else {
          end(lifecycle.joinSnapshotRejected())
        }
      case .resync(let resumed):
        if let resumed {
          diagnostics.resumes += 1
          log(
            .info,
            "resumed at sequence \(snapshot.sequence) (had \(serviceSequence)), attempt \(resumed)")
        }
        currentSession?.myselfID = snapshot.myself
        mediaResynced(snapshot: snapshot)
        if apply(.sessionJoined(snapshot)) { serviceSequence = snapshot.sequence }
      }

    case .joinRefused(let error):
      act(on: lifecycle.joinRefused(error), for: "joinRefused(\(error.sdkName))")

    case .passwordRequired(let wrong):
      act(on: lifecycle.passwordRequired(), for: "passwordRequired", wrong: wrong)

    case .notice(let event):
      let plan = EventPlan(event)
      guard !plan.isLifecycle else {
        ignore("lifecycle event \(event.name) as a notice")
        return
      }
      apply(event, as: plan)

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
      end(lifecycle.left(reason))

    case .heartbeat:
      break

    case .media(let notice):
      handleMediaNotice(notice)
    }
  }

  /// Acts on the machine's answer to `joinRefused` or `passwordRequired`.
  private func act(
    on action: SDKLifecycle.JoinAnswerAction, for what: @autoclosure () -> String,
    wrong: Bool = false
  ) {
    switch action {
    case .end(let ending):
      end(ending)
    case .prompt:
      deliver(wrong ? .onSessionPasswordWrong : .onSessionNeedPassword, view: nil)
    case .ignore:
      ignore("\(what()) while \(lifecycle.state)")
    }
  }

  private func applyBatch(_ batch: EventBatch) {
    for (offset, event) in batch.events.enumerated() {
      let sequence = batch.firstSequence + UInt64(offset)
      guard sequence > serviceSequence else {
        diagnostics.duplicateEventsDropped += 1
        continue
      }
      if sequence > serviceSequence + 1 {
        diagnostics.sequenceGaps += 1
        log(.warning, "events \(serviceSequence + 1)..<\(sequence) missing; applying on")
      }
      serviceSequence = sequence
      let plan = EventPlan(event)
      guard !plan.isLifecycle else {
        ignore("lifecycle event \(event.name) in a batch")
        continue
      }
      apply(event, as: plan)
    }
  }

  /// The membership ended as the machine decided: close the link, then apply the ending.
  private func end(_ ending: SDKLifecycle.Ending) {
    closeLink()
    stopMedia()
    switch ending {
    case .joinFailed(let error): apply(.joinFailed(error: error))
    case .left(let reason): apply(.sessionLeft(reason: reason))
    }
  }

  private func linkDidClose(_ reason: LinkCloseReason) {
    let before = lifecycle.state
    let action = lifecycle.linkClosed(
      reason, reconnectAttempts: configuration?.reconnectAttempts ?? 0,
      canResume: store.state.sessionID != nil && store.state.myselfID != nil)
    if action == .hold { return }
    log(.warning, "link closed (\(reason)) while \(before)")
    switch action {
    case .hold:
      break
    case .end(let ending):
      end(ending)
    case .resume(let attempt, let token):
      resume(attempt: attempt, token: token)
    }
  }

  /// Opens a fresh link and asks the service to take the membership back (Decision 0004).
  private func resume(attempt: Int, token: UInt64) {
    guard let configuration, let sessionID = store.state.sessionID, let me = store.state.myselfID
    else { preconditionFailure("resuming with no configuration, session or local user") }
    log(.info, "link lost; resume attempt \(attempt)")
    let link = openLink(configuration.transport)
    link.send(
      .resume(
        ResumeRequest(
          sessionID: sessionID, user: me, resumeToken: token, lastSequence: serviceSequence)))
  }

  /// Answers a password prompt; the completion handed to the delegate calls it.
  func answerPassword(prompt: UInt64, password: String?, leave: Bool) -> VideoSDKError {
    let answer: SDKLifecycle.PasswordAnswer
    if leave {
      answer = .giveUp
    } else if let password, !password.isEmpty {
      answer =
        limits.isValidPassword(password)
        ? .password(password) : .invalid(.joinSessionInvalidPassword)
    } else {
      answer = .invalid(.invalidParameter)
    }
    switch lifecycle.answerPrompt(prompt, with: answer) {
    case .refuse(let error):
      return error
    case .send(let answer):
      guard let link else { preconditionFailure("a password prompt with no link") }
      if let answer { currentSession?.password = answer }
      link.send(.password(answer))
      return .success
    }
  }

  private func ignore(_ what: String) {
    diagnostics.ignoredMessages += 1
    log(.warning, "ignored \(what)")
  }

  // MARK: Logging

  func log(_ level: LogLevel, _ message: @autoclosure () -> String) {
    let keep = configuration?.enableLog ?? false
    guard keep || logHandler != nil else { return }
    let record = LogRecord(
      level: level, message: message(), label: "sdk", timestamp: clock.now())
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
  func suspendLinkForTesting() { lifecycle.holdLinkClosures() }

  /// Delivers a held-back link closure, which starts a resume.
  func resumeLinkForTesting() {
    guard let reason = lifecycle.releaseLinkClosures() else { return }
    submit(.linkClosed(reason, generation: linkGeneration))
  }

  /// Points later links at another service, as after a service restart.
  func replaceTransportForTesting(_ transport: any SessionLinkFactory) {
    configuration?.transport = transport
  }
}

/// The engine's current media link, for the facade's `deinit` to close from whatever thread
/// it runs on.
///
/// `@unchecked Sendable`: as ``LinkBox``; the link is used there only through `close()`.
struct MediaLinkBox: @unchecked Sendable {
  let link: any MediaLink
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
