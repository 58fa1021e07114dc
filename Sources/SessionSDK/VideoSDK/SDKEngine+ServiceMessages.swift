@_spi(Package) import SessionCore
import SessionTransport
import Synchronization

/// What the service says: events to apply, lifecycle messages, closes and resumes.
extension SDKEngine {
  func handle(_ message: ServerMessage) {
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
      let pending = local.pendingCommands.removeValue(forKey: id)
      log(.info, "command \(id) refused: \(error.sdkName)")
      apply(.errorOccurred(error: error, detail: Int(id)))
      switch pending {
      case .startShare?:
        if let me = currentSession?.myselfID { deliver(.onFailedToStartShare(me), view: nil) }
      case .startAnnotation(let owner)?:
        local.annotationHelpers[owner]?.isStarted = false
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

  func linkDidClose(_ reason: LinkCloseReason) {
    let before = lifecycle.state
    let action = lifecycle.linkClosed(
      reason, reconnectAttempts: configuration?.reconnectAttempts ?? 0,
      canResume: store.state.sessionID != nil && store.state.myselfID != nil)
    log(.warning, "link closed (\(reason)) while \(before)")
    switch action {
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
}
