import SessionCore
import SessionTransport
import Synchronization

/// The engine behind a ``VideoSDK``: the replica, the link, the pump and every helper's
/// state. Everything in the SDK talks to it; the public ``VideoSDK`` only forwards.
///
/// The engine is split from its facade so that the link's handler can hold it strongly (no
/// weak load per delivery, Decision 0008) without a cycle outliving the app's interest: the
/// facade's `deinit` closes the link, which drops the handler and with it the engine.
///
/// > Important: Not `Sendable`. Confined to the isolation domain of its facade, with every
/// > object it hands out; its link delivers on that domain.
final class SDKEngine: LinkLookahead {
  /// The instance's replica of its session: observe it to drive UI without a delegate.
  ///
  /// The same store lives as long as the instance, across sessions and ``cleanup()``.
  let store: SessionStore

  // The properties every applied event reads come first and together, so that they share a
  // few cache lines: a simulation runs a thousand instances in one process, and each event
  // visits every one of them.
  //
  // Unchecked exclusivity (on these and the link's): an instance is confined to one
  // isolation domain, and each of these is read or written in one step, never held across a
  // call out to a delegate, an observer or a link, so no two accesses overlap. The dynamic
  // checks cost more than the work they guard on the per-event path, as in SessionStore
  // (Decision 0006).

  /// Receives callbacks; held weakly, as in the SDK.
  @exclusivity(unchecked) weak var delegate: (any VideoSDKDelegate)?

  /// Sees every callback as a value, just before the delegate gets it, whether or not there
  /// is a delegate. For recorders and test support.
  @exclusivity(unchecked) var callbackObserver: ((VideoSDKCallback) -> Void)?

  @exclusivity(unchecked) var isPumping = false
  @exclusivity(unchecked) var inboxHead = 0
  @exclusivity(unchecked) var inbox: [Work] = []
  @exclusivity(unchecked) var linkGeneration: UInt64 = 0
  /// The sequence number of the last service event applied in the current (or last) session;
  /// events numbered at or below it are dropped as duplicates.
  @exclusivity(unchecked) var lastServiceSequence: UInt64 = 0
  /// The current session's user handles, here rather than in the ``Session`` so that
  /// callbacks reach them with no object in between (see `UserHandles`). Empty outside a
  /// session; a session that ends takes its handles with it.
  @exclusivity(unchecked) var handles = UserHandles()
  /// The one-id lists of video and audio callbacks, reused (see `CallbackMapping`).
  @exclusivity(unchecked) var oneUserIDs: [UserID] = []
  @exclusivity(unchecked) var annotationHelpers: [UserID: AnnotationHelper] = [:]
  @exclusivity(unchecked) var pendingCommands: [CommandID: PendingCommand] = [:]

  /// What the objects this engine hands out hold instead of a weak reference to it.
  let reference = EngineReference()

  // The helpers are made with the instance (callbacks hand them out on every event; a `lazy`
  // property would check exclusivity on each read) and pointed back at it in `init`.
  let videoHelper = VideoHelper()
  let audioHelper = AudioHelper()
  let userHelper = UserHelper()
  let shareHelper = ShareHelper()
  let chatHelper = ChatHelper()

  // Read by fewer events, or only by commands and the lifecycle.

  @exclusivity(unchecked) var currentSession: Session? {
    didSet {
      // The handles move with the session: the one that ends keeps its own, the one that
      // starts lends its own to the engine.
      guard oldValue !== currentSession else { return }
      oldValue?.ownHandles = handles
      if let currentSession {
        handles = currentSession.ownHandles
        currentSession.ownHandles = UserHandles()
      } else {
        handles = UserHandles()
      }
    }
  }
  @exclusivity(unchecked) var link: (any SessionLink)?
  /// A copy of `link` that the facade's `deinit` may take from any thread.
  let linkForRelease = Mutex<LinkBox?>(nil)

  /// Receives every log line.
  @exclusivity(unchecked) var logHandler: ((SDKLogRecord) -> Void)?

  /// The most recent log lines (up to 256), kept when ``InitParams/enableLog`` is on.
  @exclusivity(unchecked) var recentLogs: [SDKLogRecord] = []

  /// Counts of duplicate, missing and rejected service input.
  @exclusivity(unchecked) var diagnostics = LinkDiagnostics()

  struct Configuration {
    var domain: String
    var enableLog: Bool
    var transport: any SessionLinkFactory
    var limits: SessionLimits
    var reconnectAttempts: Int
  }

  enum PendingCommand {
    case startShare
    case startAnnotation(shareOwner: UserID)
  }

  enum Work {
    case local(SessionEvent)
    case message(ServerMessage, generation: UInt64)
    case linkClosed(LinkCloseReason, generation: UInt64)
    case callback(VideoSDKCallback, view: WeakView)
    case replay(SessionEvent, ReplayResult)
  }

  @exclusivity(unchecked) var configuration: Configuration?
  let clock: ClockBox
  @exclusivity(unchecked) var resumeToken: UInt64?
  /// Resume attempts made since the link last failed; reset when a resume succeeds.
  @exclusivity(unchecked) var reconnectAttemptsMade = 0
  /// Whether the current link was opened to resume a membership.
  @exclusivity(unchecked) var isResuming = false
  @exclusivity(unchecked) var holdsLinkClosures = false
  @exclusivity(unchecked) var heldLinkClosure: LinkCloseReason?
  @exclusivity(unchecked) var nextCommandID: CommandID = 0
  @exclusivity(unchecked) var passwordPrompt: UInt64 = 0
  @exclusivity(unchecked) var isPasswordPromptOpen = false
  @exclusivity(unchecked) var subscriptions = CanvasSubscriptions()
  @exclusivity(unchecked) var lastInAppShareStart: Int64?
  weak var annotationView: AnyObject?

  /// Creates an uninitialized instance.
  init() {
    let clock = ClockBox()
    self.clock = clock
    store = SessionStore(now: { clock.now() })
    reference.object = self
    videoHelper.reference = reference
    audioHelper.reference = reference
    userHelper.reference = reference
    shareHelper.reference = reference
    chatHelper.reference = reference
  }

  deinit {
    reference.object = nil
    // The session the app may still hold keeps the handles its callbacks gave out, and they
    // answer as last known, as after the session ends.
    guard let currentSession else { return }
    let participants = store.state.participants
    for user in handles.all {
      if let participant = participants[user.id] { user.lastKnown = participant }
    }
    currentSession.ownHandles = handles
  }

  /// Whether ``initialize(_:)`` succeeded and ``cleanup()`` has not run since.
  var isInitialized: Bool { configuration != nil }

  // MARK: Lifecycle

  /// ``VideoSDK/initialize(_:)``.
  @discardableResult
  func initialize(_ params: InitParams) -> VideoSDKError {
    guard configuration == nil else { return .wrongUsage }
    guard !params.domain.isEmpty else { return .invalidParameter }
    let transport = params.transport ?? DevelopmentService.network(forDomain: params.domain)
    configuration = Configuration(
      domain: params.domain, enableLog: params.enableLog, transport: transport,
      limits: params.limits, reconnectAttempts: max(0, params.reconnectAttempts))
    clock.now = params.clock
    submit(.local(.initialized))
    log(.info, "initialized for \(params.domain)")
    return .success
  }

  /// ``VideoSDK/cleanup()``.
  @discardableResult
  func cleanup() -> VideoSDKError {
    guard configuration != nil else { return .uninitialize }
    guard link == nil, !store.state.phase.acceptsSessionEvents, store.state.phase != .joining
    else { return .wrongUsage }
    submit(.local(.cleanedUp))
    configuration = nil
    currentSession = nil
    annotationHelpers.removeAll()
    subscriptions.removeAll()
    pendingCommands.removeAll()
    lastInAppShareStart = nil
    annotationView = nil
    clock.now = { 0 }
    return .success
  }

  /// ``VideoSDK/joinSession(_:)``: checks the context, then opens a link and sends the join.
  @discardableResult
  func joinSession(_ context: SessionContext) -> Session? {
    guard let configuration else { return nil }
    if link != nil || !store.state.phase.canJoin {
      log(.warning, "joinSession while \(store.state.phase)")
      submit(.local(.errorOccurred(error: .sessionAlreadyInProgress, detail: 0)))
      return nil
    }
    let userName = configuration.limits.userName(context.userName)
    let password = context.sessionPassword.flatMap { $0.isEmpty ? nil : $0 }
    if let error = Self.validate(context, password: password, limits: configuration.limits) {
      log(.info, "join refused locally: \(error.sdkName)")
      submit(.local(.joinRequested(sessionName: context.sessionName, userName: userName)))
      submit(.local(.joinFailed(error: error)))
      return nil
    }
    let session = Session(sdk: self, name: context.sessionName, password: password)
    currentSession = session
    lastServiceSequence = 0
    resumeToken = nil
    pendingCommands.removeAll()
    submit(.local(.joinRequested(sessionName: context.sessionName, userName: userName)))
    let request = JoinRequest(
      sessionName: context.sessionName,
      userName: userName,
      token: context.token,
      password: password,
      connectAudio: context.audioOption.connect,
      muteAudio: context.audioOption.mute,
      videoOn: context.videoOption.localVideoOn,
      idleTimeoutMinutes: context.sessionIdleTimeoutMins)
    let link = openLink(configuration.transport)
    link.send(.join(request))
    return session
  }

  /// ``VideoSDK/leaveSession(_:)``.
  @discardableResult
  func leaveSession(_ end: Bool) -> VideoSDKError {
    guard configuration != nil else { return .uninitialize }
    switch store.state.phase {
    case .inSession:
      break
    case .leaving:
      return .sessionDisconnecting
    default:
      return .notInSession
    }
    guard let link else { return .notInSession }
    submit(.local(.leaveRequested))
    nextCommandID &+= 1
    link.send(.command(nextCommandID, .leave(end: end)))
    return .success
  }

  /// The session being joined or in progress; `nil` once it ended.
  func getSession() -> Session? { currentSession }

  /// Whether the local user is in a session.
  func isInSession() -> Bool { store.state.phase == .inSession }
}
