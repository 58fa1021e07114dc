import SessionCore
import SessionSDK

/// What one SDK instance did while a ``CallbackRecorder`` watched it: the events its replica
/// applied, as a ``SessionCore/Trace``, and the callbacks it fired, each placed after the event
/// it followed.
///
/// Replay it with `replay(_:into:)` into a delegate (which then gets
/// exactly ``callbacks``) or into a store (which then reaches the same state).
///
/// > Important: A `Sendable` value; use it anywhere.
public struct SessionRecording: Sendable, Equatable {
  /// The replica's state when recording started.
  public var initialState: SessionState
  /// The store's sequence number when recording started: the trace's events are numbered
  /// after it.
  public var initialSequence: UInt64
  /// The events the replica applied, in order, numbered by the instance's store.
  public var trace: Trace
  /// The callbacks the instance fired, in order.
  public var recordedCallbacks: [RecordedCallback]

  /// Creates a recording.
  ///
  /// - Parameters:
  ///   - initialState: The replica's state when recording started; a fresh state by default.
  ///   - initialSequence: The store's sequence number when recording started; 0 by default.
  ///   - trace: The events the replica applied, in order; empty by default.
  ///   - recordedCallbacks: The callbacks the instance fired, in order; none by default.
  public init(
    initialState: SessionState = SessionState(), initialSequence: UInt64 = 0,
    trace: Trace = Trace(), recordedCallbacks: [RecordedCallback] = []
  ) {
    self.initialState = initialState
    self.initialSequence = initialSequence
    self.trace = trace
    self.recordedCallbacks = recordedCallbacks
  }

  /// The callback values, in the order the instance fired them.
  public var callbacks: [VideoSDKCallback] { recordedCallbacks.map(\.callback) }

  /// The events, in order.
  public var events: [SessionEvent] { trace.events.map(\.event) }
}

/// One callback an instance fired, and where it fell among the applied events.
///
/// > Important: A `Sendable` value; use it anywhere.
public struct RecordedCallback: Sendable, Hashable, Codable {
  /// The callback.
  public var callback: VideoSDKCallback
  /// The sequence number of the last event the store had applied when the callback fired
  /// (``SessionRecording/initialSequence`` if none was recorded yet). A callback that an
  /// event derives carries that event's number.
  public var afterSequence: UInt64

  /// Creates a recorded callback.
  ///
  /// - Parameters:
  ///   - callback: The callback.
  ///   - afterSequence: The sequence number of the last event the store had applied when the
  ///     callback fired.
  public init(_ callback: VideoSDKCallback, afterSequence: UInt64) {
    self.callback = callback
    self.afterSequence = afterSequence
  }

  /// Whether no applied event derives this callback: the SDK fires it from local work
  /// (password prompts, a refused share, a failed subscription, an annotation tool change, a
  /// network status its media plane measured),
  /// after the callbacks of the event before it. The mapping of events to callbacks never makes
  /// one.
  public var isLocal: Bool { Self.isLocal(callback) }

  /// Whether the SDK fires this kind of callback from local work rather than deriving it from
  /// an applied event; see ``isLocal``.
  ///
  /// - Parameter callback: The callback value; only its kind matters.
  /// - Returns: `true` for a password prompt, a refused share, a failed subscription, an
  ///   annotation tool change, a share content change, a permission request or a measured network
  ///   status; `false` for a callback an applied event derives.
  public static func isLocal(_ callback: VideoSDKCallback) -> Bool {
    switch callback {
    case .onSessionNeedPassword, .onSessionPasswordWrong, .onFailedToStartShare,
      .onVideoCanvasSubscribeFail, .onAnnotationToolTypeChanged, .onShareContentChanged,
      .onSystemPermissionRequired, .onUserNetworkStatusChanged:
      true
    default:
      false
    }
  }
}
