import Foundation
import SessionCore
import SessionTestSupport
import SessionTransport
import Testing

@testable import SessionService

/// Many connections sending well-formed but arbitrary ``ClientMessage``s: every field drawn
/// from its whole range (ids up to 2^32 − 1, counts and durations at their extremes, names and
/// chat of 64 KB, a character of thousands of combining marks, control characters, junk
/// tokens), mixed with plausible traffic so that sessions exist to be attacked.
///
/// After every step: no trap; every join, password and resume gets exactly one answer; a
/// refused command gets exactly one `commandFailed` with its id and changes nothing; every
/// member still converges with the service; memory stays within the limits.
private final class HostileClients {
  let harness: ServiceHarness
  var random: SimulationRandom
  var slots: [ConnectionID?]
  var breaches: [String] = []
  var answered = 0
  var refusedCommands = 0
  var acceptedCommands = 0

  init(seed: UInt64) {
    random = SimulationRandom(seed: seed)
    harness = ServiceHarness { configuration in
      configuration.limits.maxUsers = 12
      configuration.limits.maxChatHistory = 40
      configuration.secrets = .derived(seed: seed)
    }
    slots = Array(repeating: nil, count: 16)
  }

  // MARK: Drawing values

  func chance(_ percent: Int) -> Bool { Int.random(in: 0..<100, using: &random) < percent }

  func one<T>(of values: [T]) -> T { values[Int.random(in: 0..<values.count, using: &random)] }

  /// A string from the whole range of what a client can send.
  func text() -> String {
    switch Int.random(in: 0..<12, using: &random) {
    case 0: return ""
    case 1: return "e" + String(repeating: "\u{0301}", count: one(of: [100, 5_000, 32_000]))
    case 2: return String(repeating: "x", count: one(of: [199, 200, 201, 10_001, 65_536]))
    case 3: return String(repeating: "👩‍👩‍👧‍👦", count: one(of: [10, 40, 2_000]))
    case 4: return "line\nFAKE LOG LINE\r\u{1B}[31m\u{202E}"
    case 5: return String(repeating: "\u{0}", count: 30)
    case 6: return one(of: ["Room", "room", "Lab", "ROOM"])
    case 7:
      let count = Int.random(in: 0..<64, using: &random)
      return String(
        String.UnicodeScalarView(
          (0..<count).compactMap { _ in
            Unicode.Scalar(UInt32.random(in: 0...0x10_FFFF, using: &random))
          }))
    default: return "u\(Int.random(in: 0..<50, using: &random))"
    }
  }

  func userID() -> UserID {
    switch Int.random(in: 0..<10, using: &random) {
    case 0: return 0
    case 1: return UserID(.max)
    case 2: return UserID(UInt32.random(in: 0...UInt32.max, using: &random))
    default:
      let present = harness.served().map { Array($0.participants.keys) } ?? []
      return present.isEmpty ? 1 : one(of: present)
    }
  }

  func minutes() -> Int? {
    one(of: [
      nil, Int.min, -1, 0, 1, 40, Int.max, 153_722_867_280_913,
      Int.random(in: .min ... .max, using: &random),
    ])
  }

  func token(for session: String) -> String {
    switch Int.random(in: 0..<10, using: &random) {
    case 0: return ""
    case 1: return "not.a.token"
    case 2: return String(repeating: "A", count: 9_000)
    case 3: return harness.token(session: session, userKey: text())
    default: return harness.token(session: session, role: chance(30) ? .host : .participant)
    }
  }

  func command() -> SessionCommand {
    switch Int.random(in: 0..<33, using: &random) {
    case 0: return .leave(end: chance(30))
    case 1: return .startVideo
    case 2: return .stopVideo
    case 3: return .startAudio
    case 4: return .stopAudio
    case 5: return .muteAudio(user: userID())
    case 6: return .unmuteAudio(user: userID())
    case 7: return .muteAllAudio(allowUnmute: chance(50))
    case 8: return .unmuteAllAudio
    case 9: return .allowAudioUnmutedBySelf(chance(50))
    case 10: return .startShare(kind: one(of: ShareKind.allCases))
    case 11: return .pauseShare
    case 12: return .resumeShare
    case 13: return .stopShare
    case 14: return .lockShare(chance(50))
    case 15: return .enableMultiShare(chance(50))
    case 16: return .disableViewerAnnotation(chance(50))
    case 17: return .startAnnotation(shareOwner: userID())
    case 18: return .stopAnnotation(shareOwner: userID())
    case 19:
      return .clearAnnotation(shareOwner: userID(), type: one(of: AnnotationClearType.allCases))
    case 20: return .makeHost(userID())
    case 21: return .makeManager(userID())
    case 22: return .revokeManager(userID())
    case 23: return .removeUser(userID())
    case 24: return .reclaimHost
    case 25: return .changeName(user: userID(), name: text())
    case 26: return .sendChat(receiver: chance(50) ? nil : userID(), content: text())
    case 27:
      let kept = harness.served()?.chatMessages.map(\.id) ?? []
      return .deleteChatMessage(messageID: chance(60) && !kept.isEmpty ? one(of: kept) : text())
    case 28: return .changeChatPrivilege(one(of: ChatPrivilege.allCases))
    case 29: return .reportTalking(chance(50))
    case 30:
      // Texts from empty to far over the 512-character limit, to anyone or no one.
      let long = String(repeating: text(), count: Int.random(in: 0...600, using: &random))
      return .sendCommand(
        receiver: chance(50) ? nil : userID(), content: chance(50) ? text() : long)
    case 31:
      switch Int.random(in: 0..<6, using: &random) {
      case 0: return .spotlightVideo(userID())
      case 1: return .unspotlightVideo(userID())
      case 2: return .unspotlightAllVideos
      default:
        return chance(80)
          ? .subSession(subSessionCommand())
          : .recording(one(of: [.start, .stop, .pause, .resume, .agree]))
      }
    default: return .reportNetworkQuality(one(of: NetworkQuality.allCases))
    }
  }

  /// Subsession calls with every field hostile: up to 200 names (empty, repeated, long),
  /// ids that were never given, long broadcasts, help answers for anyone.
  func subSessionCommand() -> SubSessionCommand {
    switch Int.random(in: 0..<9, using: &random) {
    case 0:
      let count = one(of: [0, 1, 5, 50, 51, 200])
      let long = String(repeating: text(), count: Int.random(in: 0...80, using: &random))
      return .commit(
        (0..<count).map { index in chance(10) ? "" : chance(10) ? long : "G\(index % 60)" })
    case 1: return .withdraw
    case 2: return .start
    case 3: return .stop
    case 4:
      let listed = harness.served()?.subSessions.list.map(\.id) ?? []
      return .join(subSessionID: chance(70) && !listed.isEmpty ? one(of: listed) : text())
    case 5: return .returnToMain
    case 6:
      let long = String(repeating: text(), count: Int.random(in: 0...600, using: &random))
      return .broadcast(chance(50) ? text() : long)
    case 7: return .requestHelp
    default: return .answerHelp(requester: userID(), join: chance(50))
    }
  }

  // MARK: Steps

  func step() -> String {
    if chance(10) {
      let jump: Int64 = one(of: [1, 1_000, 9_999, 15_000, 40 * 60_000])
      harness.advance(by: jump)
    }
    let slot = Int.random(in: 0..<slots.count, using: &random)
    guard let connection = slots[slot], harness.openConnections.contains(connection) else {
      slots[slot] = harness.connect()
      return "connect"
    }
    let member = harness.replica(connection)?.phase == .inSession
    switch Int.random(in: 0..<100, using: &random) {
    case 0..<30 where !member, 0..<3:
      let session = chance(80) ? one(of: ["Room", "Lab"]) : text()
      var request = JoinRequest(
        sessionName: session, userName: chance(70) ? "u\(slot)" : text(),
        token: token(for: session), password: chance(20) ? text() : nil,
        connectAudio: chance(80), muteAudio: chance(50), videoOn: chance(50),
        idleTimeoutMinutes: minutes())
      if session == "Lab", chance(50) { request.password = "pw" }
      return answered(.join(request), on: connection)
    case 30..<34:
      return answered(.password(chance(70) ? text() : nil), on: connection)
    case 34..<40:
      let client = harness.clients[connection]
      let resume = ResumeRequest(
        sessionID: chance(60) ? (harness.served()?.sessionID ?? text()) : text(),
        user: userID(),
        resumeToken: chance(20) ? (client?.resumeToken ?? 0) : random.next(),
        lastSequence: one(of: [0, UInt64.max, random.next()]))
      return answered(.resume(resume), on: connection)
    case 40..<44:
      harness.close(connection)
      return "close"
    case 44..<48:
      harness.send(.heartbeat, on: connection)
      return "heartbeat"
    default:
      return commanded(on: connection)
    }
  }

  /// Sends a join, password or resume and checks it gets exactly one answer.
  private func answered(_ message: ClientMessage, on connection: ConnectionID) -> String {
    let mark = harness.mark
    harness.send(message, on: connection)
    let answers = harness.messages(to: connection, since: mark).filter { reply in
      switch reply {
      case .joined, .joinRefused, .passwordRequired, .left: true
      default: false
      }
    }
    if answers.count != 1 {
      breaches.append("\(message) on \(connection) got \(answers.count) answers: \(answers)")
    }
    answered += 1
    return "\(message)".prefix(60).description
  }

  private func commanded(on connection: ConnectionID) -> String {
    let command = command()
    let name = harness.replica(connection)?.sessionName ?? "Room"
    let before = harness.service.state(ofSession: name)
    let sequence = harness.service.lastSequence(ofSession: name)
    let mark = harness.mark
    let id = harness.command(command, on: connection)
    let sent = harness.records(since: mark)
    let refusals = sent.filter {
      if case .send(.commandFailed) = $0.output { true } else { false }
    }
    guard let refusal = refusals.first else {
      acceptedCommands += 1
      return command.name
    }
    refusedCommands += 1
    if sent.count != 1 || refusal.connection != connection
      || refusal.output != .send(.commandFailed(id, failure(of: refusal)))
    {
      breaches.append("\(command.name) refused with other output: \(sent)")
    }
    if harness.service.state(ofSession: name) != before
      || harness.service.lastSequence(ofSession: name) != sequence
    {
      breaches.append("\(command.name) refused but the session changed")
    }
    return "\(command.name) refused"
  }

  private func failure(of record: ServiceHarness.Record) -> VideoSDKError {
    if case .send(.commandFailed(_, let error)) = record.output { return error }
    return .unknown
  }

  // MARK: Bounds

  /// Memory and values within the limits, for every live session.
  func boundsProblems() -> [String] {
    var problems: [String] = []
    let limits = harness.service.configuration.limits
    for (key, session) in harness.service.sessions {
      if session.state.chatMessages.count > limits.maxChatHistory {
        problems.append("\(key): \(session.state.chatMessages.count) chat messages kept")
      }
      if session.messageStamps.count > limits.maxChatHistory {
        problems.append("\(key): \(session.messageStamps.count) message stamps kept")
      }
      if session.state.participants.count > harness.service.admissionLimit {
        problems.append("\(key): \(session.state.participants.count) participants")
      }
      for participant in session.state.participants.values
      where participant.name.isEmpty || participant.name.utf8.count > limits.maxUserNameBytes
        || participant.name.count > limits.maxUserNameLength
      {
        problems.append("\(key): name of \(participant.name.utf8.count) bytes")
      }
      for message in session.state.chatMessages
      where message.content.isEmpty || message.content.utf8.count > limits.maxChatBytes {
        problems.append("\(key): chat of \(message.content.utf8.count) bytes")
      }
    }
    if harness.service.connectionCount > harness.openConnections.count {
      problems.append("\(harness.service.connectionCount) connections held")
    }
    return problems
  }
}

@Suite struct HostileClientFuzzTests {
  /// Steps per seed; `SESSIONENGINE_FUZZ_ITERATIONS` runs longer.
  static let steps =
    ProcessInfo.processInfo.environment["SESSIONENGINE_FUZZ_ITERATIONS"].flatMap(Int.init) ?? 1_500

  @Test(arguments: 0..<12)
  func arbitraryWellFormedMessagesBreakNothing(_ seed: Int) {
    let clients = HostileClients(seed: UInt64(seed) &* 0x9E37_79B9_7F4A_7C15 &+ 11)
    for step in 0..<Self.steps {
      let done = clients.step()
      let problems =
        clients.harness.convergenceProblems() + clients.breaches + clients.boundsProblems()
      if !problems.isEmpty {
        let report = problems.prefix(5).joined(separator: "\n")
        Issue.record(Comment(rawValue: "seed \(seed), step \(step) (\(done)):\n\(report)"))
        return
      }
    }
    #expect(clients.answered > 50)
    #expect(clients.refusedCommands > 20)
    #expect(clients.acceptedCommands > 20)
  }
}
