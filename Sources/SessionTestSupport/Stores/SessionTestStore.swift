import SessionCore
import SessionSDK
import Testing

/// An exhaustive test store for the reducer, in the spirit of TCA's `TestStore`: send an event
/// (or replay a trace), describe how the state changed, then receive the callbacks the SDK's
/// mapping derives from it. Anything not described fails the test with a readable diff.
///
/// ```swift
/// let store = SessionTestStore(initialState: try SessionState(snapshot: classroom))
/// store.send(.videoStatusChanged(user: 2, isOn: true)) {
///   $0.participants[2]?.isVideoOn = true
/// }
/// store.receive([.onUserVideoStatusChanged([2])])
/// store.send(.usersLeft([9]), rejectedWith: .unknownUser)
/// store.finish()
/// ```
///
/// Rules, with ``exhaustivity`` ``Exhaustivity/on`` (the default):
/// - ``send(_:assert:sourceLocation:)`` applies the event with the real reducer. The state
///   afterwards must equal the state before with the closure's changes; no closure means no
///   change. A rejected event fails (use ``send(_:rejectedWith:sourceLocation:)`` to expect one).
/// - The callbacks the SDK derives from the event wait to be received,
///   in order, with `receive(_:sourceLocation:)`. Sending while some wait fails, and so does
///   `finish()` (or the store's end) with callbacks left.
/// - Invariants (``SessionCore/SessionState/checkInvariants()``) are checked after every event.
///
/// With ``Exhaustivity/off``, the closure is checked only on the fields it sets, `receive`
/// skips callbacks until it finds the ones named, and leftovers are ignored.
///
/// The mapping needs one local fact: which shares the SDK instance holds annotation helpers on.
/// Set ``annotationHelperOwners``; an `onAnnotationHelperCleanUp` removes its owner from it, as
/// the SDK releases the helper.
///
/// > Important: Not `Sendable`. Confined to the isolation domain of the test that made it.
/// > Failures are recorded with Swift Testing's `Issue.record` at the call's source location.
public final class SessionTestStore {
  /// The state after the last event sent.
  public private(set) var state: SessionState
  /// How strictly unasserted changes and callbacks are checked.
  public var exhaustivity: Exhaustivity = .on
  /// Owners of the shares the simulated SDK instance holds annotation helpers on.
  public var annotationHelperOwners: Set<UserID> = []
  private var pending: [VideoSDKCallback] = []
  private var isFinished = false
  private let origin: SourceLocation

  /// Creates a store.
  ///
  /// - Parameters:
  ///   - initialState: The state to start from.
  ///   - sourceLocation: Where leftovers are reported if the store ends unfinished.
  public init(
    initialState: SessionState = SessionState(),
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    state = initialState
    origin = sourceLocation
  }

  /// The callbacks derived so far and not yet received.
  public var pendingCallbacks: [VideoSDKCallback] { pending }

  /// Applies an event and checks the state change against `update`.
  ///
  /// - Parameters:
  ///   - event: The event.
  ///   - update: Changes a mirror of the state before the event into the state expected after
  ///     it; the default expects no change.
  ///   - sourceLocation: Where failures are reported.
  public func send(
    _ event: SessionEvent,
    assert update: (inout SessionStateFields) -> Void = { _ in },
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    requireNothingPending(before: "sending \(event.name)", sourceLocation)
    let before = state
    let context = CallbackMapping.Context.capture(
      before: event, in: state, annotationHelperOwners: annotationHelperOwners)
    if let rejection = state.apply(event) {
      fail("\(event.name) was rejected: \(rejection)", sourceLocation)
      return
    }
    let derived = CallbackMapping.callbacks(for: event, context: context)
    for case .onAnnotationHelperCleanUp(let owner) in derived {
      annotationHelperOwners.remove(owner)
    }
    pending += derived
    check(update, from: before, heading: "State after \(event.name) differs", sourceLocation)
    checkInvariants(after: event, sourceLocation)
  }

  /// Sends an event the reducer must reject with `code`, leaving the state exactly as it was
  /// and deriving no callback.
  ///
  /// - Parameters:
  ///   - event: The event the reducer must reject.
  ///   - code: The rejection code it must give.
  ///   - sourceLocation: Where failures are reported.
  public func send(
    _ event: SessionEvent,
    rejectedWith code: EventRejection.Code,
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    requireNothingPending(before: "sending \(event.name)", sourceLocation)
    let before = state
    guard let rejection = state.apply(event) else {
      fail(
        "\(event.name) applied; expected a rejection (\(code.rawValue))\n"
          + (StateDiff.describe(
            "It changed the state", expected: SessionStateFields(before),
            actual: SessionStateFields(state)) ?? ""),
        sourceLocation)
      state = before
      return
    }
    if rejection.code != code {
      fail(
        "\(event.name) was rejected with \(rejection.code.rawValue), expected \(code.rawValue): "
          + rejection.detail, sourceLocation)
    }
    if state != before {
      fail("a rejected \(event.name) changed the state", sourceLocation)
      state = before
    }
  }

  /// Replays a trace's events in order, then checks the state change of them all against
  /// `update`; their derived callbacks wait to be received, in order.
  ///
  /// - Parameters:
  ///   - trace: The events; the first one the reducer rejects fails the test, naming its line,
  ///     and stops the replay.
  ///   - update: Changes a mirror of the state before the trace into the state expected after
  ///     it; the default expects no change.
  ///   - sourceLocation: Where failures are reported.
  public func replay(
    _ trace: Trace,
    assert update: (inout SessionStateFields) -> Void = { _ in },
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    requireNothingPending(before: "replaying a trace", sourceLocation)
    let before = state
    for (index, applied) in trace.events.enumerated() {
      let event = applied.event
      let context = CallbackMapping.Context.capture(
        before: event, in: state, annotationHelperOwners: annotationHelperOwners)
      if let rejection = state.apply(event) {
        fail("trace line \(index + 2): \(rejection)", sourceLocation)
        break
      }
      let derived = CallbackMapping.callbacks(for: event, context: context)
      for case .onAnnotationHelperCleanUp(let owner) in derived {
        annotationHelperOwners.remove(owner)
      }
      pending += derived
      checkInvariants(after: event, sourceLocation)
    }
    check(update, from: before, heading: "State after the trace differs", sourceLocation)
  }

  /// Receives the next derived callbacks, in order.
  ///
  /// With exhaustivity on they must be exactly the next ones waiting; off, callbacks before them
  /// are skipped.
  ///
  /// - Parameters:
  ///   - callbacks: The callbacks, in order.
  ///   - sourceLocation: Where failures are reported.
  public func receive(
    _ callbacks: [VideoSDKCallback], sourceLocation: SourceLocation = #_sourceLocation
  ) {
    switch exhaustivity {
    case .on:
      let got = Array(pending.prefix(callbacks.count))
      if got != callbacks {
        fail(
          "Received callbacks differ:\n"
            + CallbackDiff.describe(expected: callbacks, got: pending), sourceLocation)
      }
      pending.removeFirst(got.count)
    case .off:
      guard let start = Self.firstMatch(of: callbacks, in: pending) else {
        fail(
          "Expected callbacks were not received:\n" + CallbackDiff.list(callbacks)
            + "\nwaiting:\n" + CallbackDiff.list(pending), sourceLocation)
        return
      }
      pending.removeFirst(start + callbacks.count)
    }
  }

  /// Receives the next derived callbacks, in order; see ``receive(_:sourceLocation:)``.
  ///
  /// - Parameters:
  ///   - callbacks: The callbacks, in order.
  ///   - sourceLocation: Where failures are reported.
  public func receive(
    _ callbacks: VideoSDKCallback..., sourceLocation: SourceLocation = #_sourceLocation
  ) {
    receive(callbacks, sourceLocation: sourceLocation)
  }

  /// Forgets the callbacks waiting to be received.
  public func skipReceived() {
    pending.removeAll()
  }

  /// Ends the test: with exhaustivity on, callbacks still waiting fail. Called by `deinit`
  /// when the test did not call it.
  ///
  /// - Parameter sourceLocation: Where failures are reported.
  public func finish(sourceLocation: SourceLocation = #_sourceLocation) {
    isFinished = true
    if exhaustivity == .on, !pending.isEmpty {
      fail(
        "\(pending.count) callback(s) were derived but not received:\n"
          + CallbackDiff.list(pending), sourceLocation)
    }
    pending.removeAll()
  }

  deinit {
    if !isFinished { finish(sourceLocation: origin) }
  }

  // MARK: Checks

  private func requireNothingPending(before action: String, _ location: SourceLocation) {
    guard exhaustivity == .on, !pending.isEmpty else { return }
    fail(
      "\(pending.count) callback(s) must be received before \(action):\n"
        + CallbackDiff.list(pending), location)
    pending.removeAll()
  }

  private func check(
    _ update: (inout SessionStateFields) -> Void, from before: SessionState,
    heading: String, _ location: SourceLocation
  ) {
    let actual = SessionStateFields(state)
    var expected = exhaustivity == .on ? SessionStateFields(before) : actual
    update(&expected)
    if let diff = StateDiff.describe(heading, expected: expected, actual: actual) {
      fail(diff, location)
    }
  }

  private func checkInvariants(after event: SessionEvent, _ location: SourceLocation) {
    let violations = state.checkInvariants()
    if !violations.isEmpty {
      fail(
        "Invariants broken after \(event.name):\n"
          + violations.map { "  \($0)" }.joined(separator: "\n"), location)
    }
  }

  private func fail(_ message: String, _ location: SourceLocation) {
    Issue.record(Comment(rawValue: message), sourceLocation: location)
  }

  /// Where `needle` first occurs contiguously in `haystack`.
  static func firstMatch(of needle: [VideoSDKCallback], in haystack: [VideoSDKCallback]) -> Int? {
    guard needle.count <= haystack.count else { return nil }
    return (0...(haystack.count - needle.count)).first {
      Array(haystack[$0..<($0 + needle.count)]) == needle
    }
  }
}
