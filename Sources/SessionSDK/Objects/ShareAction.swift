import SessionCore

/// One user's share: `ZoomVideoSDKShareAction`.
///
/// Reads the share live from the replica; after the share stops it answers with what the
/// last share callback reported (status ``SessionCore/ShareStatus/stopped``).
///
/// > Important: Not `Sendable`. Confined to the isolation domain of the ``VideoSDK`` that made
/// > it.
public final class ShareAction {
  /// The sharing user.
  public let owner: UserID
  /// The session, until it is gone (see `LifetimeReference`).
  var session: Session? { sessionReference.object }
  private let sessionReference: LifetimeReference<Session>
  var lastStatus: ShareStatus = .none
  var lastKind: ShareKind = .view
  var lastShare: ActiveShare?

  init(owner: UserID, session: LifetimeReference<Session>) {
    self.owner = owner
    self.sessionReference = session
  }

  private var share: ActiveShare? {
    session?.liveShare(of: owner) ?? lastShare
  }

  /// Records what a share callback reports.
  func record(status: ShareStatus, kind: ShareKind) {
    lastStatus = status
    lastKind = kind
    if let live = session?.liveShare(of: owner) { lastShare = live }
  }

  /// Started, paused, resumed or stopped.
  ///
  /// - Returns: The share's live status; once it stopped, the status the last share callback
  ///   reported (``SessionCore/ShareStatus/stopped``).
  public func getShareStatus() -> ShareStatus {
    session?.liveShare(of: owner)?.status ?? lastStatus
  }

  /// Normal or camera; ``ShareType/none`` before the share was ever seen.
  ///
  /// - Returns: ``ShareType/camera`` for a camera share, ``ShareType/normal`` for any other;
  ///   ``ShareType/none`` before the share was ever seen.
  public func getShareType() -> ShareType {
    if let live = session?.liveShare(of: owner) { return ShareType(live.kind) }
    return lastStatus == .none ? .none : ShareType(lastKind)
  }

  /// What the share shows: a view, the app's screen, the camera or an external source.
  ///
  /// - Returns: What the share shows; once it stopped, what it last showed.
  public func getShareKind() -> ShareKind {
    session?.liveShare(of: owner)?.kind ?? lastKind
  }

  /// Whether viewers may annotate on the share.
  ///
  /// - Returns: `true` if viewers may annotate; `false` if the owner turned it off, or the share
  ///   was never seen.
  public func isAnnotationPrivilegeEnabled() -> Bool {
    guard let share else { return false }
    return !share.isViewerAnnotationDisabled
  }

  /// The share's source id: the owner's user id (a user has at most one share at a time).
  ///
  /// - Returns: The owner's numeric user id.
  public func getShareSourceId() -> Int { Int(owner.rawValue) }

  /// The canvas that shows the share; subscribe a view to watch (and annotate) it.
  ///
  /// - Returns: The owner's share canvas; `nil` once the session is gone.
  public func getShareCanvas() -> VideoCanvas? {
    session?.user(for: owner).getShareCanvas()
  }
}
