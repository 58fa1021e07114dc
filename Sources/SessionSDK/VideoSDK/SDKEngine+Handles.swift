import SessionCore

extension SDKEngine {
  // MARK: User handles
  //
  // The engine owns the `User` handles of its current session, and only it creates, finds,
  // forgets and hands them out: callbacks reach them in `handles`, beside the other fields
  // every event reads (Decision 0009), and the session's own getters ask the engine while it
  // is current. When the session stops being current (it ended, or the instance is gone), the
  // engine retires it: the session keeps a read-only copy of the handles it gave out, so that
  // they answer as last known and `user(withID:)` finds the same objects; nothing moves back.

  /// The handle for `id` in the current `session`, created on first use.
  @inline(__always)
  func handle(for id: UserID, in session: Session) -> User {
    handles.list(for: id, in: session)[0]
  }

  /// Drops the handle of a user who left; objects the app holds keep their last-known values.
  func forgetHandle(of id: UserID) {
    handles.remove(id)
    currentSession?.shareActions.removeValue(forKey: id)
  }

  /// Makes each of `users` answer with its participant as the replica knows it now.
  func recordLastKnown(of users: [User]) {
    let participants = store.current.participants
    for user in users {
      if let participant = participants[user.id] { user.lastKnown = participant }
    }
  }

  /// Hands `session`, no longer current, a read-only copy of its handles, and empties the
  /// engine's table for the next session.
  ///
  /// The local user's handle is made first if no callback made it, so that ``Session/getMySelf()``
  /// on the ended session answers with one object every time.
  func retire(_ session: Session) {
    if let me = session.myselfID { _ = handles.list(for: me, in: session) }
    session.retiredHandles = handles
    handles = UserHandles()
  }
}
