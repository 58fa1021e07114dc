/// The cloud recording's status (`ZoomVideoSDKRecordingStatus`), numbered as the SDK numbers it.
public enum RecordingStatus: Int, Sendable, Codable, Hashable, CaseIterable {
  /// Never started.
  case none = 0
  /// Recording.
  case start
  /// Stopped.
  case stop
  /// The cloud's disk is full (never reported here: no recording is made).
  case diskFull
  /// Paused.
  case pause
  /// Connecting (never reported here: a start takes effect at once).
  case connecting
}

/// A session's cloud recording as every member and the service see it: the status, and who
/// agreed to be recorded. No recording is made; the status and the consent are modelled.
///
/// A value, part of ``SessionState``.
public struct RecordingBoard: Sendable, Codable, Hashable {
  /// The status (`getCloudRecordingStatus`, `onCloudRecordingStatus`).
  public internal(set) var status: RecordingStatus = .none
  /// Who agreed to be recorded in the current recording (`isIndividualRecordAgreed`).
  public internal(set) var agreed: Set<UserID> = []

  /// No recording.
  public init() {}

  /// A board with these facts; for snapshots, tests and previews.
  ///
  /// - Parameters:
  ///   - status: The status.
  ///   - agreed: Who agreed to be recorded.
  public init(status: RecordingStatus, agreed: Set<UserID> = []) {
    self.status = status
    self.agreed = agreed
  }

  /// Whether a recording is in progress, running or paused.
  public var isRecording: Bool { status == .start || status == .pause }
}

/// A cloud-recording fact: one ``SessionEvent/recording(_:)``.
public enum RecordingEvent: Sendable, Codable, Hashable {
  /// The host started, paused, resumed (`start` again) or stopped the recording
  /// (`onCloudRecordingStatus`); a stop forgets who agreed.
  case statusChanged(RecordingStatus)
  /// A member agreed to be recorded (`onUserRecordAgreementNotification`).
  case agreed(UserID)
}

/// A cloud-recording call (`ZoomVideoSDKRecordingHelper`, `ZoomVideoSDKRecordAgreementHandler`):
/// one ``SessionCommand/recording(_:)``.
public enum RecordingCommand: Sendable, Codable, Hashable {
  /// `startCloudRecording` (host).
  case start
  /// `stopCloudRecording` (host).
  case stop
  /// `pauseCloudRecording` (host).
  case pause
  /// `resumeCloudRecording` (host).
  case resume
  /// `accept` on the agreement handler: the caller agrees to be recorded.
  case agree
}
