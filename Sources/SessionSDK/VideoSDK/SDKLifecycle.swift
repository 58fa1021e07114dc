import SessionCore
import SessionTransport

/// The life of one SDK instance: not initialized, initialized, joining (perhaps answering a
/// password prompt), in a session (perhaps resuming it on a fresh link), leaving, and out of
/// the session again, having left or failed to join.
///
/// Pure: each input (an API call, a link closing, a lifecycle message from the service)
/// returns what the engine does; the machine opens no link, sends nothing, fires no callback
/// and touches no replica. What each state needs is its own data: the prompt a password answer
/// must name, the token a resume sends, the attempt a resume is at. Whether a link is open
/// follows from the state: every state from `joining` to `leaving` has one, and the others
/// have none (the engine opens and closes links only as the actions say, so a message or a
/// closure, which come only from the current link, never reach a state without one).
///
/// ```
/// idle ──initialize──▶ initialized ──join──▶ joining ◀──answer──┐
///  ▲                   left, failed ──join──▶   │ ──prompt──▶ awaitingPassword
///  └──cleanup── initialized, left, failed       │                │
///                                               ├──joined────────┴──▶ inSession
///   joining, awaitingPassword ──refused / left / link closed──▶ failed(error)
///   inSession ──link closed──▶ resuming(1) ──link closed──▶ resuming(2) … ──▶ left(networkError)
///   resuming(n) ──joined──▶ inSession            resuming(n) ──left(reason)──▶ left(reason)
///   inSession, resuming ──leave──▶ leaving ──left(reason)──▶ left(reason)
///                                  leaving ──link closed──▶ left(bySelf)
///   inSession ──left(reason)──▶ left(reason)
/// ```
///
/// Everything an app or a service can cause is an input with an answer: a call in the wrong
/// state is refused with the SDK's error, a message that makes no sense now is ignored (the
/// engine counts it). `preconditionFailure` marks only what the engine's own sequencing rules
/// out. A local join refused by the checks goes from `initialized` (or `left`, `failed`) to
/// `failed` directly.
///
/// The replica's ``SessionCore/SessionPhase`` is the app-visible view of the same life; the
/// machine refines it with what only the engine knows (a link, a prompt, a resume). The two
/// move together except under test support's ``VideoSDK/replay(_:)``, which changes the
/// replica alone: in the states without a link, the calls that read the replica today
/// (join, leave, cleanup) take its phase as an input, so that a replayed session refuses them
/// as a live one would.
///
/// > Important: A value owned by one `SDKEngine`; confined with it to its isolation domain.
struct SDKLifecycle {
  /// Where the instance is. Readable for the engine's logs and for tests; only the machine's
  /// inputs change it.
  enum State: Hashable, CustomStringConvertible {
    /// `initialize` has not succeeded (or `cleanup` ran since).
    case idle
    /// Initialized; no session yet.
    case initialized
    /// A link is open and the join is sent; no password prompt is open.
    case joining
    /// Joining, and the service asked for a password: the delegate holds a completion for
    /// this prompt.
    case awaitingPassword(prompt: UInt64)
    /// In the session; `resumeToken` takes the membership back if the link fails.
    case inSession(resumeToken: UInt64)
    /// The link failed in the session; a fresh one is open and resume attempt `attempt`
    /// (from 1) is sent with `resumeToken`. The replica stays in the session meanwhile.
    case resuming(attempt: Int, resumeToken: UInt64)
    /// The leave command is sent; the link stays open for the service's answer.
    case leaving
    /// Out of the session, which ended for this reason.
    case left(LeaveReason)
    /// Out of the session, whose join failed with this error.
    case failed(VideoSDKError)

    var description: String {
      switch self {
      case .idle: "idle"
      case .initialized: "initialized"
      case .joining: "joining"
      case .awaitingPassword(let prompt): "awaitingPassword(\(prompt))"
      case .inSession: "inSession"
      case .resuming(let attempt, _): "resuming(\(attempt))"
      case .leaving: "leaving"
      case .left(let reason): "left(\(reason))"
      case .failed(let error): "failed(\(error.sdkName))"
      }
    }
  }

  /// How a membership ended: what the engine applies to its replica once it closed the link.
  enum Ending: Hashable {
    /// Apply `joinFailed(error)`.
    case joinFailed(VideoSDKError)
    /// Apply `sessionLeft(reason)`.
    case left(LeaveReason)
  }

  /// What to do with `initialize`.
  enum InitializeAction: Hashable {
    /// Store the configuration and apply `initialized`.
    case initialize
    /// Return this error; nothing changes.
    case refuse(VideoSDKError)
  }

  /// What to do with `joinSession`.
  enum JoinAction: Hashable {
    /// Start a session object, apply `joinRequested`, open a link and send the join.
    case start
    /// The context failed the local checks: apply `joinRequested`, then `joinFailed(error)`;
    /// no link.
    case failLocally(VideoSDKError)
    /// Report this error through `onError` and return `nil`; nothing changes.
    case refuse(VideoSDKError)
    /// Not initialized: return `nil`, report nothing.
    case ignore
  }

  /// What to do with `leaveSession`.
  enum LeaveAction: Hashable {
    /// Apply `leaveRequested` and send the leave command on the open link.
    case sendLeave
    /// Return this error; nothing changes.
    case refuse(VideoSDKError)
  }

  /// What to do with `cleanup`.
  enum CleanupAction: Hashable {
    /// Apply `cleanedUp` and forget the configuration and the session's objects.
    case cleanUp
    /// Return this error; nothing changes.
    case refuse(VideoSDKError)
  }

  /// An answer the app gave to a password prompt, as the engine checked it.
  enum PasswordAnswer: Hashable {
    /// `leaveSessionIgnorePassword`: give up the join.
    case giveUp
    /// A password that passes the local checks.
    case password(String)
    /// A password that does not (empty, too long, not printable ASCII).
    case invalid(VideoSDKError)
  }

  /// What to do with a password answer.
  enum PasswordAction: Hashable {
    /// Send this answer (`nil`: give up) and return success.
    case send(String?)
    /// Return this error; nothing changes.
    case refuse(VideoSDKError)
  }

  /// What to do with a `joined` message.
  enum JoinedAction: Hashable {
    /// The join succeeded: apply the snapshot as the session's start. If the replica refuses
    /// it, tell the machine (``joinSnapshotRejected()``) and end the join.
    case join
    /// A fresh snapshot of the session the instance is in: apply it as a resync. `resumed`
    /// is the resume attempt it answers, if it answers one.
    case resync(resumed: Int?)
    /// Nothing to do now (the answer to a resume sent before the app left): count it.
    case ignore
  }

  /// What to do with a `joinRefused` or `passwordRequired` message.
  enum JoinAnswerAction: Hashable {
    /// Close the link and apply the ending.
    case end(Ending)
    /// Tell the delegate of this prompt (`onSessionNeedPassword`, or
    /// `onSessionPasswordWrong` when the service said the last password was wrong).
    case prompt(UInt64)
    /// Not joining: count it and do nothing.
    case ignore
  }

  /// What to do when the current link closed.
  enum LinkClosedAction: Hashable {
    /// Close the link and apply the ending.
    case end(Ending)
    /// Close the link, open a fresh one and send resume attempt `attempt` with the token.
    case resume(attempt: Int, resumeToken: UInt64)
  }

  /// Where the instance is.
  private(set) var state: State = .idle

  /// How many password prompts were opened, ever; the newest one's number. It never goes
  /// back, so a completion kept from an earlier prompt (even of an earlier join) never
  /// answers a later one.
  private(set) var promptsOpened: UInt64 = 0

  /// Whether the state has a link: from `joining` to `leaving`.
  var hasLink: Bool {
    switch state {
    case .joining, .awaitingPassword, .inSession, .resuming, .leaving: true
    case .idle, .initialized, .left, .failed: false
    }
  }

  // MARK: API calls

  /// `initialize`.
  ///
  /// - Parameter parametersAreValid: Whether the parameters pass the checks (a domain).
  mutating func initialize(parametersAreValid: Bool) -> InitializeAction {
    guard case .idle = state else { return .refuse(.wrongUsage) }
    guard parametersAreValid else { return .refuse(.invalidParameter) }
    state = .initialized
    return .initialize
  }

  /// `joinSession`.
  ///
  /// - Parameters:
  ///   - replica: The replica's phase (see the type's notes on replay).
  ///   - localError: What the local checks found wrong with the context, if anything.
  mutating func join(replica: SessionPhase, localError: VideoSDKError?) -> JoinAction {
    switch state {
    case .idle:
      return .ignore
    case .joining, .awaitingPassword, .inSession, .resuming, .leaving:
      return .refuse(.sessionAlreadyInProgress)
    case .initialized, .left, .failed:
      guard replica.canJoin else { return .refuse(.sessionAlreadyInProgress) }
      if let localError {
        state = .failed(localError)
        return .failLocally(localError)
      }
      state = .joining
      return .start
    }
  }

  /// `leaveSession`, whether or not it ends the session for everyone.
  ///
  /// - Parameter replica: The replica's phase (see the type's notes on replay).
  mutating func leave(replica: SessionPhase) -> LeaveAction {
    switch state {
    case .idle:
      return .refuse(.uninitialize)
    case .inSession, .resuming:
      // While resuming, the command follows the resume on the same link, so the service
      // handles it once the membership is back (or refuses it, if the resume was too late).
      state = .leaving
      return .sendLeave
    case .leaving:
      return .refuse(.sessionDisconnecting)
    case .joining, .awaitingPassword:
      return .refuse(.notInSession)
    case .initialized, .left, .failed:
      return .refuse(replica == .leaving ? .sessionDisconnecting : .notInSession)
    }
  }

  /// `cleanup`.
  ///
  /// - Parameter replica: The replica's phase (see the type's notes on replay).
  mutating func cleanup(replica: SessionPhase) -> CleanupAction {
    switch state {
    case .idle:
      return .refuse(.uninitialize)
    case .joining, .awaitingPassword, .inSession, .resuming, .leaving:
      return .refuse(.wrongUsage)
    case .initialized, .left, .failed:
      guard !replica.acceptsSessionEvents, replica != .joining else { return .refuse(.wrongUsage) }
      state = .idle
      return .cleanUp
    }
  }

  /// The app answered password prompt `prompt` through the completion it was handed.
  mutating func answerPrompt(_ prompt: UInt64, with answer: PasswordAnswer) -> PasswordAction {
    guard case .awaitingPassword(let open) = state else {
      return .refuse(state == .idle ? .uninitialize : .wrongUsage)
    }
    guard open == prompt else { return .refuse(.wrongUsage) }
    switch answer {
    case .giveUp:
      state = .joining
      return .send(nil)
    case .password(let password):
      state = .joining
      return .send(password)
    case .invalid(let error):
      return .refuse(error)
    }
  }

  // MARK: The service's lifecycle messages

  /// `joined`: the join or a resume succeeded, or the service sent a fresh snapshot.
  mutating func joined(resumeToken: UInt64) -> JoinedAction {
    switch state {
    case .joining, .awaitingPassword:
      state = .inSession(resumeToken: resumeToken)
      return .join
    case .inSession:
      state = .inSession(resumeToken: resumeToken)
      return .resync(resumed: nil)
    case .resuming(let attempt, _):
      state = .inSession(resumeToken: resumeToken)
      return .resync(resumed: attempt)
    case .leaving:
      return .ignore
    case .idle, .initialized, .left, .failed:
      preconditionFailure("a message arrived with no link, while \(state)")
    }
  }

  /// The replica refused the snapshot that ``joined(resumeToken:)`` answered `.join` for.
  ///
  /// - Returns: The ending to apply once the link is closed.
  mutating func joinSnapshotRejected() -> Ending {
    guard case .inSession = state else {
      preconditionFailure("a join snapshot was rejected while \(state)")
    }
    return end(.joinFailed(.sessionJoinFailed))
  }

  /// `joinRefused(error)`.
  mutating func joinRefused(_ error: VideoSDKError) -> JoinAnswerAction {
    switch state {
    case .joining, .awaitingPassword:
      return .end(end(.joinFailed(error)))
    case .inSession, .resuming, .leaving:
      return .ignore
    case .idle, .initialized, .left, .failed:
      preconditionFailure("a message arrived with no link, while \(state)")
    }
  }

  /// `passwordRequired`: the join (or the last answer) gave no password, or a wrong one. A
  /// second prompt replaces the first, whose completion no longer answers.
  mutating func passwordRequired() -> JoinAnswerAction {
    switch state {
    case .joining, .awaitingPassword:
      promptsOpened &+= 1
      state = .awaitingPassword(prompt: promptsOpened)
      return .prompt(promptsOpened)
    case .inSession, .resuming, .leaving:
      return .ignore
    case .idle, .initialized, .left, .failed:
      preconditionFailure("a message arrived with no link, while \(state)")
    }
  }

  /// `left(reason)`: the service ended the membership (the app left, was removed, the host
  /// ended the session, or a resume came too late).
  ///
  /// - Returns: The ending to apply once the link is closed.
  mutating func left(_ reason: LeaveReason) -> Ending {
    switch state {
    case .joining, .awaitingPassword:
      return end(.joinFailed(.sessionJoinFailed))
    case .inSession, .resuming, .leaving:
      return end(.left(reason))
    case .idle, .initialized, .left, .failed:
      preconditionFailure("a message arrived with no link, while \(state)")
    }
  }

  // MARK: The link

  /// The current link closed (or failed).
  ///
  /// - Parameters:
  ///   - reason: Why, as the link reports it.
  ///   - reconnectAttempts: How many resumes in a row the configuration allows.
  ///   - canResume: Whether the replica knows the session and the local user, which a resume
  ///     names.
  mutating func linkClosed(
    _ reason: LinkCloseReason, reconnectAttempts: Int, canResume: Bool
  ) -> LinkClosedAction {
    switch state {
    case .joining, .awaitingPassword:
      return .end(end(.joinFailed(.sessionJoinFailed)))
    case .inSession(let token):
      return resume(after: 0, token: token, allowed: reconnectAttempts, canResume: canResume)
    case .resuming(let attempt, let token):
      return resume(after: attempt, token: token, allowed: reconnectAttempts, canResume: canResume)
    case .leaving:
      return .end(end(.left(.bySelf)))
    case .idle, .initialized, .left, .failed:
      preconditionFailure("a link closed with no link, while \(state)")
    }
  }

  private mutating func resume(
    after attempt: Int, token: UInt64, allowed: Int, canResume: Bool
  ) -> LinkClosedAction {
    guard canResume, attempt < allowed else { return .end(end(.left(.networkError))) }
    state = .resuming(attempt: attempt + 1, resumeToken: token)
    return .resume(attempt: attempt + 1, resumeToken: token)
  }

  /// The replica applied an ending the machine did not decide (test support replayed
  /// `sessionLeft` or `joinFailed` into an instance with a link).
  ///
  /// - Returns: Whether there is a link to close.
  mutating func replicaEnded(_ ending: Ending) -> Bool {
    guard hasLink else { return false }
    _ = end(ending)
    return true
  }

  private mutating func end(_ ending: Ending) -> Ending {
    switch ending {
    case .joinFailed(let error): state = .failed(error)
    case .left(let reason): state = .left(reason)
    }
    return ending
  }
}
