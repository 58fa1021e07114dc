extension SessionState {
  /// The service's view of a new, empty session: in session, with no local user.
  ///
  /// The service applies every event it numbers to this state with the same reducer the
  /// members use.
  ///
  /// - Parameters:
  ///   - sessionName: The session's name.
  ///   - sessionID: The id the service gave the session.
  ///   - chatHistoryLimit: The most chat messages the service keeps for the session.
  /// - Returns: A state in session with no participants, marked as the service's view.
  public static func serviceView(
    sessionName: String, sessionID: String,
    chatHistoryLimit: Int = SessionLimits.defaultMaxChatHistory
  ) -> SessionState {
    var state = SessionState(chatHistoryLimit: chatHistoryLimit)
    state.phase = .inSession
    state.sessionName = sessionName
    state.sessionID = sessionID
    state.isServiceView = true
    return state
  }

  /// The earliest-joined present user for whom `predicate` holds.
  ///
  /// - Parameter predicate: The test a participant must pass; by default everyone passes.
  /// - Returns: The first participant in join order that passes, or `nil` if none does.
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
  /// - Parameters:
  ///   - myself: The receiving member's user id, which the snapshot names as the local user.
  ///   - sequence: The sequence number of the last event the snapshot includes.
  /// - Returns: The session's shared facts, with no chat history.
  /// - Complexity: O(participants).
  public func snapshot(for myself: UserID, sequence: UInt64) -> SessionSnapshot {
    SessionSnapshot(
      sessionName: sessionName ?? "",
      sessionID: sessionID ?? "",
      myself: myself,
      participants: Self.snapshotList(of: participants),
      shareSetting: shareSetting,
      shares: Array(shares.values),
      chatPrivilege: chatPrivilege,
      activeSpeakers: activeSpeakers,
      spotlighted: spotlighted,
      subSessions: subSessions,
      recording: recording,
      sequence: sequence)
  }

  /// The participants of a snapshot, in an array whose capacity is rounded up to a power of two.
  ///
  /// In a join storm every joiner's snapshot is one participant longer than the one before,
  /// which was let go of a moment earlier: rounded up, consecutive snapshots are the same size,
  /// so each reuses the memory the last one freed instead of faulting in fresh pages (about a
  /// third of the 1,000th admission's time).
  static func snapshotList(of participants: UserMap<Participant>) -> [Participant] {
    var list: [Participant] = []
    let count = participants.count
    guard count > 0 else { return list }
    let rounded = 1 << (Int.bitWidth - (count - 1).leadingZeroBitCount)
    list.reserveCapacity(count <= 16 ? count : rounded)
    list.append(contentsOf: participants.values)
    return list
  }

  /// The facts every member of a session shares with the service, for convergence checks:
  /// everything but the local user, local lifecycle, errors and chat history (members only
  /// see messages sent while they were present, and private ones only between two users).
  public var sharedFacts: SharedSessionFacts {
    SharedSessionFacts(
      sessionName: sessionName, sessionID: sessionID, participants: participants,
      hostID: hostID, shareSetting: shareSetting, shares: shares, chatPrivilege: chatPrivilege,
      activeSpeakers: activeSpeakers, spotlighted: spotlighted, subSessions: subSessions,
      recording: recording)
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
  /// Whose video is spotlighted.
  public var spotlighted: [UserID] = []
  /// The subsessions and who is in which.
  public var subSessions = SubSessionBoard()
  /// The cloud recording.
  public var recording = RecordingBoard()
}
