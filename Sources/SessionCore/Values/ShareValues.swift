/// A user's share status: `ZoomVideoSDKReceiveSharingStatus`.
public enum ShareStatus: UInt8, Sendable, Codable, Hashable, CaseIterable {
  /// Never shared.
  case none = 0
  /// Sharing started.
  case started = 1
  /// Sharing paused.
  case paused = 2
  /// Sharing resumed after a pause.
  case resumed = 3
  /// Sharing stopped.
  case stopped = 4

  /// Whether a share with this status is live (started, paused or resumed).
  public var isActive: Bool { self == .started || self == .paused || self == .resumed }
}

/// The session's share setting: `ZoomVideoSDKShareSetting`.
public enum ShareSetting: UInt8, Sendable, Codable, Hashable, CaseIterable {
  /// Sharing is off.
  case none = 0
  /// Only the host and managers may share.
  case locked = 1
  /// Anyone may share, one at a time (the default).
  case single = 2
  /// Several users may share at once.
  case multi = 3
}

/// What a share shows: a view, the whole app, or the camera.
public enum ShareKind: UInt8, Sendable, Codable, Hashable, CaseIterable {
  /// `startShare(with: UIView)`: one view.
  case view = 0
  /// `startInAppScreenShare()`: the app's screen.
  case inAppScreen = 1
  /// `startShareCamera(_:)`.
  case camera = 2
  /// `startSharingExternalSource(_:)`.
  case external = 3
}

/// Which annotations a clear removes: `ZoomVideoSDKAnnotationClearType`.
public enum AnnotationClearType: UInt8, Sendable, Codable, Hashable, CaseIterable {
  /// Everyone's annotations (host, manager or share owner).
  case all = 0
  /// Everyone's but the share owner's (share owner only).
  case others = 1
  /// The caller's own (anyone).
  case mine = 2

  /// The SDK's spelling of ``mine`` (`ZoomVideoSDKAnnotationClearType_My`, `.my` in Swift).
  public static let my = AnnotationClearType.mine
}
