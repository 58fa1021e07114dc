import InProcessTransport
import SessionCore
import SessionSDK
import Testing

/// An exhaustive test store around one SDK instance in a real session, in the spirit of TCA's
/// `TestStore`: perform an SDK call, say what it returns and how the replica changed, then
/// receive the callbacks the instance fired, in order. Anything not described fails the test
/// with a readable diff.
///
/// ```swift
/// let ada = SDKTestStore(testbed.join("Ada"), in: testbed)
/// ada.perform(
///   { $0.getVideoHelper().startVideo() }, returns: .success,
///   assert: { $0.myself?.isVideoOn = true })
/// ada.receive([.onUserVideoStatusChanged([adaID])])
///
/// // Another member's call reaches Ada too: receive it with the change it made.
/// grace.getAudioHelper().muteAudio(graceUser)
/// ada.receive([.onUserAudioStatusChanged([graceID])]) {
///   $0.participants[graceID]?.audio.isMuted = true
/// }
/// ada.finish()
/// ```
///
/// The store keeps the *asserted* state: the replica as the test last described it.
/// - ``perform(_:returns:assert:sourceLocation:)`` runs the call, lets the network settle, and
///   compares the replica with the asserted state plus the closure's changes. Everything the
///   call caused up to then counts as described; its callbacks still have to be received.
/// - `receive(_:assert:sourceLocation:)` takes the next callbacks, in order. When they came
///   from events the test has not described yet (another member's call, a network delivery),
///   the closure describes the change those events made, up to the last of them.
/// - ``assert(_:sourceLocation:)`` describes changes that no callback announces (annotation
///   start and stop, for instance).
/// - With ``exhaustivity`` ``Exhaustivity/on``, performing while callbacks or undescribed
///   changes are waiting fails, and so does `finish()` (also run when the store ends).
///
/// The store listens through ``SessionSDK/VideoSDK/callbackObserver`` (keeping an observer
/// already there) and a store observer, so the instance's delegate is left alone.
///
/// > Important: Not `Sendable`. Confined to the isolation domain of the instance (usually the
/// > main actor). Failures are recorded with Swift Testing's `Issue.record` at the call's
/// > source location. The store holds the instance strongly.
public final class SDKTestStore {
  /// The instance under test.
  public let sdk: VideoSDK
  /// How strictly unasserted changes and callbacks are checked.
  public var exhaustivity: Exhaustivity = .on

  private struct Received {
    var callback: VideoSDKCallback
    /// The store's last sequence when it fired.
    var sequence: UInt64
  }

  private let settle: () -> Void
  private var asserted: SessionStateFields
  private var assertedSequence: UInt64
  /// States after the events not yet described, by sequence number.
  private var statesAfter: [UInt64: SessionState] = [:]
  private var received: [Received] = []
  private var observerToken: Int?
  private var isFinished = false
  private let origin: SourceLocation

  /// Wraps an instance, starting from its current state with nothing waiting.
  ///
  /// - Parameters:
  ///   - sdk: The instance.
  ///   - settle: Runs after every call and before every check so that messages in flight
  ///     arrive (for example `network.run()` for an ``InProcessTransport/InProcessNetwork`` in
  ///     manual mode); nothing by default.
  ///   - sourceLocation: Where leftovers are reported if the store ends unfinished.
  public init(
    _ sdk: VideoSDK, settle: @escaping () -> Void = {},
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    self.sdk = sdk
    self.settle = settle
    origin = sourceLocation
    asserted = SessionStateFields(sdk.store.state)
    assertedSequence = sdk.store.appliedCount
    observerToken = sdk.store.addObserver { [weak self] applied, state in
      self?.statesAfter[applied.sequence] = state
    }
    let previous = sdk.callbackObserver
    sdk.callbackObserver = { [weak self] callback in
      previous?(callback)
      guard let self else { return }
      self.received.append(Received(callback: callback, sequence: self.sdk.store.appliedCount))
    }
  }

  /// Wraps a testbed member, letting the testbed's network settle after every call.
  ///
  /// - Parameters:
  ///   - sdk: The instance, a member of `testbed`.
  ///   - testbed: The testbed whose network runs after every call and before every check.
  ///   - sourceLocation: Where leftovers are reported if the store ends unfinished.
  public convenience init(
    _ sdk: VideoSDK, in testbed: SessionTestbed, sourceLocation: SourceLocation = #_sourceLocation
  ) {
    self.init(sdk, settle: { [weak testbed] in testbed?.run() }, sourceLocation: sourceLocation)
  }

  /// The instance's replica now.
  public var state: SessionState { sdk.store.state }

  /// The callbacks fired and not yet received.
  public var pendingCallbacks: [VideoSDKCallback] { received.map(\.callback) }

  // MARK: Performing

  /// Calls the SDK, checks what the call returned, and checks the replica against `update`.
  ///
  /// - Parameters:
  ///   - action: The call, given the instance.
  ///   - expected: What it must return.
  ///   - update: Changes a mirror of the asserted state into the state expected once the call
  ///     and the network are done; the default expects no change.
  ///   - sourceLocation: Where failures are reported.
  /// - Returns: What the call returned.
  @discardableResult
  public func perform<Result: Equatable>(
    _ action: (VideoSDK) throws -> Result,
    returns expected: Result,
    assert update: (inout SessionStateFields) -> Void = { _ in },
    sourceLocation: SourceLocation = #_sourceLocation
  ) rethrows -> Result {
    let result = try perform(action, assert: update, sourceLocation: sourceLocation)
    if result != expected {
      fail("The call returned \(result), expected \(expected)", sourceLocation)
    }
    return result
  }

  /// Calls the SDK and checks the replica against `update`; see
  /// ``perform(_:returns:assert:sourceLocation:)``.
  ///
  /// - Parameters:
  ///   - action: The call, given the instance.
  ///   - update: Changes a mirror of the asserted state into the state expected once the call and
  ///     the network are done; the default expects no change.
  ///   - sourceLocation: Where failures are reported.
  /// - Returns: What the call returned, unchecked.
  @discardableResult
  public func perform<Result>(
    _ action: (VideoSDK) throws -> Result,
    assert update: (inout SessionStateFields) -> Void = { _ in },
    sourceLocation: SourceLocation = #_sourceLocation
  ) rethrows -> Result {
    settle()
    requireNothingWaiting(before: "performing a call", sourceLocation)
    let result = try action(sdk)
    settle()
    describe(
      upTo: sdk.store.appliedCount, update, heading: "State after the call differs", sourceLocation)
    return result
  }

  // MARK: Receiving

  /// Receives the next callbacks the instance fired, in order, and describes the state change
  /// of the events behind them that the test has not described yet.
  ///
  /// - Parameters:
  ///   - callbacks: The callbacks, in order. With exhaustivity on they must be exactly the next
  ///     ones waiting; off, callbacks before them are skipped.
  ///   - update: Changes a mirror of the asserted state into the replica as it was right after
  ///     the last of these callbacks fired. Leave it out when a ``perform(_:returns:assert:sourceLocation:)``
  ///     already described their events.
  ///   - sourceLocation: Where failures are reported.
  public func receive(
    _ callbacks: [VideoSDKCallback],
    assert update: (inout SessionStateFields) -> Void = { _ in },
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    settle()
    var taken: [Received]
    switch exhaustivity {
    case .on:
      taken = Array(received.prefix(callbacks.count))
      if taken.map(\.callback) != callbacks {
        fail(
          "Received callbacks differ:\n"
            + CallbackDiff.describe(expected: callbacks, got: received.map(\.callback)),
          sourceLocation)
      }
      received.removeFirst(taken.count)
    case .off:
      guard
        let start = SessionTestStore.firstMatch(of: callbacks, in: received.map(\.callback))
      else {
        fail(
          "Expected callbacks were not received:\n" + CallbackDiff.list(callbacks)
            + "\nwaiting:\n" + CallbackDiff.list(received.map(\.callback)), sourceLocation)
        return
      }
      taken = Array(received[start..<(start + callbacks.count)])
      received.removeFirst(start + callbacks.count)
    }
    guard let sequence = taken.last?.sequence else { return }
    if sequence > assertedSequence {
      describe(
        upTo: sequence, update, heading: "State after the received callbacks differs",
        sourceLocation)
    } else {
      var probe = asserted
      update(&probe)
      if let diff = StateDiff.describe(
        "These callbacks' events were already described; the closure changes", expected: probe,
        actual: asserted)
      {
        fail(diff, sourceLocation)
      }
    }
  }

  /// Receives the next callbacks; see ``receive(_:assert:sourceLocation:)``.
  ///
  /// - Parameters:
  ///   - callbacks: The callbacks, in order.
  ///   - update: Changes a mirror of the asserted state into the replica as it was right after
  ///     the last of these callbacks fired; the default expects no change.
  ///   - sourceLocation: Where failures are reported.
  public func receive(
    _ callbacks: VideoSDKCallback...,
    assert update: (inout SessionStateFields) -> Void = { _ in },
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    receive(callbacks, assert: update, sourceLocation: sourceLocation)
  }

  /// Describes every change the replica made since the state last described, up to now,
  /// without receiving callbacks: for events no callback announces.
  ///
  /// - Parameters:
  ///   - update: Changes a mirror of the asserted state into the replica as it is now.
  ///   - sourceLocation: Where failures are reported.
  public func assert(
    _ update: (inout SessionStateFields) -> Void,
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    settle()
    describe(
      upTo: sdk.store.appliedCount, update, heading: "State differs", sourceLocation)
  }

  /// Forgets the callbacks waiting to be received and accepts the replica as it is now.
  public func skipReceived() {
    settle()
    received.removeAll()
    accept(upTo: sdk.store.appliedCount)
  }

  // MARK: Finishing

  /// Ends the test: lets the network settle, then, with exhaustivity on, fails for callbacks
  /// not received and changes not described. Called by `deinit` when the test did not call it.
  ///
  /// - Parameter sourceLocation: Where failures are reported.
  public func finish(sourceLocation: SourceLocation = #_sourceLocation) {
    settle()
    isFinished = true
    if exhaustivity == .on {
      if !received.isEmpty {
        fail(
          "\(received.count) callback(s) were fired but not received:\n"
            + CallbackDiff.list(received.map(\.callback)), sourceLocation)
      }
      if let diff = StateDiff.describe(
        "The replica changed without being described", expected: asserted,
        actual: SessionStateFields(sdk.store.state))
      {
        fail(diff, sourceLocation)
      }
    }
    received.removeAll()
    accept(upTo: sdk.store.appliedCount)
    if let observerToken { sdk.store.removeObserver(observerToken) }
    observerToken = nil
  }

  deinit {
    if !isFinished { finish(sourceLocation: origin) }
  }

  // MARK: Bookkeeping

  private func requireNothingWaiting(before action: String, _ location: SourceLocation) {
    guard exhaustivity == .on else {
      accept(upTo: sdk.store.appliedCount)
      return
    }
    if !received.isEmpty {
      fail(
        "\(received.count) callback(s) must be received before \(action):\n"
          + CallbackDiff.list(received.map(\.callback)), location)
      received.removeAll()
    }
    if let diff = StateDiff.describe(
      "The replica changed before \(action) without being described", expected: asserted,
      actual: SessionStateFields(sdk.store.state))
    {
      fail(diff, location)
    }
    accept(upTo: sdk.store.appliedCount)
  }

  /// Compares the replica right after event `sequence` with the asserted state changed by
  /// `update`, then takes it as asserted.
  private func describe(
    upTo sequence: UInt64, _ update: (inout SessionStateFields) -> Void,
    heading: String, _ location: SourceLocation
  ) {
    let actual = SessionStateFields(state(after: sequence))
    var expected = exhaustivity == .on ? asserted : actual
    update(&expected)
    if let diff = StateDiff.describe(heading, expected: expected, actual: actual) {
      fail(diff, location)
    }
    accept(upTo: sequence)
  }

  private func state(after sequence: UInt64) -> SessionState {
    if sequence >= sdk.store.appliedCount { return sdk.store.state }
    return statesAfter[sequence] ?? sdk.store.state
  }

  private func accept(upTo sequence: UInt64) {
    guard sequence >= assertedSequence else { return }
    asserted = SessionStateFields(state(after: sequence))
    assertedSequence = sequence
    statesAfter = statesAfter.filter { $0.key > sequence }
  }

  private func fail(_ message: String, _ location: SourceLocation) {
    Issue.record(Comment(rawValue: message), sourceLocation: location)
  }
}
