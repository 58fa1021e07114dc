import SessionCore
import SessionSDK

/// Records an SDK instance as it runs: the events its replica applies (a
/// ``SessionCore/TraceRecorder`` on ``SessionSDK/VideoSDK/store``) and the callbacks it fires,
/// into a ``SessionRecording``.
///
/// ```swift
/// let recorder = CallbackRecorder(sdk)
/// // … run the scenario …
/// let recording = recorder.recording
/// let replayed = RecordingDelegate()
/// replay(recording, into: replayed)
/// #expect(replayed.callbacks == recording.callbacks)
/// ```
///
/// Callbacks are recorded through a ``RecordingDelegate``, which either sits in the delegate
/// slot (``Path/delegate``, forwarding to the delegate that was there) or listens to
/// ``SessionSDK/VideoSDK/callbackObserver`` (``Path/observer``, the default, which leaves the
/// delegate alone).
///
/// > Important: Not `Sendable`. Confined to the isolation domain of the instance it records.
/// > It holds the instance weakly; recording stops when either goes away, or at ``stop()``.
public final class CallbackRecorder {
  /// How callbacks reach the recorder.
  public enum Path: Sendable, Hashable {
    /// Through ``SessionSDK/VideoSDK/callbackObserver``; the delegate slot is untouched.
    case observer
    /// Through the delegate slot: the recorder's ``RecordingDelegate`` becomes the delegate
    /// and forwards every callback to the delegate it replaced.
    case delegate
  }

  /// The delegate every recorded callback went through.
  public let recordingDelegate: RecordingDelegate
  private weak var sdk: VideoSDK?
  private let path: Path
  private let traceRecorder: TraceRecorder
  private let initialState: SessionState
  private let initialSequence: UInt64
  private var recorded: [RecordedCallback] = []

  /// Starts recording everything `sdk` applies and fires from now on.
  ///
  /// - Parameters:
  ///   - sdk: The instance to record.
  ///   - path: How callbacks reach the recorder.
  ///   - source: Free text for the trace header.
  public init(_ sdk: VideoSDK, path: Path = .observer, source: String? = nil) {
    self.sdk = sdk
    self.path = path
    initialState = sdk.store.state
    initialSequence = sdk.store.appliedCount
    traceRecorder = TraceRecorder(store: sdk.store, source: source)
    recordingDelegate = RecordingDelegate(forwardingTo: sdk.delegate)
    recordingDelegate.didRecord = { [weak self] callback in
      guard let self else { return }
      self.recorded.append(
        RecordedCallback(
          callback, afterSequence: self.sdk?.store.appliedCount ?? self.initialSequence))
    }
    switch path {
    case .observer: recordingDelegate.observe(sdk)
    case .delegate: sdk.delegate = recordingDelegate
    }
  }

  /// Everything recorded so far.
  public var recording: SessionRecording {
    SessionRecording(
      initialState: initialState, initialSequence: initialSequence, trace: traceRecorder.trace,
      recordedCallbacks: recorded)
  }

  /// The callbacks recorded so far, in order.
  public var callbacks: [VideoSDKCallback] { recorded.map(\.callback) }

  /// Stops recording; with ``Path/delegate`` the replaced delegate gets its slot back.
  public func stop() {
    traceRecorder.stop()
    recordingDelegate.isRecording = false
    if path == .delegate, let sdk, sdk.delegate === recordingDelegate {
      sdk.delegate = recordingDelegate.forwardee
    }
  }
}
