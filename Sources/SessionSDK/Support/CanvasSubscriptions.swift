import SessionCore

/// Which views show which users' video and shares: local-only state beside the replica.
///
/// Views are held weakly; an entry whose view is gone no longer counts.
struct CanvasSubscriptions {
  private struct VideoKey: Hashable {
    var view: ObjectIdentifier
    var user: UserID
  }

  private struct VideoEntry {
    var view: WeakView
    var aspect: VideoAspect
    var resolution: VideoResolution
  }

  private struct ShareEntry {
    var view: WeakView
    var owner: UserID
  }

  private var video: [VideoKey: VideoEntry] = [:]
  private var shareByView: [ObjectIdentifier: ShareEntry] = [:]

  enum VideoOutcome: Equatable {
    case subscribed
    case alreadySubscribed
    case overLimit
  }

  /// Records a video subscription unless the limit is reached.
  mutating func subscribeVideo(
    of user: UserID, to view: AnyObject, aspect: VideoAspect, resolution: VideoResolution,
    limit: Int
  ) -> VideoOutcome {
    let key = VideoKey(view: ObjectIdentifier(view), user: user)
    if let entry = video[key], entry.view.view === view {
      video[key]?.aspect = aspect
      video[key]?.resolution = resolution
      return .alreadySubscribed
    }
    if video.count >= limit {
      video = video.filter { $0.value.view.view != nil }
      if video.count >= limit { return .overLimit }
    }
    video[key] = VideoEntry(view: WeakView(view: view), aspect: aspect, resolution: resolution)
    return .subscribed
  }

  /// Forgets a video subscription.
  ///
  /// - Returns: Whether there was one.
  @discardableResult
  mutating func unsubscribeVideo(of user: UserID, from view: AnyObject) -> Bool {
    video.removeValue(forKey: VideoKey(view: ObjectIdentifier(view), user: user)) != nil
  }

  /// Records that `view` shows `owner`'s share (replacing what it showed before).
  mutating func subscribeShare(of owner: UserID, to view: AnyObject) {
    shareByView[ObjectIdentifier(view)] = ShareEntry(view: WeakView(view: view), owner: owner)
  }

  /// Forgets that `view` shows `owner`'s share.
  ///
  /// - Returns: Whether it did.
  @discardableResult
  mutating func unsubscribeShare(of owner: UserID, from view: AnyObject) -> Bool {
    let key = ObjectIdentifier(view)
    guard shareByView[key]?.owner == owner else { return false }
    shareByView.removeValue(forKey: key)
    return true
  }

  /// Whose share `view` shows, if any.
  func shareOwner(shownIn view: AnyObject) -> UserID? {
    guard let entry = shareByView[ObjectIdentifier(view)], entry.view.view === view else {
      return nil
    }
    return entry.owner
  }

  /// The owners of the shares shown in live views.
  var viewedShareOwners: [UserID] {
    shareByView.values.compactMap { $0.view.view == nil ? nil : $0.owner }
  }

  /// Live video subscriptions.
  var videoSubscriptionCount: Int {
    video.values.lazy.filter { $0.view.view != nil }.count
  }

  /// Whether `view` shows `user`'s video.
  func isSubscribed(_ view: AnyObject, toVideoOf user: UserID) -> Bool {
    video[VideoKey(view: ObjectIdentifier(view), user: user)]?.view.view === view
  }

  /// Forgets everything about a user who left.
  mutating func removeAll(of user: UserID) {
    guard !video.isEmpty || !shareByView.isEmpty else { return }
    video = video.filter { $0.key.user != user }
    shareByView = shareByView.filter { $0.value.owner != user }
  }

  /// Forgets everything.
  mutating func removeAll() {
    video.removeAll()
    shareByView.removeAll()
  }
}
