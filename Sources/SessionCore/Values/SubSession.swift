/// One committed subsession (a breakout room): `ZoomVideoSDKSubSessionKit`'s name and id.
///
/// A value: copy it anywhere. The service gives each committed subsession an id that no
/// later commit reuses, so a kit kept from a withdrawn list cannot join a new room by chance.
public struct SubSession: Sendable, Codable, Hashable {
  /// The id the service gave it (`getSubSessionID`).
  public var id: String
  /// The name the host or manager committed (`getSubSessionName`).
  public var name: String

  /// Creates a subsession value.
  ///
  /// - Parameters:
  ///   - id: The id the service gave it.
  ///   - name: The committed name.
  public init(id: String, name: String) {
    self.id = id
    self.name = name
  }
}

/// The status of a session's subsessions (`ZoomVideoSDKSubSessionStatus`), numbered as the
/// SDK numbers it.
public enum SubSessionStatus: Int, Sendable, Codable, Hashable, CaseIterable {
  /// No list was ever committed.
  case none = 0
  /// A list is committed and not started.
  case committed
  /// The committed list was withdrawn.
  case withdrawn
  /// The subsessions are open: members may join them.
  case started
  /// The subsessions are stopping (the SDK's transient status; not reported here).
  case stopping
  /// The subsessions stopped: everyone is back in the main session; the list stays committed.
  case stopped
  /// A commit failed (not reported here: a refused commit answers with its error code).
  case commitFailed
  /// A withdraw failed (not reported here).
  case withdrawFailed
  /// A start failed (not reported here).
  case startFailed
  /// A stop failed (not reported here).
  case stopFailed
}

/// The answer to a subsession member's help request (`ZoomVideoSDKUserHelpRequestResult`).
public enum SubSessionHelpResult: Int, Sendable, Codable, Hashable, CaseIterable {
  /// The host received the request (no other request was waiting).
  case idle = 0
  /// The host is answering another member's request.
  case busy
  /// The host ignored the request.
  case ignore
  /// The host is already in the requester's subsession.
  case hostAlreadyInSubSession
}

/// A session's subsessions as every member and the service see them: the status, the committed
/// list, and who is in which subsession.
///
/// A value, part of ``SessionState``. The list is empty unless a list is committed; members are
/// in a subsession only while the subsessions are started. A member in no subsession is in the
/// main session.
public struct SubSessionBoard: Sendable, Codable, Hashable {
  /// The status (`onSubSessionStatusChanged`).
  public internal(set) var status: SubSessionStatus = .none
  /// The committed subsessions, in the order committed (`getCommittedSubSessionList`).
  public internal(set) var list: [SubSession] = []
  /// The subsession id of each member in one; members absent are in the main session.
  public internal(set) var rooms: [UserID: String] = [:]

  /// An empty board: no list committed.
  public init() {}

  /// A board with these facts; for snapshots, tests and previews. ``SessionState`` checks a
  /// board it receives against its invariants.
  ///
  /// - Parameters:
  ///   - status: The status.
  ///   - list: The committed subsessions, in order.
  ///   - rooms: The subsession id of each member in one.
  public init(status: SubSessionStatus, list: [SubSession], rooms: [UserID: String] = [:]) {
    self.status = status
    self.list = list
    self.rooms = rooms
  }

  /// Whether the subsessions are open.
  public var isStarted: Bool { status == .started }

  /// The committed subsession with this id.
  ///
  /// - Parameter id: A subsession id.
  /// - Returns: The subsession, or `nil` if no committed subsession has the id.
  /// - Complexity: O(subsessions), at most ``SessionState/maxSubSessions``.
  public func subSession(withID id: String) -> SubSession? {
    list.first { $0.id == id }
  }

  /// The subsession a member is in.
  ///
  /// - Parameter user: A member.
  /// - Returns: The subsession, or `nil` if the member is in the main session.
  public func subSession(of user: UserID) -> SubSession? {
    guard let id = rooms[user] else { return nil }
    return subSession(withID: id)
  }

  /// The members of a subsession, by id (ids grow with join order).
  ///
  /// - Parameter id: A subsession id.
  /// - Returns: Its members, sorted.
  /// - Complexity: O(members in subsessions).
  public func members(of id: String) -> [UserID] {
    rooms.compactMap { $0.value == id ? $0.key : nil }.sorted()
  }

  /// Whether two members are in the same place: the same subsession, or both in the main
  /// session.
  ///
  /// - Parameters:
  ///   - user: A member.
  ///   - other: Another member.
  /// - Returns: `true` if they see each other.
  @inlinable public func together(_ user: UserID, _ other: UserID) -> Bool {
    rooms.isEmpty || rooms[user] == rooms[other]
  }
}

/// A subsession fact (the SDK's subsession callbacks): one ``SessionEvent/subSession(_:)``.
public enum SubSessionEvent: Sendable, Codable, Hashable {
  /// The status changed, with the committed list (`onSubSessionStatusChanged`): committed
  /// (with a new list), withdrawn (empty), started, stopped (everyone back in the main
  /// session).
  case statusChanged(SubSessionStatus, [SubSession])
  /// A member joined a subsession, or returned to the main session (`to` is `nil`)
  /// (`onSubSessionUsersUpdate`, and joins and leaves for those who see the move).
  case userMoved(UserID, to: String?)
  /// The host or a manager broadcast a message to every subsession
  /// (`onBroadcastMessageFromMainSession`); only members in a subsession hear it.
  case broadcast(from: UserID, message: String)
  /// A member in a subsession asked the host for help (`onSubSessionUserHelpRequestHandler`);
  /// only the host hears it.
  case helpRequested(by: UserID, subSessionID: String)
  /// The answer to the local user's help request (`onSubSessionUserHelpRequestResult`).
  case helpResult(SubSessionHelpResult)

  /// Whether the event is a notice to some members that changes no state.
  public var isNotice: Bool {
    switch self {
    case .statusChanged, .userMoved: false
    case .broadcast, .helpRequested, .helpResult: true
    }
  }
}

/// A subsession call (`ZoomVideoSDKSubSessionHelper`, `…Manager`, `…Participant`,
/// `…UserHelpRequestHandler`, `…Kit`): one ``SessionCommand/subSession(_:)``.
public enum SubSessionCommand: Sendable, Codable, Hashable {
  /// `commitSubSessionList`: withdraw the committed list and commit these names (host or
  /// manager; 1 to ``SessionState/maxSubSessions`` distinct, non-empty names).
  case commit([String])
  /// `withdrawSubSessionList` (host or manager; not while started).
  case withdraw
  /// `startSubSession` (host or manager; a list committed).
  case start
  /// `stopSubSession` (host or manager; while started): everyone returns to the main session.
  case stop
  /// `joinSubSession` on a kit (while started).
  case join(subSessionID: String)
  /// `returnToMainSession` (a member in a subsession).
  case returnToMain
  /// `broadcastMessage` (host or manager; while started).
  case broadcast(String)
  /// `requestForHelp` (a member in a subsession who is not the host).
  case requestHelp
  /// The host's answer to a help request: `joinSubSessionByUserRequest` (`join`) or `ignore`.
  case answerHelp(requester: UserID, join: Bool)

  /// The case name, for logs.
  public var name: String {
    switch self {
    case .commit: "commit"
    case .withdraw: "withdraw"
    case .start: "start"
    case .stop: "stop"
    case .join: "join"
    case .returnToMain: "returnToMain"
    case .broadcast: "broadcast"
    case .requestHelp: "requestHelp"
    case .answerHelp: "answerHelp"
    }
  }
}
