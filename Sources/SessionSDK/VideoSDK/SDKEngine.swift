@_spi(Package) import SessionCore
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
  /// The scope in which the delegate hears callbacks, once the instance was given as the
  /// shared instance of a scope (`VideoSDK.withSharedInstance(_:_:)`).
  var sharedInstanceScope: SharedInstanceScope?

  /// Sees every callback as a value, just before the delegate gets it, whether or not there
  /// is a delegate. For recorders and test support.
  @exclusivity(unchecked) var callbackObserver: ((VideoSDKCallback) -> Void)?

  /// Whether work is running: work submitted meanwhile waits in `inbox`.
  @exclusivity(unchecked) var isPumping = false
  /// Work submitted while other work ran, in order (see `submit(_:)`).
  @exclusivity(unchecked) var inbox = FIFO<Work>()
  /// The current link's number: closing a link moves it on, so a message or a closure from
  /// an older link is recognised by its number alone (Decision 0008).
  @exclusivity(unchecked) var linkGeneration: UInt64 = 0
  /// The sequence number of the last service event applied in the current (or last) session;
  /// events numbered at or below it are dropped as duplicates.
  @exclusivity(unchecked) var serviceSequence: UInt64 = 0
  /// The current session's user handles. The engine owns them (see `SDKEngine+Handles.swift`),
  /// here beside the other fields every event reads, so that callbacks reach them with no
  /// object in between. Empty outside a session; a session that ends keeps a read-only copy.
  @exclusivity(unchecked) var handles = UserHandles()
  /// The one-id lists of video and audio callbacks, reused (see `CallbackMapping`).
  @exclusivity(unchecked) var oneUserIDs: [UserID] = []
  /// What the instance keeps beside the replica: helpers, pending commands, canvases.
  @exclusivity(unchecked) var local = LocalBookkeeping()

  /// What the objects this engine hands out hold instead of a weak reference to it.
  let reference = EngineReference()

  // The helpers are made with the instance (callbacks hand them out on every event; a `lazy`
  // property would check exclusivity on each read) and pointed back at it in `init`.
  let videoHelper = VideoHelper()
  let audioHelper = AudioHelper()
  let userHelper = UserHelper()
  let shareHelper = ShareHelper()
  let chatHelper = ChatHelper()
  let cmdChannel = CmdChannel()
  let subSessionHelper = SubSessionHelper()
  let recordingHelper = RecordingHelper()

  // Read by fewer events, or only by commands and the lifecycle.

  /// The session being joined or in progress. A session that stops being current (it ended,
  /// or a replayed join replaced it) keeps a copy of its handles (`retire(_:)`).
  @exclusivity(unchecked) var currentSession: Session? {
    didSet {
      guard oldValue !== currentSession, let oldValue else { return }
      retire(oldValue)
    }
  }
  /// The lifecycle: what the API calls, the link and the service's lifecycle messages do.
  @exclusivity(unchecked) var lifecycle = SDKLifecycle()
  /// The open link, in every lifecycle state that has one, and `nil` in the others.
  @exclusivity(unchecked) var link: (any SessionLink)?
  /// A copy of `link` that the facade's `deinit` may take from any thread.
  let linkForRelease = Mutex<LinkBox?>(nil)

  /// Receives every log line.
  @exclusivity(unchecked) var logHandler: LogHandler?

  /// The most recent log lines (up to 256), kept when ``InitParams/enableLog`` is on.
  @exclusivity(unchecked) var recentLogs: [LogRecord] = []

  /// Counts of duplicate, missing and rejected service input.
  @exclusivity(unchecked) var diagnostics = LinkDiagnostics()

  struct Configuration {
    var domain: String
    var enableLog: Bool
    var transport: any SessionLinkFactory
    var limits: SessionLimits
    var reconnectAttempts: Int
    /// The media plane's links, if any.
    var media: (any MediaLinkFactory)?
    var mediaSettings: MediaSettings
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
    case media(MediaLinkEvent, generation: UInt64)
  }

  @exclusivity(unchecked) var configuration: Configuration?
  let clock: ClockBox

  // The media plane (`SDKEngine+Media.swift`): the session's media state, its link, and the
  // output buffer each media input reuses.

  /// The media plane: the current session's media, its link and tags, and what ended
  /// sessions left.
  @exclusivity(unchecked) var mediaPlane = MediaPlane()
  /// A copy of `mediaLink` that the facade's `deinit` may take from any thread.
  let mediaLinkForRelease = Mutex<MediaLinkBox?>(nil)

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
    cmdChannel.reference = reference
    subSessionHelper.reference = reference
    recordingHelper.reference = reference
  }

  deinit {
    reference.object = nil
    // The session the app may still hold keeps the handles its callbacks gave out, and they
    // answer as last known, as after the session ends.
    guard let currentSession else { return }
    recordLastKnown(of: handles.all)
    retire(currentSession)
  }

  /// Whether ``initialize(_:)`` succeeded and ``cleanup()`` has not run since.
  var isInitialized: Bool { configuration != nil }

  // MARK: Lifecycle

  /// ``VideoSDK/initialize(_:)``.
  @discardableResult
  func initialize(_ params: InitParams) -> VideoSDKError {
    let mediaSettings = MediaSettings(
      resolution: params.videoSendResolution, frameRate: params.videoFrameRate,
      seed: params.mediaSeed)
    switch lifecycle.initialize(
      parametersAreValid: !params.domain.isEmpty && mediaSettings != nil)
    {
    case .refuse(let error):
      return error
    case .initialize:
      break
    }
    guard let mediaSettings else { preconditionFailure("valid parameters with no settings") }
    let transport = params.transport ?? DevelopmentService.network(forDomain: params.domain)
    configuration = Configuration(
      domain: params.domain, enableLog: params.enableLog, transport: transport,
      limits: params.limits, reconnectAttempts: max(0, params.reconnectAttempts),
      media: params.media, mediaSettings: mediaSettings)
    clock.now = params.clock
    submit(.local(.initialized))
    log(.info, "initialized for \(params.domain)")
    return .success
  }

  /// ``VideoSDK/cleanup()``.
  @discardableResult
  func cleanup() -> VideoSDKError {
    switch lifecycle.cleanup(replica: store.state.phase) {
    case .refuse(let error):
      return error
    case .cleanUp:
      break
    }
    submit(.local(.cleanedUp))
    stopMedia()
    configuration = nil
    currentSession = nil
    local.annotationHelpers.removeAll()
    local.subscriptions.removeAll()
    local.pendingCommands.removeAll()
    local.lastInAppShareStart = nil
    local.commandTimes.removeAll()
    local.annotationView = nil
    clock.now = { 0 }
    return .success
  }

  /// ``VideoSDK/joinSession(_:)``: checks the context, then opens a link and sends the join.
  @discardableResult
  func joinSession(_ context: SessionContext) -> Session? {
    let limits = self.limits
    let userName = limits.userName(context.userName)
    let password = context.sessionPassword.flatMap { $0.isEmpty ? nil : $0 }
    let localError = Self.validate(context, password: password, limits: limits)
    switch lifecycle.join(replica: store.state.phase, localError: localError) {
    case .ignore:
      return nil
    case .refuse(let error):
      log(.warning, "joinSession while \(lifecycle.state)")
      submit(.local(.errorOccurred(error: error, detail: 0)))
      return nil
    case .failLocally(let error):
      log(.info, "join refused locally: \(error.sdkName)")
      submit(.local(.joinRequested(sessionName: context.sessionName, userName: userName)))
      submit(.local(.joinFailed(error: error)))
      return nil
    case .start:
      break
    }
    guard let configuration else { preconditionFailure("joining with no configuration") }
    let session = Session(sdk: self, name: context.sessionName, password: password)
    currentSession = session
    serviceSequence = 0
    local.pendingCommands.removeAll()
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
    switch lifecycle.leave(replica: store.state.phase) {
    case .refuse(let error):
      return error
    case .sendLeave:
      break
    }
    guard let link else { preconditionFailure("leaving with no link") }
    submit(.local(.leaveRequested))
    local.lastCommandID &+= 1
    link.send(.command(local.lastCommandID, .leave(end: end)))
    return .success
  }

  /// The session being joined or in progress; `nil` once it ended.
  func getSession() -> Session? { currentSession }

  /// Whether the local user is in a session.
  func isInSession() -> Bool { store.state.phase == .inSession }
}
