/// One user in a session, as every replica sees them.
///
/// A value: copy it freely. It gathers what the SDK spreads over `ZoomVideoSDKUser`, its
/// video canvas (`videoStatus().on`), `audioStatus()` and share actions.
public struct Participant: Sendable, Codable, Hashable, Identifiable {
  /// The user's id.
  public var id: UserID
  /// The display name (at most 200 characters; longer names are truncated by the service).
  public var name: String
  /// Host, manager or participant.
  public var role: Role
  /// Whether the user's camera is on (`getVideoCanvas().videoStatus().on`).
  public var isVideoOn: Bool
  /// Audio connection, mute and talking state.
  public var audio: AudioStatus
  /// The status of the user's own share.
  public var shareStatus: ShareStatus
  /// The user's overall network quality.
  public var networkQuality: NetworkQuality
  /// Position in the order users joined; larger joined later. Unique within a session.
  public var joinOrder: UInt64
  /// The token's `user_key` (`getCustomUserId()`), if any.
  public var customUserKey: String?

  /// Creates a participant.
  ///
  /// - Parameters:
  ///   - id: The user's id.
  ///   - name: The display name.
  ///   - role: Host, manager or participant.
  ///   - isVideoOn: Whether the user's camera is on.
  ///   - audio: Audio connection, mute and talking state; disconnected by default.
  ///   - shareStatus: The status of the user's own share; `.none` if they never shared.
  ///   - networkQuality: The user's overall network quality; `.none` when unknown.
  ///   - joinOrder: Position in the order users joined; larger joined later, unique within
  ///     the session.
  ///   - customUserKey: The token's `user_key`, or `nil` if it has none.
  public init(
    id: UserID,
    name: String,
    role: Role = .participant,
    isVideoOn: Bool = false,
    audio: AudioStatus = .disconnected,
    shareStatus: ShareStatus = .none,
    networkQuality: NetworkQuality = .none,
    joinOrder: UInt64,
    customUserKey: String? = nil
  ) {
    self.id = id
    self.name = name
    self.role = role
    self.isVideoOn = isVideoOn
    self.audio = audio
    self.shareStatus = shareStatus
    self.networkQuality = networkQuality
    self.joinOrder = joinOrder
    self.customUserKey = customUserKey
  }

  /// Whether the user is the host.
  public var isHost: Bool { role == .host }
  /// Whether the user is a manager.
  public var isManager: Bool { role == .manager }
}
