import SessionCore
import SessionSDK

/// One peer of a run: its spec, its SDK instance (a fresh one after each kill), what its
/// callbacks said, and the invariant violations its replica showed.
///
/// > Important: Confined to the world's domain, like the SDK instance it holds; `@unchecked
/// > Sendable` only so that the world's scheduled work (which runs there) can carry it.
final class SimulatedPeer: @unchecked Sendable {
  /// Where the peer's process is.
  enum Life: Sendable, Equatable {
    /// Running.
    case alive
    /// Stopped; resumes later.
    case paused
    /// Killed; a restart makes a fresh instance.
    case dead
  }

  let name: String
  let spec: PeerSpec
  /// The peer's place in the run's peer list: its trace id.
  let index: Int
  private(set) var sdk: VideoSDK
  var life: Life = .alive
  /// Whether the peer wants to be in the session (it joined and did not leave on purpose).
  var wantsSession = false
  /// How many times the peer's instance was replaced by a restart.
  private(set) var incarnation = 0
  // `monitor`, `callbackCount`, `joinRetries` and `lastUserID` are written on every callback,
  // on the world's domain, never within another access to them (a callback does not re-enter
  // its peer's observer): their dynamic exclusivity checks, a tenth of a thousand-peer run's
  // callback cost, are off.
  /// The delivery checks of the peer's callbacks: its column of the run's ledger.
  @exclusivity(unchecked) private(set) var monitor: DeliveryMonitor
  /// Violations of the replica's invariants, with the event after which they showed.
  var invariantProblems: [String] = []
  /// Callbacks seen, all incarnations.
  @exclusivity(unchecked) private(set) var callbackCount = 0
  /// The peer's annotation helper, once it started annotating.
  var annotationHelper: AnnotationHelper?
  /// What the peer shares and renders into: a stand-in for a view.
  let screen = SimulatedScreen()
  /// Whether the peer's synthetic microphone hears speech.
  var isTalking = false
  /// The views showing other users' video, by user (media runs).
  var canvases: [UserID: CanvasView] = [:]
  /// The view showing a share, and whose.
  var shareCanvas: (owner: UserID, view: CanvasView)?
  /// The media clock when the instance first joined, µs (media runs).
  var mediaStartedAt: Int64?
  private let makeInstance: (SimulatedPeer) -> VideoSDK

  init(
    name: String, spec: PeerSpec, index: Int, ledger: DeliveryLedger,
    makeInstance: @escaping (SimulatedPeer) -> VideoSDK
  ) {
    self.name = name
    self.monitor = DeliveryMonitor(ledger: ledger, column: index)
    self.spec = spec
    self.index = index
    self.makeInstance = makeInstance
    self.sdk = VideoSDK()
    self.sdk = makeInstance(self)
  }

  /// A fresh instance after a kill: nothing of the old one's state survives.
  func reincarnate() {
    incarnation += 1
    monitor.reset()
    commandsReceived = 0
    broadcastsReceived = 0
    helpRequests = []
    recordingPrompts = 0
    annotationHelper = nil
    isTalking = false
    canvases = [:]
    shareCanvas = nil
    mediaStartedAt = nil
    wantsSession = false
    rejoinsByBehaviour = false
    sdk = makeInstance(self)
  }

  /// Whether the peer can act now: alive and running.
  var canAct: Bool { life == .alive }

  /// Whether a behaviour made the peer leave and will bring it back.
  var rejoinsByBehaviour = false
  /// Joins retried since the last success.
  @exclusivity(unchecked) var joinRetries = 0
  /// The user id the service gave this peer's newest join.
  @exclusivity(unchecked) private(set) var lastUserID: UserID?

  /// The peer's user id: its replica's, or the last one it had.
  var userID: UserID? { sdk.store.current.myselfID ?? lastUserID }

  /// Whether the instance is in the session.
  var isInSession: Bool { sdk.isInSession() }

  /// Records one callback of the current instance.
  /// Command-channel commands received in this life.
  var commandsReceived = 0
  /// Subsession broadcasts received in this life.
  var broadcastsReceived = 0
  /// Help requests heard (as the host) and not answered yet, oldest first.
  var helpRequests: [(requester: UserID, subSessionID: String)] = []
  /// Recording consent prompts received and not answered yet.
  var recordingPrompts = 0
  /// The app code attached to the current instance (`RunOptions.appDelegate`), kept alive
  /// here: an instance holds its delegate weakly.
  var appDelegate: (any VideoSDKDelegate)?

  func observe(_ callback: VideoSDKCallback, checksDelivery: Bool) {
    callbackCount += 1
    switch callback {
    case .onCommandReceived: commandsReceived += 1
    case .onBroadcastMessageFromMainSession: broadcastsReceived += 1
    case .onCloudRecordingStatus(_, true): recordingPrompts += 1
    case .onSubSessionUserHelpRequestHandler(let requester, let subSessionID):
      helpRequests.append((requester, subSessionID))
    default: break
    }
    if case .onSessionJoin = callback {
      lastUserID = sdk.store.current.myselfID
      joinRetries = 0
    }
    if checksDelivery { monitor.observe(callback) }
  }
}

/// A headless stand-in for the view a peer shares or renders into.
final class SimulatedScreen {}
