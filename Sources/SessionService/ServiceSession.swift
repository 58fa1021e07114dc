import SessionCore
import SessionTransport

/// One live session inside a ``SessionService``: the authoritative state and its members.
///
/// Members are kept in join order, so that fan-out, grace expiry and ending visit them in the
/// same order on every run (dictionary order changes from process to process).
///
/// > Important: Confined to its service's isolation domain.
final class ServiceSession {
  /// A member's standing.
  struct Member {
    var connection: ConnectionID?
    var roleType: TokenRole
    var resumeToken: UInt64
    /// When the connection dropped, while waiting for a resume.
    var disconnectedAt: Int64?
    /// The session's ``ServiceSession/stamp`` when the member last got a snapshot: they hold
    /// exactly the chat messages stamped later (snapshots carry no chat history).
    var snapshotStamp: UInt64 = 0
    /// The signature of the token the member joined with (``SessionService/signature(of:)``).
    var tokenSignature: Substring = ""
    /// The member's media credential and binding state.
    var media: MediaIdentity?

    init(
      roleType: TokenRole, resumeToken: UInt64, tokenSignature: Substring = "",
      media: MediaIdentity? = nil
    ) {
      self.roleType = roleType
      self.resumeToken = resumeToken
      self.tokenSignature = tokenSignature
      self.media = media
    }
  }

  /// How many members joined with each token signature.
  private var tokenHolders: [Substring: Int] = [:]

  /// How many members now hold the token with this signature.
  func members(holding signature: Substring) -> Int { tokenHolders[signature, default: 0] }

  let key: String
  var state: SessionState
  var sequence: UInt64 = 0
  private(set) var members: [UserID: Member] = [:]
  /// Member ids in join order (user ids grow with join order, so this is sorted).
  private(set) var memberOrder: [UserID] = []
  /// The connections of ``memberOrder``'s connected members, rebuilt after a change.
  private var cachedFanOut: [ConnectionID]? {
    didSet { fanOutVersion &+= 1 }
  }
  /// The session's broadcast group id (its number in the service, from 1).
  let fanOutID: UInt64
  /// Bumped whenever the fan-out list changes.
  private(set) var fanOutVersion: UInt64 = 0
  /// How many members are waiting for a resume.
  private(set) var disconnectedCount = 0
  var password: String?
  var sessionKey: String?
  var selfUnmuteAllowed = true
  var idleTimeout: Int64
  /// When the session last dropped to one member.
  var idleSince: Int64?
  var nextMessage: UInt64 = 0
  /// The command-channel commands of the current second (ms).
  var commandWindow = RateWindow()
  /// How many subsession lists were committed: each commit's ids carry its number.
  var subSessionGeneration: UInt64 = 0
  /// The help request the host has not answered yet, and the host it went to.
  var pendingHelp: (requester: UserID, subSessionID: String, host: UserID)?
  /// Who received each chat message to everyone sent while subsessions were open (only the
  /// sender's place did): they alone hear of its deletion.
  var chatAudiences: [String: [UserID]] = [:]
  /// The last user id handed out here. Ids are numbered per session, from 1 and never reused
  /// in it, so a session's ids stay small and close together however many sessions the
  /// service runs: replicas keep participants in an array indexed by id (`UserMap`).
  var nextUserID: UInt32 = 0
  /// A counter of snapshots and chat messages, to tell which members hold which message.
  private(set) var stamp: UInt64 = 0
  /// The stamp of each chat message still in the state.
  var messageStamps: [String: UInt64] = [:]
  /// The session's media plane: its router and its members' endpoints.
  // Unchecked exclusivity: the service's isolation domain owns the session, and no access to
  // `media` calls out of the service while it lasts (the media output is called after the
  // route returns), so two can never overlap; the dynamic check cost a TLS look-up a packet.
  @exclusivity(unchecked) var media: SessionMedia

  init(
    key: String, name: String, id: String, number: UInt64, idleTimeout: Int64,
    chatHistoryLimit: Int, media: MediaRouter.Configuration = MediaRouter.Configuration()
  ) {
    self.key = key
    self.media = SessionMedia(configuration: media)
    self.fanOutID = number
    self.state = .serviceView(
      sessionName: name, sessionID: id, chatHistoryLimit: chatHistoryLimit)
    self.idleTimeout = idleTimeout
  }

  /// The connections of connected members, in join order, as the session's broadcast group.
  ///
  /// - Complexity: O(1) until membership or a connection changes, then O(members) once.
  var fanOut: FanOutGroup {
    let list: [ConnectionID]
    if let cachedFanOut {
      list = cachedFanOut
    } else {
      // Each member's connection read in place: `members[id]?.connection` copied the whole
      // member (retaining its strings) for every member of every roster change.
      list = memberOrder.compactMap { id in
        members.index(forKey: id).flatMap { members.values[$0].connection }
      }
      cachedFanOut = list
    }
    return FanOutGroup(id: fanOutID, version: fanOutVersion, connections: list)
  }

  /// Adds a member; ids must grow with join order.
  func add(_ user: UserID, _ member: Member) {
    precondition(memberOrder.last.map { $0 < user } ?? true, "members join in id order")
    members[user] = member
    memberOrder.append(user)
    tokenHolders[member.tokenSignature, default: 0] += 1
    if member.disconnectedAt != nil { disconnectedCount += 1 }
    // A member without a connection is not in the fan-out; one with goes last (newest).
    if let connection = member.connection { cachedFanOut?.append(connection) }
  }

  /// Removes a member and returns what they were.
  func remove(_ user: UserID) -> Member? {
    guard let member = members.removeValue(forKey: user) else { return nil }
    if let held = tokenHolders[member.tokenSignature] {
      tokenHolders[member.tokenSignature] = held > 1 ? held - 1 : nil
    }
    if let index = Self.index(of: user, in: memberOrder) { memberOrder.remove(at: index) }
    if member.disconnectedAt != nil { disconnectedCount -= 1 }
    cachedFanOut = nil
    return member
  }

  /// Removes every member.
  func removeAll() {
    members.removeAll()
    tokenHolders.removeAll()
    memberOrder.removeAll()
    disconnectedCount = 0
    cachedFanOut = nil
  }

  /// Records that a member's connection dropped at `now`.
  func disconnect(_ user: UserID, now: Int64) {
    guard var member = members[user], member.connection != nil else { return }
    member.connection = nil
    if member.disconnectedAt == nil { disconnectedCount += 1 }
    member.disconnectedAt = now
    members[user] = member
    cachedFanOut = nil
  }

  /// Records that a member is on `connection` and about to get a snapshot.
  func connect(_ user: UserID, on connection: ConnectionID) {
    guard var member = members[user] else { return }
    let wasConnected = member.connection != nil
    member.connection = connection
    if member.disconnectedAt != nil { disconnectedCount -= 1 }
    member.disconnectedAt = nil
    stamp += 1
    member.snapshotStamp = stamp
    members[user] = member
    if !wasConnected, user == memberOrder.last {
      // The newest member (a join) goes last in join order: extend the list, O(1) amortised,
      // rather than rebuild it with a lookup per member on the next emit.
      cachedFanOut?.append(connection)
    } else {
      cachedFanOut = nil
    }
  }

  /// Gives a member a new resume token (a resume does); returns the old one.
  func rotateToken(of user: UserID, to token: UInt64) -> UInt64? {
    guard var member = members[user] else { return nil }
    let old = member.resumeToken
    member.resumeToken = token
    members[user] = member
    return old
  }

  /// Stamps a new chat message.
  func stampMessage(_ id: String) {
    stamp += 1
    messageStamps[id] = stamp
  }

  /// Members whose resume grace ran out by `now`, in join order.
  func expiredMembers(now: Int64, grace: Int64) -> [UserID] {
    guard disconnectedCount > 0 else { return [] }
    return memberOrder.filter { user in
      guard let since = members[user]?.disconnectedAt else { return false }
      return now - since >= grace
    }
  }

  private static func index(of user: UserID, in sorted: [UserID]) -> Int? {
    var low = 0
    var high = sorted.count
    while low < high {
      let mid = (low + high) / 2
      if sorted[mid] < user { low = mid + 1 } else { high = mid }
    }
    return low < sorted.count && sorted[low] == user ? low : nil
  }
}
