import SessionCore
import SessionService
import SessionTestSupport
import SessionTransport
import Testing

/// Random clients hammering one service: joins (good and bad), leaves, drops, resumes, time,
/// and random commands with random targets, valid or not.
private final class Fuzzer {
  static let sessionNames = ["Room", "room", "Lab"]
  static let labPassword = "pw"

  let harness: ServiceHarness
  var random: SimulationRandom
  /// One client connection per slot, or `nil` before the first.
  var slots: [ConnectionID?]
  /// Connections that were asked for a password and have not answered.
  var awaitingPassword: Set<ConnectionID> = []
  /// The last connection of each slot that held a membership, for resumes.
  var lastMember: [Int: ConnectionID] = [:]
  var accepted = 0
  var refused = 0
  var contractBreaches: [String] = []

  init(seed: UInt64) {
    random = SimulationRandom(seed: seed)
    harness = ServiceHarness { configuration in
      configuration.limits.maxUsers = 7
      configuration.secrets = .derived(seed: seed)
    }
    slots = Array(repeating: nil, count: Int.random(in: 6...10, using: &random))
  }

  func chance(_ percent: Int) -> Bool { Int.random(in: 0..<100, using: &random) < percent }

  func pick<T>(_ values: [T]) -> T? {
    values.isEmpty ? nil : values[Int.random(in: 0..<values.count, using: &random)]
  }

  /// One of a non-empty list.
  func one<T>(of values: [T]) -> T {
    values[Int.random(in: 0..<values.count, using: &random)]
  }

  func isMember(_ connection: ConnectionID) -> Bool {
    harness.openConnections.contains(connection)
      && harness.replica(connection)?.phase == .inSession
  }

  /// One step: maybe time passes, then one slot sends one message. Returns what it did.
  func step() -> String {
    var done: [String] = []
    if chance(15) {
      let jump: Int64 =
        chance(10) ? (chance(50) ? 10_000 : 15_000) : Int64.random(in: 0...4_000, using: &random)
      harness.advance(by: jump)
      done.append("+\(jump) ms")
    }
    let slot = Int.random(in: 0..<slots.count, using: &random)
    done.append("slot \(slot): " + act(slot))
    return done.joined(separator: ", ")
  }

  private func act(_ slot: Int) -> String {
    guard let connection = slots[slot], harness.openConnections.contains(connection) else {
      let connection = harness.connect()
      slots[slot] = connection
      return "connect \(connection)"
    }
    if awaitingPassword.contains(connection) {
      awaitingPassword.remove(connection)
      let answer: String? = one(of: [
        Self.labPassword, Self.labPassword, nil, "wrong", "much too long!",
      ])
      let mark = harness.mark
      harness.send(.password(answer), on: connection)
      noteJoin(slot, connection, since: mark)
      return "password \(answer ?? "nil")"
    }
    if isMember(connection) {
      lastMember[slot] = connection
      switch Int.random(in: 0..<100, using: &random) {
      case 0..<75: return runCommand(on: connection)
      case 75..<83:
        harness.send(.heartbeat, on: connection)
        return "heartbeat"
      case 83..<88:
        harness.close(connection)
        return "close"
      case 88..<92:
        let end = chance(30)
        return runCommand(.leave(end: end), on: connection)
      case 92..<95: return join(slot, on: connection)
      case 95..<98:
        slots[slot] = harness.resume(connection)
        return "resume while connected"
      default:
        let token = harness.clients[connection]?.resumeToken ?? 0
        let other = harness.resume(connection, resumeToken: token &+ 1)
        harness.close(other)
        return "resume with a wrong token"
      }
    }
    switch Int.random(in: 0..<100, using: &random) {
    case 0..<70: return join(slot, on: connection)
    case 70..<85:
      if let old = lastMember[slot] {
        let resumed = harness.resume(old)
        harness.close(connection)
        slots[slot] = resumed
        return "resume \(old) on \(resumed)"
      }
      return join(slot, on: connection)
    case 85..<92:
      harness.send(.heartbeat, on: connection)
      return "heartbeat"
    default:
      return runCommand(on: connection)
    }
  }

  private func join(_ slot: Int, on connection: ConnectionID) -> String {
    let session = one(of: Self.sessionNames)
    let password: String? =
      session == "Lab" ? one(of: [Self.labPassword, Self.labPassword, nil, "wrong"]) : nil
    var request = harness.joinRequest(
      chance(5) ? String(repeating: "n", count: 230) : "U\(slot)", session: session,
      role: chance(30) ? .host : .participant, password: password,
      connectAudio: chance(80), muteAudio: chance(30), videoOn: chance(30),
      idleTimeoutMinutes: one(of: [nil, nil, nil, 1, -1]))
    if chance(5), let bad = pick(BadJoinToken.all) { request.token = bad.make(harness) }
    let mark = harness.mark
    harness.send(.join(request), on: connection)
    noteJoin(slot, connection, since: mark)
    return "join \(session) as \(request.userName.prefix(8))"
  }

  private func noteJoin(_ slot: Int, _ connection: ConnectionID, since mark: Int) {
    if case .passwordRequired? = harness.messages(to: connection, since: mark).last {
      awaitingPassword.insert(connection)
    }
    if isMember(connection) { lastMember[slot] = connection }
  }

  // MARK: Commands

  private func runCommand(_ given: SessionCommand? = nil, on connection: ConnectionID) -> String {
    let command = given ?? randomCommand(for: connection)
    let replica = harness.replica(connection)
    let name = replica?.phase == .inSession ? replica?.sessionName : nil
    let before = name.flatMap { harness.service.state(ofSession: $0) }
    let sequence = name.flatMap { harness.service.lastSequence(ofSession: $0) }
    let mark = harness.mark
    let id = harness.command(command, on: connection)
    let sent = harness.records(since: mark)
    let refusal = sent.first {
      if case .send(.commandFailed) = $0.output { true } else { false }
    }
    guard let refusal else {
      accepted += 1
      return command.name
    }
    refused += 1
    if sent.count != 1 || refusal.connection != connection {
      contractBreaches.append("\(command) refused with other output: \(sent)")
    }
    if case .send(.commandFailed(let failedID, _)) = refusal.output, failedID != id {
      contractBreaches.append("\(command) refused under id \(failedID), sent as \(id)")
    }
    if let name {
      if harness.service.state(ofSession: name) != before
        || harness.service.lastSequence(ofSession: name) != sequence
      {
        contractBreaches.append("\(command) refused but the session changed")
      }
    }
    return "\(command.name) refused"
  }

  private func randomTarget(for connection: ConnectionID) -> UserID {
    let present = harness.replica(connection)?.orderedUserIDs ?? []
    switch Int.random(in: 0..<100, using: &random) {
    case 0..<70: return pick(present) ?? 1
    case 70..<90:
      return UserID(UInt32.random(in: 1...max(1, harness.largestUser), using: &random))
    default: return UserID(UInt32.random(in: 0...2_000, using: &random))
    }
  }

  private func randomOwner(for connection: ConnectionID) -> UserID {
    let sharers = harness.replica(connection)?.sharesInStartOrder.map(\.owner) ?? []
    return chance(80)
      ? (pick(sharers) ?? randomTarget(for: connection)) : randomTarget(for: connection)
  }

  private func randomMessageID(for connection: ConnectionID) -> String {
    let name = harness.replica(connection)?.sessionName ?? "Room"
    let ids = harness.service.state(ofSession: name)?.chatMessages.map(\.id) ?? []
    return chance(80) ? (pick(ids) ?? "m?") : "bogus"
  }

  private func randomCommand(for connection: ConnectionID) -> SessionCommand {
    let target = randomTarget(for: connection)
    let me = harness.replica(connection)?.myselfID ?? 0
    let flag = chance(50)
    switch Int.random(in: 0..<40, using: &random) {
    case 0: return .startVideo
    case 1: return .stopVideo
    case 2: return .startAudio
    case 3: return .stopAudio
    case 4: return .muteAudio(user: chance(50) ? me : target)
    case 5: return .unmuteAudio(user: chance(50) ? me : target)
    case 6: return .muteAllAudio(allowUnmute: flag)
    case 7: return .unmuteAllAudio
    case 8: return .allowAudioUnmutedBySelf(flag)
    case 9, 10: return .startShare(kind: one(of: ShareKind.allCases))
    case 11: return .pauseShare
    case 12: return .resumeShare
    case 13: return .stopShare
    case 14: return .lockShare(flag)
    case 15: return .enableMultiShare(flag)
    case 16: return .disableViewerAnnotation(flag)
    case 17: return .startAnnotation(shareOwner: randomOwner(for: connection))
    case 18: return .stopAnnotation(shareOwner: randomOwner(for: connection))
    case 19:
      return .clearAnnotation(
        shareOwner: randomOwner(for: connection), type: one(of: AnnotationClearType.allCases))
    case 20: return .makeHost(target)
    case 21: return .makeManager(target)
    case 22: return .revokeManager(target)
    case 23: return chance(50) ? .removeUser(target) : .reclaimHost
    case 24: return .changeName(user: chance(50) ? me : target, name: one(of: ["A", "", "Zed"]))
    case 25: return .sendChat(receiver: nil, content: one(of: ["hi", "", "long text"]))
    case 26: return .sendChat(receiver: target, content: one(of: ["psst", ""]))
    case 27: return .deleteChatMessage(messageID: randomMessageID(for: connection))
    case 28: return .changeChatPrivilege(one(of: ChatPrivilege.allCases))
    case 29: return .reportTalking(flag)
    case 30: return .reportNetworkQuality(one(of: NetworkQuality.allCases))
    case 31:
      return .sendCommand(
        receiver: chance(50) ? nil : target, content: one(of: ["raise-hand", "", "poll:2"]))
    case 32, 33: return .spotlightVideo(chance(50) ? me : target)
    case 34: return chance(50) ? .unspotlightVideo(target) : .unspotlightAllVideos
    case 35:
      let names = (0..<Int.random(in: 0...4, using: &random)).map { "Group \($0)" }
      return .subSession(chance(80) ? .commit(names) : .withdraw)
    case 36: return .subSession(chance(70) ? .start : .stop)
    case 37:
      let name = harness.replica(connection)?.sessionName ?? "Room"
      let listed = harness.service.state(ofSession: name)?.subSessions.list.map(\.id) ?? []
      return .subSession(
        chance(75) ? .join(subSessionID: pick(listed) ?? "1-1") : .returnToMain)
    case 38:
      switch Int.random(in: 0..<5, using: &random) {
      case 0: return .subSession(.broadcast(one(of: ["back in 5", ""])))
      case 1: return .subSession(.requestHelp)
      case 2: return .subSession(.answerHelp(requester: target, join: flag))
      default: return .recording(one(of: [.start, .stop, .pause, .resume, .agree]))
      }
    default: return .leave(end: flag)
    }
  }
}

@Suite struct PropertyTests {
  @Test(arguments: 0..<50)
  func randomTrafficKeepsEveryReplicaConverged(_ seed: Int) {
    let fuzzer = Fuzzer(seed: UInt64(seed) &* 0x2545_F491_4F6C_DD1D)
    for step in 0..<1_000 {
      let done = fuzzer.step()
      let problems = fuzzer.harness.convergenceProblems() + fuzzer.contractBreaches
      if !problems.isEmpty {
        let report = problems.prefix(5).joined(separator: "\n")
        Issue.record(Comment(rawValue: "seed \(seed), step \(step) (\(done)):\n\(report)"))
        return
      }
    }
    #expect(fuzzer.accepted > 100)
    #expect(fuzzer.refused > 50)
  }
}
