import SessionCore
import SessionSDK
import SessionService
import Testing

/// Checks that every member of a session agrees with the service, as the engine promises after
/// quiescence, and that every state involved is sound.
///
/// For the named session (case-insensitive), with the service's state `S`:
/// - `S` satisfies its invariants (``SessionCore/SessionState/checkInvariants()``), and so does
///   every member's replica;
/// - every member in that session (in session or leaving) has
///   `sdk.store.state.sharedFacts == S.sharedFacts`, has applied every event the service
///   numbered (``SessionSDK/VideoSDK/lastServiceSequence``), and is one of `S`'s participants;
/// - with `requireEveryParticipant`, every participant of `S` is one of those members;
/// - when the session is gone, no member still thinks it is in it.
///
/// Members in other sessions, or in none, are skipped. Differences are reported field by field.
///
/// - Parameters:
///   - members: The SDK instances to check; others are ignored.
///   - service: The authoritative service.
///   - name: The session's name.
///   - requireEveryParticipant: Whether every participant must be among `members`.
///   - sourceLocation: Where failures are reported.
///
/// > Important: Call it from the isolation domain that owns the instances and the service,
/// > once the network is quiet (``SessionTestbed/assertConverged(session:sourceLocation:)``
/// > delivers what is in flight first).
public func assertConverged(
  _ members: [VideoSDK],
  with service: SessionService,
  session name: String,
  requireEveryParticipant: Bool = true,
  sourceLocation: SourceLocation = #_sourceLocation
) {
  var problems: [String] = []
  let inSession = members.filter { sdk in
    let state = sdk.store.state
    return state.phase.acceptsSessionEvents
      && state.sessionName?.lowercased() == name.lowercased()
  }
  for sdk in members {
    let violations = sdk.store.state.checkInvariants()
    if !violations.isEmpty {
      problems.append("\(label(sdk)) breaks invariants: \(violations.map(\.description))")
    }
  }
  guard let truth = service.state(ofSession: name) else {
    for sdk in inSession {
      problems.append("\(label(sdk)) is in \(name), which the service has ended")
    }
    report(problems, name, sourceLocation)
    return
  }
  let violations = truth.checkInvariants()
  if !violations.isEmpty {
    problems.append("the service breaks invariants: \(violations.map(\.description))")
  }
  let facts = truth.sharedFacts
  let sequence = service.lastSequence(ofSession: name) ?? 0
  for sdk in inSession {
    let state = sdk.store.state
    let differences = facts.differences(from: state.sharedFacts)
    if !differences.isEmpty {
      problems.append(
        "\(label(sdk)) differs from the service (service → member):\n"
          + differences.map { "    " + $0 }.joined(separator: "\n"))
    }
    if sdk.lastServiceSequence != sequence {
      problems.append(
        "\(label(sdk)) applied events up to \(sdk.lastServiceSequence), the service numbered "
          + "\(sequence)")
    }
    if let me = state.myselfID, truth.participants[me] == nil {
      problems.append("\(label(sdk)) is not a participant of the service's session")
    }
  }
  if requireEveryParticipant {
    let represented = Set(inSession.compactMap { $0.store.state.myselfID })
    for participant in truth.orderedRoster where !represented.contains(participant.id) {
      problems.append(
        "participant \(participant.id) (\(participant.name)) has no member among those checked")
    }
  }
  report(problems, name, sourceLocation)
}

private func label(_ sdk: VideoSDK) -> String {
  let state = sdk.store.state
  let name = state.myself?.name ?? "?"
  return "member \(state.myselfID.map { "\($0)" } ?? "-") (\(name))"
}

private func report(_ problems: [String], _ name: String, _ location: SourceLocation) {
  guard !problems.isEmpty else { return }
  Issue.record(
    Comment(
      rawValue: "Session \(name) has not converged:\n"
        + problems.map { "  " + $0 }.joined(separator: "\n")),
    sourceLocation: location)
}
