import SessionCore

/// The one mapping from applied events to the delegate callbacks the SDK fires, in order.
///
/// Pure: the callbacks for an event depend only on the event and a small ``Context`` captured
/// just before the event applied. ``VideoSDK`` uses it for every event its replica applies;
/// tests and tools use it to turn an event trace into the callback stream an app would see.
///
/// Engine policy where the SDK is silent:
/// - My own join fires `onSessionJoin`, then `onUserJoin` with everyone present, myself
///   included, in join order, then `onUserVideoStatusChanged([me])` if I joined with my camera
///   on (`localVideoOn`) and `onUserAudioStatusChanged([me])` if I joined with audio connected,
///   then `onCmdChannelConnectResult(true)` (the command channel is ready).
///   A snapshot that replaces a live session (a resume) fires nothing.
/// - Another user's join fires `onUserJoin`, then, as for my own, the video and audio status
///   changes of a camera on and audio connected at the join.
/// - Leaving fires `onAnnotationHelperCleanUp` for each annotation helper still held, then
///   `onSessionLeave(reason)`, then the deprecated `onSessionLeave()`.
/// - A user who leaves while sharing fires `onUserShareStatusChanged(stopped)` (and the cleanup
///   of a helper on that share) before `onUserLeave`.
/// - A share that stops fires `onAnnotationHelperCleanUp` after `onUserShareStatusChanged` when
///   the local instance holds a helper on it.
/// - A viewer-annotation change fires, for viewers only, the current
///   `onAnnotationPrivilegeChange(with:shareAction:)` and then the deprecated
///   `onAnnotationPrivilegeChange(_:shareOwner:)`.
/// - Annotation start, stop and clear have no SDK callback and fire nothing.
///
/// > Important: Pure functions of `Sendable` values: call them from any isolation domain.
package enum CallbackMapping {
  /// Facts about the state just before an event applied that its callbacks need.
  ///
  /// Capture it with ``capture(before:in:annotationHelperOwners:)``: O(1) for every event but
  /// `usersLeft` (O(leavers)), and no copy of the state.
  ///
  /// The facts only a few events need (leavers' shares, annotation helpers, a resync's facts)
  /// live in one shared box that most contexts do not have, so that the context of a common
  /// event (video, audio, chat …) is two small values, built and dropped on every delivery
  /// with no reference counting beyond a nil check.
  package struct Context: Sendable, Hashable {
    /// The lifecycle phase before the event.
    package var phaseBefore: SessionPhase
    /// The local user, if in a session.
    package var myself: UserID?
    private var rare: Rare?

    /// For `usersLeft`: the live shares of users who leave, in the event's order.
    package var endedShares: [ActiveShare] {
      get { rare?.endedShares ?? [] }
      set { update { $0.endedShares = newValue } }
    }
    /// Owners of the shares on which the local instance holds an annotation helper.
    package var annotationHelperOwners: Set<UserID> {
      get { rare?.annotationHelperOwners ?? [] }
      set { update { $0.annotationHelperOwners = newValue } }
    }
    /// For a resync snapshot (``SessionCore/SessionEvent/sessionJoined(_:)`` while in session): the shared
    /// facts it replaces, so that only what changed fires callbacks.
    package var resyncBefore: SharedSessionFacts? {
      get { rare?.resyncBefore }
      set { update { $0.resyncBefore = newValue } }
    }
    /// While anyone is in a subsession, or for a subsession event: the subsessions before the
    /// event and what a move changes of the local user's view.
    package var subSessions: SubSessionFacts? {
      get { rare?.values.subSessions }
      set { update { $0.subSessions = newValue } }
    }
    /// For a recording event: whether a start asks the local user to agree (not the host, not
    /// agreed yet, and the recording was not merely paused).
    package var asksRecordingAgreement: Bool {
      get { rare?.values.asksRecordingAgreement ?? false }
      set { update { $0.asksRecordingAgreement = newValue } }
    }

    /// Creates a context.
    ///
    /// - Parameters:
    ///   - phaseBefore: The lifecycle phase before the event.
    ///   - myself: The local user, or `nil` if not in a session.
    ///   - endedShares: For `usersLeft`: the live shares of users who leave, in the event's
    ///     order.
    ///   - annotationHelperOwners: Owners of the shares on which the local instance holds an
    ///     annotation helper.
    package init(
      phaseBefore: SessionPhase = .inSession,
      myself: UserID? = nil,
      endedShares: [ActiveShare] = [],
      annotationHelperOwners: Set<UserID> = []
    ) {
      self.phaseBefore = phaseBefore
      self.myself = myself
      if !endedShares.isEmpty || !annotationHelperOwners.isEmpty {
        rare = Rare(
          endedShares: endedShares, annotationHelperOwners: annotationHelperOwners,
          resyncBefore: nil)
      }
    }

    /// Replaces the box with a changed copy; a box with nothing in it is dropped, so equal
    /// contexts have equal boxes.
    /// The context of an event whose callbacks read nothing from before it (see the SDK's
    /// event plans): built with no collection, so that it costs nothing to make or drop.
    package static var plain: Context { Context(phaseBefore: .inSession, myself: nil, rare: nil) }

    private init(phaseBefore: SessionPhase, myself: UserID?, rare: Rare?) {
      self.phaseBefore = phaseBefore
      self.myself = myself
      self.rare = rare
    }

    private mutating func update(_ change: (inout Rare.Values) -> Void) {
      var values = rare?.values ?? Rare.Values()
      change(&values)
      rare = values.isEmpty ? nil : Rare(values)
    }

    /// Contexts are equal when every fact is, whether or not their boxes are shared.
    ///
    /// - Parameters:
    ///   - lhs: A context.
    ///   - rhs: Another context.
    /// - Returns: `true` if both hold the same facts.
    package static func == (lhs: Context, rhs: Context) -> Bool {
      lhs.phaseBefore == rhs.phaseBefore && lhs.myself == rhs.myself
        && lhs.rare?.values == rhs.rare?.values
    }

    /// Hashes every fact, consistently with `==`.
    ///
    /// - Parameter hasher: The hasher to feed the facts to.
    package func hash(into hasher: inout Hasher) {
      hasher.combine(phaseBefore)
      hasher.combine(myself)
      hasher.combine(rare?.values)
    }

    /// The facts few events need, shared between copies of a context and never mutated.
    private final class Rare: Sendable {
      struct Values: Hashable {
        var endedShares: [ActiveShare] = []
        var annotationHelperOwners: Set<UserID> = []
        var resyncBefore: SharedSessionFacts?
        var subSessions: SubSessionFacts?
        var asksRecordingAgreement = false

        var isEmpty: Bool {
          endedShares.isEmpty && annotationHelperOwners.isEmpty && resyncBefore == nil
            && subSessions == nil && !asksRecordingAgreement
        }
      }

      let values: Values
      var endedShares: [ActiveShare] { values.endedShares }
      var annotationHelperOwners: Set<UserID> { values.annotationHelperOwners }
      var resyncBefore: SharedSessionFacts? { values.resyncBefore }

      init(_ values: Values) { self.values = values }

      convenience init(
        endedShares: [ActiveShare], annotationHelperOwners: Set<UserID>,
        resyncBefore: SharedSessionFacts?
      ) {
        self.init(
          Values(
            endedShares: endedShares, annotationHelperOwners: annotationHelperOwners,
            resyncBefore: resyncBefore))
      }
    }

    /// Captures what ``CallbackMapping/callbacks(for:context:)`` needs from the state an event
    /// is about to apply to.
    ///
    /// - Parameters:
    ///   - event: The event about to apply.
    ///   - state: The state before it.
    ///   - annotationHelperOwners: Owners of shares the local instance holds helpers on.
    /// - Returns: The facts the event's callbacks need, to pass to
    ///   ``CallbackMapping/callbacks(for:context:)``.
    package static func capture(
      before event: SessionEvent, in state: SessionState,
      annotationHelperOwners: Set<UserID> = []
    ) -> Context {
      capture(
        before: event, phase: state.phase, myself: state.myselfID,
        hasShares: !state.shares.isEmpty, share: { state.shares[$0] },
        facts: { state.sharedFacts }, annotationHelperOwners: annotationHelperOwners,
        hasSubSessionMembers: !state.subSessions.rooms.isEmpty,
        board: { state.subSessions }, state: { state })
    }

    /// ``capture(before:in:annotationHelperOwners:)`` from a store, reading only the fields
    /// the event needs (a copy of the whole state retains each of its tables: a leave reaches
    /// every replica of a session).
    package static func capture(
      before event: SessionEvent, from store: SessionStore,
      annotationHelperOwners: Set<UserID> = []
    ) -> Context {
      capture(
        before: event, phase: store.currentPhase, myself: store.currentMyselfID,
        hasShares: !store.currentSharesAreEmpty, share: { store.currentShare(of: $0) },
        facts: { store.current.sharedFacts }, annotationHelperOwners: annotationHelperOwners,
        hasSubSessionMembers: store.currentHasSubSessionMembers,
        board: { store.currentSubSessions }, state: { store.current })
    }

    /// What both captures read, each from where it reads it.
    private static func capture(
      before event: SessionEvent, phase: SessionPhase, myself: UserID?, hasShares: Bool,
      share: (UserID) -> ActiveShare?, facts: () -> SharedSessionFacts,
      annotationHelperOwners: Set<UserID>, hasSubSessionMembers: Bool,
      board: () -> SubSessionBoard, state: () -> SessionState
    ) -> Context {
      var context = Context(
        phaseBefore: phase, myself: myself, annotationHelperOwners: annotationHelperOwners)
      if case .usersLeft(let ids) = event, hasShares {
        context.endedShares = ids.compactMap(share)
      }
      if case .sessionJoined = event, phase == .inSession {
        context.resyncBefore = facts()
      }
      if case .subSession(let change) = event {
        context.subSessions = SubSessionFacts(before: change, in: state())
      } else if hasSubSessionMembers {
        context.subSessions = SubSessionFacts(board: board())
      }
      if case .recording(.statusChanged(.start)) = event {
        let before = state()
        if let me = before.myself, me.role != .host, before.recording.status != .pause,
          !before.recording.agreed.contains(me.id)
        {
          context.asksRecordingAgreement = true
        }
      }
      return context
    }
  }

  /// The callbacks an applied event fires, in order.
  ///
  /// - Parameters:
  ///   - event: An event that applied.
  ///   - context: Facts captured just before it applied.
  /// - Returns: The delegate callbacks the event fires, in the order the SDK calls them;
  ///   empty when it fires none.
  /// - Complexity: O(1) but for events carrying lists (O(list)) and the join snapshot
  ///   (O(n log n) in the participants).
  package static func callbacks(for event: SessionEvent, context: Context) -> [VideoSDKCallback] {
    var output: [VideoSDKCallback] = []
    appendCallbacks(for: event, context: context, to: &output)
    return output
  }

  /// Appends the callbacks an applied event fires to `output`, in order; see
  /// ``callbacks(for:context:)``. Lets a hot loop reuse one buffer.
  ///
  /// - Parameters:
  ///   - event: An event that applied.
  ///   - context: Facts captured just before it applied.
  ///   - output: The buffer to append to; what it already holds is kept.
  package static func appendCallbacks(
    for event: SessionEvent, context: Context, to output: inout [VideoSDKCallback]
  ) {
    var oneUser: [UserID] = []
    forEachCallback(for: event, context: context, oneUser: &oneUser) { output.append($0) }
  }

  /// Calls `body` with each callback an applied event fires, in order; see
  /// ``callbacks(for:context:)``. The SDK delivers through it with no buffer in between.
  ///
  /// - Parameter oneUser: Storage for the one-user lists of the commonest callbacks (video
  ///   and audio status, one user joining). Keep one per caller and pass it every time: once the previous
  ///   callback is gone the list is unique again and is refilled in place, so a fan-out to a
  ///   thousand replicas allocates nothing per delivery. A callback that was kept shares it,
  ///   and copy-on-write gives the next list new storage.
  @inline(__always)
  static func forEachCallback(
    for event: SessionEvent, context: Context, oneUser: inout [UserID],
    _ body: (VideoSDKCallback) -> Void
  ) {
    // While anyone is in a subsession, the local user hears only of those in the same place.
    // (A resync compares the places before and after itself.)
    if let facts = context.subSessions, !facts.board.rooms.isEmpty, let me = context.myself,
      !event.isSubSessionEvent, context.resyncBefore == nil
    {
      let rooms = facts.board.rooms
      let mine = rooms[me]
      forEachUnfilteredCallback(for: event, context: context, oneUser: &oneUser) { callback in
        if let seen = callback.keepingUsers(where: { $0 == me || rooms[$0] == mine }) {
          body(seen)
        }
      }
      return
    }
    forEachUnfilteredCallback(for: event, context: context, oneUser: &oneUser, body)
  }

  @inline(__always)
  private static func forEachUnfilteredCallback(
    for event: SessionEvent, context: Context, oneUser: inout [UserID],
    _ body: (VideoSDKCallback) -> Void
  ) {
    func list(_ user: UserID) -> [UserID] {
      if oneUser.count == 1 { oneUser[0] = user } else { oneUser = [user] }
      return oneUser
    }
    /// `onUserVideoStatusChanged`, then `onUserAudioStatusChanged`, for the users who arrive
    /// with their camera on or their audio connected (the join context's `localVideoOn` and
    /// `audioOption.connect`), as the SDK fires them after the join.
    func mediaStarts(of users: some Collection<Participant>) {
      let video = users.filter(\.isVideoOn).map(\.id)
      if !video.isEmpty { body(.onUserVideoStatusChanged(video)) }
      let audio = users.filter { $0.audio.type != .none }.map(\.id)
      if !audio.isEmpty { body(.onUserAudioStatusChanged(audio)) }
    }
    switch event {
    case .initialized, .cleanedUp, .joinRequested, .leaveRequested:
      break

    case .sessionJoined(let snapshot):
      if let before = context.resyncBefore {
        var output: [VideoSDKCallback] = []
        appendResyncCallbacks(from: before, to: snapshot, to: &output)
        output.forEach(body)
        break
      }
      guard context.phaseBefore == .joining else { break }
      body(.onSessionJoin)
      // Services list participants in join order; sort small (join order, id) pairs, not
      // whole participants, only when a snapshot does not. While anyone is in a subsession,
      // a joiner (in the main session) meets only those in the main session.
      let rooms = snapshot.subSessions
      let listed =
        rooms.rooms.isEmpty
        ? snapshot.participants
        : snapshot.participants.filter { rooms.together($0.id, snapshot.myself) }
      if listed.indices.dropFirst().allSatisfy({ listed[$0 - 1].joinOrder < listed[$0].joinOrder })
      {
        body(.onUserJoin(listed.map(\.id)))
      } else {
        body(.onUserJoin(listed.map { ($0.joinOrder, $0.id) }.sorted { $0.0 < $1.0 }.map(\.1)))
      }
      // A camera and microphone that the join context turned on start after the join, as the
      // SDK reports them.
      // The joiner is the newest member: found from the end, in one step as a rule.
      if let me = listed.last(where: { $0.id == snapshot.myself }) {
        mediaStarts(of: CollectionOfOne(me))
      }
      // The command channel connects once the join is done.
      body(.onCmdChannelConnectResult(true))
      // Subsessions already committed or open: the handles the local user's role gives.
      let board = snapshot.subSessions
      if !board.list.isEmpty,
        listed.last(where: { $0.id == snapshot.myself }).map({ $0.role != .participant }) == true
      {
        body(.onSubSessionManagerHandle(true))
      }
      if board.isStarted { body(.onSubSessionParticipantHandle(true)) }
      // A recording in progress: its status, and (but for the host) the consent prompt.
      let recording = snapshot.recording
      if recording.isRecording {
        let asks =
          listed.last(where: { $0.id == snapshot.myself }).map { $0.role != .host } == true
          && !recording.agreed.contains(snapshot.myself)
        body(.onCloudRecordingStatus(recording.status, asksAgreement: asks))
      }

    case .joinFailed(let error):
      body(.onError(error, detail: 0))

    case .sessionLeft(let reason):
      for owner in context.annotationHelperOwners.sorted() {
        body(.onAnnotationHelperCleanUp(shareOwner: owner))
      }
      body(.onSessionLeave(reason))
      body(.onSessionLeaveLegacy)

    case .usersJoined(let users) where users.count == 1:
      // One joiner (a join storm fans each out to every member): the one-user list, reused,
      // and the joiner's fields read in place.
      let id = users[0].id
      body(.onUserJoin(list(id)))
      if users[0].isVideoOn { body(.onUserVideoStatusChanged(list(id))) }
      if users[0].audio.type != .none { body(.onUserAudioStatusChanged(list(id))) }

    case .usersJoined(let users):
      body(.onUserJoin(users.map(\.id)))
      mediaStarts(of: users)

    case .usersLeft(let ids):
      for share in context.endedShares {
        body(.onUserShareStatusChanged(share.owner, .stopped, share.kind))
        if context.annotationHelperOwners.contains(share.owner) {
          body(.onAnnotationHelperCleanUp(shareOwner: share.owner))
        }
      }
      body(.onUserLeave(ids))

    case .videoStatusChanged(let user, _):
      body(.onUserVideoStatusChanged(list(user)))

    case .audioStatusChanged(let user, _, _):
      body(.onUserAudioStatusChanged(list(user)))

    case .activeSpeakersChanged(let speakers):
      body(.onUserActiveAudioChanged(speakers))

    case .hostAskedUnmute:
      body(.onHostAskUnmute)

    case .shareStatusChanged(let user, let status, let kind):
      body(.onUserShareStatusChanged(user, status, kind))
      if status == .stopped, context.annotationHelperOwners.contains(user) {
        body(.onAnnotationHelperCleanUp(shareOwner: user))
      }

    case .shareSettingChanged(let setting):
      body(.onShareSettingChanged(setting))

    case .hostChanged(let newHost):
      body(.onUserHostChanged(newHost))

    case .managerChanged(let user, _):
      body(.onUserManagerChanged(user))

    case .nameChanged(let user, _):
      body(.onUserNameChanged(user))

    case .annotationStarted, .annotationStopped, .annotationCleared:
      break

    case .annotationPrivilegeChanged(let owner, let disabled):
      guard context.myself != owner else { break }
      body(.onAnnotationPrivilegeChangeWithUser(owner, isEnabled: !disabled))
      body(.onAnnotationPrivilegeChange(enable: !disabled, shareOwner: owner))

    case .chatMessageReceived(let message):
      body(.onChatNewMessageNotify(message))

    case .chatMessageDeleted(let messageID, let deletedBy):
      body(.onChatMsgDeleteNotification(messageID: messageID, deleteBy: deletedBy))

    case .chatPrivilegeChanged(let privilege):
      body(.onChatPrivilegeChanged(privilege))

    case .commandReceived(let sender, let content):
      body(.onCommandReceived(content: content, sender: sender))

    case .spotlightChanged(let users):
      body(.onSpotlightVideoChanged(users))

    case .recording(.statusChanged(let status)):
      body(.onCloudRecordingStatus(status, asksAgreement: context.asksRecordingAgreement))

    case .recording(.agreed(let user)):
      body(.onUserRecordAgreementNotification(user))

    case .subSession(let change):
      subSessionCallbacks(
        for: change, facts: context.subSessions ?? SubSessionFacts(board: SubSessionBoard()),
        body)

    case .networkStatusChanged(let user, let quality):
      body(.onUserOverallNetworkStatusChanged(quality, user: user))

    case .errorOccurred(let error, let detail):
      body(.onError(error, detail: detail))
    }
  }
  /// The callbacks for what a resync snapshot changed: users who left or joined while the
  /// link was down (a newcomer as every other member heard it: its join, the camera and audio
  /// it joined with, a manager role, a live share), then each changed fact, in join order.
  /// Nothing fires for what stayed.
  static func appendResyncCallbacks(
    from before: SharedSessionFacts, to snapshot: SessionSnapshot,
    to output: inout [VideoSDKCallback]
  ) {
    // Who the local user sees, before and after: everyone, or while anyone is in a
    // subsession, those in the local user's place (which the resync may have changed).
    let me = snapshot.myself
    func seenBefore(_ id: UserID) -> Bool { before.subSessions.together(id, me) }
    func seenAfter(_ id: UserID) -> Bool { snapshot.subSessions.together(id, me) }
    let after = Dictionary(uniqueKeysWithValues: snapshot.participants.map { ($0.id, $0) })
    let left = before.participants.values.filter {
      $0.id != me && seenBefore($0.id) && !(after[$0.id] != nil && seenAfter($0.id))
    }
    .sorted { $0.joinOrder < $1.joinOrder }
    for owner in left.map(\.id) where before.shares[owner] != nil {
      output.append(
        .onUserShareStatusChanged(owner, .stopped, before.shares[owner]?.kind ?? .view))
    }
    if !left.isEmpty { output.append(.onUserLeave(left.map(\.id))) }
    let ordered = snapshot.participants.sorted { $0.joinOrder < $1.joinOrder }
      .filter { seenAfter($0.id) }
    let newcomers = ordered.filter {
      $0.id != me && !(before.participants[$0.id] != nil && seenBefore($0.id))
    }
    if !newcomers.isEmpty {
      // What every other member heard as a newcomer joined and while it stayed: its join, the
      // camera and audio it joined with, then a manager role or a share it has now.
      output.append(.onUserJoin(newcomers.map(\.id)))
      let video = newcomers.filter(\.isVideoOn).map(\.id)
      if !video.isEmpty { output.append(.onUserVideoStatusChanged(video)) }
      let audio = newcomers.filter { $0.audio.type != .none }.map(\.id)
      if !audio.isEmpty { output.append(.onUserAudioStatusChanged(audio)) }
    }
    let newShares = Dictionary(uniqueKeysWithValues: snapshot.shares.map { ($0.owner, $0) })
    for user in newcomers {
      if user.role == .manager { output.append(.onUserManagerChanged(user.id)) }
      if user.shareStatus.isActive {
        output.append(
          .onUserShareStatusChanged(user.id, user.shareStatus, newShares[user.id]?.kind ?? .view))
      }
    }
    if let host = snapshot.participants.first(where: { $0.role == .host })?.id,
      host != before.hostID, seenAfter(host)
    {
      output.append(.onUserHostChanged(host))
    }
    let shares = Dictionary(uniqueKeysWithValues: snapshot.shares.map { ($0.owner, $0) })
    for user in ordered {
      guard let old = before.participants[user.id], user.id == me || seenBefore(user.id) else {
        continue
      }
      if old.name != user.name { output.append(.onUserNameChanged(user.id)) }
      if (old.role == .manager) != (user.role == .manager) {
        output.append(.onUserManagerChanged(user.id))
      }
      if old.isVideoOn != user.isVideoOn { output.append(.onUserVideoStatusChanged([user.id])) }
      if old.audio.type != user.audio.type || old.audio.isMuted != user.audio.isMuted {
        output.append(.onUserAudioStatusChanged([user.id]))
      }
      if old.shareStatus != user.shareStatus {
        let kind = shares[user.id]?.kind ?? before.shares[user.id]?.kind ?? .view
        output.append(.onUserShareStatusChanged(user.id, user.shareStatus, kind))
      }
      if old.networkQuality != user.networkQuality {
        output.append(.onUserOverallNetworkStatusChanged(user.networkQuality, user: user.id))
      }
    }
    if snapshot.shareSetting != before.shareSetting {
      output.append(.onShareSettingChanged(snapshot.shareSetting))
    }
    if snapshot.chatPrivilege != before.chatPrivilege {
      output.append(.onChatPrivilegeChanged(snapshot.chatPrivilege))
    }
    let speakers = snapshot.activeSpeakers.filter(seenAfter)
    if speakers != before.activeSpeakers.filter(seenBefore) {
      output.append(.onUserActiveAudioChanged(speakers))
    }
    if snapshot.spotlighted != before.spotlighted {
      output.append(.onSpotlightVideoChanged(snapshot.spotlighted))
    }
    if snapshot.recording.status != before.recording.status {
      let asks =
        snapshot.recording.status == .start && !before.recording.isRecording
        && after[me].map { $0.role != .host } == true
        && !snapshot.recording.agreed.contains(me)
      output.append(.onCloudRecordingStatus(snapshot.recording.status, asksAgreement: asks))
    }
    if snapshot.subSessions != before.subSessions {
      let board = snapshot.subSessions
      if board.status != before.subSessions.status || board.list != before.subSessions.list {
        output.append(.onSubSessionStatusChanged(board.status, board.list))
      }
    }
  }
}
