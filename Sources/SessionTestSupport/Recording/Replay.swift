import SessionCore
@_spi(Testing) import SessionSDK
import SessionTransport

/// What replaying into a delegate did.
///
/// > Important: Not `Sendable`: it holds the instance the replay ran on, which is confined to
/// > the isolation domain of the replay. Keep it while the delegate still reads the `User`
/// > objects it was given.
public struct DelegateReplay {
  /// The fresh instance the events were replayed into; the delegate is its delegate.
  public let sdk: VideoSDK
  /// The callbacks the delegate got, in order.
  public let callbacks: [VideoSDKCallback]
  /// The first event the instance rejected (its line in the trace's JSON Lines text), or the
  /// first callback that could not be reproduced; `nil` when everything replayed.
  public let error: TraceError?
}

/// Replays a trace's events into a store, in order.
///
/// - Parameters:
///   - trace: The events, in order.
///   - store: The store to apply them to; it should be in the state the trace starts from.
/// - Returns: The first event the store rejected, as a ``SessionCore/TraceError`` naming its
///   line; `nil` when all applied.
@discardableResult
public func replay(_ trace: Trace, into store: SessionStore) -> TraceError? {
  trace.replay(into: store)
}

/// Replays a recording's events into a store, which should start in the recording's
/// ``SessionRecording/initialState`` (see ``SessionRecording/makeStore()``).
///
/// - Parameters:
///   - recording: The recording whose events to apply.
///   - store: The store to apply them to, for example one from ``SessionRecording/makeStore()``.
/// - Returns: The first event the store rejected; `nil` when all applied.
@discardableResult
public func replay(_ recording: SessionRecording, into store: SessionStore) -> TraceError? {
  recording.trace.replay(into: store)
}

/// Replays a trace's events into a delegate, through a fresh ``SessionSDK/VideoSDK`` and its
/// `@_spi(Testing) replay(_:)`, so that the SDK's own mapping fires the callbacks with live
/// `User`, `ShareAction` and helper objects.
///
/// The trace should start from an instance's beginning (`initialized`); one that starts later
/// (`joinRequested`, say) is replayed into an instance initialized first. Callbacks the SDK fires
/// from local work are not in a trace, and none of the fresh instance's annotation helpers
/// exists, so no `onAnnotationHelperCleanUp` fires: replay a ``SessionRecording`` to get those.
///
/// - Parameters:
///   - trace: The events.
///   - delegate: Gets the callbacks; held weakly by the instance, as usual.
/// - Returns: The instance, the callbacks fired and the first rejected event, if any.
@discardableResult
public func replay(_ trace: Trace, into delegate: any VideoSDKDelegate) -> DelegateReplay {
  var initial = SessionState()
  if let first = trace.events.first?.event, first != .initialized {
    initial.apply(.initialized)
  }
  let recording = SessionRecording(initialState: initial, trace: trace)
  return DelegateReplayer(recording: recording, delegate: delegate, reproduceLocal: false).run()
}

/// Replays a recording into a delegate, so that it gets exactly the recorded callbacks, in
/// order.
///
/// A fresh ``SessionSDK/VideoSDK`` is first brought, with no delegate attached, to the
/// recording's initial state (initialized, joining, in session…). Then every recorded event
/// goes through its `@_spi(Testing) replay(_:)`, so the SDK's own mapping fires the derived
/// callbacks with live objects. Before an event that releases annotation helpers, the replayer
/// gives the instance exactly the helpers the recorded one held (it makes and destroys them
/// through the share helper), so `onAnnotationHelperCleanUp` fires as it did. Callbacks the SDK
/// fires from local work (password prompts, `onFailedToStartShare`,
/// `onVideoCanvasSubscribeFail`, `onAnnotationToolTypeChanged`) have no event; the replayer
/// calls the delegate with the instance's objects at the recorded place. A password completion
/// handed out in a replay answers `Errors_Wrong_Usage`: there is no service to answer.
///
/// - Parameters:
///   - recording: The recording to reproduce.
///   - delegate: Gets the callbacks; held weakly by the instance, as usual.
/// - Returns: The instance, the callbacks fired and the first problem, if any.
@discardableResult
public func replay(_ recording: SessionRecording, into delegate: any VideoSDKDelegate)
  -> DelegateReplay
{
  DelegateReplayer(recording: recording, delegate: delegate, reproduceLocal: true).run()
}

extension SessionRecording {
  /// A store in the recording's initial state, ready for
  /// ``replay(_:into:)-(SessionRecording,SessionStore)``.
  ///
  /// - Returns: A new store whose state is ``initialState``.
  public func makeStore() -> SessionStore {
    SessionStore(state: initialState)
  }
}

/// Runs one replay of a recording into a delegate.
private final class DelegateReplayer {
  let recording: SessionRecording
  weak var delegate: (any VideoSDKDelegate)?
  let reproduceLocal: Bool
  let sdk = VideoSDK()
  var fired: [VideoSDKCallback] = []
  var error: TraceError?
  /// Helpers the replayer made on the instance, by share owner.
  var helpers: [UserID: AnnotationHelper] = [:]

  init(recording: SessionRecording, delegate: any VideoSDKDelegate, reproduceLocal: Bool) {
    self.recording = recording
    self.delegate = delegate
    self.reproduceLocal = reproduceLocal
  }

  func run() -> DelegateReplay {
    bringUp(to: recording.initialState)
    sdk.delegate = delegate
    sdk.callbackObserver = { [unowned self] callback in self.fired.append(callback) }
    let byEvent = Dictionary(grouping: recording.recordedCallbacks, by: \.afterSequence)
    deliverLocal(byEvent[recording.initialSequence] ?? [])
    let events = recording.trace.events
    for (index, applied) in events.enumerated() {
      let group = byEvent[applied.sequence] ?? []
      if reproduceLocal {
        // Helpers can only be made in session: those a leave releases are made before it.
        if applied.event == .leaveRequested,
          let left = events[(index + 1)...].first(where: {
            if case .sessionLeft = $0.event { true } else { false }
          })
        {
          prepareHelpers(for: left.event, expecting: byEvent[left.sequence] ?? [])
        }
        prepareHelpers(for: applied.event, expecting: group)
      }
      if !replay(applied.event) {
        fail(line: index + 2, "the instance rejected \(applied.event.name)")
        break
      }
      deliverLocal(group)
    }
    sdk.callbackObserver = nil
    if reproduceLocal, error == nil { checkAgainstRecording() }
    return DelegateReplay(sdk: sdk, callbacks: fired, error: error)
  }

  /// Names the first callback that differs from the recording, at the line of the event it
  /// followed.
  private func checkAgainstRecording() {
    let recorded = recording.recordedCallbacks
    guard fired != recorded.map(\.callback) else { return }
    let common = min(fired.count, recorded.count)
    let index = (0..<common).first { fired[$0] != recorded[$0].callback } ?? common
    let after = index < recorded.count ? recorded[index].afterSequence : nil
    let line =
      after.flatMap { sequence in
        recording.trace.events.firstIndex { $0.sequence == sequence }.map { $0 + 2 }
      } ?? 1
    let want = index < recorded.count ? "\(recorded[index].callback)" : "nothing"
    let got = index < fired.count ? "\(fired[index])" : "nothing"
    fail(line: line, "callback \(index + 1): recorded \(want), replayed \(got)")
  }

  private func fail(line: Int, _ message: String) {
    if error == nil { error = TraceError(line: line, message: message) }
  }

  // MARK: Initial state

  /// Brings the instance to `state`'s lifecycle phase (and, in session, its shared facts)
  /// without a delegate, so that nothing reaches the delegate.
  private func bringUp(to state: SessionState) {
    guard state.phase != .idle else { return }
    initialize()
    let name = state.sessionName ?? ""
    switch state.phase {
    case .idle, .initialized:
      break
    case .joining:
      sdk.replay(.joinRequested(sessionName: name, userName: ""))
    case .inSession, .leaving:
      guard let me = state.myselfID else { break }
      sdk.replay(.joinRequested(sessionName: name, userName: state.myself?.name ?? ""))
      sdk.replay(.sessionJoined(state.snapshot(for: me, sequence: 0)))
      if state.phase == .leaving { sdk.replay(.leaveRequested) }
    case .left(let reason):
      let me = Participant(id: 1, name: "", joinOrder: 1)
      sdk.replay(.joinRequested(sessionName: name, userName: ""))
      sdk.replay(
        .sessionJoined(
          SessionSnapshot(sessionName: name, sessionID: "", myself: 1, participants: [me]))
      )
      sdk.replay(.sessionLeft(reason: reason))
    case .failed(let error):
      sdk.replay(.joinRequested(sessionName: name, userName: ""))
      sdk.replay(.joinFailed(error: error))
    }
  }

  private func initialize() {
    // A clock that stands still: a replay's store stamps its events alike on every run.
    sdk.initialize(InitParams(domain: "replay", transport: InertLinkFactory(), clock: { 0 }))
  }

  // MARK: Events

  /// Applies one event the way the recorded instance did: lifecycle calls for `initialized`
  /// and `cleanedUp` (so helpers can exist), `replay(_:)` for everything else.
  private func replay(_ event: SessionEvent) -> Bool {
    switch event {
    case .initialized where !sdk.isInitialized:
      let before = sdk.store.appliedCount
      initialize()
      return sdk.store.appliedCount > before
    case .cleanedUp where sdk.isInitialized:
      helpers.removeAll()
      if sdk.cleanup() == .success { return true }
      return sdk.replay(event)
    default:
      return sdk.replay(event)
    }
  }

  /// Gives the instance exactly the annotation helpers whose release the recording shows for
  /// this event, among the shares the event ends.
  private func prepareHelpers(for event: SessionEvent, expecting group: [RecordedCallback]) {
    helpers = helpers.filter { !$0.value.isReleased }
    let expected = Set(
      group.compactMap { recorded -> UserID? in
        if case .onAnnotationHelperCleanUp(let owner) = recorded.callback { return owner }
        return nil
      })
    let state = sdk.store.state
    let ended: [UserID]
    switch event {
    case .sessionLeft:
      ended = Array(Set(helpers.keys).union(expected))
    case .usersLeft(let ids):
      ended = ids.filter { state.shares[$0] != nil }
    case .shareStatusChanged(let owner, .stopped, _):
      ended = [owner]
    default:
      return
    }
    for owner in ended {
      if expected.contains(owner) {
        _ = helper(on: owner)
      } else if let helper = helpers.removeValue(forKey: owner) {
        sdk.getShareHelper().destroyAnnotationHelper(helper)
      }
    }
  }

  /// The instance's helper on `owner`'s share, made if needed.
  private func helper(on owner: UserID) -> AnnotationHelper? {
    if let helper = helpers[owner], !helper.isReleased { return helper }
    let user = sdk.getSession()?.user(withID: owner)
    guard let helper = sdk.getShareHelper().createAnnotationHelper(forShareOf: user) else {
      return nil
    }
    helpers[owner] = helper
    return helper
  }

  // MARK: Local callbacks

  /// Calls the delegate for each local callback of a group, with the instance's objects.
  private func deliverLocal(_ group: [RecordedCallback]) {
    guard reproduceLocal else { return }
    for recorded in group where recorded.isLocal {
      deliver(recorded.callback)
    }
  }

  private func deliver(_ callback: VideoSDKCallback) {
    let session = sdk.getSession()
    let share: ShareHelper = sdk.getShareHelper()
    let noAnswer: (String?, Bool) -> VideoSDKError = { _, _ in .wrongUsage }
    switch callback {
    case .onSessionNeedPassword:
      delegate?.onSessionNeedPassword(noAnswer)
    case .onSessionPasswordWrong:
      delegate?.onSessionPasswordWrong(noAnswer)
    case .onFailedToStartShare(let id):
      delegate?.onFailedToStartShare(share, user: session?.user(withID: id))
    case .onVideoCanvasSubscribeFail(let reason, let id):
      delegate?.onVideoCanvasSubscribeFail(reason, user: session?.user(withID: id), view: nil)
    case .onUserNetworkStatusChanged(let type, let level, let id):
      delegate?.onUserNetworkStatusChanged(type, level: level, user: session?.user(withID: id))
    case .onAnnotationToolTypeChanged(let owner, let toolType):
      let helper = helper(on: owner)
      delegate?.onAnnotationToolTypeChanged(helper, view: nil, toolType: toolType)
    case .onShareContentChanged(let owner, _):
      let user = session?.user(withID: owner)
      delegate?.onShareContentChanged(
        share, user: user, shareAction: user?.getShareActionList()?.first)
    case .onSystemPermissionRequired(let type):
      delegate?.onSystemPermissionRequired(type)
    default:
      return
    }
    fired.append(callback)
  }
}

/// Links for an instance that never joins: a replay's instance must be initialized (helpers
/// need it) but talks to nobody.
private final class InertLinkFactory: SessionLinkFactory {
  func makeLink() -> any SessionLink { InertLink() }
}

/// A link that delivers nothing and drops what it is sent.
private final class InertLink: SessionLink {
  func start(_ handler: @escaping (LinkEvent) -> Void) {}
  func send(_ message: ClientMessage) {}
  func close() {}
}
