/// A participant's role, as `isHost()` and `isManager()` report it in the SDK.
///
/// The raw values order roles for display: host first, then managers, then everyone else.
public enum Role: UInt8, Sendable, Codable, Hashable, Comparable, CaseIterable {
  /// The single host of the session.
  case host = 0
  /// A manager (co-host): most moderation rights, but not host-only actions.
  case manager = 1
  /// Everyone else.
  case participant = 2

  /// Orders roles for display: host, then manager, then participant.
  ///
  /// - Parameters:
  ///   - lhs: A role.
  ///   - rhs: Another role.
  /// - Returns: `true` if `lhs` comes before `rhs` in display order.
  public static func < (lhs: Role, rhs: Role) -> Bool { lhs.rawValue < rhs.rawValue }
}
