import SessionCore
import SessionTransport

/// The session an SDK instance joined: `ZoomVideoSDKSession`.
///
/// ``VideoSDK/joinSession(_:)`` returns it; ``VideoSDK/getSession()`` returns it until the
/// local user leaves. Its getters read the instance's replica (``VideoSDK/store``) live; after
/// the session ends they answer with what was last known.
///
/// The session hands out one ``User`` per user id, created on first use and kept while the user
/// is present, so looking a user up is O(1) and callbacks hand out the same object every time.
/// Its instance's engine owns those handles while the session is current; once it ended, the
/// session keeps a read-only copy of them (see `SDKEngine+Handles.swift`).
///
/// > Important: Not `Sendable`. Confined to the isolation domain of the ``VideoSDK`` that made
/// > it (usually the main actor).
public final class Session {
  /// The instance, until it is gone (see `EngineReference`).
  let reference: EngineReference
  var sdk: SDKEngine? { reference.object }
  var name: String
  var password: String?
  var myselfID: UserID?
  /// The handles this session gave out, once it is no longer its instance's current session
  /// (set by the engine's `retire(_:)`); empty before. Read-only: an ended session makes no
  /// handles.
  var retiredHandles = UserHandles()
  var shareActions: [UserID: ShareAction] = [:]

  /// What this session's users and share actions hold instead of a weak reference to it.
  let ownReference = LifetimeReference<Session>()

  init(sdk: SDKEngine, name: String, password: String?) {
    self.reference = sdk.reference
    self.name = name
    self.password = password
    ownReference.object = self
  }

  deinit {
    ownReference.object = nil
  }

  // MARK: Live reads

  /// The replica, while this is the instance's current session.
  var liveState: SessionState? {
    guard let sdk, sdk.currentSession === self else { return nil }
    return sdk.store.state
  }

  func liveParticipant(_ id: UserID) -> Participant? {
    guard let sdk, sdk.currentSession === self else { return nil }
    return sdk.store.state.participants[id]
  }

  func liveShare(of owner: UserID) -> ActiveShare? {
    guard let sdk, sdk.currentSession === self else { return nil }
    return sdk.store.state.shares[owner]
  }

  /// The engine, while this is its current session.
  private var engineWhileCurrent: SDKEngine? {
    guard let sdk, sdk.currentSession === self else { return nil }
    return sdk
  }

  /// The handle for a user id, if one is stored.
  func existingUser(_ id: UserID) -> User? {
    if let sdk = engineWhileCurrent { return sdk.handles[id] }
    return retiredHandles[id]
  }

  /// The handle for a user id: created on first use while this is the current session; once
  /// it ended, the one it gave out, or else a handle that answers nothing live.
  func user(for id: UserID) -> User {
    if let sdk = engineWhileCurrent { return sdk.handle(for: id, in: self) }
    return retiredHandles[id] ?? User(id: id, session: ownReference)
  }

  /// The share action of an owner, created on first use.
  func shareAction(for owner: UserID) -> ShareAction {
    if let action = shareActions[owner] { return action }
    let action = ShareAction(owner: owner, session: ownReference)
    shareActions[owner] = action
    return action
  }

  // MARK: SDK API

  /// The session name, as the session's creator spelled it once joined.
  ///
  /// - Returns: The session's name; while joining, and after a failed join, the name you asked
  ///   for.
  public func getSessionName() -> String? {
    liveState?.sessionName ?? name
  }

  /// The service's session id, for the host only (`nil` for everyone else, as in the SDK).
  ///
  /// - Returns: The session id if you are host; `nil` otherwise, and once the session ended.
  public func getSessionID() -> String? {
    guard let state = liveState, state.isHost else { return nil }
    return state.sessionID
  }

  /// The password this instance joined with, if any.
  ///
  /// - Returns: The password given to ``VideoSDK/joinSession(_:)`` or to the password prompt;
  ///   `nil` if none.
  public func getSessionPassword() -> String? {
    password
  }

  /// The host, if there is one.
  ///
  /// - Returns: The host's user object; `nil` with no host, or once the session ended.
  public func getSessionHost() -> User? {
    guard let hostID = liveState?.hostID else { return nil }
    return user(for: hostID)
  }

  /// The host's display name, if there is a host.
  ///
  /// - Returns: The host's display name; `nil` with no host, or once the session ended.
  public func getSessionHostName() -> String? {
    liveState?.host?.name
  }

  /// The local user, once joined.
  ///
  /// - Returns: The local user's object; `nil` until the join completes.
  public func getMySelf() -> User? {
    guard let myselfID else { return nil }
    return user(for: myselfID)
  }

  /// Everyone but the local user, in join order; `nil` when not in the session.
  ///
  /// - Returns: The other users present, in join order (empty when you are alone); `nil` when
  ///   not in the session.
  /// - Complexity: O(participants).
  public func getRemoteUsers() -> [User]? {
    guard let state = liveState, state.phase.acceptsSessionEvents else { return nil }
    // In a subsession, or in the main session while subsessions hold members, only those in
    // the same place are in the local user's session.
    if !state.subSessions.rooms.isEmpty, let me = state.myselfID {
      return state.remoteUsers.filter { state.subSessions.together($0.id, me) }
        .map { user(for: $0.id) }
    }
    return state.remoteUsers.map { user(for: $0.id) }
  }

  /// Everyone present, the local user included, in display order: host, managers, others,
  /// each by join order. Not in the SDK; what seed apps compute by hand.
  ///
  /// - Returns: Everyone present in display order; empty once the session ended.
  /// - Complexity: O(participants).
  public func getOrderedUsers() -> [User] {
    guard let state = liveState else { return [] }
    if !state.subSessions.rooms.isEmpty, let me = state.myselfID {
      return state.orderedUserIDs.filter { state.subSessions.together($0, me) }
        .map { user(for: $0) }
    }
    return state.orderedUserIDs.map { user(for: $0) }
  }

  // MARK: Statistics

  /// The session's video figures, send and receive (`ZoomVideoSDKVideoStatisticInfo`); zero
  /// with no media plane or once the session ended.
  ///
  /// - Returns: The session's video send and receive figures; all zero with no media plane or
  ///   once the session ended.
  public func getSessionVideoStatisticInfo() -> VideoStatisticInfo {
    engineWhileCurrent?.sessionStatistics(.video) ?? SessionStatisticInfo()
  }

  /// The session's audio figures (`ZoomVideoSDKAudioStatisticInfo`), as
  /// ``getSessionVideoStatisticInfo()``; audio has no frame size or rate.
  ///
  /// - Returns: The session's audio send and receive figures; all zero with no media plane or
  ///   once the session ended.
  public func getSessionAudioStatisticInfo() -> AudioStatisticInfo {
    engineWhileCurrent?.sessionStatistics(.audio) ?? SessionStatisticInfo()
  }

  /// The session's share figures (`ZoomVideoSDKShareStatisticInfo`), as
  /// ``getSessionVideoStatisticInfo()``.
  ///
  /// - Returns: The session's share send and receive figures; all zero with no media plane or
  ///   once the session ended.
  public func getSessionShareStatisticInfo() -> ShareStatisticInfo {
    engineWhileCurrent?.sessionStatistics(.share) ?? SessionStatisticInfo()
  }

  /// The user with this id, if present (or held because they just left).
  ///
  /// - Parameter id: The user's id, as ``User/getUserID()`` gives it.
  /// - Returns: The user's object, the same one callbacks hand out; `nil` if no such user is
  ///   present or held.
  public func user(withID id: UserID) -> User? {
    if let user = existingUser(id) { return user }
    guard liveParticipant(id) != nil else { return nil }
    return user(for: id)
  }
}
