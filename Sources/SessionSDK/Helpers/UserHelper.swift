import SessionCore

/// Roles, names and removal: `ZoomVideoSDKUserHelper`.
///
/// As in the SDK, most methods return `Bool` (whether the request was sent), but
/// ``revokeManager(_:)`` returns an error code. `false` means the shared rules refused: not in
/// a session, not the host, or the target is yourself or not present.
///
/// > Important: Not `Sendable`. Confined to the isolation domain of its ``VideoSDK``.
public final class UserHelper {
  /// The instance, until it is gone (see `EngineReference`).
  var reference: EngineReference?
  var sdk: SDKEngine? { reference?.object }

  /// A helper for an instance to point at (``sdk``) once it is made.
  init() {}

  /// Renames a user: yourself, or anyone if you are host or manager. Names over 200
  /// characters (or 800 UTF-8 bytes) are truncated at a whole character; a name that
  /// truncates to nothing is refused.
  ///
  /// - Parameters:
  ///   - name: The new display name; `nil` is refused.
  ///   - user: Whose name to change; `nil` is refused.
  /// - Returns: Whether the request was sent.
  @discardableResult
  public func changeName(_ name: String?, withUser user: User?) -> Bool {
    guard let sdk, let name, let user else { return false }
    return sdk.perform(.changeName(user: user.id, name: name)) == .success
  }

  /// Makes another user host (host only); you become a participant.
  ///
  /// - Parameter user: The new host: someone in the session other than you.
  /// - Returns: Whether the request was sent.
  @discardableResult
  public func makeHost(_ user: User?) -> Bool {
    guard let sdk, let user else { return false }
    return sdk.perform(.makeHost(user.id)) == .success
  }

  /// Makes another user a manager (host only).
  ///
  /// - Parameter user: The user to make a manager: someone in the session other than you.
  /// - Returns: Whether the request was sent.
  @discardableResult
  public func makeManager(_ user: User?) -> Bool {
    guard let sdk, let user else { return false }
    return sdk.perform(.makeManager(user.id)) == .success
  }

  /// Takes a manager's role away (host only).
  ///
  /// - Parameter user: The manager to make a participant again.
  /// - Returns: Success once asked; `Errors_Session_No_Rights` when not host;
  ///   `Errors_Invalid_Parameter` for yourself, `nil` or a user not present;
  ///   `Errors_Wrong_Usage` when the user is not a manager.
  @discardableResult
  public func revokeManager(_ user: User?) -> VideoSDKError {
    guard let sdk else { return .uninitialize }
    guard let user else { return sdk.isInitialized ? .invalidParameter : .uninitialize }
    return sdk.perform(.revokeManager(user.id))
  }

  /// Removes another user from the session (host only); they leave with `KickByHost`.
  ///
  /// - Parameter user: The user to remove: someone in the session other than you.
  /// - Returns: Whether the request was sent.
  @discardableResult
  public func removeUser(_ user: User?) -> Bool {
    guard let sdk, let user else { return false }
    return sdk.perform(.removeUser(user.id)) == .success
  }

  /// Takes host back, for a `role_type` 1 user who rejoined (the service checks the token).
  ///
  /// - Returns: Whether the request was sent (`false` when already host).
  @discardableResult
  public func reclaimHost() -> Bool {
    guard let sdk else { return false }
    return sdk.perform(.reclaimHost) == .success
  }
}
