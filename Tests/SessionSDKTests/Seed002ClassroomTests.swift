import SessionCore
import SessionSDK
import SessionService
import SessionTestSupport
import Testing

// Seed 002, the virtual classroom, end to end over the real service: a teacher (role_type 1),
// thirty students and a second teacher (role_type 1, so a manager). The seed's
// `SessionViewController` is ported as a headless model on one SDK instance: video tiles,
// the participants sheet (`refreshParticipants` and its role sort), the remote share view, and
// the annotation panel (pen, highlighter, arrow, eraser, four colours, undo, redo, clear all).

private typealias Recorder = SessionTestSupport.RecordingDelegate

/// Seed 002's session screen, headless.
@MainActor
final class ClassroomViewModel: @preconcurrency VideoSDKDelegate {
  let sdk: VideoSDK
  /// The People tab: `refreshParticipants()`'s list.
  var participants: [User] = []
  /// One video tile per remote user, by id, as `remoteUserViews` keeps them.
  var remoteUserViews: [Int: NSObjectStandIn] = [:]
  /// What each tile's `subscribe` returned, in order.
  var subscribeResults: [VideoSDKError] = []
  /// The view a remote share is shown in.
  let sharerView = NSObjectStandIn()
  let sharedPDFView = NSObjectStandIn()
  var annotationHelper: AnnotationHelper?
  var annotationStarted = false
  var annotationPanelHidden = true
  var errors: [String] = []

  init(sdk: VideoSDK) {
    self.sdk = sdk
    sdk.delegate = self
  }

  // MARK: Participants

  /// Hosts and managers rank first ("Teacher"), everyone else after ("Student").
  func participantRoleRank(_ user: User) -> Int {
    if user.isHost() { return 0 }
    if user.isManager() { return 1 }
    return 2
  }

  func roleLabel(_ user: User) -> String {
    participantRoleRank(user) < 2 ? "Teacher" : "Student"
  }

  func refreshParticipants() {
    guard let session = sdk.getSession(), let myself = session.getMySelf() else { return }
    participants = ([myself] + (session.getRemoteUsers() ?? [])).sorted {
      participantRoleRank($0) < participantRoleRank($1)
    }
  }

  // MARK: Delegate

  func onSessionJoin() {
    refreshParticipants()
  }

  func onUserJoin(_ helper: UserHelper?, users: [User]?) {
    let me = sdk.getSession()?.getMySelf()?.getID()
    for user in users ?? [] where user.getID() != me {
      let view = NSObjectStandIn()
      remoteUserViews[user.getID()] = view
      if let remoteUserVideoCanvas = user.getVideoCanvas() {
        subscribeResults.append(
          remoteUserVideoCanvas.subscribe(with: view, aspectMode: .panAndScan, andResolution: .auto)
        )
      }
    }
    refreshParticipants()
  }

  func onUserLeave(_ helper: UserHelper?, users: [User]?) {
    for user in users ?? [] {
      if let view = remoteUserViews.removeValue(forKey: user.getID()) {
        user.getVideoCanvas()?.unSubscribe(with: view)
      }
    }
    refreshParticipants()
  }

  func onUserVideoStatusChanged(_ helper: VideoHelper?, user: [User]?) { refreshParticipants() }
  func onUserAudioStatusChanged(_ helper: AudioHelper?, user: [User]?) { refreshParticipants() }
  func onUserNameChanged(_ user: User?) { refreshParticipants() }
  func onUserHostChanged(_ helper: UserHelper?, users user: User?) { refreshParticipants() }
  func onUserManagerChanged(_ user: User?) { refreshParticipants() }

  func onUserShareStatusChanged(_ helper: ShareHelper?, user: User?, shareAction: ShareAction?) {
    guard let user, let shareAction, user.getID() != sdk.getSession()?.getMySelf()?.getID()
    else { return }
    let status = shareAction.getShareStatus()
    if status == .started || status == .resumed {
      shareAction.getShareCanvas()?.subscribe(
        with: sharerView, aspectMode: .letterBox, andResolution: .auto)
    } else {
      shareAction.getShareCanvas()?.unSubscribe(with: sharerView)
      resetAnnotationUI()
    }
  }

  func onAnnotationHelperCleanUp(_ helper: AnnotationHelper?) {
    if helper === annotationHelper {
      annotationHelper = nil
      resetAnnotationUI()
    }
  }

  func onError(_ errorType: VideoSDKError, detail details: Int) {
    errors.append("Error occured: \(errorType.rawValue)")
  }

  // MARK: Share and annotation

  /// `handleShareSelection(with: .ShareWithView)` with a lesson PDF.
  func shareLesson() -> VideoSDKError {
    sdk.getShareHelper().startShare(with: sharedPDFView)
  }

  /// The floating pencil button.
  func toggleDraw() {
    let shareHelper: ShareHelper = sdk.getShareHelper()
    guard shareHelper.isAnnotationFeatureSupport(),
      shareHelper.isSharingOut() || shareHelper.isOtherSharing()
    else {
      errors.append("Nothing to annotate.")
      return
    }
    if annotationStarted, let helper = annotationHelper {
      // The active helper must be stopped before it is destroyed.
      if helper.stopAnnotation() == .success {
        shareHelper.destroy(helper)
        annotationHelper = nil
        resetAnnotationUI()
      }
      return
    }
    annotationHelper =
      shareHelper.isSharingOut()
      ? shareHelper.createAnnotationHelper(nil) : shareHelper.createAnnotationHelper(sharerView)
    guard let annotationHelper else {
      errors.append("You are not allowed to annotate")
      return
    }
    guard annotationHelper.startAnnotation() == .success else {
      errors.append("Unable to start annotation.")
      return
    }
    annotationStarted = true
    annotationPanelHidden = false
  }

  func resetAnnotationUI() {
    annotationStarted = false
    annotationPanelHidden = true
  }
}

@MainActor
@Suite("Seed 002: classroom with a teacher and thirty students")
struct Seed002ClassroomTests {
  let testbed = SessionTestbed(sessionName: "Algebra101")
  /// Ms. Rivera, role_type 1, first in: the host.
  let rivera: ClassroomViewModel
  let riveraStore: SDKTestStore
  /// Mr. Chen, role_type 1, joins after ten students: a manager.
  let chen: ClassroomViewModel
  let chenStore: SDKTestStore
  let students: [ClassroomViewModel]
  /// Each student's callbacks, through the observer (the delegate slot is the model's).
  private let studentLogs: [Recorder]

  init() throws {
    let testbed = testbed
    rivera = ClassroomViewModel(sdk: testbed.makeSDK())
    riveraStore = SDKTestStore(rivera.sdk, in: testbed)
    rivera.sdk.joinSession(testbed.context("Ms. Rivera", role: .host))
    var students: [ClassroomViewModel] = []
    var logs: [Recorder] = []
    let addStudent = { (number: Int) in
      let student = ClassroomViewModel(sdk: testbed.makeSDK())
      let log = Recorder()
      log.observe(student.sdk)
      student.sdk.joinSession(testbed.context("Student \(number)"))
      students.append(student)
      logs.append(log)
    }
    for number in 1...10 { addStudent(number) }
    let chen = ClassroomViewModel(sdk: testbed.makeSDK())
    chen.sdk.joinSession(testbed.context("Mr. Chen", role: .host))
    for number in 11...30 { addStudent(number) }
    self.chen = chen
    chenStore = SDKTestStore(chen.sdk, in: testbed)
    self.students = students
    studentLogs = logs
    riveraStore.skipReceived()
    for log in logs { _ = log.take() }
  }

  var riveraID: UserID { rivera.sdk.store.state.myselfID ?? 0 }
  var chenID: UserID { chen.sdk.store.state.myselfID ?? 0 }

  /// Every student got exactly `callbacks` since the last check.
  func everyStudentReceived(
    _ callbacks: [VideoSDKCallback], sourceLocation: SourceLocation = #_sourceLocation
  ) {
    for (index, log) in studentLogs.enumerated() {
      let got = log.take()
      #expect(got == callbacks, "student \(index + 1)", sourceLocation: sourceLocation)
    }
  }

  func converged(sourceLocation: SourceLocation = #_sourceLocation) {
    testbed.assertConverged(sourceLocation: sourceLocation)
  }

  @Test func rolesRosterOrderAndTheSeedsParticipantsSheet() throws {
    let state = rivera.sdk.store.state
    #expect(state.participants.count == 32)
    #expect(state.host?.name == "Ms. Rivera")
    #expect(state.managers.map(\.name) == ["Mr. Chen"])
    #expect(state.participants.values.filter { $0.role == .participant }.count == 30)
    let expectedOrder =
      ["Ms. Rivera", "Mr. Chen"] + (1...30).map { "Student \($0)" }
    #expect(state.orderedRoster.map(\.name) == expectedOrder)

    // The seed's sort gives the same order to both teachers…
    for teacher in [rivera, chen] {
      #expect(
        teacher.participants.map(\.id) == teacher.sdk.store.state.orderedUserIDs,
        "\(teacher.sdk.store.state.myself?.name ?? "?")")
    }
    #expect(rivera.participants.prefix(2).map(rivera.roleLabel) == ["Teacher", "Teacher"])
    #expect(rivera.participants.dropFirst(2).allSatisfy { rivera.roleLabel($0) == "Student" })

    // …and to the first student; any later student sees themselves first among the students,
    // because the seed sorts `[myself] + remote users` by role alone.
    #expect(students[0].participants.map(\.id) == students[0].sdk.store.state.orderedUserIDs)
    for student in students.dropFirst() {
      let state = student.sdk.store.state
      let me = try #require(state.myselfID)
      var expected = state.orderedUserIDs.filter { $0 != me }
      expected.insert(me, at: 2)
      #expect(student.participants.map(\.id) == expected)
    }

    // Each model tiles every other user; the engine's 25 video subscriptions run out first.
    #expect(rivera.remoteUserViews.count == 31)
    #expect(rivera.subscribeResults.filter { $0 == .success }.count == 25)
    #expect(rivera.subscribeResults.filter { $0 == .sessionVideoError }.count == 6)
    #expect(rivera.sdk.videoSubscriptionCount == 25)
    riveraStore.finish()
    chenStore.finish()
    converged()
  }

  @Test func aLockedShareRefusesStudentsAndLetsTheManagerShare() throws {
    riveraStore.perform(
      { $0.getShareHelper().lockShare(true) }, returns: .success,
      assert: { $0.shareSetting = .locked })
    riveraStore.receive(.onShareSettingChanged(.locked))
    chenStore.receive(.onShareSettingChanged(.locked)) { $0.shareSetting = .locked }
    everyStudentReceived([.onShareSettingChanged(.locked)])

    for student in students {
      #expect(student.shareLesson() == .sessionNoRights)
      #expect(student.sdk.getShareHelper().startInAppScreenShare() == .sessionNoRights)
      #expect(student.sdk.getShareHelper().lockShare(false) == .sessionNoRights)
    }
    everyStudentReceived([])

    let chenID = chenID
    chenStore.perform(
      { _ in chen.shareLesson() }, returns: .success,
      assert: {
        $0.participants[chenID]?.shareStatus = .started
        $0.shares[chenID] = ActiveShare(owner: chenID, kind: .view, startOrder: 1)
      })
    chenStore.receive(.onUserShareStatusChanged(chenID, .started, .view))
    riveraStore.receive(.onUserShareStatusChanged(chenID, .started, .view)) {
      $0.participants[chenID]?.shareStatus = .started
      $0.shares[chenID] = ActiveShare(owner: chenID, kind: .view, startOrder: 1)
    }
    everyStudentReceived([.onUserShareStatusChanged(chenID, .started, .view)])
    // Even the host cannot take over a manager's share.
    riveraStore.perform({ _ in rivera.shareLesson() }, returns: .sessionShareError)
    riveraStore.finish()
    chenStore.finish()
    converged()
  }

  @Test func studentsAnnotateWithThePanelsToolsAndOnlyTeachersClearAll() throws {
    let chenID = chenID
    #expect(chen.shareLesson() == .success)
    chenStore.skipReceived()
    riveraStore.skipReceived()
    everyStudentReceived([.onUserShareStatusChanged(chenID, .started, .view)])

    // Every student opens the panel on the lesson.
    for student in students {
      student.toggleDraw()
      #expect(student.annotationStarted)
      #expect(!student.annotationPanelHidden)
      #expect(student.annotationHelper?.shareOwner == chenID)
    }
    let annotators = Set(students.compactMap { $0.sdk.store.state.myselfID })
    #expect(testbed.serviceState()?.shares[chenID]?.annotators == annotators)
    everyStudentReceived([])
    chenStore.assert { $0.shares[chenID]?.annotators = annotators }
    riveraStore.assert { $0.shares[chenID]?.annotators = annotators }

    // The panel: pen, highlighter, arrow, eraser; red, yellow, blue, green; undo, redo.
    let student = students[4]
    let helper = try #require(student.annotationHelper)
    let tools: [AnnotationToolType] = [.pen, .highLighter, .arrow, .eraser, .pen]
    let colors: [AnnotationColor] = [.red, .yellow, .blue, .green]
    for (tool, color) in zip(tools, colors + [.red]) {
      #expect(helper.setToolType(tool) == .success)
      #expect(helper.setToolColor(color) == .success)
      #expect(helper.draw(AnnotationStroke(points: [AnnotationPoint(x: 0, y: 0)])) == .success)
    }
    #expect(
      studentLogs[4].take()
        == [.highLighter, .arrow, .eraser, .pen].map {
          .onAnnotationToolTypeChanged(shareOwner: chenID, $0)
        })
    #expect(helper.strokes.map(\.toolType) == tools)
    #expect(helper.strokes.map(\.color) == colors + [.red])
    #expect(helper.undo() == .success)
    #expect(helper.undo() == .success)
    #expect(helper.redo() == .success)
    #expect(helper.strokes.count == 4)

    // Clear all: refused to a student; allowed to the host (not the owner) and the owner.
    #expect(helper.clear(.all) == .sessionNoRights)
    let riveraHelper = try #require(
      rivera.sdk.getShareHelper().createAnnotationHelper(rivera.sharerView))
    riveraStore.perform(
      { _ in riveraHelper.clear(.all) }, returns: .success,
      assert: { $0.shares[chenID]?.clearCount = 1 })
    #expect(helper.strokes.isEmpty)
    chenStore.assert { $0.shares[chenID]?.clearCount = 1 }
    let chenHelper = try #require(chen.sdk.getShareHelper().createAnnotationHelper(nil))
    chenStore.perform(
      { _ in chenHelper.clear(.all) }, returns: .success,
      assert: { $0.shares[chenID]?.clearCount = 2 })
    riveraStore.assert { $0.shares[chenID]?.clearCount = 2 }
    everyStudentReceived([])

    // The pencil again stops and destroys the helper (stopped first, as the seed insists).
    student.toggleDraw()
    #expect(!student.annotationStarted)
    #expect(student.annotationHelper == nil)
    #expect(helper.isReleased)
    let remaining = annotators.subtracting([try #require(student.sdk.store.state.myselfID)])
    chenStore.assert { $0.shares[chenID]?.annotators = remaining }
    riveraStore.assert { $0.shares[chenID]?.annotators = remaining }

    // Chen stops sharing: the students still annotating get their helpers cleaned up.
    chenStore.perform(
      { $0.getShareHelper().stopShare() }, returns: .success,
      assert: {
        $0.participants[chenID]?.shareStatus = .stopped
        $0.shares[chenID] = nil
      })
    chenStore.receive(
      .onUserShareStatusChanged(chenID, .stopped, .view),
      .onAnnotationHelperCleanUp(shareOwner: chenID))
    riveraStore.receive(
      .onUserShareStatusChanged(chenID, .stopped, .view),
      .onAnnotationHelperCleanUp(shareOwner: chenID)
    ) {
      $0.participants[chenID]?.shareStatus = .stopped
      $0.shares[chenID] = nil
    }
    for (index, log) in studentLogs.enumerated() {
      let expected: [VideoSDKCallback] =
        index == 4
        ? [.onUserShareStatusChanged(chenID, .stopped, .view)]
        : [
          .onUserShareStatusChanged(chenID, .stopped, .view),
          .onAnnotationHelperCleanUp(shareOwner: chenID),
        ]
      #expect(log.take() == expected, "student \(index + 1)")
      #expect(students[index].annotationPanelHidden)
    }
    riveraStore.finish()
    chenStore.finish()
    converged()
  }

  @Test func theTeacherLeavesTheManagerBecomesHostAndTheTeacherReclaimsIt() throws {
    let riveraID = riveraID
    let chenID = chenID

    // Ms. Rivera leaves without ending: Mr. Chen, the earliest manager, becomes host.
    riveraStore.perform(
      { $0.leaveSession(false) }, returns: .success,
      assert: {
        $0 = SessionStateFields(SessionState())
        $0.phase = .left(.bySelf)
        $0.sessionName = "Algebra101"
      })
    riveraStore.receive(.onSessionLeave(.bySelf), .onSessionLeaveLegacy)
    chenStore.receive(.onUserLeave([riveraID]), .onUserHostChanged(chenID)) {
      $0.participants[riveraID] = nil
      $0.participants[chenID]?.role = .host
      $0.hostID = chenID
    }
    everyStudentReceived([.onUserLeave([riveraID]), .onUserHostChanged(chenID)])
    #expect(chen.sdk.getSession()?.getSessionHost()?.getName() == "Mr. Chen")
    #expect(students[7].participants.first?.getName() == "Mr. Chen")
    #expect(students[7].participants.first.map(students[7].roleLabel) == "Teacher")
    converged()

    // She rejoins with her role_type 1 token while Mr. Chen is host: she is a manager.
    let back = ClassroomViewModel(sdk: testbed.makeSDK())
    let backStore = SDKTestStore(back.sdk, in: testbed)
    let testbed = testbed
    backStore.perform(
      { $0.joinSession(testbed.context("Ms. Rivera", role: .host)) },
      assert: { expected in
        guard let service = testbed.serviceState() else { return }
        expected = .member(33, of: service)
      })
    let everyone = try #require(testbed.serviceState()?.usersInJoinOrder.map(\.id))
    // Her context connects audio: every member hears of it after the join.
    backStore.receive(
      .onSessionJoin, .onUserJoin(everyone), .onUserAudioStatusChanged([33]),
      .onCmdChannelConnectResult(true))
    // Her model tiles the 31 others: the last six are over the 25 video subscriptions.
    backStore.receive(
      (27...32).map { .onVideoCanvasSubscribeFail(.hasSubscribeExceededLimit, user: UserID($0)) })
    let newRivera = try #require(back.sdk.store.state.myself)
    #expect(newRivera.id == 33)
    #expect(newRivera.role == .manager)
    chenStore.receive(.onUserJoin([33]), .onUserAudioStatusChanged([33])) {
      $0.participants[33] = newRivera
    }
    everyStudentReceived([.onUserJoin([33]), .onUserAudioStatusChanged([33])])
    converged()

    // reclaimHost: host again, for everyone; the co-teacher she takes it from (role_type 1)
    // goes back to being a manager.
    backStore.perform(
      { $0.getUserHelper().reclaimHost() }, returns: true,
      assert: {
        $0.participants[33]?.role = .host
        $0.participants[chenID]?.role = .manager
        $0.hostID = 33
      })
    backStore.receive(.onUserHostChanged(33), .onUserManagerChanged(chenID))
    chenStore.receive(.onUserHostChanged(33), .onUserManagerChanged(chenID)) {
      $0.participants[33]?.role = .host
      $0.participants[chenID]?.role = .manager
      $0.hostID = 33
    }
    everyStudentReceived([.onUserHostChanged(33), .onUserManagerChanged(chenID)])
    #expect(back.participants.first?.getName() == "Ms. Rivera")
    #expect(back.participants.first?.isHost() == true)
    #expect(chen.sdk.getSession()?.getMySelf()?.isManager() == true)
    #expect(students[0].participants.map(\.id) == students[0].sdk.store.state.orderedUserIDs)
    backStore.perform({ $0.getUserHelper().reclaimHost() }, returns: false)
    backStore.finish()
    chenStore.finish()
    converged()
  }
}
