import Foundation
import SessionCore
import SessionTransport

/// The reducer's harness: a state, then up to 64 events drawn from the bytes
/// (``FuzzValues/event()``, most naming users 1 to 6), each applied with
/// ``SessionCore/SessionState/apply(_:)``.
///
/// The state starts idle, in session from a consistent snapshot (one to six members, at most
/// one host), as the service's view of a session, or from an arbitrary snapshot the reducer
/// accepted; its chat history keeps 0 to 8 messages. After every event: a rejected event
/// changed nothing, and the state keeps every invariant (``SessionCore/SessionState/checkInvariants()``).
/// At the end, a state in session gives each member a snapshot that a new state accepts with
/// the same shared facts, that crosses the wire unchanged, and the state itself survives a JSON
/// round trip.
///
/// > Important: Stateless; each call works on the calling thread.
enum ReducerFuzz {
  /// The users most events name.
  static let pool: [UserID] = [1, 2, 3, 4, 5, 6]
  /// The most events one input applies.
  static let maxEvents = 64

  static func run(_ bytes: UnsafeRawBufferPointer) throws(FuzzFailure) {
    var values = FuzzValues(FuzzInput([UInt8](bytes)), users: pool)
    var state = start(&values)
    try invariants(of: state, after: "the start")
    for _ in 0..<maxEvents where !values.input.isExhausted {
      try apply(values.event(), to: &state)
    }
    try roundTrips(of: state)
  }

  /// Applies one event: a rejected one changes nothing; the state keeps its invariants.
  static func apply(_ event: SessionEvent, to state: inout SessionState) throws(FuzzFailure) {
    let before = state
    if let rejection = state.apply(event) {
      try require(state == before, "the rejected \(event) (\(rejection)) changed the state")
      try invariants(of: state, after: "the rejected \(event.name)")
    } else {
      try invariants(of: state, after: "\(event)")
    }
  }

  private static func invariants(
    of state: SessionState, after what: @autoclosure () -> String
  ) throws(FuzzFailure) {
    let violations = state.checkInvariants()
    try require(violations.isEmpty, "after \(what()): \(violations)")
  }

  // MARK: Starting states

  private static func start(_ values: inout FuzzValues) -> SessionState {
    let limit = values.int(in: 0...8)
    switch values.int(in: 0...3) {
    case 0:
      return SessionState(chatHistoryLimit: limit)
    case 1:
      var state = SessionState(chatHistoryLimit: limit)
      state.apply(.initialized)
      state.apply(.joinRequested(sessionName: "Room", userName: "me"))
      state.apply(.sessionJoined(consistentSnapshot(&values)))
      return state
    case 2:
      var state = SessionState.serviceView(
        sessionName: "Room", sessionID: "S1", chatHistoryLimit: limit)
      let snapshot = consistentSnapshot(&values)
      state.apply(.usersJoined(snapshot.participants))
      return state
    default:
      var state = SessionState(chatHistoryLimit: limit)
      state.apply(.initialized)
      state.apply(.joinRequested(sessionName: "Room", userName: "me"))
      state.apply(.sessionJoined(values.snapshot()))
      return state
    }
  }

  /// One to six members of the pool in join order, at most one of them host, sharing nothing.
  private static func consistentSnapshot(_ values: inout FuzzValues) -> SessionSnapshot {
    let count = values.int(in: 1...pool.count)
    var hostGiven = false
    var participants: [Participant] = []
    for (index, id) in pool.prefix(count).enumerated() {
      var role = values.element(Role.self)
      if role == .host {
        if hostGiven { role = .participant }
        hostGiven = true
      }
      participants.append(
        Participant(
          id: id, name: values.string(), role: role, isVideoOn: values.bool(),
          audio: AudioStatus(
            type: values.element(AudioType.self), isMuted: values.bool(), isTalking: false),
          joinOrder: UInt64(index + 1) * 10, customUserKey: values.optional { $0.string() }))
    }
    return SessionSnapshot(
      sessionName: "Room", sessionID: "S1", myself: pool[values.input.index(count)],
      participants: participants, shareSetting: values.element(ShareSetting.self),
      chatPrivilege: values.element(ChatPrivilege.self), sequence: 1)
  }

  // MARK: Round trips

  private static func roundTrips(of state: SessionState) throws(FuzzFailure) {
    if state.phase == .inSession, let member = state.myselfID ?? state.participants.keys.first,
      state.participants[member] != nil
    {
      let snapshot = state.snapshot(for: member, sequence: 7)
      let rebuilt: SessionState
      do {
        rebuilt = try SessionState(snapshot: snapshot)
      } catch {
        throw FuzzFailure("a snapshot of a sound state is refused: \(error)\n\(snapshot)")
      }
      try require(
        rebuilt.sharedFacts == state.sharedFacts,
        "a snapshot rebuilds other facts:\n\(rebuilt.sharedFacts)\nnot\n\(state.sharedFacts)")
      let message = ServerMessage.joined(snapshot, resumeToken: 9)
      let decoded = Result { () throws(WireError) in
        try WireDecoder().decodeServerFrame(WireEncoder.payload(message))
      }
      try require(
        decoded == .success(.message(message)), "a snapshot crosses the wire as \(decoded)")
    }
    let json: Data
    do {
      json = try JSONEncoder().encode(state)
    } catch {
      throw FuzzFailure("a sound state does not encode: \(error)")
    }
    do {
      let decoded = try JSONDecoder().decode(SessionState.self, from: json)
      try require(decoded == state, "a state decodes from JSON as another")
    } catch let failure as FuzzFailure {
      throw failure
    } catch {
      throw FuzzFailure(
        "a sound state does not decode from its JSON: \(error)\n"
          + String(decoding: json.prefix(2_000), as: UTF8.self))
    }
  }
}
