/// Everything a replica knows about the local SDK instance and its session.
///
/// A value type. Only ``reduce(_:)`` (and ``apply(_:)``) changes it, one ``SessionEvent`` at a
/// time, so it always satisfies the invariants in `SessionState+Invariants.swift`. The
/// service's authoritative state is the same type, seen by a member with no `myself`.
///
/// Equality and coding cover the shared facts; the role-order cache is derived and left out.
public struct SessionState: Sendable {
  // Stored in the order an everyday event (video, audio) reads them, so that the reduction
  // touches one cache line of the state before the participant it changes.
  /// Lifecycle phase.
  public internal(set) var phase: SessionPhase = .idle
  /// The local user's id, while in a session.
  public internal(set) var myselfID: UserID?
  /// The user who last asked the local user to unmute (`onHostAskUnmute`), until audio changes.
  public internal(set) var unmuteRequestedBy: UserID?
  /// Everyone present, by id. Use ``orderedRoster`` for display order.
  public internal(set) var participants: UserMap<Participant> = [:]
  /// The session name, once a join was requested.
  public internal(set) var sessionName: String?
  /// The service's session id, once joined.
  public internal(set) var sessionID: String?
  /// The host's id, if there is a host.
  public internal(set) var hostID: UserID?
  /// The share setting.
  public internal(set) var shareSetting: ShareSetting = .single
  /// Live shares by owner.
  public internal(set) var shares: [UserID: ActiveShare] = [:]
  /// Who may chat.
  public internal(set) var chatPrivilege: ChatPrivilege = .everyonePubliclyAndPrivately
  /// Chat messages received in this session, oldest first: the newest
  /// ``chatHistoryLimit`` of them.
  ///
  /// - Complexity: O(n) to read (a copy of the kept messages).
  public internal(set) var chatMessages: [ChatMessage] {
    get { Array(chat.messages) }
    set { chat = ChatHistory(newValue) }
  }
  /// The kept messages and the index of their ids (a chat to everyone reads both, in each of
  /// a session's replicas).
  var chat = ChatHistory()

  /// How many chat messages are kept, without copying them.
  package var chatHistoryCount: Int { chat.count }
  /// The oldest kept chat message's id, without copying the history.
  package var oldestChatMessageID: String? { chat.oldest?.id }
  /// The kept chat message with this id, without copying the history.
  ///
  /// - Parameter id: The message id.
  /// - Returns: The message, if kept.
  package func chatMessage(withID id: String) -> ChatMessage? {
    chat.message(withID: id)
  }
  /// Who is talking, as last reported.
  public internal(set) var activeSpeakers: [UserID] = []
  /// Whose video is spotlighted, in the order the host spotlighted them
  /// (`getSpotlightedVideoUserList`); at most ``maxSpotlighted``.
  public internal(set) var spotlighted: [UserID] = []
  /// The last error reported (`onError`) or that ended a join.
  public internal(set) var lastError: VideoSDKError?

  /// Whether this is the service's view of a session: in session with no local user.
  public internal(set) var isServiceView = false

  var order = RoleOrder()
  var lastJoinOrder: UInt64 = 0
  // Last, behind the fields every event reads: a setting that only chat events read.
  /// The most chat messages ``chatMessages`` keeps: when a message arrives beyond it, the
  /// oldest is forgotten. A setting, not a fact: neither compared nor encoded.
  public internal(set) var chatHistoryLimit = SessionLimits.defaultMaxChatHistory
  // Behind everything the everyday events read: facts only subsession and recording events
  // change (and a leave, once it checks they are empty).
  /// The subsessions (breakout rooms): their status, the committed list, who is in which.
  public internal(set) var subSessions = SubSessionBoard()
  /// The cloud recording: its status and who agreed to be recorded.
  public internal(set) var recording = RecordingBoard()

  /// A state before `initialize`.
  public init() {}

  /// A state before `initialize` that keeps at most `chatHistoryLimit` chat messages.
  ///
  /// - Parameter chatHistoryLimit: The most messages kept (0 keeps none); see
  ///   ``SessionLimits/maxChatHistory``.
  public init(chatHistoryLimit: Int) {
    self.chatHistoryLimit = max(0, chatHistoryLimit)
  }

  /// A state in session, built from a snapshot; useful for tests and previews.
  ///
  /// - Parameter snapshot: The session as the service reports it on join.
  /// - Throws: ``EventRejection`` if the snapshot is inconsistent.
  public init(snapshot: SessionSnapshot) throws(EventRejection) {
    phase = .joining
    sessionName = snapshot.sessionName
    try reduce(.sessionJoined(snapshot))
  }
}

extension SessionState: Equatable {
  /// Whether two states hold the same shared facts; caches derived from them are not compared.
  ///
  /// - Parameters:
  ///   - lhs: A state.
  ///   - rhs: Another state.
  /// - Returns: `true` if both states hold the same facts and chat history.
  public static func == (lhs: SessionState, rhs: SessionState) -> Bool {
    lhs.phase == rhs.phase && lhs.sessionName == rhs.sessionName
      && lhs.sessionID == rhs.sessionID && lhs.myselfID == rhs.myselfID
      && lhs.hostID == rhs.hostID && lhs.shareSetting == rhs.shareSetting
      && lhs.chatPrivilege == rhs.chatPrivilege && lhs.activeSpeakers == rhs.activeSpeakers
      && lhs.spotlighted == rhs.spotlighted && lhs.subSessions == rhs.subSessions
      && lhs.recording == rhs.recording
      && lhs.unmuteRequestedBy == rhs.unmuteRequestedBy && lhs.lastError == rhs.lastError
      && lhs.participants == rhs.participants && lhs.shares == rhs.shares
      && lhs.chat.messages == rhs.chat.messages
      && lhs.isServiceView == rhs.isServiceView
  }
}

extension SessionState: Codable {
  private enum CodingKeys: String, CodingKey {
    case phase, sessionName, sessionID, myselfID, participants, hostID, shareSetting, shares
    case chatPrivilege, chatMessages, activeSpeakers, unmuteRequestedBy, lastError, isServiceView
    case spotlighted, subSessions, recording
  }

  /// Decodes a state and rebuilds its caches.
  ///
  /// - Parameter decoder: The decoder to read from.
  /// - Throws: `DecodingError.dataCorrupted` if the decoded state breaks an invariant.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    phase = try container.decode(SessionPhase.self, forKey: .phase)
    sessionName = try container.decodeIfPresent(String.self, forKey: .sessionName)
    sessionID = try container.decodeIfPresent(String.self, forKey: .sessionID)
    myselfID = try container.decodeIfPresent(UserID.self, forKey: .myselfID)
    hostID = try container.decodeIfPresent(UserID.self, forKey: .hostID)
    shareSetting = try container.decode(ShareSetting.self, forKey: .shareSetting)
    chatPrivilege = try container.decode(ChatPrivilege.self, forKey: .chatPrivilege)
    activeSpeakers = try container.decode([UserID].self, forKey: .activeSpeakers)
    // Absent from states written before spotlight existed: nobody.
    spotlighted = try container.decodeIfPresent([UserID].self, forKey: .spotlighted) ?? []
    // Absent from states written before subsessions existed: none.
    subSessions =
      try container.decodeIfPresent(SubSessionBoard.self, forKey: .subSessions)
      ?? SubSessionBoard()
    recording =
      try container.decodeIfPresent(RecordingBoard.self, forKey: .recording) ?? RecordingBoard()
    unmuteRequestedBy = try container.decodeIfPresent(UserID.self, forKey: .unmuteRequestedBy)
    lastError = try container.decodeIfPresent(VideoSDKError.self, forKey: .lastError)
    isServiceView = try container.decodeIfPresent(Bool.self, forKey: .isServiceView) ?? false
    let list = try container.decode([Participant].self, forKey: .participants)
    for participant in list.sorted(by: { $0.joinOrder < $1.joinOrder }) {
      participants[participant.id] = participant
      order.insert(participant.id, joinOrder: participant.joinOrder)
      if participant.role == .manager {
        order.insertManager(participant.id, joinOrder: participant.joinOrder)
      }
      lastJoinOrder = max(lastJoinOrder, participant.joinOrder)
    }
    for share in try container.decode([ActiveShare].self, forKey: .shares) {
      guard shares.updateValue(share, forKey: share.owner) == nil else {
        throw DecodingError.dataCorrupted(
          .init(
            codingPath: decoder.codingPath + [CodingKeys.shares],
            debugDescription: "two shares of \(share.owner)"))
      }
    }
    chat = ChatHistory(try container.decode([ChatMessage].self, forKey: .chatMessages))
    let violations = checkInvariants()
    if !violations.isEmpty {
      throw DecodingError.dataCorrupted(
        .init(
          codingPath: decoder.codingPath,
          debugDescription: "inconsistent state: \(violations.map(\.description))"))
    }
  }

  /// Encodes the shared facts: participants in join order, shares in start order.
  ///
  /// - Parameter encoder: The encoder to write to.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(phase, forKey: .phase)
    try container.encodeIfPresent(sessionName, forKey: .sessionName)
    try container.encodeIfPresent(sessionID, forKey: .sessionID)
    try container.encodeIfPresent(myselfID, forKey: .myselfID)
    try container.encodeIfPresent(hostID, forKey: .hostID)
    try container.encode(shareSetting, forKey: .shareSetting)
    try container.encode(chatPrivilege, forKey: .chatPrivilege)
    try container.encode(activeSpeakers, forKey: .activeSpeakers)
    if !spotlighted.isEmpty { try container.encode(spotlighted, forKey: .spotlighted) }
    if subSessions != SubSessionBoard() {
      try container.encode(subSessions, forKey: .subSessions)
    }
    if recording != RecordingBoard() { try container.encode(recording, forKey: .recording) }
    try container.encodeIfPresent(unmuteRequestedBy, forKey: .unmuteRequestedBy)
    try container.encodeIfPresent(lastError, forKey: .lastError)
    if isServiceView { try container.encode(true, forKey: .isServiceView) }
    try container.encode(
      participants.values.sorted { $0.joinOrder < $1.joinOrder }, forKey: .participants)
    try container.encode(shares.values.sorted { $0.startOrder < $1.startOrder }, forKey: .shares)
    try container.encode(chatMessages, forKey: .chatMessages)
  }
}
