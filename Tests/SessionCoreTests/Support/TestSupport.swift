import Testing

@testable import SessionCore

// Builders and checkers shared by the SessionCore tests. `@testable` lets a test write the
// expected state by hand (`expected.participants[3]?.isVideoOn = true`) and compare it with the
// reducer's result as a whole, so a test fails on any change it did not predict.

/// A participant with terse defaults: named "User <id>", joined in id order.
func participant(
  _ id: UserID,
  _ name: String? = nil,
  role: Role = .participant,
  joinOrder: UInt64? = nil,
  isVideoOn: Bool = false,
  audio: AudioStatus = .disconnected,
  shareStatus: ShareStatus = .none,
  network: NetworkQuality = .none,
  customUserKey: String? = nil
) -> Participant {
  Participant(
    id: id, name: name ?? "User \(id.rawValue)", role: role, isVideoOn: isVideoOn, audio: audio,
    shareStatus: shareStatus, networkQuality: network,
    joinOrder: joinOrder ?? UInt64(id.rawValue), customUserKey: customUserKey)
}

/// Builds a session in progress from a snapshot, the way a member joins one.
struct SessionBuilder {
  var sessionName = "Algebra101"
  var sessionID = "session-1"
  var myself: UserID = 3
  var participants: [Participant]
  var shareSetting: ShareSetting = .single
  var shares: [ActiveShare] = []
  var chatPrivilege: ChatPrivilege = .everyonePubliclyAndPrivately
  var activeSpeakers: [UserID] = []

  /// Seed 002's classroom: 1 Teacher (host), 2 Assistant (manager), 3 Ada (myself), 4 Ben,
  /// 5 Cy; join order follows the ids.
  static var classroom: SessionBuilder {
    SessionBuilder(participants: [
      participant(1, "Teacher", role: .host),
      participant(2, "Assistant", role: .manager),
      participant(3, "Ada"),
      participant(4, "Ben"),
      participant(5, "Cy"),
    ])
  }

  /// The classroom seen by another member.
  static func classroom(myself: UserID) -> SessionBuilder {
    var builder = classroom
    builder.myself = myself
    return builder
  }

  /// The classroom with `owner` sharing a view (and their participant saying so).
  static func classroom(myself: UserID = 3, sharing owner: UserID) -> SessionBuilder {
    var builder = classroom(myself: myself)
    builder.startShare(of: owner)
    return builder
  }

  /// Marks `owner` as sharing, with a live share.
  mutating func startShare(
    of owner: UserID, status: ShareStatus = .started, annotators: Set<UserID> = [],
    isViewerAnnotationDisabled: Bool = false
  ) {
    let startOrder = UInt64(shares.count + 1)
    shares.append(
      ActiveShare(
        owner: owner, status: status, isViewerAnnotationDisabled: isViewerAnnotationDisabled,
        annotators: annotators, startOrder: startOrder))
    if let index = participants.firstIndex(where: { $0.id == owner }) {
      participants[index].shareStatus = status
    }
  }

  var snapshot: SessionSnapshot {
    SessionSnapshot(
      sessionName: sessionName, sessionID: sessionID, myself: myself,
      participants: participants, shareSetting: shareSetting, shares: shares,
      chatPrivilege: chatPrivilege, activeSpeakers: activeSpeakers)
  }

  /// The state in session; fails the test (and returns an empty state) if the snapshot is bad.
  func build(sourceLocation: SourceLocation = #_sourceLocation) -> SessionState {
    do {
      let state = try SessionState(snapshot: snapshot)
      expectSound(state, sourceLocation: sourceLocation)
      return state
    } catch {
      Issue.record("snapshot rejected: \(error)", sourceLocation: sourceLocation)
      return SessionState()
    }
  }
}

/// The lifecycle phases, each with a state that reached it through events.
enum Phase: String, CaseIterable, CustomTestStringConvertible {
  case idle, initialized, joining, inSession, leaving, left, failed

  var testDescription: String { rawValue }

  /// A state in this phase, reached by applying lifecycle events to a fresh state.
  var state: SessionState {
    var state = SessionState()
    let path: [SessionEvent]
    let join: [SessionEvent] = [
      .initialized, .joinRequested(sessionName: "Algebra101", userName: "Ada"),
    ]
    let joined = join + [.sessionJoined(SessionBuilder.classroom.snapshot)]
    switch self {
    case .idle: path = []
    case .initialized: path = [.initialized]
    case .joining: path = join
    case .inSession: path = joined
    case .leaving: path = joined + [.leaveRequested]
    case .left: path = joined + [.sessionLeft(reason: .bySelf)]
    case .failed: path = join + [.joinFailed(error: .joinSessionInvalidSessionToken)]
    }
    for event in path {
      if let rejection = state.apply(event) {
        preconditionFailure("phase fixture \(self): \(rejection)")
      }
    }
    return state
  }
}

/// Expects every invariant of `state` to hold.
func expectSound(_ state: SessionState, sourceLocation: SourceLocation = #_sourceLocation) {
  let violations = state.checkInvariants()
  #expect(violations.isEmpty, "invariants broken: \(violations)", sourceLocation: sourceLocation)
}

/// Applies `event` to `state`, expecting it to apply and to make exactly the changes `change`
/// makes to the state before (compared with `==`, so every field is checked), with the
/// invariants holding after.
func expectApplies(
  _ event: SessionEvent,
  to state: inout SessionState,
  sourceLocation: SourceLocation = #_sourceLocation,
  _ change: (inout SessionState) -> Void = { _ in }
) {
  var expected = state
  change(&expected)
  if let rejection = state.apply(event) {
    Issue.record("\(event.name) rejected: \(rejection)", sourceLocation: sourceLocation)
    return
  }
  let matches = state == expected
  #expect(
    matches, "\(event.name): \(difference(state, expected))", sourceLocation: sourceLocation)
  expectSound(state, sourceLocation: sourceLocation)
}

/// Expects `event` to be rejected with `code` and to leave the state exactly as it was.
///
/// - Returns: The rejection, if there was one.
@discardableResult
func expectRejects(
  _ event: SessionEvent,
  in state: SessionState,
  _ code: EventRejection.Code,
  sourceLocation: SourceLocation = #_sourceLocation
) -> EventRejection? {
  var copy = state
  guard let rejection = copy.apply(event) else {
    Issue.record("\(event.name) applied; expected \(code)", sourceLocation: sourceLocation)
    return nil
  }
  #expect(rejection.code == code, "\(rejection)", sourceLocation: sourceLocation)
  #expect(rejection.event == event.name, sourceLocation: sourceLocation)
  #expect(!rejection.detail.isEmpty, sourceLocation: sourceLocation)
  let unchanged = copy == state
  #expect(
    unchanged, "a rejected \(event.name) changed \(difference(copy, state))",
    sourceLocation: sourceLocation)
  #expect(
    copy.orderedUserIDs == state.orderedUserIDs, "a rejected \(event.name) changed the role order",
    sourceLocation: sourceLocation)
  expectSound(copy, sourceLocation: sourceLocation)
  return rejection
}

/// Applies events that must apply, failing the test on the first that does not.
func applyAll(
  _ events: [SessionEvent], to state: inout SessionState,
  sourceLocation: SourceLocation = #_sourceLocation
) {
  for event in events {
    if let rejection = state.apply(event) {
      Issue.record("\(event.name) rejected: \(rejection)", sourceLocation: sourceLocation)
      return
    }
    expectSound(state, sourceLocation: sourceLocation)
  }
}

/// The fields in which two states differ, for failure messages (a whole state is too long).
func difference(_ actual: SessionState, _ expected: SessionState) -> String {
  var fields: [String] = []
  func compare<T: Equatable>(_ name: String, _ path: KeyPath<SessionState, T>) {
    if actual[keyPath: path] != expected[keyPath: path] {
      fields.append("\(name): \(actual[keyPath: path]) ≠ expected \(expected[keyPath: path])")
    }
  }
  compare("phase", \.phase)
  compare("sessionName", \.sessionName)
  compare("sessionID", \.sessionID)
  compare("myselfID", \.myselfID)
  compare("hostID", \.hostID)
  compare("shareSetting", \.shareSetting)
  compare("chatPrivilege", \.chatPrivilege)
  compare("chatMessages", \.chatMessages)
  compare("activeSpeakers", \.activeSpeakers)
  compare("spotlighted", \.spotlighted)
  compare("subSessions", \.subSessions)
  compare("unmuteRequestedBy", \.unmuteRequestedBy)
  compare("lastError", \.lastError)
  compare("isServiceView", \.isServiceView)
  for id in Set(actual.participants.keys).union(expected.participants.keys).sorted()
  where actual.participants[id] != expected.participants[id] {
    fields.append(
      "participant \(id): \(String(describing: actual.participants[id])) ≠ expected "
        + String(describing: expected.participants[id]))
  }
  for id in Set(actual.shares.keys).union(expected.shares.keys).sorted()
  where actual.shares[id] != expected.shares[id] {
    fields.append(
      "share of \(id): \(String(describing: actual.shares[id])) ≠ expected "
        + String(describing: expected.shares[id]))
  }
  return fields.isEmpty ? "no difference" : fields.joined(separator: "; ")
}

extension SessionState {
  /// The participant with this id; fails loudly if absent (tests only).
  subscript(user id: UserID) -> Participant {
    guard let participant = participants[id] else { preconditionFailure("no \(id)") }
    return participant
  }
}

/// Every rejection code. The switch makes this fail to compile when a code is added, so the
/// coverage test below it must be revisited.
let allRejectionCodes: [EventRejection.Code] = {
  let codes: [EventRejection.Code] = [
    .outOfPhase, .unknownUser, .duplicateUser, .secondHost, .noChange, .invalidTarget,
    .invalidShareTransition, .shareNotAllowed, .annotationNotAllowed, .unknownOrDuplicateMessage,
    .invalidSnapshot, .subSessionNotAllowed, .recordingNotAllowed,
  ]
  for code in codes {
    switch code {
    case .outOfPhase, .unknownUser, .duplicateUser, .secondHost, .noChange, .invalidTarget,
      .invalidShareTransition, .shareNotAllowed, .annotationNotAllowed,
      .unknownOrDuplicateMessage, .invalidSnapshot, .subSessionNotAllowed, .recordingNotAllowed:
      break
    }
  }
  return codes
}()
