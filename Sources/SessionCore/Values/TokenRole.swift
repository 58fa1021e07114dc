/// The role a session token grants: its `role_type` claim.
///
/// The token says only host or not; what a second `role_type` 1 joiner becomes (a manager, under
/// the engine policy) is the session's decision, not the token's.
public enum TokenRole: Int, Sendable, Codable, Hashable, CaseIterable {
  /// `role_type` 0: an ordinary participant; may join before the host.
  case participant = 0
  /// `role_type` 1: host, or co-host (manager) if the session already has a host.
  case host = 1
}
