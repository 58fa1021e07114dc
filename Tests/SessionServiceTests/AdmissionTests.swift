import SessionCore
import SessionService
import SessionTransport
import Testing

/// A token that breaks one admission rule, and the code the joiner gets for it.
struct BadJoinToken: Sendable, CustomTestStringConvertible {
  var name: String
  var expected: VideoSDKError
  var make: @Sendable (ServiceHarness) -> String

  var testDescription: String { name }

  static let standardHeader = #"{"alg":"HS256","typ":"JWT"}"#

  /// A payload with the valid claims for "Room", minus `remove`, plus `extra` raw members.
  static func payload(_ harness: ServiceHarness, remove: Set<String> = [], extra: [String] = [])
    -> String
  {
    let iat = harness.now / 1_000 - 30
    let claims = [
      ("app_key", "\"\(ServiceHarness.appKey)\""), ("tpc", "\"Room\""), ("role_type", "0"),
      ("version", "1"), ("iat", "\(iat)"), ("exp", "\(iat + 7_200)"),
    ]
    let members = claims.filter { !remove.contains($0.0) }.map { "\"\($0.0)\":\($0.1)" } + extra
    return "{" + members.joined(separator: ",") + "}"
  }

  static let all: [BadJoinToken] = [
    BadJoinToken(name: "empty", expected: .joinSessionNoSessionToken) { _ in "" },
    BadJoinToken(name: "two parts", expected: .joinSessionInvalidSessionToken) { harness in
      harness.token().split(separator: ".").prefix(2).joined(separator: ".")
    },
    BadJoinToken(name: "bad base64", expected: .joinSessionInvalidSessionToken) { _ in
      "e30!.e30*.AAAA"
    },
    BadJoinToken(name: "bad JSON", expected: .joinSessionInvalidSessionToken) { harness in
      harness.minter.mintRaw(headerJSON: standardHeader, payloadJSON: "{\"tpc\":")
    },
    BadJoinToken(name: "alg none", expected: .joinSessionInvalidSessionToken) { harness in
      let token = harness.minter.mintRaw(
        headerJSON: #"{"alg":"none","typ":"JWT"}"#, payloadJSON: payload(harness))
      return String(token[..<(token.lastIndex(of: ".") ?? token.endIndex)]) + "."
    },
    BadJoinToken(name: "alg HS512", expected: .joinSessionInvalidSessionToken) { harness in
      harness.minter.mintRaw(
        headerJSON: #"{"alg":"HS512","typ":"JWT"}"#, payloadJSON: payload(harness))
    },
    BadJoinToken(name: "wrong secret", expected: .joinSessionInvalidSessionToken) { harness in
      TokenMinter(appKey: ServiceHarness.appKey, secret: "not the secret")
        .mint(sessionName: "Room", role: .participant, issuedAt: harness.now / 1_000 - 30)
    },
    BadJoinToken(name: "unknown key", expected: .joinSessionInvalidSessionToken) { harness in
      TokenMinter(appKey: "someoneElse", secret: ServiceHarness.secret)
        .mint(sessionName: "Room", role: .participant, issuedAt: harness.now / 1_000 - 30)
    },
    BadJoinToken(name: "expired", expected: .joinSessionInvalidSessionToken) { harness in
      harness.minter.mint(
        sessionName: "Room", role: .participant, issuedAt: harness.now / 1_000 - 7_200,
        expiresIn: 7_200)
    },
    BadJoinToken(name: "not yet valid", expected: .joinSessionInvalidSessionToken) { harness in
      harness.minter.mint(
        sessionName: "Room", role: .participant, issuedAt: harness.now / 1_000 + 3_600)
    },
    BadJoinToken(name: "version 2", expected: .joinSessionInvalidSessionToken) { harness in
      harness.minter.mint(
        sessionName: "Room", role: .participant, issuedAt: harness.now / 1_000 - 30, version: 2)
    },
    BadJoinToken(name: "tpc mismatch", expected: .joinSessionTokenMismatchedSessionName) {
      harness in harness.token(session: "Other")
    },
    BadJoinToken(name: "no tpc", expected: .joinSessionTokenNoSessionName) { harness in
      harness.minter.mintRaw(
        headerJSON: standardHeader, payloadJSON: payload(harness, remove: ["tpc"]))
    },
    BadJoinToken(name: "role_type 2", expected: .joinSessionTokenRoleTypeEmptyOrWrong) {
      harness in
      harness.minter.mintRaw(
        headerJSON: standardHeader,
        payloadJSON: payload(harness, remove: ["role_type"], extra: [#""role_type":2"#]))
    },
    BadJoinToken(name: "no role_type", expected: .joinSessionTokenRoleTypeEmptyOrWrong) {
      harness in
      harness.minter.mintRaw(
        headerJSON: standardHeader, payloadJSON: payload(harness, remove: ["role_type"]))
    },
    BadJoinToken(name: "user_key of 37", expected: .joinSessionTokenUserIdentityTooLong) {
      harness in harness.token(userKey: String(repeating: "k", count: 37))
    },
  ]
}

/// A join context that breaks one rule the SDK checks before sending, and its code.
struct BadJoinContext: Sendable, CustomTestStringConvertible {
  var name: String
  var sessionName = "Room"
  var userName = "Ann"
  var password: String?
  var expected: VideoSDKError

  var testDescription: String { name }

  static let all: [BadJoinContext] = [
    BadJoinContext(
      name: "empty session name", sessionName: "", expected: .joinSessionNoSessionName),
    BadJoinContext(name: "empty user name", userName: "", expected: .joinSessionNoUserName),
    BadJoinContext(
      name: "slash in session name", sessionName: "Room/1", expected: .joinSessionInvalidSessionName
    ),
    BadJoinContext(
      name: "quote in session name", sessionName: "Room\"", expected: .joinSessionInvalidSessionName
    ),
    BadJoinContext(
      name: "password of 11", password: "12345678901", expected: .joinSessionInvalidPassword),
    BadJoinContext(
      name: "non-printable password", password: "pass\u{7}", expected: .joinSessionInvalidPassword),
    BadJoinContext(
      name: "non-ASCII password", password: "pässword", expected: .joinSessionInvalidPassword),
    BadJoinContext(
      name: "session name of 151", sessionName: String(repeating: "r", count: 151),
      expected: .joinSessionSessionNameTooLong),
  ]
}

@Suite struct AdmissionTests {
  @Test func sessionIsCreatedOnFirstJoin() throws {
    let harness = ServiceHarness()
    #expect(harness.service.liveSessionNames.isEmpty)
    let ann = try harness.join("Ann")
    let state = try #require(harness.served())
    #expect(state.participants.count == 1)
    #expect(state.sessionName == "Room")
    #expect(harness.service.lastSequence(ofSession: "Room") == 1)
    #expect(harness.replica(ann)?.myselfID == harness.user(ann))
    harness.assertConverged()
  }

  @Test func sessionIsFoundByNameIgnoringCase() throws {
    let harness = ServiceHarness()
    let ann = try harness.join("Ann", session: "Room")
    let mark = harness.mark
    let bob = try harness.join("Bob", session: "rOOM")
    #expect(harness.service.liveSessionNames == ["Room"])
    #expect(harness.served("ROOM")?.participants.count == 2)
    #expect(harness.replica(bob)?.sessionName == "Room")
    #expect(harness.events(to: ann, since: mark).count == 1)
    harness.assertConverged()
  }

  @Test(arguments: BadJoinToken.all)
  func badTokenIsRefusedWithItsCode(_ bad: BadJoinToken) throws {
    let harness = ServiceHarness()
    let ann = try harness.join("Ann")
    let before = harness.served()
    let connection = harness.connect()
    let mark = harness.mark
    harness.send(.join(harness.joinRequest("Bob", token: bad.make(harness))), on: connection)
    #expect(
      harness.records(since: mark) == [
        .init(connection: connection, output: .send(.joinRefused(bad.expected)))
      ])
    #expect(harness.served() == before)
    // The connection stays open for another try.
    try harness.join("Bob", on: connection)
    #expect(harness.served()?.participants.count == 2)
    #expect(harness.replica(ann)?.participants.count == 2)
    harness.assertConverged()
  }

  @Test func badTokenCreatesNoSession() {
    let harness = ServiceHarness()
    let connection = harness.connect()
    harness.send(
      .join(harness.joinRequest("Ann", token: harness.token(session: "Other"))), on: connection)
    #expect(harness.service.liveSessionNames.isEmpty)
  }

  @Test(arguments: BadJoinContext.all)
  func badJoinContextIsRefusedWithItsCode(_ bad: BadJoinContext) throws {
    let harness = ServiceHarness()
    let connection = harness.connect()
    let mark = harness.mark
    let token = harness.token(session: bad.sessionName.isEmpty ? "Room" : bad.sessionName)
    harness.send(
      .join(
        JoinRequest(
          sessionName: bad.sessionName, userName: bad.userName, token: token,
          password: bad.password)),
      on: connection)
    #expect(
      harness.records(since: mark) == [
        .init(connection: connection, output: .send(.joinRefused(bad.expected)))
      ])
    #expect(harness.service.liveSessionNames.isEmpty)
  }

  @Test func sessionNameOfOneHundredFiftyCharactersIsAccepted() throws {
    let harness = ServiceHarness()
    let name = String(repeating: "r", count: 140) + "!#$%&()+-:"
    try harness.join("Ann", session: name)
    #expect(harness.served(name)?.participants.count == 1)
  }

  @Test func sessionNameMayUseEveryDocumentedSymbol() throws {
    let harness = ServiceHarness()
    let name = "Zoom 1 !#$%&()+-:;<=.>?@[]^_{}|~,"
    try harness.join("Ann", session: name)
    #expect(harness.served(name) != nil)
  }

  @Test func userNameOverTwoHundredIsTruncated() throws {
    let harness = ServiceHarness()
    let long = String(repeating: "é", count: 250)
    let ann = try harness.join(long)
    #expect(harness.participant(ann)?.name == String(repeating: "é", count: 200))
    harness.assertConverged()
  }

  @Test func userKeyBecomesTheCustomUserID() throws {
    let harness = ServiceHarness()
    let connection = harness.connect()
    harness.send(
      .join(harness.joinRequest("Ann", token: harness.token(userKey: "emp-42"))), on: connection)
    #expect(harness.participant(connection)?.customUserKey == "emp-42")
  }

  // MARK: Password

  @Test func joinerWithoutPasswordIsAskedForIt() throws {
    let harness = ServiceHarness()
    let ann = try harness.join("Ann", password: "right")
    let bob = harness.connect()
    let mark = harness.mark
    harness.send(.join(harness.joinRequest("Bob")), on: bob)
    #expect(
      harness.records(since: mark) == [
        .init(connection: bob, output: .send(.passwordRequired(wrong: false)))
      ])
    #expect(harness.served()?.participants.count == 1)
    let answered = harness.mark
    harness.send(.password("right"), on: bob)
    #expect(harness.replica(bob)?.participants.count == 2)
    #expect(harness.events(to: ann, since: answered).count == 1)
    harness.assertConverged()
  }

  @Test func joinerWithWrongPasswordIsToldItIsWrong() throws {
    let harness = ServiceHarness()
    try harness.join("Ann", password: "right")
    let bob = harness.connect()
    harness.send(.join(harness.joinRequest("Bob", password: "wrong")), on: bob)
    #expect(harness.messages(to: bob) == [.passwordRequired(wrong: true)])
    harness.send(.password("wrong too"), on: bob)
    #expect(harness.messages(to: bob).last == .passwordRequired(wrong: true))
    harness.send(.password("right"), on: bob)
    guard case .joined? = harness.messages(to: bob).last else {
      Issue.record("not admitted: \(harness.messages(to: bob))")
      return
    }
    harness.assertConverged()
  }

  @Test func givingUpThePasswordRefusesTheJoin() throws {
    let harness = ServiceHarness()
    try harness.join("Ann", password: "right")
    let before = harness.served()
    let bob = harness.connect()
    harness.send(.join(harness.joinRequest("Bob")), on: bob)
    let mark = harness.mark
    harness.send(.password(nil), on: bob)
    #expect(
      harness.records(since: mark) == [
        .init(connection: bob, output: .send(.joinRefused(.sessionNeedPassword)))
      ])
    #expect(harness.served() == before)
    // The connection may try again.
    try harness.join("Bob", password: "right", on: bob)
  }

  @Test func correctPasswordAtJoinAdmitsAtOnce() throws {
    let harness = ServiceHarness()
    try harness.join("Ann", password: "right")
    let bob = try harness.join("Bob", password: "right")
    #expect(harness.messages(to: bob).count == 1)
  }

  @Test func passwordAnswerMustBeValid() throws {
    let harness = ServiceHarness()
    try harness.join("Ann", password: "right")
    let bob = harness.connect()
    harness.send(.join(harness.joinRequest("Bob")), on: bob)
    let mark = harness.mark
    harness.send(.password("far too long a password"), on: bob)
    #expect(harness.messages(to: bob, since: mark) == [.joinRefused(.joinSessionInvalidPassword)])
    #expect(harness.served()?.participants.count == 1)
  }

  @Test func passwordAnswerWithoutAQuestionIsWrongUsage() throws {
    let harness = ServiceHarness()
    let connection = harness.connect()
    harness.send(.password("right"), on: connection)
    #expect(harness.messages(to: connection) == [.joinRefused(.wrongUsage)])
    #expect(harness.service.liveSessionNames.isEmpty)
  }

  @Test func sessionWithoutPasswordIgnoresOne() throws {
    let harness = ServiceHarness()
    try harness.join("Ann")
    try harness.join("Bob", password: "anything")
    #expect(harness.served()?.participants.count == 2)
  }

  // MARK: Capacity and double join

  @Test func joinerBeyondCapacityIsRefused() throws {
    let harness = ServiceHarness { $0.limits.maxUsers = 3 }
    for name in ["Ann", "Bob", "Cid"] { try harness.join(name) }
    let before = harness.served()
    let dan = harness.connect()
    let mark = harness.mark
    harness.send(.join(harness.joinRequest("Dan")), on: dan)
    #expect(
      harness.records(since: mark) == [
        .init(connection: dan, output: .send(.joinRefused(.sessionJoinFailed)))
      ])
    #expect(harness.served() == before)
    // Another session is not affected.
    try harness.join("Dan", session: "Elsewhere", on: dan)
  }

  @Test func placeFreedByALeaverCanBeTaken() throws {
    let harness = ServiceHarness { $0.limits.maxUsers = 2 }
    let ann = try harness.join("Ann")
    try harness.join("Bob")
    harness.command(.leave(end: false), on: ann)
    try harness.join("Cid")
    harness.assertConverged()
  }

  @Test func secondJoinOnOneConnectionIsRefused() throws {
    let harness = ServiceHarness()
    let ann = try harness.join("Ann")
    let before = harness.served()
    let mark = harness.mark
    harness.send(.join(harness.joinRequest("Ann again")), on: ann)
    #expect(
      harness.records(since: mark) == [
        .init(connection: ann, output: .send(.joinRefused(.sessionAlreadyInProgress)))
      ])
    #expect(harness.served() == before)
    harness.assertConverged()
  }

  @Test func joinWhileAwaitingPasswordIsRefused() throws {
    let harness = ServiceHarness()
    try harness.join("Ann", password: "right")
    let bob = harness.connect()
    harness.send(.join(harness.joinRequest("Bob")), on: bob)
    let mark = harness.mark
    harness.send(.join(harness.joinRequest("Bob", password: "right")), on: bob)
    #expect(harness.messages(to: bob, since: mark) == [.joinRefused(.sessionAlreadyInProgress)])
    harness.send(.password("right"), on: bob)
    #expect(harness.served()?.participants.count == 2)
  }

  @Test func joinOptionsShapeTheNewParticipant() throws {
    let harness = ServiceHarness()
    let ann = try harness.join("Ann", connectAudio: true, muteAudio: true, videoOn: true)
    let bob = try harness.join("Bob", connectAudio: false)
    #expect(harness.participant(ann)?.isVideoOn == true)
    #expect(harness.participant(ann)?.audio == AudioStatus(type: .voip, isMuted: true))
    #expect(harness.participant(bob)?.audio == .disconnected)
    harness.assertConverged()
  }

  @Test func sessionKeyMustMatchTheFirstJoiners() throws {
    let harness = ServiceHarness()
    let ann = harness.connect()
    harness.send(
      .join(harness.joinRequest("Ann", token: harness.token(sessionKey: "k1"))), on: ann)
    let bob = harness.connect()
    harness.send(
      .join(harness.joinRequest("Bob", token: harness.token(sessionKey: "k2"))), on: bob)
    #expect(harness.messages(to: bob) == [.joinRefused(.joinSessionInvalidSessionToken)])
    let cid = harness.connect()
    harness.send(
      .join(harness.joinRequest("Cid", token: harness.token(sessionKey: "k1"))), on: cid)
    #expect(harness.served()?.participants.count == 2)
  }
}
