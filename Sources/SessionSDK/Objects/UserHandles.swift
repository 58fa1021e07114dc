import SessionCore

/// The ``User`` handles of one session by id: created on first use, kept while the user is
/// present, so that callbacks hand out the same object every time.
///
/// A class of its own, so that the per-event callback path reaches the handles without
/// retaining the ``Session`` (its users reference it weakly, which moves its reference counts
/// into a side table, slower to change and one more cache line to touch). The handles live in
/// a ``UserMap``: one probe per lookup for the small, close ids a service hands out.
///
/// > Important: Not `Sendable`. Confined to its session's isolation domain.
final class UserHandles {
  // Unchecked exclusivity: confined, and each access is one read or one write (no access is
  // held across a call out), as in Decision 0006.
  @exclusivity(unchecked) private var handles = UserMap<User>()

  /// The handle for `id`, if one is stored.
  subscript(id: UserID) -> User? { handles[id] }

  /// Stores `user` under its id, replacing any handle there.
  func insert(_ user: User) { handles[user.id] = user }

  /// Makes room for `additional` more handles at once (everyone, on a join).
  func reserve(_ additional: Int) { handles.reserveCapacity(additional) }

  /// Removes the handle for `id`, if any.
  func remove(_ id: UserID) { handles.removeValue(forKey: id) }

  /// Every stored handle, in no particular order.
  var all: [User] { Array(handles.values) }
}
