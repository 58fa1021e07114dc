import SessionCore
import SessionSimulation

/// Seed 002's virtual classroom as one student's SDK sees it: the teacher and students join,
/// a second teacher becomes a manager, the teacher shares a worksheet and everyone annotates,
/// chat, then the teacher leaves without ending and host passes to the manager.
///
/// `sessionsim classroom-trace` records it into the JSON Lines trace that `sessionsim demo`
/// bundles (`Resources/classroom.jsonl`).
enum ClassroomScenario {
  static let sessionName = "Algebra101"
  static let rivera: UserID = 101
  static let ada: UserID = 102
  static let ben: UserID = 103
  static let chen: UserID = 104
  static let cleo: UserID = 105
  static let dev: UserID = 106

  /// 9:00 on a school day, in milliseconds since 1970.
  static let classStart: Int64 = 1_788_253_200_000

  static func student(_ id: UserID, _ name: String, joinOrder: UInt64) -> Participant {
    Participant(
      id: id, name: name, audio: AudioStatus(type: .voip, isMuted: true), joinOrder: joinOrder)
  }

  /// The events, each with its time in seconds after the class starts.
  static var steps: [(seconds: Double, event: SessionEvent)] {
    let teacher = Participant(
      id: rivera, name: "Ms. Rivera", role: .host, isVideoOn: true,
      audio: AudioStatus(type: .voip, isMuted: false), networkQuality: .good, joinOrder: 1,
      customUserKey: "teacher-rivera")
    let me = Participant(
      id: ada, name: "Ada", audio: AudioStatus(type: .voip, isMuted: true),
      networkQuality: .good, joinOrder: 2)
    let snapshot = SessionSnapshot(
      sessionName: sessionName, sessionID: "alg101-2026-09-01", myself: ada,
      participants: [teacher, me], shareSetting: .single, sequence: 2)
    return [
      (0, .initialized),
      (1.5, .joinRequested(sessionName: sessionName, userName: "Ada")),
      (2.4, .sessionJoined(snapshot)),
      (8, .usersJoined([student(ben, "Ben", joinOrder: 3)])),
      (
        11,
        .usersJoined([
          Participant(
            id: chen, name: "Mr. Chen", role: .manager,
            audio: AudioStatus(type: .voip, isMuted: true), joinOrder: 4,
            customUserKey: "teacher-chen")
        ])
      ),
      (
        15,
        .usersJoined([student(cleo, "Cleo", joinOrder: 5), student(dev, "Dev", joinOrder: 6)])
      ),
      (20, .videoStatusChanged(user: ada, isOn: true)),
      (22, .videoStatusChanged(user: ben, isOn: true)),
      (30, .shareSettingChanged(.locked)),
      (45, .hostAskedUnmute(by: rivera)),
      (47, .audioStatusChanged(user: ada, type: .voip, isMuted: false)),
      (48, .activeSpeakersChanged([ada])),
      (
        52,
        .chatMessageReceived(
          ChatMessage(
            id: "m1", sender: ada, receiver: nil, content: "Good morning! Ready when you are.",
            timestamp: classStart + 52_000))
      ),
      (55, .activeSpeakersChanged([rivera])),
      (60, .shareStatusChanged(user: rivera, status: .started, kind: .view)),
      (
        62,
        .chatMessageReceived(
          ChatMessage(
            id: "m2", sender: rivera, receiver: nil,
            content: "Open the Linear Equations worksheet: question 3 first.",
            timestamp: classStart + 62_000))
      ),
      (70, .annotationStarted(user: rivera, shareOwner: rivera)),
      (75, .annotationStarted(user: ada, shareOwner: rivera)),
      (78, .annotationStarted(user: ben, shareOwner: rivera)),
      (90, .annotationCleared(user: ada, shareOwner: rivera, type: .mine)),
      (
        95,
        .chatMessageReceived(
          ChatMessage(
            id: "m3", sender: ben, receiver: ada, content: "Is question 3 about the slope?",
            timestamp: classStart + 95_000))
      ),
      (100, .annotationPrivilegeChanged(shareOwner: rivera, isViewerAnnotationDisabled: true)),
      (110, .managerChanged(user: cleo, isManager: true)),
      (115, .nameChanged(user: dev, name: "Dev Patel")),
      (120, .networkStatusChanged(user: cleo, quality: .bad)),
      (125, .audioStatusChanged(user: ada, type: .voip, isMuted: true)),
      (126, .activeSpeakersChanged([])),
      (130, .annotationCleared(user: rivera, shareOwner: rivera, type: .all)),
      (135, .shareStatusChanged(user: rivera, status: .paused, kind: .view)),
      (140, .shareStatusChanged(user: rivera, status: .resumed, kind: .view)),
      (150, .shareStatusChanged(user: rivera, status: .stopped, kind: .view)),
      (155, .chatMessageDeleted(messageID: "m3", deletedBy: .selfSender)),
      (160, .usersLeft([rivera])),
      (161, .hostChanged(newHost: chen)),
      (
        165,
        .chatMessageReceived(
          ChatMessage(
            id: "m4", sender: chen, receiver: nil,
            content: "Ms. Rivera had to go; I'll take it from here.",
            timestamp: classStart + 165_000))
      ),
      (170, .shareStatusChanged(user: chen, status: .started, kind: .inAppScreen)),
      (180, .annotationStarted(user: ada, shareOwner: chen)),
      (190, .videoStatusChanged(user: ada, isOn: false)),
      (200, .usersLeft([dev])),
      (210, .annotationStopped(user: ada, shareOwner: chen)),
      (215, .shareStatusChanged(user: chen, status: .stopped, kind: .inAppScreen)),
      (220, .leaveRequested),
      (221, .sessionLeft(reason: .bySelf)),
    ]
  }

  /// Records the scenario through a store, as an app would, and returns the trace.
  static func record() throws -> Trace {
    var now = classStart
    let store = SessionStore { now }
    let recorder = TraceRecorder(store: store, source: "sessionsim classroom-trace")
    for (seconds, event) in steps {
      now = classStart + Int64(seconds * 1_000)
      if case .rejected(let rejection) = store.send(event) {
        throw CommandFailure("the classroom scenario does not apply: \(rejection)")
      }
    }
    recorder.stop()
    return recorder.trace
  }
}

/// `sessionsim classroom-trace`: prints the classroom trace as JSON Lines.
@Sendable func runClassroomTrace(_ arguments: [String]) throws {
  guard arguments.isEmpty else { throw CommandFailure("takes no options", status: 2) }
  print(try ClassroomScenario.record().jsonLines(), terminator: "")
}
