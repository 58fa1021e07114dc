import SessionCore
import SessionTransport

/// One SDK instance: `ZoomVideoSDK`, as an object you can make many of.
///
/// Each instance is one member of (at most) one session at a time. It reaches a session
/// service through the link factory given to ``initialize(_:)``, keeps its replica of the
/// session in ``store``, and reports what happens to its ``delegate`` through the callbacks
/// that the SDK derives from each applied event.
///
/// ```swift
/// let sdk = VideoSDK()
/// sdk.initialize(InitParams(domain: "zoom.us", transport: network))
/// sdk.delegate = viewModel
/// let session = sdk.joinSession(SessionContext(token: jwt, sessionName: "Algebra101",
///                                              userName: "Ada"))
/// ```
///
/// Seed code that reaches for the singleton, `ZoomVideoSDK.shareInstance()?.getSession()…`,
/// ports as `VideoSDK.shareInstance()?.getSession()…`.
///
/// Everything before a successful ``initialize(_:)`` returns `Errors_Uninitialize` (and
/// ``joinSession(_:)`` returns `nil`). Helper calls that change the session check the shared
/// permission rules (``SessionCore/SessionState/authorize(_:by:)``) first, return the SDK's
/// error at once when they fail, and otherwise send a command; the replica changes only when
/// the service's events come back (or by the instance's own lifecycle events). The service
/// may still refuse; that arrives as ``VideoSDKDelegate/onError(_:detail:)`` with the command's
/// id as detail.
///
/// Letting go of an instance in a session closes its link: the service sees the connection
/// close, as when a peer's process dies, and the other members see the user leave after the
/// reconnect grace (Decision 0004). Call ``leaveSession(_:)`` first to leave at once.
///
/// > Important: Not `Sendable`. An instance, and every object it hands out (``Session``,
/// > ``User``, helpers), is confined to the isolation domain that created it, usually the main
/// > actor. Its link must deliver on that domain too. Callbacks may fire before the call that
/// > caused them returns when the link delivers synchronously (as `InProcessNetwork` does in
/// > immediate mode).
public final class VideoSDK {
  // Everything lives in the engine; this object is what the app holds, so that its `deinit`
  // can end the engine's membership (see `SDKEngine` and Decision 0008).
  let engine = SDKEngine()

  /// The shared instance, for code written against the SDK's singleton.
  @MainActor public static let shared = VideoSDK()

  /// The shared instance, as `ZoomVideoSDK.shareInstance()` returns it: ``shared``, or inside
  /// `withSharedInstance(_:_:)` the instance that scope gave (so that many copies of
  /// app code written for the singleton run side by side, each on its own instance).
  ///
  /// - Returns: The scope's instance (`nil` only if it has been released), else ``shared``.
  @MainActor public static func shareInstance() -> VideoSDK? {
    guard let scope = SharedInstanceScope.current else { return shared }
    return scope.instance
  }

  /// Runs `body` with ``shareInstance()`` returning `instance`: in `body`, in every task it
  /// starts (tasks inherit the scope), and from now on in every callback `instance` delivers,
  /// wherever the link delivers it from. Use one scope per copy of app code written for the
  /// SDK's singleton, to run many copies in one process (tests, simulations):
  ///
  /// ```swift
  /// for name in ["Ada", "Bob", "Cy"] {
  ///   let sdk = VideoSDK()
  ///   VideoSDK.withSharedInstance(sdk) {
  ///     let viewModel = SessionViewModel()   // calls ZoomVideoSDK.shareInstance() inside
  ///     viewModel.setupSDK()
  ///     viewModel.joinSession(as: name)
  ///   }
  /// }
  /// ```
  ///
  /// Code outside every scope still gets ``shared``.
  ///
  /// - Parameters:
  ///   - instance: The instance `shareInstance()` returns in the scope.
  ///   - body: The code to run.
  /// - Returns: What `body` returns.
  /// - Throws: What `body` throws.
  @MainActor
  public static func withSharedInstance<R>(_ instance: VideoSDK, _ body: () throws -> R) rethrows
    -> R
  {
    try SharedInstanceScope.$current.withValue(instance.engine.sharedScope(of: instance)) {
      try body()
    }
  }

  /// Runs `body` with ``shareInstance()`` returning `instance`, as the synchronous
  /// `withSharedInstance(_:_:)` does, across its suspensions.
  ///
  /// - Parameters:
  ///   - instance: The instance `shareInstance()` returns in the scope.
  ///   - body: The code to run.
  /// - Returns: What `body` returns.
  /// - Throws: What `body` throws.
  @MainActor
  public static func withSharedInstance<R>(
    _ instance: VideoSDK, _ body: @MainActor () async throws -> R
  ) async rethrows -> R {
    try await SharedInstanceScope.$current.withValue(instance.engine.sharedScope(of: instance)) {
      try await body()
    }
  }

  /// Makes the instance the shared one (``shareInstance()``) in every callback it delivers,
  /// as a first ``withSharedInstance(_:_:)`` does, from any isolation: for tools that run copies
  /// of app code on instances they make (simulated peers).
  package func becomeSharedInstanceInCallbacks() {
    _ = engine.sharedScope(of: self)
  }

  /// Creates an uninitialized instance.
  public init() {}

  deinit {
    engine.ownerReleased()
  }

  /// The instance's replica of its session: observe it to drive UI without a delegate.
  ///
  /// The same store lives as long as the instance, across sessions and ``cleanup()``.
  public var store: SessionStore { engine.store }

  /// Receives callbacks; held weakly, as in the SDK.
  public var delegate: (any VideoSDKDelegate)? {
    get { engine.delegate }
    set { engine.delegate = newValue }
  }

  /// Sees every callback as a value, just before the delegate gets it, whether or not there
  /// is a delegate. For recorders and test support.
  public var callbackObserver: ((VideoSDKCallback) -> Void)? {
    get { engine.callbackObserver }
    set { engine.callbackObserver = newValue }
  }

  /// The sequence number of the last service event applied in the current (or last) session;
  /// events numbered at or below it are dropped as duplicates.
  public var lastServiceSequence: UInt64 { engine.serviceSequence }

  /// Receives every log record (label `"sdk"`, stamped with the instance's clock), in the
  /// engine's one record shape; ``SessionCore/InMemoryLogHandler`` keeps them for tests.
  public var logHandler: LogHandler? {
    get { engine.logHandler }
    set { engine.logHandler = newValue }
  }

  /// The most recent log lines (up to 256), kept when ``InitParams/enableLog`` is on.
  public var recentLogs: [LogRecord] { engine.recentLogs }

  /// Counts of duplicate, missing and rejected service input.
  public var diagnostics: LinkDiagnostics { engine.diagnostics }

  /// Counts of what the media plane received but could not use, over every session of the
  /// instance; all zero with no media plane.
  public var mediaDiagnostics: MediaDiagnostics { engine.mediaDiagnostics }

  /// What the current session's media plane received (or the last session's, once it ended):
  /// per stream, and the one-way delays. For a simulation's run summary.
  package var mediaFigures: MediaFigures { engine.mediaFigures }

  /// The engine's version string.
  ///
  /// - Returns: The version, for example `"SessionEngine 0.1"`.
  public func getSDKVersion() -> String { "SessionEngine 0.1" }

  /// Whether ``initialize(_:)`` succeeded and ``cleanup()`` has not run since.
  public var isInitialized: Bool { engine.isInitialized }

  // MARK: Lifecycle

  /// Makes the instance ready: must come before anything else.
  ///
  /// - Parameter params: The domain, the transport that reaches the session service, and
  ///   logging and media settings.
  /// - Returns: `Errors_Success`; `Errors_Invalid_Parameter` when the domain is empty or there
  ///   is no transport; `Errors_Wrong_Usage` when already initialized (nothing changes).
  @discardableResult
  public func initialize(_ params: InitParams) -> VideoSDKError { engine.initialize(params) }

  /// Returns the instance to before ``initialize(_:)``: the replica empties, helpers and
  /// subscriptions are released. The delegate stays.
  ///
  /// - Returns: `Errors_Success`; `Errors_Uninitialize` before ``initialize(_:)``;
  ///   `Errors_Wrong_Usage` while joining, in a session or leaving (leave first).
  @discardableResult
  public func cleanup() -> VideoSDKError { engine.cleanup() }

  /// Joins (or creates) a session.
  ///
  /// The context is checked before anything is sent; a failure returns `nil` and reports the
  /// error through ``VideoSDKDelegate/onError(_:detail:)`` (empty session name 1500, empty
  /// token 1501, empty user name 1502, characters outside the documented set 1503, a password
  /// over 10 characters or not printable ASCII 1504, a session name over 150 characters
  /// 1506). User names over 200 characters are truncated. Joining while joining or in a
  /// session returns `nil` and reports `Errors_Session_Already_In_Progress`, changing nothing
  /// else.
  ///
  /// The outcome arrives later: ``VideoSDKDelegate/onSessionJoin()`` then
  /// ``VideoSDKDelegate/onUserJoin(_:users:)`` with everyone present, or
  /// ``VideoSDKDelegate/onError(_:detail:)``.
  ///
  /// - Parameter context: The token, session name, user name, password and audio and video
  ///   options; copied, so later changes have no effect.
  /// - Returns: The session object, or `nil` when the join could not start.
  @discardableResult
  public func joinSession(_ context: SessionContext) -> Session? { engine.joinSession(context) }

  /// Leaves the session; with `end` true the host ends it for everyone (anyone else just
  /// leaves, per engine policy).
  ///
  /// The outcome arrives as ``VideoSDKDelegate/onSessionLeave(_:)``.
  ///
  /// - Parameter end: `true` to end the session for everyone if you are host; `false` to leave.
  /// - Returns: `Errors_Success`; `Errors_Uninitialize` before ``initialize(_:)``;
  ///   `Errors_Session_Disconnecting` when already leaving; `Errors_Not_In_Session` otherwise.
  @discardableResult
  public func leaveSession(_ end: Bool) -> VideoSDKError { engine.leaveSession(end) }

  /// The session being joined or in progress; `nil` once it ended.
  ///
  /// - Returns: The current session; `nil` before joining and once it ended.
  public func getSession() -> Session? { engine.getSession() }

  /// Whether the local user is in a session.
  ///
  /// - Returns: `true` once the join completed and until leaving starts; `false` otherwise.
  public func isInSession() -> Bool { engine.isInSession() }

  // MARK: Helpers
  //
  // Each getter returns an implicitly unwrapped optional, as the SDK's Objective-C header
  // imports into Swift: app code that chains `getShareHelper()?.lockShare(false)` (seed 001,
  // Zoom's own docs) and code that calls `getVideoHelper().startVideo()` both compile. Here it
  // is never `nil`.

  // swift-format-ignore: NeverUseImplicitlyUnwrappedOptionals
  /// The video helper (camera on and off).
  ///
  /// - Returns: The instance's video helper, the same object on every call.
  public func getVideoHelper() -> VideoHelper! { engine.videoHelper }
  // swift-format-ignore: NeverUseImplicitlyUnwrappedOptionals
  /// The audio helper (connect, mute, unmute).
  ///
  /// - Returns: The instance's audio helper, the same object on every call.
  public func getAudioHelper() -> AudioHelper! { engine.audioHelper }
  // swift-format-ignore: NeverUseImplicitlyUnwrappedOptionals
  /// The share helper (share, lock, multi-share, annotation helpers).
  ///
  /// - Returns: The instance's share helper, the same object on every call.
  public func getShareHelper() -> ShareHelper! { engine.shareHelper }
  // swift-format-ignore: NeverUseImplicitlyUnwrappedOptionals
  /// The user helper (roles, names, removal).
  ///
  /// - Returns: The instance's user helper, the same object on every call.
  public func getUserHelper() -> UserHelper! { engine.userHelper }
  // swift-format-ignore: NeverUseImplicitlyUnwrappedOptionals
  /// The chat helper.
  ///
  /// - Returns: The instance's chat helper, the same object on every call.
  public func getChatHelper() -> ChatHelper! { engine.chatHelper }
  // swift-format-ignore: NeverUseImplicitlyUnwrappedOptionals
  /// The command channel (``CmdChannel``): commands to one member or to everyone.
  ///
  /// - Returns: The instance's command channel, the same object on every call.
  public func getCmdChannel() -> CmdChannel! { engine.cmdChannel }
  // swift-format-ignore: NeverUseImplicitlyUnwrappedOptionals
  /// The cloud-recording helper (``RecordingHelper``): the status and the consent; no
  /// recording is made.
  ///
  /// - Returns: The instance's recording helper, the same object on every call.
  public func getRecordingHelper() -> RecordingHelper! { engine.recordingHelper }
  // swift-format-ignore: NeverUseImplicitlyUnwrappedOptionals
  /// The subsession helper (``SubSessionHelper``), for the host and managers only, as in the
  /// SDK (lower-case "s" in `getsub…`).
  ///
  /// - Returns: The instance's subsession helper while the local user is the host or a
  ///   manager in a session; `nil` otherwise.
  public func getsubSessionHelper() -> SubSessionHelper! {
    let state = engine.store.state
    guard state.phase == .inSession, let me = state.myself, me.role != .participant else {
      return nil
    }
    return engine.subSessionHelper
  }

  /// Whether the local user is in the main session or a subsession (`getSessionType`).
  ///
  /// - Returns: `.sub` while the local user is in a subsession, `.main` otherwise.
  public func getSessionType() -> SessionType {
    let state = engine.store.state
    guard let me = state.myselfID, state.subSessions.rooms[me] != nil else { return .main }
    return .sub
  }

  /// How many views show video now (local-only).
  public var videoSubscriptionCount: Int { engine.videoSubscriptionCount }

  // MARK: Test support

  /// Applies an event as if the service had sent it, firing its callbacks: for test support
  /// that replays a recorded trace into an instance with no service behind it.
  ///
  /// Lifecycle events are accepted too, so a whole trace (`initialized`, `joinRequested`,
  /// `sessionJoined`, …) replays; `joinRequested` starts a new ``Session`` object. The
  /// instance need not be initialized, and nothing is sent anywhere.
  ///
  /// - Parameter event: The event to apply, as a trace records it.
  /// - Returns: Whether the event applied; `false` also when called from inside a callback,
  ///   where the event is queued and applies after it.
  @_spi(Testing)
  @discardableResult
  public func replay(_ event: SessionEvent) -> Bool { engine.replay(event) }

  /// Whether an instance applies `event` on its fast path, with no callback context from the
  /// state before it and no local bookkeeping (see `SDKEngine.EventPlan`).
  ///
  /// - Parameter event: The event to classify.
  /// - Returns: `true` if the event takes the fast path; `false` if it needs a callback context
  ///   or local bookkeeping.
  @_spi(Testing) public static func appliesWithoutBookkeeping(_ event: SessionEvent) -> Bool {
    SDKEngine.EventPlan(event).isPlain
  }
}

/// The instance ``VideoSDK/shareInstance()`` returns in a scope
/// (`VideoSDK.withSharedInstance(_:_:)`), carried as a task-local value.
///
/// Unchecked `Sendable`: a task-local value must be `Sendable`, and the instance is not. The
/// scope only carries a weak reference to it; the reference is read only in
/// ``VideoSDK/shareInstance()``, on the main actor, where the scope was made.
final class SharedInstanceScope: @unchecked Sendable {
  /// The scope in force for the current task, if any.
  @TaskLocal static var current: SharedInstanceScope?

  /// The instance; weak, because the instance's engine keeps its scope.
  private(set) weak var instance: VideoSDK?

  init(_ instance: VideoSDK) { self.instance = instance }
}
