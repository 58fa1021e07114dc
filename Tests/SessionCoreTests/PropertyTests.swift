import Foundation
import Testing

@testable import SessionCore

/// Random event sequences, valid and invalid alike, from a seeded generator.
///
/// After every event: a rejected event left the state exactly as it was (`==` and role order);
/// the invariants hold. Every 50 events: a Codable round trip gives an equal state, and the
/// decoded copy then reacts to the next 10 events exactly as the original does.
@Suite("Properties of random event sequences")
struct PropertyTests {
  static let eventsPerSeed = 1_000

  @Test(arguments: 0..<100)
  func randomSequencesKeepEveryInvariant(seed: Int) throws {
    let outcome = try Self.run(seed: UInt64(seed), events: Self.eventsPerSeed)
    guard !outcome.failed else { return }
    // The mix is realistic only if it neither applies nor rejects nearly everything.
    #expect(outcome.applied >= 300, "seed \(seed): only \(outcome.applied) applied")
    #expect(outcome.rejected >= 50, "seed \(seed): only \(outcome.rejected) rejected")
  }

  @Test func theGeneratorExercisesEveryEventKindAndEveryRejection() throws {
    var applied: Set<String> = []
    var codes: Set<EventRejection.Code> = []
    for seed in UInt64(1_000)..<1_010 {
      let outcome = try Self.run(seed: seed, events: Self.eventsPerSeed)
      applied.formUnion(outcome.appliedKinds)
      codes.formUnion(outcome.codes)
    }
    #expect(applied == Set(CodingTests.eventJSONVersion1.map(\.0.name)))
    #expect(codes == Set(allRejectionCodes))
  }

  struct Outcome {
    var failed = false
    var applied = 0
    var rejected = 0
    var appliedKinds: Set<String> = []
    var codes: Set<EventRejection.Code> = []
  }

  /// Runs one seed; records an issue and stops at the first broken property.
  static func run(seed: UInt64, events count: Int) throws -> Outcome {
    var generator = EventGenerator(seed: seed)
    var state = SessionState()
    var shadow: SessionState?
    var shadowSteps = 0
    var outcome = Outcome()
    for step in 0..<count {
      let event = generator.next(for: state)
      let before = state
      let rejection = state.apply(event)
      // Built only when a property breaks: describing an event costs more than applying it.
      func context() -> String { "seed \(seed), step \(step), \(event)" }
      if let rejection {
        outcome.rejected += 1
        outcome.codes.insert(rejection.code)
        guard state == before, state.orderedUserIDs == before.orderedUserIDs else {
          let changes = difference(state, before)
          Issue.record("rejected event changed the state: \(context()): \(rejection); \(changes)")
          outcome.failed = true
          return outcome
        }
      } else {
        outcome.applied += 1
        outcome.appliedKinds.insert(event.name)
      }
      let violations = state.checkInvariants()
      guard violations.isEmpty else {
        Issue.record("invariants broken: \(context()): \(violations)")
        outcome.failed = true
        return outcome
      }
      if var copy = shadow {
        let copyRejection = copy.apply(event)
        guard copyRejection?.code == rejection?.code, copy == state,
          copy.orderedUserIDs == state.orderedUserIDs
        else {
          Issue.record("decoded state diverged: \(context()): \(difference(copy, state))")
          outcome.failed = true
          return outcome
        }
        shadowSteps += 1
        shadow = shadowSteps < 10 ? copy : nil
      }
      if step % 50 == 49 {
        let decoded = try JSONDecoder().decode(
          SessionState.self, from: JSONEncoder().encode(state))
        guard decoded == state, decoded.orderedUserIDs == state.orderedUserIDs else {
          Issue.record(
            "Codable round trip changed the state: \(context()): \(difference(decoded, state))")
          outcome.failed = true
          return outcome
        }
        shadow = decoded
        shadowSteps = 0
      }
    }
    return outcome
  }
}

/// Generates plausible events for the state at hand, with a steady share of invalid ones:
/// unknown users, duplicates, second hosts, events out of phase, impossible share changes,
/// annotations without rights, repeated chat ids, broken snapshots.
///
/// It reads the state only through deterministic views (role and join order, shares in start
/// order), never a dictionary's iteration order, so that a seed always replays the same way.
struct EventGenerator {
  var random: SimulationRandom
  var nextUserID: UInt32 = 20
  var nextJoinOrder: UInt64 = 20
  var nextMessage = 0
  var subSessionCommits = 0

  init(seed: UInt64) { random = SimulationRandom(seed: seed) }

  mutating func next(for state: SessionState) -> SessionEvent {
    switch state.phase {
    case .idle:
      return random.chance(90) ? .initialized : anyEvent(state)
    case .initialized, .left, .failed:
      if random.chance(80) {
        return .joinRequested(sessionName: "Room \(random.below(3))", userName: "Me")
      }
      return random.chance(30) ? .cleanedUp : anyEvent(state)
    case .joining:
      if random.chance(10) { return .joinFailed(error: .sessionJoinFailed) }
      return random.chance(85)
        ? .sessionJoined(snapshot(valid: random.chance(85))) : anyEvent(state)
    case .inSession, .leaving:
      return sessionEvent(state)
    }
  }

  /// Any event at all, usually out of phase.
  mutating func anyEvent(_ state: SessionState) -> SessionEvent {
    switch random.below(8) {
    case 0: .initialized
    case 1: .cleanedUp
    case 2: .leaveRequested
    case 3: .sessionLeft(reason: .networkError)
    case 4: .joinFailed(error: .authError)
    case 5: .errorOccurred(error: .sessionVideoError, detail: random.below(5))
    default: sessionEvent(state)
    }
  }

  // MARK: Picking users

  /// A present user most of the time, else an id nobody has (or had long ago).
  mutating func user(_ state: SessionState) -> UserID {
    let present = state.orderedUserIDs
    if random.chance(88), let id = random.pick(present) { return id }
    return UserID(UInt32(1 + random.below(Int(nextUserID))))
  }

  mutating func newParticipant(_ state: SessionState) -> Participant {
    var id = UserID(nextUserID)
    var joinOrder = nextJoinOrder
    if random.chance(6), let present = random.pick(state.orderedUserIDs) { id = present }
    if random.chance(6), let other = random.pick(state.usersInJoinOrder) {
      joinOrder = other.joinOrder
    } else if random.chance(5) {
      joinOrder = UInt64(random.below(Int(nextJoinOrder)))  // an earlier, maybe free, place
    }
    nextUserID += 1
    nextJoinOrder += 1
    let roll = random.below(100)
    let role: Role = roll < 4 ? .host : roll < 18 ? .manager : .participant
    return Participant(
      id: id, name: "User \(id.rawValue)", role: role, isVideoOn: random.chance(40),
      audio: AudioStatus(type: AudioType(rawValue: UInt8(random.below(3))) ?? .voip),
      shareStatus: random.chance(3) ? .started : .none,
      networkQuality: NetworkQuality(rawValue: UInt8(random.below(4))) ?? .good,
      joinOrder: joinOrder)
  }

  mutating func snapshot(valid: Bool) -> SessionSnapshot {
    let myself = UserID(nextUserID)
    var participants: [Participant] = []
    for index in 0..<(1 + random.below(6)) {
      var user = newParticipant(SessionState())
      user.shareStatus = .none
      user.role = index == 1 ? .host : (user.role == .host ? .participant : user.role)
      participants.append(user)
    }
    participants[0].id = myself
    var shares: [ActiveShare] = []
    if participants.count > 2, random.chance(40) {
      participants[2].shareStatus = .started
      shares.append(ActiveShare(owner: participants[2].id, startOrder: 1))
    }
    if !valid {
      switch random.below(4) {
      case 0: participants.append(participants[0])
      case 1: participants[0].role = .host
      case 2: participants[0].shareStatus = .paused
      default: shares.append(ActiveShare(owner: UserID(9_999)))
      }
    }
    return SessionSnapshot(
      sessionName: "Room", sessionID: "s\(nextUserID)", myself: myself,
      participants: participants, shareSetting: random.chance(30) ? .multi : .single,
      shares: shares)
  }

  // MARK: In-session events

  mutating func sessionEvent(_ state: SessionState) -> SessionEvent {
    let crowded = state.participants.count > 30
    let roll = random.below(1_000)
    switch roll {
    case 0..<150:
      return .videoStatusChanged(user: user(state), isOn: random.chance(50))
    case 150..<290:
      return .audioStatusChanged(
        user: user(state), type: AudioType(rawValue: UInt8(random.below(3))) ?? .voip,
        isMuted: random.chance(50))
    case 290..<340:
      return .networkStatusChanged(
        user: user(state), quality: NetworkQuality(rawValue: UInt8(random.below(4))) ?? .good)
    case 340..<380:
      return .nameChanged(user: user(state), name: "Name \(random.below(100))")
    case 380..<450:
      if crowded { return .usersLeft([user(state)]) }
      return .usersJoined((0..<(1 + random.below(3))).map { _ in newParticipant(state) })
    case 450..<500:
      let count = random.chance(10) ? 0 : 1 + random.below(2)
      return .usersLeft((0..<count).map { _ in user(state) })
    case 500..<540:
      return .hostChanged(newHost: user(state))
    case 540..<590:
      return .managerChanged(user: user(state), isManager: random.chance(55))
    case 590..<640:
      let present = state.orderedUserIDs
      let count = random.below(min(4, present.count + 1))
      return .activeSpeakersChanged((0..<count).map { _ in user(state) })
    case 640..<660:
      return .hostAskedUnmute(by: user(state))
    case 660..<750:
      let status = [ShareStatus.started, .started, .paused, .resumed, .stopped, .stopped, .none]
      return .shareStatusChanged(
        user: user(state), status: random.pick(status) ?? .started,
        kind: ShareKind(rawValue: UInt8(random.below(4))) ?? .view)
    case 750..<770:
      return .shareSettingChanged(ShareSetting(rawValue: UInt8(random.below(4))) ?? .single)
    case 770..<830:
      return annotationEvent(state)
    case 830..<890:
      return chatEvent(state)
    case 890..<900:
      return .chatPrivilegeChanged(ChatPrivilege(rawValue: UInt8(random.below(4))) ?? .noOne)
    case 900..<910:
      return .errorOccurred(error: .sessionAudioError, detail: 0)
    case 910..<915:
      return .leaveRequested
    case 915..<920:
      return .sessionLeft(reason: LeaveReason(rawValue: UInt8(random.below(5))) ?? .bySelf)
    case 920..<925:
      return .sessionJoined(snapshot(valid: random.chance(70)))
    case 925..<935:
      return anyEvent(state)
    case 935..<975:
      return subSessionEvent(state)
    case 975..<990:
      let status =
        random.pick([RecordingStatus.start, .start, .pause, .stop, .connecting]) ?? .start
      return random.chance(70)
        ? .recording(.statusChanged(status)) : .recording(.agreed(user(state)))
    default:
      return .videoStatusChanged(user: user(state), isOn: random.chance(50))
    }
  }

  /// Subsession events: commits (now and then an empty list), withdrawals, starts, stops,
  /// moves (to a listed subsession, an unlisted one, or back), broadcasts and help.
  mutating func subSessionEvent(_ state: SessionState) -> SessionEvent {
    let board = state.subSessions
    switch random.below(12) {
    case 0, 1:
      subSessionCommits += 1
      let list = (0..<(1 + random.below(4))).map {
        SubSession(id: "\(subSessionCommits)-\($0 + 1)", name: "Group \($0 + 1)")
      }
      return .subSession(.statusChanged(.committed, random.chance(10) ? [] : list))
    case 2:
      return .subSession(.statusChanged(.withdrawn, []))
    case 3:
      return .subSession(.statusChanged(.started, board.list))
    case 4:
      return .subSession(.statusChanged(random.chance(80) ? .stopped : .stopping, board.list))
    case 5, 6, 7, 8:
      let destination =
        random.chance(30)
        ? nil : random.chance(90) ? (random.pick(board.list)?.id ?? "0-1") : "9-9"
      return .subSession(.userMoved(user(state), to: destination))
    case 9:
      return .subSession(.broadcast(from: user(state), message: "back in 5"))
    case 10:
      return .subSession(
        .helpRequested(by: user(state), subSessionID: random.pick(board.list)?.id ?? "0-1"))
    default:
      return .subSession(.helpResult(.busy))
    }
  }

  mutating func annotationEvent(_ state: SessionState) -> SessionEvent {
    let owner =
      random.chance(80)
      ? (random.pick(state.sharesInStartOrder)?.owner ?? user(state)) : user(state)
    switch random.below(4) {
    case 0:
      return .annotationStarted(user: user(state), shareOwner: owner)
    case 1:
      let annotators = state.shares[owner].map { $0.annotators.sorted() } ?? []
      let annotator = random.chance(70) ? (random.pick(annotators) ?? user(state)) : user(state)
      return .annotationStopped(user: annotator, shareOwner: owner)
    case 2:
      return .annotationCleared(
        user: user(state), shareOwner: owner,
        type: AnnotationClearType(rawValue: UInt8(random.below(3))) ?? .mine)
    default:
      return .annotationPrivilegeChanged(
        shareOwner: owner, isViewerAnnotationDisabled: random.chance(50))
    }
  }

  mutating func chatEvent(_ state: SessionState) -> SessionEvent {
    if random.chance(25) {
      let id =
        random.chance(80)
        ? (random.pick(state.chatMessages)?.id ?? "m0") : "m\(random.below(nextMessage + 1))"
      return .chatMessageDeleted(
        messageID: id, deletedBy: ChatDeleteBy(rawValue: UInt8(random.below(4))) ?? .host)
    }
    let id: String
    if random.chance(8), let old = random.pick(state.chatMessages) {
      id = old.id
    } else {
      id = "m\(nextMessage)"
      nextMessage += 1
    }
    return .chatMessageReceived(
      ChatMessage(
        id: id, sender: user(state), receiver: random.chance(30) ? user(state) : nil,
        content: "hello \(random.below(1_000))", timestamp: Int64(nextMessage)))
  }
}
