extension SessionState {
  /// The service's view of a new, empty session: in session, with no local user.
  ///
  /// The service applies every event it numbers to this state with the same reducer the
  /// members use.
  public static func serviceView(sessionName: String, sessionID: String) -> SessionState {
    var state = SessionState()
    state.phase = .inSession
    state.sessionName = sessionName
    state.sessionID = sessionID
    state.isServiceView = true
    return state
  }

  /// The earliest-joined present user for whom `predicate` holds.
  ///
  /// - Complexity: O(users skipped), amortised O(1) for the usual question "who joined first".
  public func earliestJoined(where predicate: (Participant) -> Bool = { _ in true }) -> Participant?
  {
    for id in order.joinOrdered {
      if let participant = participants[id], predicate(participant) { return participant }
    }
    return nil
  }

  /// The snapshot a member with id `myself` receives: the shared facts at `sequence`.
  ///
  /// - Complexity: O(participants).
  public func snapshot(for myself: UserID, sequence: UInt64) -> SessionSnapshot {
    SessionSnapshot(
      sessionName: sessionName ?? "",
      sessionID: sessionID ?? "",
      myself: myself,
      participants: Array(participants.values),
      shareSetting: shareSetting,
      shares: Array(shares.values),
      chatPrivilege: chatPrivilege,
      activeSpeakers: activeSpeakers,
      sequence: sequence)
  }

  /// The facts every member of a session shares with the service, for convergence checks:
  /// everything but the local user, local lifecycle, errors and chat history (members only
  /// see messages sent while they were present, and private ones only between two users).
  public var sharedFacts: SharedSessionFacts {
    SharedSessionFacts(
      sessionName: sessionName, sessionID: sessionID, participants: participants,
      hostID: hostID, shareSetting: shareSetting, shares: shares, chatPrivilege: chatPrivilege,
      activeSpeakers: activeSpeakers)
  }
}

/// The part of a ``SessionState`` that every member and the service agree on after quiescence.
public struct SharedSessionFacts: Sendable, Hashable {
  /// The session name.
  public var sessionName: String?
  /// The session id.
  public var sessionID: String?
  /// Everyone present.
  public var participants: UserMap<Participant>
  /// The host.
  public var hostID: UserID?
  /// The share setting.
  public var shareSetting: ShareSetting
  /// Live shares.
  public var shares: [UserID: ActiveShare]
  /// Who may chat.
  public var chatPrivilege: ChatPrivilege
  /// Who is talking.
  public var activeSpeakers: [UserID]
}
