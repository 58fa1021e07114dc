import InProcessTransport
import SessionCore
import SessionSDK
import SessionService
import SessionTestSupport
import SessionTransport
import Testing

// Every admission error through the SDK over the real service (each JWT failure, the join
// context's checks, password prompts answered through the completion, capacity), and the
// issue's bad input from the SDK side (commands about users who left, calls outside a session,
// joining twice, leaving twice). Each gets its documented error, and nothing else changes.

private typealias Recorder = SessionTestSupport.RecordingDelegate

/// A join context the SDK refuses before sending anything.
struct ContextCase: Sendable, CustomTestStringConvertible {
  let name: String
  let error: VideoSDKError
  let sessionName: String
  let userName: String
  let token: String?
  let password: String?

  init(
    _ name: String, _ error: VideoSDKError, sessionName: String = "Algebra101",
    userName: String = "Ada", token: String? = nil, password: String? = nil
  ) {
    self.name = name
    self.error = error
    self.sessionName = sessionName
    self.userName = userName
    self.token = token
    self.password = password
  }

  var testDescription: String { "\(name) → \(error.sdkName)" }
}

/// A token the service refuses.
struct TokenCase: Sendable, CustomTestStringConvertible {
  let name: String
  let error: VideoSDKError
  /// Makes the token from the testbed's minter and clock (Unix seconds).
  let make: @Sendable (TokenMinter, Int64) -> String

  var testDescription: String { "\(name) → \(error.sdkName)" }
}

/// The claims of a token as JSON, for tokens minted by hand.
private func claims(
  appKey: String = SessionTestbed.appKey, tpc: String? = "Algebra101", role: String? = "0",
  version: String = "1", iat: Int64, lifetime: Int64 = 7_200, extra: String = ""
) -> String {
  var fields = ["\"app_key\":\"\(appKey)\""]
  if let tpc { fields.append("\"tpc\":\"\(tpc)\"") }
  if let role { fields.append("\"role_type\":\(role)") }
  fields += ["\"version\":\(version)", "\"iat\":\(iat)", "\"exp\":\(iat + lifetime)"]
  if !extra.isEmpty { fields.append(extra) }
  return "{" + fields.joined(separator: ",") + "}"
}

private let header = #"{"alg":"HS256","typ":"JWT"}"#
private let invalidToken = VideoSDKError.joinSessionInvalidSessionToken

let contextCases: [ContextCase] = [
  ContextCase("empty session name", .joinSessionNoSessionName, sessionName: ""),
  ContextCase("empty token", .joinSessionNoSessionToken, token: ""),
  ContextCase("empty user name", .joinSessionNoUserName, userName: ""),
  ContextCase(
    "session name over 150 characters", .joinSessionSessionNameTooLong,
    sessionName: String(repeating: "a", count: 151)),
  ContextCase("a slash in the session name", .joinSessionInvalidSessionName, sessionName: "A/B"),
  ContextCase("an emoji in the session name", .joinSessionInvalidSessionName, sessionName: "A🙂"),
  ContextCase("a quote in the session name", .joinSessionInvalidSessionName, sessionName: "A\"B"),
  ContextCase("password over 10 characters", .joinSessionInvalidPassword, password: "12345678901"),
  ContextCase("non-ASCII password", .joinSessionInvalidPassword, password: "pässword"),
  ContextCase("control character in password", .joinSessionInvalidPassword, password: "a\u{7}b"),
]

let tokenCases: [TokenCase] = [
  TokenCase(name: "two parts", error: invalidToken) { _, _ in "abc.def" },
  TokenCase(name: "four parts", error: invalidToken) { minter, now in
    minter.mint(sessionName: "Algebra101", role: .participant, issuedAt: now - 30) + ".x"
  },
  TokenCase(name: "bad base64", error: invalidToken) { _, _ in "@@@.###.$$$" },
  TokenCase(name: "payload not JSON", error: invalidToken) { minter, _ in
    minter.mintRaw(headerJSON: header, payloadJSON: "not json")
  },
  TokenCase(name: "header not JSON", error: invalidToken) { minter, now in
    minter.mintRaw(headerJSON: "{alg:HS256", payloadJSON: claims(iat: now - 30))
  },
  TokenCase(name: "alg none, signed", error: invalidToken) { minter, now in
    minter.mintRaw(headerJSON: #"{"alg":"none","typ":"JWT"}"#, payloadJSON: claims(iat: now - 30))
  },
  TokenCase(name: "alg none, unsigned", error: invalidToken) { minter, now in
    let signed = minter.mintRaw(
      headerJSON: #"{"alg":"none","typ":"JWT"}"#, payloadJSON: claims(iat: now - 30))
    return String(signed[..<(signed.lastIndex(of: ".") ?? signed.endIndex)]) + "."
  },
  TokenCase(name: "alg HS512", error: invalidToken) { minter, now in
    minter.mintRaw(headerJSON: #"{"alg":"HS512","typ":"JWT"}"#, payloadJSON: claims(iat: now - 30))
  },
  TokenCase(name: "expired", error: invalidToken) { minter, now in
    minter.mint(sessionName: "Algebra101", role: .participant, issuedAt: now - 7_300)
  },
  TokenCase(name: "not yet valid", error: invalidToken) { minter, now in
    minter.mint(sessionName: "Algebra101", role: .participant, issuedAt: now + 600)
  },
  TokenCase(name: "lifetime under 30 minutes", error: invalidToken) { minter, now in
    minter.mint(sessionName: "Algebra101", role: .participant, issuedAt: now - 30, expiresIn: 1_000)
  },
  TokenCase(name: "lifetime over 48 hours", error: invalidToken) { minter, now in
    minter.mint(
      sessionName: "Algebra101", role: .participant, issuedAt: now - 30, expiresIn: 172_801)
  },
  TokenCase(name: "wrong signature", error: invalidToken) { _, now in
    TokenMinter(appKey: SessionTestbed.appKey, secret: "not the secret")
      .mint(sessionName: "Algebra101", role: .participant, issuedAt: now - 30)
  },
  TokenCase(name: "unknown app_key", error: invalidToken) { _, now in
    TokenMinter(appKey: "someone-else", secret: SessionTestbed.secret)
      .mint(sessionName: "Algebra101", role: .participant, issuedAt: now - 30)
  },
  TokenCase(name: "version 2", error: invalidToken) { minter, now in
    minter.mint(sessionName: "Algebra101", role: .participant, issuedAt: now - 30, version: 2)
  },
  TokenCase(name: "tpc of another session", error: .joinSessionTokenMismatchedSessionName) {
    minter, now in minter.mint(sessionName: "Geometry", role: .participant, issuedAt: now - 30)
  },
  TokenCase(name: "no tpc", error: .joinSessionTokenNoSessionName) { minter, now in
    minter.mintRaw(headerJSON: header, payloadJSON: claims(tpc: nil, iat: now - 30))
  },
  TokenCase(name: "role_type 2", error: .joinSessionTokenRoleTypeEmptyOrWrong) { minter, now in
    minter.mintRaw(headerJSON: header, payloadJSON: claims(role: "2", iat: now - 30))
  },
  TokenCase(name: "no role_type", error: .joinSessionTokenRoleTypeEmptyOrWrong) { minter, now in
    minter.mintRaw(headerJSON: header, payloadJSON: claims(role: nil, iat: now - 30))
  },
  TokenCase(name: "role_type as a string", error: .joinSessionTokenRoleTypeEmptyOrWrong) {
    minter, now in
    minter.mintRaw(headerJSON: header, payloadJSON: claims(role: "\"1\"", iat: now - 30))
  },
  TokenCase(name: "user_key over 36 characters", error: .joinSessionTokenUserIdentityTooLong) {
    minter, now in
    minter.mint(
      sessionName: "Algebra101", role: .participant, issuedAt: now - 30,
      userKey: String(repeating: "k", count: 37))
  },
  TokenCase(name: "session_key unlike the session's", error: invalidToken) { minter, now in
    minter.mint(
      sessionName: "Algebra101", role: .participant, issuedAt: now - 30, sessionKey: "other")
  },
]

@MainActor
@Suite("Every admission error and bad input, through the SDK")
struct SeedRulesAdmissionTests {
  let testbed = SessionTestbed()
  /// Hana, the host, already in the session (with session key "class-7"), listening.
  let host: VideoSDK
  private let hostLog = Recorder()

  init() {
    let testbed = testbed
    host = testbed.join("Hana", role: .host) { context in
      context.token = testbed.minter.mint(
        sessionName: "Algebra101", role: .host, issuedAt: testbed.now / 1_000 - 30,
        sessionKey: "class-7")
    }
    hostLog.observe(host)
  }

  /// Checks a failed join: the error callback, the failed phase, and nothing else anywhere.
  fileprivate func expectRefused(
    _ sdk: VideoSDK, _ log: Recorder, with error: VideoSDKError,
    serviceBefore: SharedSessionFacts?, sourceLocation: SourceLocation = #_sourceLocation
  ) {
    #expect(log.take() == [.onError(error, detail: 0)], sourceLocation: sourceLocation)
    #expect(sdk.store.state.phase == .failed(error), sourceLocation: sourceLocation)
    #expect(sdk.getSession() == nil, sourceLocation: sourceLocation)
    #expect(hostLog.take().isEmpty, "the others see nothing", sourceLocation: sourceLocation)
    #expect(
      testbed.serviceState()?.sharedFacts == serviceBefore, sourceLocation: sourceLocation)
    #expect(testbed.service.connectionCount == 1, "the refused link is closed")
    testbed.assertConverged(sourceLocation: sourceLocation)
  }

  @Test(arguments: contextCases)
  func theJoinContextIsCheckedBeforeAnythingIsSent(_ context: ContextCase) {
    let before = testbed.serviceState()?.sharedFacts
    let sdk = testbed.makeSDK()
    let log = Recorder()
    log.observe(sdk)
    let session = sdk.joinSession(
      SessionContext(
        token: context.token ?? testbed.token(), sessionName: context.sessionName,
        userName: context.userName, sessionPassword: context.password))
    #expect(session == nil, "refused at once")
    expectRefused(sdk, log, with: context.error, serviceBefore: before)

    // The instance can join after fixing the context.
    #expect(sdk.joinSession(testbed.context("Ada")) != nil)
    #expect(sdk.isInSession())
    testbed.assertConverged()
  }

  @Test func boundaryContextsAreAdmitted() throws {
    let longName = String(repeating: "n", count: 250)
    let ada = testbed.join(longName)
    #expect(ada.store.state.myself?.name.count == 200, "user names truncate at 200")
    let room = String(repeating: "r", count: 150)
    let carl = testbed.join("Carl", role: .host, sessionName: room)
    #expect(carl.isInSession())
    let dee = testbed.join("Dee", sessionName: "algebra101") { context in
      context.token = testbed.token(sessionName: "ALGEBRA101")
    }
    #expect(
      dee.store.state.sessionName == "Algebra101", "found case-insensitively, creator's spelling")
    testbed.assertConverged()
    testbed.assertConverged(session: room)
  }

  @Test(arguments: tokenCases)
  func theServiceRefusesABadToken(_ token: TokenCase) {
    let before = testbed.serviceState()?.sharedFacts
    let sdk = testbed.makeSDK()
    let log = Recorder()
    log.observe(sdk)
    let context = testbed.context("Ada")
    context.token = token.make(testbed.minter, testbed.now / 1_000)
    #expect(sdk.joinSession(context) != nil, "sent: only the service can judge a token")
    testbed.run()
    expectRefused(sdk, log, with: token.error, serviceBefore: before)
  }

  @Test func aPasswordIsAskedForAndAnsweredThroughTheCompletion() throws {
    let locked = testbed.join("Lena", role: .host, sessionName: "Locked Room") {
      $0.sessionPassword = "pw"
    }
    let lenaLog = Recorder()
    lenaLog.observe(locked)

    // No password: asked; a wrong answer: asked again; the right one: in.
    let ada = testbed.makeSDK()
    let prompts = Recorder()
    ada.delegate = prompts
    #expect(ada.joinSession(testbed.context("Ada", sessionName: "Locked Room")) != nil)
    #expect(prompts.take() == [.onSessionNeedPassword])
    let first = try #require(prompts.passwordCompletion)
    #expect(first(nil, false) == .invalidParameter)
    #expect(first("12345678901", false) == .joinSessionInvalidPassword)
    #expect(first("nope", false) == .success)
    #expect(prompts.take() == [.onSessionPasswordWrong])
    #expect(first("pw", false) == .wrongUsage, "that prompt was answered")
    let second = try #require(prompts.passwordCompletion)
    #expect(lenaLog.take().isEmpty, "nobody sees a joiner who is still being asked")
    #expect(second("pw", false) == .success)
    let adaID = try #require(ada.store.state.myselfID)
    let lenaID = try #require(locked.store.state.myselfID)
    #expect(
      prompts.take() == [
        .onSessionJoin, .onUserJoin([lenaID, adaID]), .onUserAudioStatusChanged([adaID]),
        .onCmdChannelConnectResult(true),
      ])
    #expect(lenaLog.take() == [.onUserJoin([adaID]), .onUserAudioStatusChanged([adaID])])
    #expect(ada.getSession()?.getSessionPassword() == "pw")

    // A wrong password in the context: told at once that it is wrong.
    let bob = testbed.makeSDK()
    let bobPrompts = Recorder()
    bob.delegate = bobPrompts
    let context = testbed.context("Bob", sessionName: "Locked Room")
    context.sessionPassword = "guess"
    #expect(bob.joinSession(context) != nil)
    #expect(bobPrompts.take() == [.onSessionPasswordWrong])

    // Giving up: the join fails with Errors_Session_Need_Password.
    let giveUp = try #require(bobPrompts.passwordCompletion)
    #expect(giveUp(nil, true) == .success)
    #expect(bobPrompts.take() == [.onError(.sessionNeedPassword, detail: 0)])
    #expect(bob.store.state.phase == .failed(.sessionNeedPassword))
    #expect(lenaLog.take().isEmpty)
    testbed.assertConverged(session: "Locked Room")
  }

  @Test func aFullSessionRefusesTheNextJoiner() throws {
    let small = SessionTestbed { $0.limits.maxUsers = 3 }
    let first = small.join("One", role: .host)
    small.join("Two")
    small.join("Three")
    let before = small.serviceState()?.sharedFacts
    let fourth = small.makeSDK()
    let log = Recorder()
    log.observe(fourth)
    #expect(fourth.joinSession(small.context("Four")) != nil)
    #expect(log.take() == [.onError(.sessionJoinFailed, detail: 0)])
    #expect(fourth.store.state.phase == .failed(.sessionJoinFailed))
    #expect(small.serviceState()?.sharedFacts == before)
    // Room again once someone leaves.
    #expect(first.leaveSession(false) == .success)
    #expect(fourth.joinSession(small.context("Four")) != nil)
    #expect(fourth.isInSession())
    small.assertConverged()
  }

  // MARK: Bad input from the SDK side

  @Test func commandsAboutAUserWhoLeftAreRefusedAndChangeNothing() throws {
    let quinn = testbed.join("Quinn")
    let quinnID = try #require(quinn.store.state.myselfID)
    let seen = try #require(host.getSession()?.user(withID: quinnID))
    #expect(quinn.leaveSession(false) == .success)
    #expect(
      hostLog.take() == [
        .onUserJoin([quinnID]), .onUserAudioStatusChanged([quinnID]), .onUserLeave([quinnID]),
      ])
    #expect(seen.getName() == "Quinn", "a user who left answers with what was last known")
    #expect(!seen.isPresent)
    let before = host.store.state

    let users: UserHelper = host.getUserHelper()
    #expect(!users.makeHost(seen))
    #expect(!users.makeManager(seen))
    #expect(users.revokeManager(seen) == .invalidParameter)
    #expect(!users.removeUser(seen))
    #expect(!users.changeName("Q", withUser: seen))
    #expect(host.getAudioHelper().muteAudio(seen) == .invalidParameter)
    #expect(host.getAudioHelper().unmuteAudio(seen) == .invalidParameter)
    #expect(host.getChatHelper().SendChatToUser(seen, Content: "hi") == .invalidParameter)
    #expect(
      seen.getVideoCanvas()?.subscribe(
        with: NSObjectStandIn(), aspectMode: .original, andResolution: .auto) == .invalidParameter)
    #expect(host.getShareHelper().createAnnotationHelper(forShareOf: seen) == nil)
    #expect(hostLog.take().isEmpty)
    #expect(host.store.state == before)
    testbed.assertConverged()
  }

  @Test func aCommandAboutAUserWhoLeftInFlightIsRefusedByTheService() throws {
    let manual = SessionTestbed(delivery: .manual)
    let hana = manual.join("Hana", role: .host)
    let quinn = manual.join("Quinn")
    manual.run()
    let log = Recorder()
    log.observe(hana)
    let quinnID = try #require(quinn.store.state.myselfID)
    let seen = try #require(hana.getSession()?.user(withID: quinnID))
    // Quinn's leave and Hana's command cross: Hana's replica still shows Quinn.
    #expect(quinn.leaveSession(false) == .success)
    #expect(hana.getUserHelper().makeManager(seen), "the replica allows it")
    manual.run()
    let heard = log.take()
    #expect(heard.count == 2)
    #expect(heard.first == .onUserLeave([quinnID]))
    if case .onError(let error, let detail)? = heard.last {
      #expect(error == .invalidParameter)
      #expect(detail > 0, "the detail is the command's id")
    } else {
      Issue.record("expected onError, got \(heard)")
    }
    #expect(hana.store.state.lastError == .invalidParameter)
    manual.assertConverged()
  }

  @Test func callsOutsideASessionGetTheirErrors() {
    let fresh = VideoSDK()
    #expect(fresh.getVideoHelper().startVideo() == .uninitialize)
    #expect(fresh.leaveSession(false) == .uninitialize)
    #expect(fresh.joinSession(testbed.context("Ada")) == nil)
    #expect(fresh.store.state.phase == .idle)

    let ada = testbed.join("Ada")
    #expect(ada.leaveSession(false) == .success)
    #expect(ada.getVideoHelper().startVideo() == .notInSession)
    #expect(ada.getShareHelper().lockShare(true) == .notInSession)
    #expect(ada.getChatHelper().SendChatToAll("anyone?") == .notInSession)
    #expect(!ada.getUserHelper().reclaimHost())
    #expect(ada.getShareHelper().createAnnotationHelper(nil) == nil)
    #expect(
      hostLog.take().count == 3, "Hana saw Ada join (with her audio) and leave, nothing more")
    testbed.assertConverged()
  }

  @Test func joiningTwiceIsRefusedAndChangesNothing() throws {
    let ada = testbed.join("Ada")
    let log = Recorder()
    log.observe(ada)
    _ = hostLog.take()
    let before = ada.store.state
    let serviceBefore = testbed.serviceState()?.sharedFacts
    #expect(ada.joinSession(testbed.context("Ada")) == nil)
    #expect(log.take() == [.onError(.sessionAlreadyInProgress, detail: 0)])
    var expected = before
    expected.apply(.errorOccurred(error: .sessionAlreadyInProgress, detail: 0))
    #expect(ada.store.state == expected, "only the error is recorded")
    #expect(ada.isInSession())
    #expect(testbed.serviceState()?.sharedFacts == serviceBefore)
    #expect(hostLog.take().isEmpty)

    // While a join is on its way, a second one is refused too.
    let manual = SessionTestbed(delivery: .manual)
    let bob = manual.makeSDK()
    let bobLog = Recorder()
    bobLog.observe(bob)
    #expect(bob.joinSession(manual.context("Bob")) != nil)
    #expect(bob.joinSession(manual.context("Bob")) == nil)
    #expect(bobLog.take() == [.onError(.sessionAlreadyInProgress, detail: 0)])
    manual.run()
    #expect(bob.isInSession())
    #expect(manual.serviceState()?.participants.count == 1)
    manual.assertConverged()
    testbed.assertConverged()
  }

  @Test func leavingTwiceIsRefused() throws {
    let ada = testbed.join("Ada")
    #expect(ada.leaveSession(false) == .success)
    let log = Recorder()
    log.observe(ada)
    #expect(ada.leaveSession(false) == .notInSession)
    #expect(ada.leaveSession(true) == .notInSession)
    #expect(log.take().isEmpty)

    // While the leave is on its way: disconnecting.
    let manual = SessionTestbed(delivery: .manual)
    let hana = manual.join("Hana", role: .host)
    let bob = manual.join("Bob")
    #expect(bob.leaveSession(false) == .success)
    #expect(bob.store.state.phase == .leaving)
    #expect(bob.leaveSession(false) == .sessionDisconnecting)
    manual.run()
    #expect(bob.store.state.phase == .left(.bySelf))
    #expect(hana.store.state.participants.count == 1)
    manual.assertConverged()
    testbed.assertConverged()
  }

  /// Helper calls after `leaveSession` and before `onSessionLeave`, while `isInSession()` is
  /// already false, get `Errors_Not_In_Session` as the helpers document, and send nothing.
  @Test func helperCallsWhileLeavingAreNotInSession() throws {
    let manual = SessionTestbed(delivery: .manual)
    let hana = manual.join("Hana", role: .host)
    let bob = manual.join("Bob")
    let hanaLog = Recorder()
    hanaLog.observe(hana)
    let bobID = try #require(bob.store.state.myselfID)
    #expect(bob.leaveSession(false) == .success)
    #expect(!bob.isInSession())
    // Between leaveSession and onSessionLeave the instance is out of the session.
    #expect(bob.getVideoHelper().startVideo() == .notInSession)
    #expect(bob.getChatHelper().SendChatToAll("bye") == .notInSession)
    #expect(bob.getShareHelper().startShare(with: NSObjectStandIn()) == .notInSession)
    manual.run()
    #expect(hanaLog.take() == [.onUserLeave([bobID])])
    manual.assertConverged()
  }
}
