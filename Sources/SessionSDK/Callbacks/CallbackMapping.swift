import SessionCore

/// The one mapping from applied events to the delegate callbacks the SDK fires, in order.
///
/// Pure: the callbacks for an event depend only on the event and a small ``Context`` captured
/// just before the event applied. ``VideoSDK`` uses it for every event its replica applies;
/// tests and tools use it to turn an event trace into the callback stream an app would see.
///
/// Engine policy where the SDK is silent:
/// - My own join fires `onSessionJoin`, then `onUserJoin` with everyone present, myself
///   included, in join order. A snapshot that replaces a live session (a resume) fires nothing.
/// - Leaving fires `onAnnotationHelperCleanUp` for each annotation helper still held, then
///   `onSessionLeave(reason)`, then the deprecated `onSessionLeave()`.
/// - A user who leaves while sharing fires `onUserShareStatusChanged(stopped)` (and the cleanup
///   of a helper on that share) before `onUserLeave`.
/// - A share that stops fires `onAnnotationHelperCleanUp` after `onUserShareStatusChanged` when
///   the local instance holds a helper on it.
/// - A viewer-annotation change fires, for viewers only, the current
///   `onAnnotationPrivilegeChange(with:shareAction:)` and then the deprecated
///   `onAnnotationPrivilegeChange(_:shareOwner:)`.
/// - Annotation start, stop and clear have no SDK callback and fire nothing.
///
/// > Important: Pure functions of `Sendable` values: call them from any isolation domain.
public enum CallbackMapping {
  /// Facts about the state just before an event applied that its callbacks need.
  ///
  /// Capture it with ``capture(before:in:annotationHelperOwners:)``: O(1) for every event but
  /// `usersLeft` (O(leavers)), and no copy of the state.
  public struct Context: Sendable, Hashable {
    /// The lifecycle phase before the event.
    public var phaseBefore: SessionPhase
    /// The local user, if in a session.
    public var myself: UserID?
    /// For `usersLeft`: the live shares of users who leave, in the event's order.
    public var endedShares: [ActiveShare]
    /// Owners of the shares on which the local instance holds an annotation helper.
    public var annotationHelperOwners: Set<UserID>

    /// Creates a context.
    public init(
      phaseBefore: SessionPhase = .inSession,
      myself: UserID? = nil,
      endedShares: [ActiveShare] = [],
      annotationHelperOwners: Set<UserID> = []
    ) {
      self.phaseBefore = phaseBefore
      self.myself = myself
      self.endedShares = endedShares
      self.annotationHelperOwners = annotationHelperOwners
    }

    /// Captures what ``CallbackMapping/callbacks(for:context:)`` needs from the state an event
    /// is about to apply to.
    ///
    /// - Parameters:
    ///   - event: The event about to apply.
    ///   - state: The state before it.
    ///   - annotationHelperOwners: Owners of shares the local instance holds helpers on.
    public static func capture(
      before event: SessionEvent, in state: SessionState,
      annotationHelperOwners: Set<UserID> = []
    ) -> Context {
      var context = Context(
        phaseBefore: state.phase, myself: state.myselfID,
        annotationHelperOwners: annotationHelperOwners)
      if case .usersLeft(let ids) = event, !state.shares.isEmpty {
        context.endedShares = ids.compactMap { state.shares[$0] }
      }
      return context
    }
  }

  /// The callbacks an applied event fires, in order.
  ///
  /// - Parameters:
  ///   - event: An event that applied.
  ///   - context: Facts captured just before it applied.
  /// - Complexity: O(1) but for events carrying lists (O(list)) and the join snapshot
  ///   (O(n log n) in the participants).
  public static func callbacks(for event: SessionEvent, context: Context) -> [VideoSDKCallback] {
    var output: [VideoSDKCallback] = []
    appendCallbacks(for: event, context: context, to: &output)
    return output
  }

  /// Appends the callbacks an applied event fires to `output`, in order; see
  /// ``callbacks(for:context:)``. Lets a hot loop reuse one buffer.
  public static func appendCallbacks(
    for event: SessionEvent, context: Context, to output: inout [VideoSDKCallback]
  ) {
    switch event {
    case .initialized, .cleanedUp, .joinRequested, .leaveRequested:
      break

    case .sessionJoined(let snapshot):
      guard context.phaseBefore == .joining else { break }
      output.append(.onSessionJoin)
      let ids = snapshot.participants.sorted { $0.joinOrder < $1.joinOrder }.map(\.id)
      output.append(.onUserJoin(ids))

    case .joinFailed(let error):
      output.append(.onError(error, detail: 0))

    case .sessionLeft(let reason):
      for owner in context.annotationHelperOwners.sorted() {
        output.append(.onAnnotationHelperCleanUp(shareOwner: owner))
      }
      output.append(.onSessionLeave(reason))
      output.append(.onSessionLeaveLegacy)

    case .usersJoined(let users):
      output.append(.onUserJoin(users.map(\.id)))

    case .usersLeft(let ids):
      for share in context.endedShares {
        output.append(.onUserShareStatusChanged(share.owner, .stopped, share.kind))
        if context.annotationHelperOwners.contains(share.owner) {
          output.append(.onAnnotationHelperCleanUp(shareOwner: share.owner))
        }
      }
      output.append(.onUserLeave(ids))

    case .videoStatusChanged(let user, _):
      output.append(.onUserVideoStatusChanged([user]))

    case .audioStatusChanged(let user, _, _):
      output.append(.onUserAudioStatusChanged([user]))

    case .activeSpeakersChanged(let speakers):
      output.append(.onUserActiveAudioChanged(speakers))

    case .hostAskedUnmute:
      output.append(.onHostAskUnmute)

    case .shareStatusChanged(let user, let status, let kind):
      output.append(.onUserShareStatusChanged(user, status, kind))
      if status == .stopped, context.annotationHelperOwners.contains(user) {
        output.append(.onAnnotationHelperCleanUp(shareOwner: user))
      }

    case .shareSettingChanged(let setting):
      output.append(.onShareSettingChanged(setting))

    case .hostChanged(let newHost):
      output.append(.onUserHostChanged(newHost))

    case .managerChanged(let user, _):
      output.append(.onUserManagerChanged(user))

    case .nameChanged(let user, _):
      output.append(.onUserNameChanged(user))

    case .annotationStarted, .annotationStopped, .annotationCleared:
      break

    case .annotationPrivilegeChanged(let owner, let disabled):
      guard context.myself != owner else { break }
      output.append(.onAnnotationPrivilegeChangeWithUser(owner, isEnabled: !disabled))
      output.append(.onAnnotationPrivilegeChange(enable: !disabled, shareOwner: owner))

    case .chatMessageReceived(let message):
      output.append(.onChatNewMessageNotify(message))

    case .chatMessageDeleted(let messageID, let deletedBy):
      output.append(.onChatMsgDeleteNotification(messageID: messageID, deleteBy: deletedBy))

    case .chatPrivilegeChanged(let privilege):
      output.append(.onChatPrivilegeChanged(privilege))

    case .networkStatusChanged(let user, let quality):
      output.append(.onUserOverallNetworkStatusChanged(quality, user: user))

    case .errorOccurred(let error, let detail):
      output.append(.onError(error, detail: detail))
    }
  }
}
