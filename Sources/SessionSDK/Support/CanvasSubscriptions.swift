import SessionCore
import SessionTransport

/// Which views show which users' video and shares: local-only state beside the replica, and the
/// views each received frame goes to.
///
/// Views are held weakly; an entry whose view is gone no longer counts. Each user's video (and
/// share) keeps its views in a small list in the order they subscribed, so that a frame reaches
/// them in that order and the sink cast is made once, at subscription.
struct CanvasSubscriptions {
  /// One view of one stream.
  struct Viewer {
    var id: ObjectIdentifier
    var view: WeakView
    /// The view as a sink, if it is one.
    weak var sink: (any VideoSink)?
    var aspect: VideoAspect
    var resolution: VideoResolution

    /// Whether the view is still there.
    var isLive: Bool { view.view != nil }
  }

  /// The views of each stream, by user and kind (video or share).
  private(set) var viewers: [StreamKey: [Viewer]] = [:]
  /// Whose share each view shows.
  private var shareByView: [ObjectIdentifier: UserID] = [:]
  /// Video entries, live or not.
  private var videoEntries = 0

  enum VideoOutcome: Equatable {
    case subscribed
    case alreadySubscribed
    case overLimit
  }

  enum ShareOutcome: Equatable {
    case subscribed
    case alreadySubscribed
    /// The view showed another owner's share, which it no longer shows.
    case replaced(previous: UserID)
    /// Another view shows another user's share: one share is rendered at a time.
    case otherShareShown(UserID)
  }

  private static func viewer(
    _ view: AnyObject, aspect: VideoAspect, resolution: VideoResolution
  ) -> Viewer {
    Viewer(
      id: ObjectIdentifier(view), view: WeakView(view: view), sink: view as? any VideoSink,
      aspect: aspect, resolution: resolution)
  }

  /// The place of `view` among the views of `key`.
  private func position(of view: AnyObject, in key: StreamKey) -> Int? {
    let id = ObjectIdentifier(view)
    return viewers[key]?.firstIndex { $0.id == id && $0.view.view === view }
  }

  /// Records a video subscription unless the limit is reached.
  mutating func subscribeVideo(
    of user: UserID, to view: AnyObject, aspect: VideoAspect, resolution: VideoResolution,
    limit: Int
  ) -> VideoOutcome {
    let key = StreamKey(user: user, kind: .video)
    if let index = position(of: view, in: key) {
      viewers[key]?[index].aspect = aspect
      viewers[key]?[index].resolution = resolution
      return .alreadySubscribed
    }
    if videoEntries >= limit {
      pruneDeadViews()
      if videoEntries >= limit { return .overLimit }
    }
    // A dead entry of the same object identifier (a view freed and its address reused) goes.
    viewers[key]?.removeAll { $0.id == ObjectIdentifier(view) }
    videoEntries = countVideoEntries()
    viewers[key, default: []].append(Self.viewer(view, aspect: aspect, resolution: resolution))
    videoEntries += 1
    return .subscribed
  }

  /// Forgets a video subscription.
  ///
  /// - Returns: Whether there was one.
  @discardableResult
  mutating func unsubscribeVideo(of user: UserID, from view: AnyObject) -> Bool {
    remove(view, from: StreamKey(user: user, kind: .video))
  }

  /// Records that `view` shows `owner`'s share, unless another view shows another user's
  /// share.
  mutating func subscribeShare(
    of owner: UserID, to view: AnyObject, aspect: VideoAspect, resolution: VideoResolution
  ) -> ShareOutcome {
    let key = StreamKey(user: owner, kind: .share)
    if let index = position(of: view, in: key) {
      viewers[key]?[index].aspect = aspect
      viewers[key]?[index].resolution = resolution
      return .alreadySubscribed
    }
    let id = ObjectIdentifier(view)
    for (other, list) in viewers where other.kind == .share && other.user != owner {
      if list.contains(where: { $0.isLive && $0.id != id }) { return .otherShareShown(other.user) }
    }
    var outcome = ShareOutcome.subscribed
    if let previous = shareByView[id], previous != owner {
      remove(view, from: StreamKey(user: previous, kind: .share))
      outcome = .replaced(previous: previous)
    }
    viewers[key]?.removeAll { $0.id == id }
    viewers[key, default: []].append(Self.viewer(view, aspect: aspect, resolution: resolution))
    shareByView[id] = owner
    return outcome
  }

  /// Forgets that `view` shows `owner`'s share.
  ///
  /// - Returns: Whether it did.
  @discardableResult
  mutating func unsubscribeShare(of owner: UserID, from view: AnyObject) -> Bool {
    remove(view, from: StreamKey(user: owner, kind: .share))
  }

  @discardableResult
  private mutating func remove(_ view: AnyObject, from key: StreamKey) -> Bool {
    guard let index = position(of: view, in: key) else { return false }
    viewers[key]?.remove(at: index)
    if viewers[key]?.isEmpty == true { viewers[key] = nil }
    if key.kind == .video {
      videoEntries -= 1
    } else if shareByView[ObjectIdentifier(view)] == key.user {
      shareByView[ObjectIdentifier(view)] = nil
    }
    return true
  }

  /// Whose share `view` shows, if any.
  func shareOwner(shownIn view: AnyObject) -> UserID? {
    guard let owner = shareByView[ObjectIdentifier(view)],
      position(of: view, in: StreamKey(user: owner, kind: .share)) != nil
    else { return nil }
    return owner
  }

  /// The owners of the shares shown in live views, in user order.
  var viewedShareOwners: [UserID] {
    viewers.compactMap { key, list in
      key.kind == .share && list.contains(where: \.isLive) ? key.user : nil
    }.sorted()
  }

  /// Live video subscriptions.
  var videoSubscriptionCount: Int {
    viewers.reduce(0) { total, entry in
      entry.key.kind == .video ? total + entry.value.lazy.filter(\.isLive).count : total
    }
  }

  /// Whether `view` shows `user`'s video.
  func isSubscribed(_ view: AnyObject, toVideoOf user: UserID) -> Bool {
    position(of: view, in: StreamKey(user: user, kind: .video)) != nil
  }

  /// Whether a live view shows `key`.
  func hasLiveViews(_ key: StreamKey) -> Bool {
    viewers[key]?.contains(where: \.isLive) ?? false
  }

  /// The most lines the live views of `key` ask for, as a media subscription says it (0: no
  /// limit, which ``VideoResolution/auto`` asks for); `nil` when no live view shows it.
  func maxLines(for key: StreamKey) -> UInt16? {
    var most: UInt16?
    for viewer in viewers[key] ?? [] where viewer.isLive {
      let lines = viewer.resolution.maxLines
      if lines == 0 || most == 0 {
        most = 0
      } else {
        most = max(most ?? 0, lines)
      }
    }
    return most
  }

  /// Forgets the views of `key` whose view is gone.
  ///
  /// - Returns: Whether any was forgotten.
  @discardableResult
  mutating func pruneDeadViews(of key: StreamKey) -> Bool {
    guard let list = viewers[key], list.contains(where: { !$0.isLive }) else { return false }
    let live = list.filter(\.isLive)
    viewers[key] = live.isEmpty ? nil : live
    if key.kind == .video { videoEntries -= list.count - live.count }
    if key.kind == .share {
      shareByView = shareByView.filter { entry in
        entry.value != key.user || live.contains { $0.id == entry.key }
      }
    }
    return true
  }

  /// Forgets every view that is gone.
  ///
  /// - Returns: The streams that lost views.
  @discardableResult
  mutating func pruneDeadViews() -> [StreamKey] {
    let keys = viewers.keys.sorted().filter { pruneDeadViews(of: $0) }
    videoEntries = countVideoEntries()
    return keys
  }

  private func countVideoEntries() -> Int {
    viewers.reduce(0) { $0 + ($1.key.kind == .video ? $1.value.count : 0) }
  }

  /// Forgets the views of one stream (its subscription was refused).
  ///
  /// - Returns: The live views it had, in the order they subscribed.
  mutating func removeAll(of key: StreamKey) -> [AnyObject] {
    guard let list = viewers.removeValue(forKey: key) else { return [] }
    if key.kind == .video { videoEntries -= list.count }
    if key.kind == .share { shareByView = shareByView.filter { $0.value != key.user } }
    return list.compactMap { $0.view.view }
  }

  /// Forgets everything about a user who left.
  mutating func removeAll(of user: UserID) {
    guard !viewers.isEmpty else { return }
    viewers[StreamKey(user: user, kind: .share)] = nil
    if let list = viewers.removeValue(forKey: StreamKey(user: user, kind: .video)) {
      videoEntries -= list.count
    }
    shareByView = shareByView.filter { $0.value != user }
  }

  /// Forgets everything.
  mutating func removeAll() {
    viewers.removeAll()
    shareByView.removeAll()
    videoEntries = 0
  }
}

extension VideoResolution {
  /// The most lines (the shorter side) a canvas at this resolution shows, as a media
  /// subscription says it; 0 for ``auto``, no limit.
  var maxLines: UInt16 {
    switch self {
    case .resolution90: 90
    case .resolution180: 180
    case .resolution360: 360
    case .resolution720: 720
    case .auto: 0
    }
  }
}
