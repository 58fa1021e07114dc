/// Why the local user cannot start a share now.
public enum ShareBlocker: Sendable, Hashable {
  /// Not in a session.
  case notInSession
  /// The share setting is `none`.
  case sharingDisabled
  /// Share is locked and the local user is neither host nor manager.
  case locked
  /// Someone else is sharing and only one share is allowed.
  case someoneElseSharing(UserID)
  /// The local user is already sharing.
  case alreadySharing
}

/// Why a user cannot annotate on a share now.
public enum AnnotationBlocker: Sendable, Hashable {
  /// Not in a session.
  case notInSession
  /// The named user is not sharing.
  case noShare
  /// The share owner disabled viewer annotation.
  case viewerAnnotationDisabled
}

extension SessionState {
  /// Whether share is locked to host and managers (`isShareLocked`).
  public var isShareLocked: Bool { shareSetting == .locked }

  /// Whether several users may share at once (`isMultiShareEnabled`).
  public var isMultiShareEnabled: Bool { shareSetting == .multi }

  /// Whether the local user is sharing (`isSharingOut`).
  public var isSharingOut: Bool { myselfID.map { shares[$0] != nil } ?? false }

  /// Whether someone other than the local user is sharing (`isOtherSharing`).
  public var isOtherSharing: Bool {
    guard !subSessions.rooms.isEmpty, let me = myselfID else {
      return shares.count > (isSharingOut ? 1 : 0)
    }
    // A share in another subsession is not one the local user sees.
    return shares.keys.contains { $0 != me && subSessions.together($0, me) }
  }

  /// Live shares, oldest first.
  public var sharesInStartOrder: [ActiveShare] {
    shares.values.sorted { $0.startOrder < $1.startOrder }
  }

  /// Why the local user cannot start a share now, or `nil` if they can.
  public var shareStartBlocker: ShareBlocker? {
    guard phase == .inSession, let me = myself else { return .notInSession }
    if shares[me.id] != nil { return .alreadySharing }
    switch shareSetting {
    case .none:
      return .sharingDisabled
    case .locked where me.role == .participant:
      return .locked
    case .locked, .single:
      return shares.keys.first { subSessions.together($0, me.id) }.map {
        .someoneElseSharing($0)
      }
    case .multi:
      return nil
    }
  }

  /// Why a user cannot annotate on `owner`'s share now, or `nil` if they can.
  ///
  /// - Parameters:
  ///   - owner: The share owner.
  ///   - user: Who wants to annotate; the local user by default.
  /// - Returns: What stops `user` annotating on the share, or `nil` when they may annotate.
  public func annotationBlocker(on owner: UserID, by user: UserID? = nil) -> AnnotationBlocker? {
    guard phase.acceptsSessionEvents, let user = user ?? myselfID, participants[user] != nil
    else { return .notInSession }
    // A share in another subsession is not one the user sees.
    guard let share = shares[owner], subSessions.together(user, owner) else { return .noShare }
    if user != owner, share.isViewerAnnotationDisabled { return .viewerAnnotationDisabled }
    return nil
  }

  /// Whether a user may clear annotations of the given type on `owner`'s share.
  ///
  /// `all`: host, manager or owner; `others`: the owner; `mine`: anyone present. `false` when
  /// `owner` is not sharing or `user` is not present.
  ///
  /// - Parameters:
  ///   - type: Which annotations to clear: everyone's, the others', or the user's own.
  ///   - owner: The share owner.
  ///   - user: Who wants to clear; the local user by default.
  /// - Returns: `true` if `user` may clear annotations of `type` on the share; `false` if not.
  public func canClearAnnotations(
    _ type: AnnotationClearType, on owner: UserID, by user: UserID? = nil
  ) -> Bool {
    guard let user = user ?? myselfID, let role = participants[user]?.role,
      shares[owner] != nil, subSessions.together(user, owner)
    else { return false }
    switch type {
    case .all: return role != .participant || user == owner
    case .others: return user == owner
    case .mine: return true
    }
  }
}

extension SessionState {
  /// The owner of the share `user` annotates on, if any.
  ///
  /// A user annotates on one share at a time, as an app renders one share at a time: this
  /// keeps every share's annotator set, together, no larger than the roster.
  ///
  /// - Parameter user: The annotating user.
  /// - Returns: The owner of the share `user` annotates on, or `nil` if they annotate on none.
  /// - Complexity: O(live shares).
  public func annotatedShare(of user: UserID) -> UserID? {
    for share in shares.values where share.annotators.contains(user) { return share.owner }
    return nil
  }
}
