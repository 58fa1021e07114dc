import SessionCore
import SessionTestSupport
import SessionTransport
import Testing

@testable import SessionSDK

// The machine is mutated outside `#expect` (the macro can't take a mutating call).

/// Every transition of the SDK's lifecycle machine, allowed and refused, input by input.
@Suite("SDK lifecycle state machine")
struct SDKLifecycleMachineTests {
  typealias Machine = SDKLifecycle

  // MARK: Reaching each state

  static func initialized() -> Machine {
    var machine = Machine()
    _ = machine.initialize(parametersAreValid: true)
    return machine
  }

  static func joining() -> Machine {
    var machine = initialized()
    _ = machine.join(replica: .initialized, localError: nil)
    return machine
  }

  static func awaitingPassword() -> Machine {
    var machine = joining()
    _ = machine.passwordRequired()
    return machine
  }

  static func inSession(token: UInt64 = 7) -> Machine {
    var machine = joining()
    _ = machine.joined(resumeToken: token)
    return machine
  }

  static func resuming(attempts: Int = 3) -> Machine {
    var machine = inSession()
    _ = machine.linkClosed(.closedByPeer, reconnectAttempts: attempts, canResume: true)
    return machine
  }

  static func leaving() -> Machine {
    var machine = inSession()
    _ = machine.leave(replica: .inSession)
    return machine
  }

  static func left() -> Machine {
    var machine = inSession()
    _ = machine.left(.bySelf)
    return machine
  }

  static func failed() -> Machine {
    var machine = joining()
    _ = machine.joinRefused(.sessionJoinFailed)
    return machine
  }

  /// One machine in each state, with the replica's phase in that state.
  static let everyState: [(Machine, SessionPhase)] = [
    (Machine(), .idle), (initialized(), .initialized), (joining(), .joining),
    (awaitingPassword(), .joining), (inSession(), .inSession), (resuming(), .inSession),
    (leaving(), .leaving), (left(), .left(.bySelf)), (failed(), .failed(.sessionJoinFailed)),
  ]

  @Test func eachStateIsReachedAndSaysWhetherItHasALink() {
    let states = Self.everyState.map(\.0.state)
    #expect(
      states == [
        .idle, .initialized, .joining, .awaitingPassword(prompt: 1), .inSession(resumeToken: 7),
        .resuming(attempt: 1, resumeToken: 7), .leaving, .left(.bySelf),
        .failed(.sessionJoinFailed),
      ])
    #expect(
      Self.everyState.map(\.0.hasLink) == [
        false, false, true, true, true, true, true, false, false,
      ])
  }

  // MARK: API calls

  @Test func initializeOnlyFromIdleAndWithValidParameters() {
    var machine = Machine()
    #expect(machine.initialize(parametersAreValid: false) == .refuse(.invalidParameter))
    #expect(machine.state == .idle)
    #expect(machine.initialize(parametersAreValid: true) == .initialize)
    #expect(machine.state == .initialized)
    for (state, _) in Self.everyState.dropFirst() {
      var machine = state
      #expect(machine.initialize(parametersAreValid: true) == .refuse(.wrongUsage))
      #expect(machine.initialize(parametersAreValid: false) == .refuse(.wrongUsage))
      #expect(machine.state == state.state, "\(state.state) changed")
    }
  }

  @Test func joinStartsOnlyWithoutASessionAndIsRefusedWhileOneIsInProgress() {
    for (state, phase) in Self.everyState {
      var machine = state
      let action = machine.join(replica: phase, localError: nil)
      switch state.state {
      case .idle:
        #expect(action == .ignore)
        #expect(machine.state == .idle)
      case .initialized, .left, .failed:
        #expect(action == .start)
        #expect(machine.state == .joining)
      case .joining, .awaitingPassword, .inSession, .resuming, .leaving:
        #expect(action == .refuse(.sessionAlreadyInProgress), "\(state.state)")
        #expect(machine.state == state.state)
      }
    }
  }

  @Test func aContextThatFailsTheChecksFailsTheJoinWithoutALink() {
    var machine = Self.initialized()
    #expect(
      machine.join(replica: .initialized, localError: .joinSessionNoSessionName)
        == .failLocally(.joinSessionNoSessionName))
    #expect(machine.state == .failed(.joinSessionNoSessionName))
    #expect(!machine.hasLink)
    // While a join is in progress, the in-progress refusal comes first.
    var busy = Self.joining()
    #expect(
      busy.join(replica: .joining, localError: .joinSessionNoSessionName)
        == .refuse(.sessionAlreadyInProgress))
  }

  @Test func aReplayedSessionInTheReplicaRefusesAJoinCleanupAndLeaveAsALiveOneWould() {
    var join = Self.initialized()
    #expect(join.join(replica: .inSession, localError: nil) == .refuse(.sessionAlreadyInProgress))
    var cleanup = Self.initialized()
    #expect(cleanup.cleanup(replica: .joining) == .refuse(.wrongUsage))
    #expect(cleanup.cleanup(replica: .leaving) == .refuse(.wrongUsage))
    var leave = Self.left()
    #expect(leave.leave(replica: .leaving) == .refuse(.sessionDisconnecting))
    #expect(leave.leave(replica: .inSession) == .refuse(.notInSession))
    #expect(join.state == .initialized && cleanup.state == .initialized)
    #expect(leave.state == .left(.bySelf))
  }

  @Test func leaveIsSentInSessionAndWhileResumingAndRefusedElsewhere() {
    for (state, phase) in Self.everyState {
      var machine = state
      let action = machine.leave(replica: phase)
      switch state.state {
      case .idle:
        #expect(action == .refuse(.uninitialize))
      case .inSession, .resuming:
        #expect(action == .sendLeave)
        #expect(machine.state == .leaving)
        continue
      case .leaving:
        #expect(action == .refuse(.sessionDisconnecting))
      case .initialized, .joining, .awaitingPassword, .left, .failed:
        #expect(action == .refuse(.notInSession), "\(state.state)")
      }
      #expect(machine.state == state.state, "\(state.state) changed")
    }
  }

  @Test func cleanupReturnsToIdleOnlyWithoutALink() {
    for (state, phase) in Self.everyState {
      var machine = state
      let action = machine.cleanup(replica: phase)
      switch state.state {
      case .idle:
        #expect(action == .refuse(.uninitialize))
        #expect(machine.state == .idle)
      case .initialized, .left, .failed:
        #expect(action == .cleanUp)
        #expect(machine.state == .idle)
      case .joining, .awaitingPassword, .inSession, .resuming, .leaving:
        #expect(action == .refuse(.wrongUsage), "\(state.state)")
        #expect(machine.state == state.state)
      }
    }
  }

  // MARK: Password prompts

  @Test func aPromptIsAnsweredOnceByItsNumber() {
    var machine = Self.awaitingPassword()
    #expect(machine.answerPrompt(2, with: .password("pw")) == .refuse(.wrongUsage))
    #expect(
      machine.answerPrompt(1, with: .invalid(.joinSessionInvalidPassword))
        == .refuse(.joinSessionInvalidPassword))
    #expect(machine.state == .awaitingPassword(prompt: 1), "a bad answer leaves the prompt open")
    #expect(machine.answerPrompt(1, with: .password("pw")) == .send("pw"))
    #expect(machine.state == .joining)
    #expect(machine.answerPrompt(1, with: .password("pw")) == .refuse(.wrongUsage))

    var givingUp = Self.awaitingPassword()
    #expect(givingUp.answerPrompt(1, with: .giveUp) == .send(nil))
    #expect(givingUp.state == .joining)
  }

  @Test func anAnswerWithNoPromptOpenIsWrongUsage() {
    for (state, _) in Self.everyState {
      if case .awaitingPassword = state.state { continue }
      var machine = state
      let expected: VideoSDKError = state.state == .idle ? .uninitialize : .wrongUsage
      #expect(machine.answerPrompt(1, with: .password("pw")) == .refuse(expected))
      #expect(machine.answerPrompt(1, with: .giveUp) == .refuse(expected))
      #expect(machine.state == state.state)
    }
  }

  @Test func aSecondPromptReplacesTheFirstAndNumbersNeverRepeat() {
    var machine = Self.awaitingPassword()
    #expect(machine.passwordRequired() == .prompt(2))
    #expect(machine.answerPrompt(1, with: .password("pw")) == .refuse(.wrongUsage))
    #expect(machine.answerPrompt(2, with: .password("pw")) == .send("pw"))
    #expect(machine.passwordRequired() == .prompt(3), "a wrong password prompts again")
    #expect(machine.joinRefused(.sessionNeedPassword) == .end(.joinFailed(.sessionNeedPassword)))
    #expect(machine.join(replica: .failed(.sessionNeedPassword), localError: nil) == .start)
    #expect(machine.passwordRequired() == .prompt(4), "the next join's prompts count on")
    #expect(machine.promptsOpened == 4)
  }

  @Test func promptsAndRefusalsOutsideAJoinAreIgnored() {
    for machine in [Self.inSession(), Self.resuming(), Self.leaving()] {
      var prompted = machine
      #expect(prompted.passwordRequired() == .ignore)
      #expect(prompted.state == machine.state)
      var refused = machine
      #expect(refused.joinRefused(.sessionJoinFailed) == .ignore)
      #expect(refused.state == machine.state)
    }
  }

  // MARK: Joining

  @Test func joinedEndsAJoinWithOrWithoutAPrompt() {
    var plain = Self.joining()
    #expect(plain.joined(resumeToken: 9) == .join)
    #expect(plain.state == .inSession(resumeToken: 9))
    var prompted = Self.awaitingPassword()
    #expect(prompted.joined(resumeToken: 9) == .join)
    #expect(prompted.state == .inSession(resumeToken: 9))
    #expect(prompted.answerPrompt(1, with: .giveUp) == .refuse(.wrongUsage), "the prompt closed")
  }

  @Test func aJoinSnapshotTheReplicaRefusesFailsTheJoin() {
    var machine = Self.joining()
    _ = machine.joined(resumeToken: 1)
    #expect(machine.joinSnapshotRejected() == .joinFailed(.sessionJoinFailed))
    #expect(machine.state == .failed(.sessionJoinFailed))
  }

  @Test func aJoinEndsInFailureWhenRefusedLeftOrItsLinkCloses() {
    for start in [Self.joining(), Self.awaitingPassword()] {
      var refused = start
      #expect(
        refused.joinRefused(.joinSessionInvalidSessionToken)
          == .end(.joinFailed(.joinSessionInvalidSessionToken)))
      #expect(refused.state == .failed(.joinSessionInvalidSessionToken))
      var left = start
      #expect(left.left(.networkError) == .joinFailed(.sessionJoinFailed))
      #expect(left.state == .failed(.sessionJoinFailed))
      var closed = start
      #expect(
        closed.linkClosed(.closedByPeer, reconnectAttempts: 3, canResume: true)
          == .end(.joinFailed(.sessionJoinFailed)))
      #expect(closed.state == .failed(.sessionJoinFailed))
    }
  }

  // MARK: In session, resuming, leaving

  @Test func aFreshSnapshotInSessionIsAResyncWithTheNewToken() {
    var machine = Self.inSession(token: 1)
    #expect(machine.joined(resumeToken: 2) == .resync(resumed: nil))
    #expect(machine.state == .inSession(resumeToken: 2))
  }

  @Test func aFailedLinkResumesUpToTheAttemptsThenLeavesWithNetworkError() {
    var machine = Self.inSession(token: 5)
    for attempt in 1...3 {
      let action = machine.linkClosed(.failed("cut"), reconnectAttempts: 3, canResume: true)
      #expect(action == .resume(attempt: attempt, resumeToken: 5))
      #expect(machine.state == .resuming(attempt: attempt, resumeToken: 5))
    }
    let last = machine.linkClosed(.failed("cut"), reconnectAttempts: 3, canResume: true)
    #expect(last == .end(.left(.networkError)))
    #expect(machine.state == .left(.networkError))
    #expect(!machine.hasLink)
  }

  @Test func aSuccessfulResumeStartsTheCountAgain() {
    var machine = Self.resuming(attempts: 2)
    _ = machine.linkClosed(.closedByPeer, reconnectAttempts: 2, canResume: true)
    #expect(machine.state == .resuming(attempt: 2, resumeToken: 7))
    #expect(machine.joined(resumeToken: 8) == .resync(resumed: 2))
    #expect(machine.state == .inSession(resumeToken: 8))
    let next = machine.linkClosed(.closedByPeer, reconnectAttempts: 2, canResume: true)
    #expect(next == .resume(attempt: 1, resumeToken: 8))
  }

  @Test func noResumeWhenTurnedOffOrTheReplicaLacksTheSession() {
    var off = Self.inSession()
    #expect(
      off.linkClosed(.closedByPeer, reconnectAttempts: 0, canResume: true)
        == .end(.left(.networkError)))
    var unknown = Self.inSession()
    #expect(
      unknown.linkClosed(.closedByPeer, reconnectAttempts: 3, canResume: false)
        == .end(.left(.networkError)))
  }

  @Test func aResumeAnsweredWithLeftEndsTheSessionForThatReason() {
    var machine = Self.resuming()
    #expect(machine.left(.networkError) == .left(.networkError))
    #expect(machine.state == .left(.networkError))
  }

  @Test func theServiceEndsASessionInAnyStateWithALink() {
    for start in [Self.inSession(), Self.resuming(), Self.leaving()] {
      var machine = start
      #expect(machine.left(.kickByHost) == .left(.kickByHost))
      #expect(machine.state == .left(.kickByHost))
    }
  }

  @Test func leavingWhileResumingWaitsForTheServiceAndIgnoresTheResumeAnswer() {
    var machine = Self.resuming()
    #expect(machine.leave(replica: .inSession) == .sendLeave)
    #expect(machine.state == .leaving)
    #expect(machine.joined(resumeToken: 9) == .ignore)
    #expect(machine.state == .leaving)
    #expect(machine.leave(replica: .leaving) == .refuse(.sessionDisconnecting))
    #expect(machine.left(.bySelf) == .left(.bySelf))
    #expect(machine.state == .left(.bySelf))
  }

  @Test func aLinkThatClosesWhileLeavingHasLeft() {
    var machine = Self.leaving()
    #expect(
      machine.linkClosed(.closedByPeer, reconnectAttempts: 3, canResume: true)
        == .end(.left(.bySelf)))
    #expect(machine.state == .left(.bySelf))
  }

  @Test func anEndingTheReplicaAppliedEndsOnlyAStateWithALink() {
    for (state, _) in Self.everyState {
      var machine = state
      let closes = machine.replicaEnded(.left(.endByHost))
      #expect(closes == state.hasLink, "\(state.state)")
      #expect(machine.state == (state.hasLink ? .left(.endByHost) : state.state))
    }
  }
}

/// The lifecycle through an instance on a scripted link: what the machine's actions do.
@Suite("SDK lifecycle through the engine")
struct SDKLifecycleEngineTests {
  /// A delegate whose callbacks run what a test gives them.
  final class HookDelegate: VideoSDKDelegate {
    var onJoin: () -> Void = {}
    var onLeave: (LeaveReason) -> Void = { _ in }
    var onErrorHook: (VideoSDKError) -> Void = { _ in }
    var onVideo: () -> Void = {}
    var completions: [(String?, Bool) -> VideoSDKError] = []

    func onSessionJoin() { onJoin() }
    func onSessionLeave(_ reason: LeaveReason) { onLeave(reason) }
    func onError(_ errorType: VideoSDKError, detail details: Int) { onErrorHook(errorType) }
    func onUserVideoStatusChanged(_ helper: VideoHelper?, user: [User]?) { onVideo() }
    func onSessionNeedPassword(_ completion: @escaping (String?, Bool) -> VideoSDKError) {
      completions.append(completion)
    }
    func onSessionPasswordWrong(_ completion: @escaping (String?, Bool) -> VideoSDKError) {
      completions.append(completion)
    }
  }

  /// An instance joined to the classroom as Ada (2), on `links`, its log emptied.
  func joined(
    _ links: FakeLinkFactory, through transport: (any SessionLinkFactory)? = nil,
    attempts: Int = 3, delegate: HookDelegate? = nil
  ) throws -> SDKTestRig {
    let rig = SDKTestRig(transport: transport ?? links, reconnectAttempts: attempts)
    rig.sdk.delegate = delegate
    rig.join()
    let link = try #require(links.last)
    link.deliver(.joined(snapshot(myself: 2, users: classroom, sequence: 4), resumeToken: 11))
    #expect(rig.sdk.engine.lifecycle.state == .inSession(resumeToken: 11))
    _ = rig.log.take()
    return rig
  }

  @Test func joinWhileJoiningIsRefusedAndChangesNothing() {
    let links = FakeLinkFactory()
    let rig = SDKTestRig(transport: links)
    let first = rig.join()
    #expect(first != nil)
    #expect(rig.join() == nil)
    #expect(links.links.count == 1)
    #expect(rig.log.take() == [.onError(.sessionAlreadyInProgress, detail: 0)])
    #expect(rig.sdk.getSession() === first)
    #expect(rig.sdk.engine.lifecycle.state == .joining)
    #expect(rig.sdk.store.state.phase == .joining)
  }

  @Test func aPasswordAnswerWithNoPromptOpenIsWrongUsage() throws {
    let links = FakeLinkFactory()
    let rig = SDKTestRig(transport: links)
    let delegate = HookDelegate()
    rig.sdk.delegate = delegate
    rig.join()
    let link = try #require(links.last)
    link.deliver(.passwordRequired(wrong: false))
    #expect(rig.sdk.engine.lifecycle.state == .awaitingPassword(prompt: 1))
    let first = try #require(delegate.completions.first)
    #expect(first("secret", false) == .success)
    #expect(link.sent.last == .password("secret"))
    #expect(first("secret", false) == .wrongUsage, "the prompt was answered")
    link.deliver(.passwordRequired(wrong: true))
    #expect(first("other", false) == .wrongUsage, "an earlier prompt's completion")
    let second = try #require(delegate.completions.last)
    #expect(second("", false) == .invalidParameter)
    #expect(second("much too long", false) == .joinSessionInvalidPassword)
    #expect(second(nil, true) == .success)
    #expect(link.sent.last == .password(nil))
    #expect(rig.sdk.engine.lifecycle.state == .joining)
    #expect(rig.log.take() == [.onSessionNeedPassword, .onSessionPasswordWrong])
  }

  @Test func aFailedLinkResumesThenLeavesWithNetworkErrorAfterTheAttempts() throws {
    let links = FakeLinkFactory()
    let rig = try joined(links, attempts: 2)
    let resume = ClientMessage.resume(
      ResumeRequest(sessionID: "S1", user: 2, resumeToken: 11, lastSequence: 4))
    for attempt in 1...2 {
      try #require(links.last).fail()
      #expect(links.links.count == 1 + attempt)
      #expect(links.last?.sent == [resume])
      #expect(rig.sdk.engine.lifecycle.state == .resuming(attempt: attempt, resumeToken: 11))
      #expect(rig.sdk.isInSession(), "the replica stays in the session")
    }
    try #require(links.last).fail()
    #expect(links.links.count == 3, "no third attempt")
    #expect(rig.log.take() == [.onSessionLeave(.networkError), .onSessionLeaveLegacy])
    #expect(rig.sdk.engine.lifecycle.state == .left(.networkError))
    #expect(rig.sdk.store.state.phase == .left(.networkError))
    #expect(rig.sdk.getSession() == nil)
  }

  @Test func aResumeAnsweredWithLeftReportsNetworkError() throws {
    let links = FakeLinkFactory()
    let rig = try joined(links)
    try #require(links.last).fail()
    let resumeLink = try #require(links.last)
    resumeLink.deliver(.left(.networkError))
    #expect(resumeLink.isClosed)
    #expect(rig.log.take() == [.onSessionLeave(.networkError), .onSessionLeaveLegacy])
    #expect(rig.sdk.engine.lifecycle.state == .left(.networkError))
    #expect(rig.sdk.diagnostics.resumes == 0)
  }

  @Test func aResumeAnsweredWithASnapshotCarriesOn() throws {
    let links = FakeLinkFactory()
    let rig = try joined(links)
    try #require(links.last).fail()
    try #require(links.last).deliver(
      .joined(snapshot(myself: 2, users: classroom, sequence: 6), resumeToken: 12))
    #expect(rig.sdk.engine.lifecycle.state == .inSession(resumeToken: 12))
    #expect(rig.sdk.diagnostics.resumes == 1)
    #expect(rig.sdk.lastServiceSequence == 6)
    #expect(rig.log.take().isEmpty, "nothing changed while away")
  }

  @Test func leaveWhileResumingFollowsTheResumeAndItsAnswerIsIgnored() throws {
    let links = FakeLinkFactory()
    let rig = try joined(links)
    try #require(links.last).fail()
    let resumeLink = try #require(links.last)
    #expect(rig.sdk.leaveSession(false) == .success)
    #expect(rig.sdk.leaveSession(false) == .sessionDisconnecting)
    #expect(resumeLink.sent.count == 2)
    #expect(resumeLink.commands == [.leave(end: false)], "after the resume, on the same link")
    resumeLink.deliver(.joined(snapshot(myself: 2, users: classroom), resumeToken: 12))
    #expect(rig.sdk.diagnostics.ignoredMessages == 1)
    #expect(rig.sdk.engine.lifecycle.state == .leaving)
    resumeLink.deliver(.left(.bySelf))
    #expect(rig.log.take() == [.onSessionLeave(.bySelf), .onSessionLeaveLegacy])
    #expect(rig.sdk.engine.lifecycle.state == .left(.bySelf))
  }

  @Test func aLinkThatClosesDuringACallbackIsActedOnAfterIt() throws {
    let links = FakeLinkFactory()
    let rig = SDKTestRig(transport: links)
    let delegate = HookDelegate()
    rig.sdk.delegate = delegate
    rig.join()
    let link = try #require(links.last)
    var linksDuringCallback = 0
    delegate.onJoin = {
      link.fail()
      linksDuringCallback = links.links.count
    }
    link.deliver(.joined(snapshot(myself: 2, users: classroom), resumeToken: 11))
    #expect(linksDuringCallback == 1, "held until the callback returned")
    #expect(links.links.count == 2)
    #expect(rig.sdk.engine.lifecycle.state == .resuming(attempt: 1, resumeToken: 11))
    #expect(
      rig.log.take() == [
        .onSessionJoin, .onUserJoin([1, 2, 3]), .onCmdChannelConnectResult(true),
      ],
      "the join's callbacks first")
  }

  /// Test links (`TestLinkFactory`) hold a close back, as if the instance had not noticed:
  /// released from inside a callback, it is acted on after the callback returns.
  @Test func aCloseTheTestLinksHoldIsReleasedDuringACallbackAndActedOnAfterIt() throws {
    let links = FakeLinkFactory()
    let wrapper = TestLinkFactory(wrapping: links)
    let delegate = HookDelegate()
    let rig = try joined(links, through: wrapper, delegate: delegate)
    wrapper.holdCloses()
    let link = try #require(links.last)
    link.fail()
    #expect(links.links.count == 1)
    #expect(rig.sdk.engine.lifecycle.state == .inSession(resumeToken: 11))
    var linksDuringCallback = 0
    delegate.onVideo = {
      wrapper.releaseCloses()
      linksDuringCallback = links.links.count
    }
    #expect(rig.sdk.engine.replay(.videoStatusChanged(user: 1, isOn: true)))
    #expect(linksDuringCallback == 1)
    #expect(links.links.count == 2)
    #expect(rig.sdk.engine.lifecycle.state == .resuming(attempt: 1, resumeToken: 11))
  }

  @Test func cleanupIsRefusedWithALinkAndAllowedWithout() throws {
    #expect(VideoSDK().cleanup() == .uninitialize)
    #expect(SDKTestRig(transport: FakeLinkFactory()).sdk.cleanup() == .success)

    let joining = SDKTestRig(transport: FakeLinkFactory())
    joining.join()
    #expect(joining.sdk.cleanup() == .wrongUsage)

    let promptLinks = FakeLinkFactory()
    let prompted = SDKTestRig(transport: promptLinks)
    prompted.join()
    try #require(promptLinks.last).deliver(.passwordRequired(wrong: false))
    #expect(prompted.sdk.cleanup() == .wrongUsage)

    let sessionLinks = FakeLinkFactory()
    let inSession = try joined(sessionLinks)
    #expect(inSession.sdk.cleanup() == .wrongUsage)
    try #require(sessionLinks.last).fail()
    #expect(inSession.sdk.engine.lifecycle.state == .resuming(attempt: 1, resumeToken: 11))
    #expect(inSession.sdk.cleanup() == .wrongUsage)
    #expect(inSession.sdk.leaveSession(true) == .success)
    #expect(inSession.sdk.cleanup() == .wrongUsage, "leaving")
    try #require(sessionLinks.last).deliver(.left(.bySelf))
    #expect(inSession.sdk.cleanup() == .success, "left")
    #expect(inSession.sdk.engine.lifecycle.state == .idle)
    #expect(inSession.sdk.store.state.phase == .idle)

    let failedLinks = FakeLinkFactory()
    let failed = SDKTestRig(transport: failedLinks)
    failed.join()
    try #require(failedLinks.last).deliver(.joinRefused(.joinSessionInvalidSessionToken))
    #expect(failed.sdk.cleanup() == .success, "failed")
  }

  @Test func aJoinFromOnSessionLeaveOwnsTheNextSession() throws {
    let links = FakeLinkFactory()
    let delegate = HookDelegate()
    let rig = try joined(links, delegate: delegate)
    let first = try #require(links.last)
    var rejoined: Session?
    delegate.onLeave = { _ in rejoined = rig.join(session: "Next") }
    first.deliver(.left(.kickByHost))
    let next = try #require(links.last)
    #expect(next !== first && !next.isClosed)
    #expect(rejoined != nil && rig.sdk.getSession() === rejoined)
    #expect(rig.sdk.engine.lifecycle.state == .joining)
    #expect(rig.sdk.store.state.phase == .joining)
    next.deliver(
      .joined(snapshot(myself: 4, users: classroom + [person(4, "Ada")]), resumeToken: 5))
    #expect(rig.sdk.isInSession())
    #expect(
      rig.log.take().prefix(3) == [
        .onSessionLeave(.kickByHost), .onSessionLeaveLegacy, .onSessionJoin,
      ])
  }

  @Test func aRetryFromOnErrorOwnsTheNextJoin() throws {
    let links = FakeLinkFactory()
    let rig = SDKTestRig(transport: links)
    let delegate = HookDelegate()
    rig.sdk.delegate = delegate
    var retried: Session?
    delegate.onErrorHook = { _ in
      if retried == nil { retried = rig.join() }
    }
    rig.join()
    let first = try #require(links.last)
    first.deliver(.joinRefused(.joinSessionInvalidSessionToken))
    let next = try #require(links.last)
    #expect(first.isClosed && next !== first && !next.isClosed)
    #expect(retried != nil && rig.sdk.getSession() === retried)
    #expect(rig.sdk.engine.lifecycle.state == .joining)
  }

  @Test func aReplayedEndingClosesALiveLink() throws {
    let links = FakeLinkFactory()
    let rig = try joined(links)
    #expect(rig.sdk.engine.replay(.sessionLeft(reason: .endByHost)))
    #expect(try #require(links.last).isClosed)
    #expect(rig.sdk.engine.lifecycle.state == .left(.endByHost))
    #expect(rig.sdk.leaveSession(false) == .notInSession)
  }
}

/// The one plan per event (`SDKEngine.EventPlan`) against the mapping it feeds.
@Suite("SDK event plans")
struct SDKEventPlanTests {
  /// For one event of every kind, the context its plan captures (none, the helper owners, or
  /// the state before it) fires exactly the callbacks the full context fires, in a state where
  /// each fact the mapping may read matters: the local user (3) shares and owns the share.
  @Test func theContextAPlanCapturesFiresWhatTheFullContextFires() throws {
    var state = try SessionState(snapshot: snapshot(myself: 3, users: classroom))
    state.apply(.shareStatusChanged(user: 3, status: .started, kind: .view))
    let owners: Set<UserID> = [3]
    for event in SDKUnitTestsMapping.oneOfEach {
      let full = CallbackMapping.Context.capture(
        before: event, in: state, annotationHelperOwners: owners)
      let planned: CallbackMapping.Context
      switch SDKEngine.EventPlan(event) {
      case .plain:
        planned = CallbackMapping.Context()
      case .bookkept(let bookkeeping):
        planned =
          bookkeeping.readsStateBefore
          ? full : CallbackMapping.Context(annotationHelperOwners: owners)
      }
      #expect(
        CallbackMapping.callbacks(for: event, context: planned)
          == CallbackMapping.callbacks(for: event, context: full), "\(event.name)")
    }
  }

  @Test func theLifecycleEventsAreTheInstancesOwn() {
    let lifecycle = SDKUnitTestsMapping.oneOfEach.filter { SDKEngine.EventPlan($0).isLifecycle }
    #expect(
      lifecycle.map(\.name) == [
        "initialized", "cleanedUp", "joinRequested", "sessionJoined", "joinFailed",
        "leaveRequested", "sessionLeft",
      ])
  }
}
