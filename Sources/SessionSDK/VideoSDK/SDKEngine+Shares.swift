import SessionCore

/// The engine's view of shares for the share and annotation helpers.
extension SDKEngine {
  /// Your share while you share; else the share a subscribed view shows; else the oldest
  /// other share.
  func relevantShare() -> ActiveShare? {
    let state = store.state
    guard state.isInSession, let me = state.myselfID else { return nil }
    if let mine = state.shares[me] { return mine }
    for owner in local.subscriptions.viewedShareOwners {
      if let share = state.shares[owner] { return share }
    }
    return state.sharesInStartOrder.first { $0.owner != me }
  }

  /// The helper on `owner`'s share, made on first use.
  func annotationHelper(on owner: UserID, view: AnyObject?) -> AnnotationHelper? {
    guard store.state.isInSession, store.state.shares[owner] != nil else { return nil }
    if let existing = local.annotationHelpers[owner] {
      if let view { existing.view = view }
      return existing
    }
    let helper = AnnotationHelper(shareOwner: owner, sdk: self, view: view)
    local.annotationHelpers[owner] = helper
    return helper
  }
}
