/// The shared state of a session at one point of its event order.
///
/// The service sends it to a member when they join (``SessionEvent/sessionJoined(_:)``) or
/// resynchronise after a reconnect. It holds no local-only state.
public struct SessionSnapshot: Sendable, Codable, Hashable {
  /// The session's name as its creator spelled it.
  public var sessionName: String
  /// The service's session id.
  public var sessionID: String
  /// The receiving user.
  public var myself: UserID
  /// Everyone present, myself included, in any order.
  public var participants: [Participant]
  /// The share setting.
  public var shareSetting: ShareSetting
  /// Live shares, in any order.
  public var shares: [ActiveShare]
  /// Who may chat.
  public var chatPrivilege: ChatPrivilege
  /// Who is talking now.
  public var activeSpeakers: [UserID]
  /// Whose video is spotlighted, in order.
  public var spotlighted: [UserID]
  /// The subsessions and who is in which.
  public var subSessions: SubSessionBoard
  /// The cloud recording's status and who agreed to be recorded.
  public var recording: RecordingBoard
  /// The number of the last event folded into this snapshot.
  public var sequence: UInt64

  /// Creates a snapshot.
  ///
  /// - Parameters:
  ///   - sessionName: The session's name as its creator spelled it.
  ///   - sessionID: The service's session id.
  ///   - myself: The receiving user.
  ///   - participants: Everyone present, `myself` included, in any order.
  ///   - shareSetting: The share setting; one share at a time by default.
  ///   - shares: Live shares, in any order.
  ///   - chatPrivilege: Who may chat; everyone, publicly and privately, by default.
  ///   - activeSpeakers: Who is talking now.
  ///   - spotlighted: Whose video is spotlighted, in order.
  ///   - subSessions: The subsessions and who is in which; none by default.
  ///   - recording: The cloud recording; none by default.
  ///   - sequence: The number of the last event folded into the snapshot.
  public init(
    sessionName: String,
    sessionID: String,
    myself: UserID,
    participants: [Participant],
    shareSetting: ShareSetting = .single,
    shares: [ActiveShare] = [],
    chatPrivilege: ChatPrivilege = .everyonePubliclyAndPrivately,
    activeSpeakers: [UserID] = [],
    spotlighted: [UserID] = [],
    subSessions: SubSessionBoard = SubSessionBoard(),
    recording: RecordingBoard = RecordingBoard(),
    sequence: UInt64 = 0
  ) {
    self.sessionName = sessionName
    self.sessionID = sessionID
    self.myself = myself
    self.participants = participants
    self.shareSetting = shareSetting
    self.shares = shares
    self.chatPrivilege = chatPrivilege
    self.activeSpeakers = activeSpeakers
    self.spotlighted = spotlighted
    self.subSessions = subSessions
    self.recording = recording
    self.sequence = sequence
  }

  private enum CodingKeys: String, CodingKey {
    case sessionName, sessionID, myself, participants, shareSetting, shares, chatPrivilege
    case activeSpeakers, spotlighted, subSessions, recording, sequence
  }

  /// Decodes a snapshot; one written before spotlight or subsessions existed has nobody
  /// spotlighted and no subsessions.
  ///
  /// - Parameter decoder: The decoder to read from.
  /// - Throws: What the decoder throws for a missing or mistyped field.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    sessionName = try container.decode(String.self, forKey: .sessionName)
    sessionID = try container.decode(String.self, forKey: .sessionID)
    myself = try container.decode(UserID.self, forKey: .myself)
    participants = try container.decode([Participant].self, forKey: .participants)
    shareSetting = try container.decode(ShareSetting.self, forKey: .shareSetting)
    shares = try container.decode([ActiveShare].self, forKey: .shares)
    chatPrivilege = try container.decode(ChatPrivilege.self, forKey: .chatPrivilege)
    activeSpeakers = try container.decode([UserID].self, forKey: .activeSpeakers)
    spotlighted = try container.decodeIfPresent([UserID].self, forKey: .spotlighted) ?? []
    subSessions =
      try container.decodeIfPresent(SubSessionBoard.self, forKey: .subSessions)
      ?? SubSessionBoard()
    recording =
      try container.decodeIfPresent(RecordingBoard.self, forKey: .recording) ?? RecordingBoard()
    sequence = try container.decode(UInt64.self, forKey: .sequence)
  }

  /// Encodes the snapshot; the spotlight list only when someone is spotlighted, so that
  /// snapshots without one read as before.
  ///
  /// - Parameter encoder: The encoder to write to.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(sessionName, forKey: .sessionName)
    try container.encode(sessionID, forKey: .sessionID)
    try container.encode(myself, forKey: .myself)
    try container.encode(participants, forKey: .participants)
    try container.encode(shareSetting, forKey: .shareSetting)
    try container.encode(shares, forKey: .shares)
    try container.encode(chatPrivilege, forKey: .chatPrivilege)
    try container.encode(activeSpeakers, forKey: .activeSpeakers)
    if !spotlighted.isEmpty { try container.encode(spotlighted, forKey: .spotlighted) }
    if subSessions != SubSessionBoard() {
      try container.encode(subSessions, forKey: .subSessions)
    }
    if recording != RecordingBoard() { try container.encode(recording, forKey: .recording) }
    try container.encode(sequence, forKey: .sequence)
  }
}
