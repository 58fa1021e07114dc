import SessionCore
import SessionTransport

extension SessionService {
  /// Carries out a subsession call that the shared rules and ``subSessionRules(_:by:in:)``
  /// accepted.
  ///
  /// A member who moves (joins a subsession, returns, or is brought back when the subsessions
  /// stop) first stops their share and their annotation, in events everyone hears: a share
  /// never crosses a subsession's border.
  func perform(_ call: SubSessionCommand, by user: UserID, in session: ServiceSession) {
    let board = session.state.subSessions
    switch call {
    case .commit(let names):
      // Ids no later commit reuses: a kit kept from an earlier list joins nothing.
      session.subSessionGeneration &+= 1
      let generation = session.subSessionGeneration
      let list = names.enumerated().map {
        SubSession(id: "\(generation)-\($0.offset + 1)", name: $0.element)
      }
      session.pendingHelp = nil
      emit([.subSession(.statusChanged(.committed, list))], in: session)
    case .withdraw:
      session.pendingHelp = nil
      emit([.subSession(.statusChanged(.withdrawn, []))], in: session)
    case .start:
      emit([.subSession(.statusChanged(.started, board.list))], in: session)
    case .stop:
      // Planned against a scratch copy, event by event: a share stopped for one member also
      // ends the annotations on it that a later member's departure would otherwise stop.
      var events: [SessionEvent] = []
      var scratch = session.state
      for member in board.rooms.keys.sorted() {
        for event in departures(of: member, in: scratch) where scratch.apply(event) == nil {
          events.append(event)
        }
      }
      events.append(.subSession(.statusChanged(.stopped, board.list)))
      session.pendingHelp = nil
      emit(events, in: session)
    case .join(let id):
      guard board.rooms[user] != id else { return }  // Already there: nothing changes.
      move(user, to: id, in: session)
    case .returnToMain:
      move(user, to: nil, in: session)
    case .broadcast(let message):
      // Everyone in a subsession hears it; nobody in the main session does.
      let audience = session.memberOrder.filter { board.rooms[$0] != nil }
      emitPrivately(
        .subSession(.broadcast(from: user, message: message)), to: audience, in: session)
    case .requestHelp:
      guard let room = board.rooms[user] else { return }
      let result: SubSessionHelpResult
      if let host = session.state.hostID, board.rooms[host] == room {
        result = .hostAlreadyInSubSession
      } else if let pending = session.pendingHelp, pending.requester != user,
        board.rooms[pending.requester] != nil, pending.host == session.state.hostID
      {
        // A request waits only while its requester is in a subsession and the host it went
        // to is still the host (a new host never heard it).
        result = .busy
      } else if let host = session.state.hostID {
        session.pendingHelp = (requester: user, subSessionID: room, host: host)
        emitPrivately(
          .subSession(.helpRequested(by: user, subSessionID: room)), to: [host], in: session)
        result = .idle
      } else {
        result = .busy  // No host to ask (the host left and nobody took over yet).
      }
      emitPrivately(.subSession(.helpResult(result)), to: [user], in: session)
    case .answerHelp(let requester, let join):
      session.pendingHelp = nil
      if join, let room = board.rooms[requester] {
        if board.rooms[user] != room { move(user, to: room, in: session) }
      } else {
        emitPrivately(.subSession(.helpResult(.ignore)), to: [requester], in: session)
      }
    }
  }

  /// Rules only the service can check: a help request is answered only while it waits.
  func subSessionRules(_ call: SubSessionCommand, by user: UserID, in session: ServiceSession)
    -> VideoSDKError
  {
    switch call {
    case .answerHelp(let requester, _):
      guard let pending = session.pendingHelp, pending.requester == requester,
        pending.host == user
      else { return .invalidParameter }
      return .success
    default:
      return .success
    }
  }

  /// Moves a member to a subsession (or, `nil`, back to the main session), after stopping
  /// their share and annotation.
  private func move(_ user: UserID, to destination: String?, in session: ServiceSession) {
    if session.pendingHelp?.requester == user { session.pendingHelp = nil }
    emit(
      departures(of: user, in: session.state)
        + [.subSession(.userMoved(user, to: destination))],
      in: session)
  }

  /// The events that end a member's share and annotation before they move.
  func departures(of user: UserID, in state: SessionState) -> [SessionEvent] {
    var events: [SessionEvent] = []
    if let owner = state.annotatedShare(of: user), owner != user {
      events.append(.annotationStopped(user: user, shareOwner: owner))
    }
    if let share = state.shares[user] {
      events.append(.shareStatusChanged(user: user, status: .stopped, kind: share.kind))
    }
    return events
  }
}
