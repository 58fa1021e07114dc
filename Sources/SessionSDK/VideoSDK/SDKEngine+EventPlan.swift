import SessionCore

extension SDKEngine {
  /// Everything the engine does for one event besides the reducer and the callback mapping,
  /// decided in one place: ``init(_:)`` is the only switch over ``SessionCore/SessionEvent``
  /// that says what an event needs, and `apply(_:as:)` carries out the plan step by step.
  ///
  /// Most events are `plain`: the events of a session's steady state (video, audio, speakers,
  /// names, roles, host, share setting, chat, network, joins) need no state from before them
  /// in the callback context, no annotation helper owners and no step, and skip all of it on
  /// every delivery (Decision 0008). The others say what to capture and what to do before the
  /// reducer, after it, and after their callbacks.
  ///
  /// > Important: A value made and used by one engine, in its isolation domain.
  enum EventPlan {
    /// The steady state: an empty context and no step.
    case plain
    /// Everything else: the context and the steps. Boxed, so that a plan is one word and the
    /// steady state's costs nothing to make, pass and drop (the steps carry a snapshot).
    indirect case bookkept(Bookkeeping)

    /// What an event needs beyond the steady state.
    struct Bookkeeping {
      /// An event of the instance's own lifecycle, which the service never sends in a batch or
      /// a notice.
      var isLifecycle = false
      /// Whether its callbacks read the state before it: the phase and the resync facts
      /// (`sessionJoined`), the leavers' shares (`usersLeft`), the local user
      /// (`annotationPrivilegeChanged`). It must agree with what ``CallbackMapping`` reads from
      /// its context; a test checks every kind.
      var readsStateBefore = false
      /// Before the reducer.
      var before = Before.nothing
      /// After the reducer, before the callbacks.
      var afterReduce = AfterReduce.nothing
      /// After the callbacks.
      var afterCallbacks = AfterCallbacks.nothing
    }

    /// Before the reducer: what handles and share actions must still answer once the event
    /// removed it from the replica.
    enum Before {
      case nothing
      /// The participants and shares of users who leave.
      case leavers([UserID])
      /// The share of an owner who stops sharing.
      case stoppedShare(owner: UserID)
      /// In a resync, the users gone while the link was down.
      case resync(SessionSnapshot)
      /// Everyone, as the session ends.
      case everyone
    }

    /// After the reducer, before the callbacks: the local-only state beside the replica that
    /// follows the event (annotation helpers, commands awaiting a possible refusal).
    enum AfterReduce {
      case nothing
      /// A share started: if it is the local user's, a refusal can no longer come.
      case shareStarted(by: UserID)
      /// Annotation started: if by the local user, a refusal can no longer come.
      case annotationStarted(by: UserID, owner: UserID)
      /// Annotation stopped: if by the local user, its helper is stopped.
      case annotationStopped(by: UserID, owner: UserID)
      /// Viewer annotation disabled: a viewer's helper is stopped.
      case viewerAnnotationDisabled(owner: UserID)
      /// Annotations cleared: the helper follows.
      case annotationCleared(by: UserID, owner: UserID, AnnotationClearType)
    }

    /// After the callbacks: what the event ended.
    enum AfterCallbacks {
      case nothing
      /// The handles and subscriptions of users who left.
      case forget([UserID])
      /// The session and everything local to it.
      case endSession(SDKLifecycle.Ending)
    }

    /// The plan for `event`.
    @inline(__always)
    init(_ event: SessionEvent) {
      switch event {
      case .videoStatusChanged, .audioStatusChanged, .activeSpeakersChanged, .hostAskedUnmute,
        .shareSettingChanged, .hostChanged, .managerChanged, .nameChanged, .usersJoined,
        .chatMessageReceived, .chatMessageDeleted, .chatPrivilegeChanged, .networkStatusChanged,
        .commandReceived, .spotlightChanged:
        self = .plain
      case .initialized, .cleanedUp, .joinRequested, .leaveRequested:
        self = .bookkept(Bookkeeping(isLifecycle: true))
      case .sessionJoined(let snapshot):
        self = .bookkept(
          Bookkeeping(isLifecycle: true, readsStateBefore: true, before: .resync(snapshot)))
      case .joinFailed(let error):
        self = .bookkept(
          Bookkeeping(isLifecycle: true, afterCallbacks: .endSession(.joinFailed(error))))
      case .sessionLeft(let reason):
        self = .bookkept(
          Bookkeeping(
            isLifecycle: true, before: .everyone, afterCallbacks: .endSession(.left(reason))))
      case .usersLeft(let ids):
        self = .bookkept(
          Bookkeeping(readsStateBefore: true, before: .leavers(ids), afterCallbacks: .forget(ids)))
      case .shareStatusChanged(let owner, .stopped, _):
        self = .bookkept(Bookkeeping(before: .stoppedShare(owner: owner)))
      case .shareStatusChanged(let user, .started, _):
        self = .bookkept(Bookkeeping(afterReduce: .shareStarted(by: user)))
      case .shareStatusChanged:
        self = .bookkept(Bookkeeping())
      case .annotationStarted(let user, let owner):
        self = .bookkept(Bookkeeping(afterReduce: .annotationStarted(by: user, owner: owner)))
      case .annotationStopped(let user, let owner):
        self = .bookkept(Bookkeeping(afterReduce: .annotationStopped(by: user, owner: owner)))
      case .annotationPrivilegeChanged(let owner, let disabled):
        self = .bookkept(
          Bookkeeping(
            readsStateBefore: true,
            afterReduce: disabled ? .viewerAnnotationDisabled(owner: owner) : .nothing))
      case .annotationCleared(let user, let owner, let type):
        self = .bookkept(
          Bookkeeping(afterReduce: .annotationCleared(by: user, owner: owner, type)))
      case .errorOccurred:
        self = .bookkept(Bookkeeping())
      case .subSession:
        // Who the local user sees before and after a move.
        self = .bookkept(Bookkeeping(readsStateBefore: true))
      case .recording:
        // Whether the local user is asked to agree: their role and consent before.
        self = .bookkept(Bookkeeping(readsStateBefore: true))
      }
    }

    /// Whether the event takes the steady-state path.
    @inline(__always)
    var isPlain: Bool {
      if case .plain = self { return true }
      return false
    }

    /// Whether the event is the instance's own lifecycle, which the service never sends.
    @inline(__always)
    var isLifecycle: Bool {
      guard case .bookkept(let bookkeeping) = self else { return false }
      return bookkeeping.isLifecycle
    }
  }
}
