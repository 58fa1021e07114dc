import SessionCore

/// The cloud-recording helper: `ZoomVideoSDKRecordingHelper`. No recording is made: the
/// status, who agreed to be recorded, and what a member who declines experiences are
/// modelled, as the SDK documents them.
///
/// Only the host starts, pauses, resumes and stops (`Errors_Session_No_Rights` for others);
/// everyone hears `onCloudRecordingStatus`, and each other member is asked to agree
/// (`recordAgreementHandler`) when a recording starts, or when they join one in progress.
///
/// > Important: Not `Sendable`. Confined to the isolation domain of its ``VideoSDK``.
public final class RecordingHelper {
  /// The instance, until it is gone (see `EngineReference`).
  var reference: EngineReference?
  var sdk: SDKEngine? { reference?.object }

  /// A helper for an instance to point at (``sdk``) once it is made.
  init() {}

  /// Whether the local user may start a cloud recording.
  ///
  /// - Returns: `Errors_Success` for the host; `Errors_Session_No_Rights` for others;
  ///   `Errors_Not_In_Session` outside a session.
  public func canStartRecording() -> VideoSDKError {
    guard let sdk, sdk.isInitialized else { return .uninitialize }
    let state = sdk.store.state
    guard state.phase == .inSession, let me = state.myself else { return .notInSession }
    return me.role == .host ? .success : .sessionNoRights
  }

  /// Starts the cloud recording.
  ///
  /// - Returns: `Errors_Success` once sent; `Errors_Wrong_Usage` while one is in progress.
  @discardableResult
  public func startCloudRecording() -> VideoSDKError { perform(.start) }

  /// Stops the cloud recording.
  ///
  /// - Returns: `Errors_Success` once sent; `Errors_No_Recording_In_Process` with none.
  @discardableResult
  public func stopCloudRecording() -> VideoSDKError { perform(.stop) }

  /// Pauses the cloud recording.
  ///
  /// - Returns: `Errors_Success` once sent; `Errors_No_Recording_In_Process` unless running.
  @discardableResult
  public func pauseCloudRecording() -> VideoSDKError { perform(.pause) }

  /// Resumes a paused cloud recording.
  ///
  /// - Returns: `Errors_Success` once sent; `Errors_Wrong_Usage` unless paused.
  @discardableResult
  public func resumeCloudRecording() -> VideoSDKError { perform(.resume) }

  /// The cloud recording's status.
  ///
  /// - Returns: The status as the replica holds it; `.none` outside a session.
  public func getCloudRecordingStatus() -> RecordingStatus {
    sdk?.store.state.recording.status ?? .none
  }

  private func perform(_ call: RecordingCommand) -> VideoSDKError {
    guard let sdk else { return .uninitialize }
    return sdk.perform(.recording(call))
  }
}

/// The kind of consent a recording asks for (`ZoomVideoSDKRecordAgreementType`).
public enum RecordAgreementType: Int, Sendable, Hashable, CaseIterable {
  /// Invalid.
  case invalid = 0
  /// Agree to be recorded, or leave the session.
  case traditional
  /// Agree to be recorded to a separate file, or stay unrecorded (not offered here).
  case individualOnly
}

/// The consent prompt of a recording: `ZoomVideoSDKRecordAgreementHandler`.
///
/// Accepting tells everyone (`onUserRecordAgreementNotification`); declining a traditional
/// recording leaves the session, as the SDK documents.
///
/// > Important: Not `Sendable`. Confined to the isolation domain of its ``VideoSDK``.
public final class RecordAgreementHandler {
  let reference: EngineReference
  var sdk: SDKEngine? { reference.object }
  /// The kind of consent asked for: always ``RecordAgreementType/traditional`` here.
  public let agreementType = RecordAgreementType.traditional

  init(reference: EngineReference) { self.reference = reference }

  /// Agrees to be recorded.
  ///
  /// - Returns: `true` once sent; `false` with no recording in progress or when already
  ///   agreed.
  @discardableResult
  public func accept() -> Bool {
    sdk?.perform(.recording(.agree)) == .success
  }

  /// Declines: the local user leaves the session (a traditional recording records everyone
  /// present).
  ///
  /// - Returns: `true` when the leave began.
  @discardableResult
  public func decline() -> Bool {
    sdk?.leaveSession(false) == .success
  }
}

extension VideoSDK {
  /// The recording consent prompt, as `onCloudRecordingStatus` gives it: for tools that drive
  /// an instance as an app holding the prompt would (simulated peers).
  package var recordAgreementHandler: RecordAgreementHandler {
    RecordAgreementHandler(reference: engine.reference)
  }
}
