extension SessionState {
  /// Applies a cloud-recording event: a recording starts (from none or stopped), pauses (when
  /// running), resumes (`start` when paused) and stops (running or paused; who agreed is
  /// forgotten); a member agrees once, while a recording is in progress.
  mutating func reduceRecording(_ change: RecordingEvent, _ event: SessionEvent)
    throws(EventRejection)
  {
    switch change {
    case .statusChanged(let status):
      let current = recording.status
      let allowed =
        switch status {
        case .start: current != .start
        case .pause: current == .start
        case .stop: recording.isRecording
        case .none, .diskFull, .connecting: false
        }
      guard allowed else {
        throw reject(.recordingNotAllowed, event, "recording \(status) from \(current)")
      }
      recording.status = status
      if status == .stop { recording.agreed = [] }
    case .agreed(let user):
      _ = try indexOf(user, event)
      guard recording.isRecording, !recording.agreed.contains(user) else {
        throw reject(.recordingNotAllowed, event, "\(user) agrees with \(recording.status)")
      }
      recording.agreed.insert(user)
    }
  }

  /// Takes a snapshot's recording after its participants: those who agreed are present, and
  /// agreed while a recording is in progress.
  mutating func adoptRecording(_ board: RecordingBoard, _ event: SessionEvent)
    throws(EventRejection)
  {
    guard board.status != .diskFull, board.status != .connecting,
      board.agreed.isEmpty || board.isRecording,
      board.agreed.allSatisfy({ participants[$0] != nil })
    else {
      throw reject(.invalidSnapshot, event, "recording \(board.status) is inconsistent")
    }
    recording = board
  }
}
