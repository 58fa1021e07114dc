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
    self.sequence = sequence
  }
}
