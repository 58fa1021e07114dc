import SessionCore

/// The ``User`` handles of one session by id: created on first use, kept while the user is
/// present, so that callbacks hand out the same object every time.
///
/// Each handle is kept as a one-element list, the very `[User]` that one-user callbacks
/// (`onUserVideoStatusChanged`, `onUserAudioStatusChanged`, …) hand out: such a callback costs
/// one reference count on that list, and no list is built or reused per callback. A list the
/// app keeps never changes (nothing writes to it once stored).
///
/// The current session's handles live in its instance's engine (`SDKEngine.handles`), which
/// owns them, beside the other fields every event reads, so a delivery reaches them with no
/// object in between; a session that ended keeps a read-only copy (see
/// `SDKEngine+Handles.swift`). The lists live in a ``UserMap``: one
/// probe per lookup for the small, close ids a service hands out.
///
/// A value; not `Sendable`. Lives inside an engine or a session, confined to its domain.
struct UserHandles {
  private var lists = UserMap<[User]>()

  /// The handle for `id`, if one is stored.
  subscript(id: UserID) -> User? { lists[id]?.first }

  /// The one-element list holding the handle for `id`, if one is stored.
  @inline(__always)
  func list(of id: UserID) -> [User]? { lists[id] }

  /// The one-element list holding the handle for `id`, created for `session` if missing.
  mutating func list(for id: UserID, in session: Session) -> [User] {
    if let list = lists[id] { return list }
    let list = [User(id: id, session: session.ownReference)]
    lists[id] = list
    return list
  }

  /// Starts bringing `id`'s handle list into the cache (Decision 0009): reads its slot and
  /// prefetches the list's storage, which a one-user callback retains.
  @inline(__always)
  func prefetch(_ id: UserID) {
    // An array is one reference to its storage: its address alone is read, nothing through
    // it, and a prefetch never faults. The address first, then the hint, as in `UserMap`.
    let address = lists.withValue(forKey: id) { unsafeBitCast($0, to: UnsafeRawPointer.self) }
    if let address { prefetchMemory(at: address) }
  }

  /// Starts bringing into the cache the slot a handle for `id` will be stored in.
  @inline(__always)
  func prefetchSlot(_ id: UserID) {
    if let address = lists.slotAddress(forKey: id) { prefetchMemory(at: address) }
  }

  /// Makes room for `additional` more handles at once (everyone, on a join).
  mutating func reserve(_ additional: Int) { lists.reserveCapacity(additional) }

  /// Removes the handle for `id`, if any.
  mutating func remove(_ id: UserID) { lists.removeValue(forKey: id) }

  /// Every stored handle, in no particular order.
  var all: [User] { lists.values.map { $0[0] } }
}
