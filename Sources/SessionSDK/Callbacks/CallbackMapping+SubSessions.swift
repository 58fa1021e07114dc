import SessionCore

/// What a subsession event's callbacks, and every callback while anyone is in a subsession,
/// need from the state before the event: the subsessions then, the local user's role, and
/// for a move, who the local user stops and starts seeing.
///
/// > Important: A `Sendable` value: make and read it anywhere.
package struct SubSessionFacts: Sendable, Hashable {
  /// The subsessions before the event.
  package var board: SubSessionBoard
  /// Whether the local user was the host or a manager.
  package var myselfIsModerator = false
  /// Users the local user no longer sees after a move, in join order.
  package var left: [UserID] = []
  /// Users the local user sees after a move and did not before, in join order.
  package var joined: [Participant] = []
  /// The live shares of ``joined``.
  package var joinedShares: [ActiveShare] = []
  /// A broadcast's sender's name.
  package var senderName = ""

  /// Facts for filtering: the board alone.
  ///
  /// - Parameter board: The subsessions before the event.
  package init(board: SubSessionBoard) {
    self.board = board
  }

  /// The facts a subsession event needs, from the state it applies to.
  ///
  /// - Parameters:
  ///   - change: The subsession event about to apply.
  ///   - state: The state before it.
  /// - Complexity: O(1) for another user's move, O(participants) for the local user's move
  ///   and for the subsessions stopping.
  package init(before change: SubSessionEvent, in state: SessionState) {
    board = state.subSessions
    guard let me = state.myselfID else { return }
    myselfIsModerator = state.participants[me].map { $0.role != .participant } ?? false
    if case .broadcast(let sender, _) = change {
      senderName = state.participants[sender]?.name ?? ""
    }
    var after = board.rooms
    switch change {
    case .userMoved(let user, let destination): after[user] = destination
    case .statusChanged(.stopped, _): after = [:]
    default: return
    }
    let mineBefore = board.rooms[me]
    let mineAfter = after[me]
    if case .userMoved(let user, _) = change, user != me {
      // Another user's move changes only whether the local user sees them.
      if board.rooms[user] == mineBefore {
        left = [user]
      } else if after[user] == mineAfter, let participant = state.participants[user] {
        joined = [participant]
      }
      return
    }
    for participant in state.usersInJoinOrder where participant.id != me {
      let wasSeen = board.rooms[participant.id] == mineBefore
      let isSeen = after[participant.id] == mineAfter
      if wasSeen, !isSeen { left.append(participant.id) }
      if !wasSeen, isSeen {
        joined.append(participant)
        if let share = state.shares[participant.id] { joinedShares.append(share) }
      }
    }
  }
}

extension CallbackMapping {
  /// The callbacks of a subsession event.
  ///
  /// Engine policy where the SDK is silent:
  /// - A status change fires `onSubSessionStatusChanged` with the committed list; the first
  ///   commit gives the host and managers a manager handle (`onSubSessionManagerHandle`), a
  ///   withdrawal takes it back (`nil`); a start gives everyone a participant handle
  ///   (`onSubSessionParticipantHandle`), a stop takes it back.
  /// - A move, the local user's or another's, is seen as the SDK's separate sessions are: the
  ///   users left behind leave (`onUserLeave`), those met join (`onUserJoin`, with their camera,
  ///   audio and share as at a join), then `onSubSessionUsersUpdate` for each subsession whose
  ///   members changed.
  /// - Stopping brings everyone back: the same leaves and joins, then the status.
  static func subSessionCallbacks(
    for change: SubSessionEvent, facts: SubSessionFacts, _ body: (VideoSDKCallback) -> Void
  ) {
    func placeChange() {
      if !facts.left.isEmpty { body(.onUserLeave(facts.left)) }
      guard !facts.joined.isEmpty else { return }
      body(.onUserJoin(facts.joined.map(\.id)))
      let video = facts.joined.filter(\.isVideoOn).map(\.id)
      if !video.isEmpty { body(.onUserVideoStatusChanged(video)) }
      let audio = facts.joined.filter { $0.audio.type != .none }.map(\.id)
      if !audio.isEmpty { body(.onUserAudioStatusChanged(audio)) }
      for share in facts.joinedShares {
        body(.onUserShareStatusChanged(share.owner, share.status, share.kind))
      }
    }
    switch change {
    case .statusChanged(let status, let list):
      if status == .stopped { placeChange() }
      body(.onSubSessionStatusChanged(status, list))
      if facts.myselfIsModerator {
        if status == .committed, facts.board.list.isEmpty {
          body(.onSubSessionManagerHandle(true))
        }
        if status == .withdrawn { body(.onSubSessionManagerHandle(false)) }
      }
      if status == .started { body(.onSubSessionParticipantHandle(true)) }
      if status == .stopped { body(.onSubSessionParticipantHandle(false)) }
    case .userMoved(let user, let destination):
      placeChange()
      let origin = facts.board.rooms[user]
      for id in [origin, destination].compactMap({ $0 }) {
        if let subSession = facts.board.subSession(withID: id) {
          body(.onSubSessionUsersUpdate(subSession))
        }
      }
    case .broadcast(_, let message):
      body(.onBroadcastMessageFromMainSession(message: message, userName: facts.senderName))
    case .helpRequested(let user, let subSessionID):
      body(.onSubSessionUserHelpRequestHandler(requester: user, subSessionID: subSessionID))
    case .helpResult(let result):
      body(.onSubSessionUserHelpRequestResult(result))
    }
  }
}

extension SessionEvent {
  /// Whether the event is a subsession event (whose callbacks say themselves who sees what).
  var isSubSessionEvent: Bool {
    if case .subSession = self { return true }
    return false
  }
}

extension VideoSDKCallback {
  /// The callback as a user who sees only some users hears it: lists keep only the users
  /// seen, and a callback about one user who is not seen is dropped (`nil`), a role change
  /// too (a user met later joins with the role they have then). Callbacks about the session
  /// or the local instance pass unchanged.
  ///
  /// - Parameter isSeen: Whether the local user sees a user.
  /// - Returns: The callback to fire, or `nil` for none.
  func keepingUsers(where isSeen: (UserID) -> Bool) -> VideoSDKCallback? {
    func kept(_ ids: [UserID], _ make: ([UserID]) -> VideoSDKCallback) -> VideoSDKCallback? {
      let seen = ids.filter(isSeen)
      return seen.isEmpty ? nil : make(seen)
    }
    switch self {
    case .onUserJoin(let ids): return kept(ids) { .onUserJoin($0) }
    case .onUserLeave(let ids): return kept(ids) { .onUserLeave($0) }
    case .onUserVideoStatusChanged(let ids): return kept(ids) { .onUserVideoStatusChanged($0) }
    case .onUserAudioStatusChanged(let ids): return kept(ids) { .onUserAudioStatusChanged($0) }
    case .onUserActiveAudioChanged(let ids):
      let seen = ids.filter(isSeen)
      // An unchanged list for this user is no news.
      return seen.isEmpty && !ids.isEmpty ? nil : .onUserActiveAudioChanged(seen)
    case .onUserShareStatusChanged(let user, _, _), .onUserNameChanged(let user),
      .onUserHostChanged(let user), .onUserManagerChanged(let user),
      .onUserOverallNetworkStatusChanged(_, let user),
      .onAnnotationPrivilegeChangeWithUser(let user, _),
      .onAnnotationPrivilegeChange(_, let user):
      return isSeen(user) ? self : nil
    default:
      return self
    }
  }
}
