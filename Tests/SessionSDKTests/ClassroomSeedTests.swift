import Foundation
import SessionCore
import SessionSDK
import Testing

@testable import ClassroomSeed

extension SharedInstanceTests {
  /// `Examples/Classroom`'s seed code (seed 002's start screen, session screen and its
  /// extension as published, Zoom names through type aliases, UIKit and PDFKit through headless
  /// stand-ins) with several peers on the development service: a teacher (host), four
  /// students and a second teacher (a manager), each a copy of the seed's app on an instance of
  /// its own.
  @Suite("Examples/Classroom: seed 002 as published, with several peers")
  struct ClassroomSeedTests {
    static let classCode = "Algebra101"

    /// The shared instance and the seed's development service as before any test.
    @MainActor
    static func reset() {
      SharedInstanceTests.resetSharedInstance()
      DevelopmentService.reset(domain: ClassroomPeer.domain)
    }

    /// Ms. Rivera (teacher, first in: host), four students, then Mr. Chen (teacher: a manager,
    /// since the class has a host), each through the seed's start screen and JWT alert.
    @MainActor
    static func classroom() -> (
      rivera: ClassroomPeer, chen: ClassroomPeer, students: [ClassroomPeer]
    ) {
      let rivera = ClassroomPeer(name: "Ms. Rivera")
      rivera.join(classCode: classCode, teacher: true)
      let students = (1...4).map { ClassroomPeer(name: "Student \($0)") }
      for student in students { student.join(classCode: classCode, teacher: false) }
      let chen = ClassroomPeer(name: "Mr. Chen")
      chen.join(classCode: classCode, teacher: true)
      return (rivera, chen, students)
    }

    /// The service's view of the share of `owner`.
    @MainActor
    static func serviceShare(of owner: ClassroomPeer) -> ActiveShare? {
      guard let id = owner.sdk.getSession()?.getMySelf()?.id else { return nil }
      return DevelopmentService.state(ofSession: classCode, domain: ClassroomPeer.domain)?
        .shares[id]
    }

    @MainActor
    static func id(of peer: ClassroomPeer) -> UserID? {
      peer.sdk.getSession()?.getMySelf()?.id
    }

    @MainActor
    @Test func theStartScreenJoinsAndTheParticipantsSheetListsTeachersFirst() throws {
      Self.reset()
      defer { Self.reset() }
      // The published enterButtonTapped refuses an empty class code.
      let late = ClassroomPeer(name: "Late")
      late.launch()
      #expect(late.sdk.isInitialized, "viewDidLoad's setupSDK()")
      late.enter(name: "Late", classCode: "  ", teacher: false)
      #expect(late.alert?.title == "Complete your details")
      #expect(late.session == nil)
      #expect(late.tapAlertButton("OK"))
      #expect(late.alert == nil)

      let (rivera, chen, students) = Self.classroom()
      let everyone = [rivera] + students + [chen]
      let names = ["Ms. Rivera", "Mr. Chen"] + students.map(\.name)
      for peer in everyone {
        let session = try #require(peer.session, "\(peer.name)")
        // enterButtonTapped handed the name and class code over, full screen.
        #expect(session.username == peer.name)
        #expect(session.sessionname == Self.classCode)
        #expect(session.modalPresentationStyle == .fullScreen)
        // viewDidLoad: setupUI and the delegate; joinSession; onSessionJoin.
        #expect(peer.sdk.isInSession())
        #expect(session.tabBar.delegate === session)
        #expect(session.loadingLabel.isHidden)
        #expect(!session.tabBar.isHidden)
        #expect(session.actualLocalViewDuringShare != nil)
        // onUserJoin: a tile per other user, its canvas subscribed.
        #expect(session.remoteUserViews.count == everyone.count - 1)
        #expect(peer.sdk.videoSubscriptionCount == everyone.count - 1)
        // refreshParticipants: everyone, teachers first.
        #expect(session.participants.count == everyone.count)
        #expect(Set(session.participants.compactMap { $0.getName() }) == Set(names))
        #expect(
          session.participants.map { session.roleLabel(for: $0) }
            == ["Teacher", "Teacher"] + Array(repeating: "Student", count: students.count))
      }
      // The role comes from the token: the first teacher is host, the second a manager.
      #expect(rivera.sdk.getSession()?.getMySelf()?.isHost() == true)
      #expect(chen.sdk.getSession()?.getMySelf()?.isManager() == true)
      #expect(
        rivera.session?.participants.prefix(2).compactMap { $0.getName() }
          == ["Ms. Rivera", "Mr. Chen"])
      // The seed sorts `[myself] + remote users` by role alone: a student sees themselves
      // first among the students.
      for student in students {
        #expect(student.session?.participants[2].getName() == student.name)
      }

      // The People tab opens and closes the participants panel.
      let panel = try #require(rivera.session?.participantsPanel)
      #expect(panel.isHidden)
      rivera.tap(\.participantsBarItem)
      #expect(!panel.isHidden)
      rivera.tap(\.participantsBarItem)
      #expect(panel.isHidden)

      // The camera tab: the sheet refreshes on the video change.
      rivera.tap(\.toggleVideoBarItem)
      #expect(rivera.session?.toggleVideoBarItem.title == "Stop Video")
      #expect(students[0].session?.participants.first?.getVideoCanvas()?.videoStatus()?.on == true)

      // The Leave tab: the published switch leaves; everyone's tiles and sheet drop the user.
      let leaving = students[3]
      leaving.tap(\.leaveSessionBarItem)
      #expect(!leaving.sdk.isInSession())
      for peer in everyone where peer !== leaving {
        #expect(peer.session?.remoteUserViews.count == everyone.count - 2, "\(peer.name)")
        #expect(peer.session?.participants.count == everyone.count - 1)
      }

      // The host leaves: Mr. Chen, the manager, becomes host and stays first in every sheet.
      rivera.tap(\.leaveSessionBarItem)
      #expect(chen.sdk.getSession()?.getMySelf()?.isHost() == true)
      for student in students.prefix(3) {
        let first = try #require(student.session?.participants.first)
        #expect(first.getName() == "Mr. Chen")
        #expect(student.session?.roleLabel(for: first) == "Teacher")
      }
      for peer in [chen] + students.prefix(3) {
        _ = peer.run { peer.sdk.leaveSession(false) }
      }
    }

    @MainActor
    @Test func theTeacherSharesALessonAndStudentsAnnotateWithThePanel() throws {
      Self.reset()
      defer { Self.reset() }
      // The app bundles the lesson PDFs; headless, the main bundle is the test runner's
      // directory, so the lesson is put there for the test.
      let lesson = Bundle.main.bundleURL.appendingPathComponent(
        "Quadratic_Functions_Challenge.pdf")
      try Data("%PDF-1.4\n%%EOF\n".utf8).write(to: lesson)
      defer { try? FileManager.default.removeItem(at: lesson) }
      let (rivera, chen, students) = Self.classroom()
      let riveraScreen = try #require(rivera.session)

      // The share tab offers in-app share or a lesson; the lesson picker lists the published
      // lessons.
      rivera.tap(\.toggleShareBarItem)
      #expect(
        rivera.alert?.actions.compactMap(\.title) == [
          "InAppScreenShare", "Choose Math Lab PDF", "Cancel",
        ])
      #expect(rivera.tapAlertButton("Choose Math Lab PDF"))
      #expect(
        rivera.alert?.actions.compactMap(\.title) == [
          "Linear Equations", "Quadratic Functions", "Systems of Equations", "Cancel",
        ])
      #expect(rivera.tapAlertButton("Quadratic Functions"))
      // handleShareSelection: openBundledPDF shows the lesson, and the PDF view is shared.
      #expect(riveraScreen.chosenShareType == .ShareWithView)
      #expect(riveraScreen.selectedLessonPDF == "Quadratic_Functions_Challenge")
      #expect(riveraScreen.sharedPDFView.document?.documentURL == lesson)
      #expect(riveraScreen.sharedPDFView.autoScales)
      #expect(!riveraScreen.sharedPDFView.isHidden)
      #expect(riveraScreen.toggleShareBarItem.title == "Stop Share")
      #expect(Self.serviceShare(of: rivera)?.kind == .view)
      #expect(!riveraScreen.shareBtnStackView.isHidden, "the pencil")
      for viewer in students + [chen] {
        #expect(viewer.session?.sharerView.isHidden == false, "\(viewer.name)")
        #expect(viewer.sdk.getShareHelper().isOtherSharing())
      }

      // Every student's pencil: a helper on the view showing the share, started; the panel
      // shows; share-view zoom gestures are off (PDF navigation is the sharer's).
      let riveraID = try #require(Self.id(of: rivera))
      var annotators: Set<UserID> = []
      for student in students {
        let screen = try #require(student.session)
        student.run { screen.toggleDraw() }
        #expect(screen.annotationHelper?.shareOwner == riveraID, "\(student.name)")
        #expect(screen.annotationHelper?.isStarted == true)
        #expect(screen.annotationStarted)
        #expect(!screen.annotationPanel.isHidden)
        #expect(!screen.isShareZoomGesturesEnabled)
        #expect(screen.isPDFNavigationEnabled)
        annotators.insert(try #require(Self.id(of: student)))
      }
      #expect(Self.serviceShare(of: rivera)?.annotators == annotators)
      // The teacher's pencil on her own ShareWithView share also locks PDF navigation.
      rivera.run { riveraScreen.toggleDraw() }
      #expect(riveraScreen.annotationStarted)
      #expect(!riveraScreen.isPDFNavigationEnabled && !riveraScreen.isShareZoomGesturesEnabled)
      annotators.insert(riveraID)
      #expect(Self.serviceShare(of: rivera)?.annotators == annotators)

      // One student's panel: pen, blue, strokes, undo and redo.
      let student = students[1]
      let screen = try #require(student.session)
      let helper = try #require(screen.annotationHelper)
      student.run {
        screen.penTapped()
        screen.colorTapped(.blue)
      }
      #expect(helper.getToolType() == .pen)
      #expect(helper.getToolColor() == .blue)
      for index in 0..<3 {
        let point = AnnotationPoint(x: Double(index), y: 1)
        #expect(helper.draw(AnnotationStroke(points: [point])) == .Errors_Success)
      }
      student.run {
        screen.undoTapped()
        screen.undoTapped()
        screen.redoTapped()
      }
      #expect(helper.strokes.count == 2)
      #expect(helper.strokes.allSatisfy { $0.color == .blue })
      // Clear all is a teacher's: refused to the student, allowed to the manager, and it
      // clears the student's strokes too.
      student.run { screen.clearAllTapped() }
      #expect(helper.strokes.count == 2)
      #expect(Self.serviceShare(of: rivera)?.clearCount == 0)
      let chenScreen = try #require(chen.session)
      chen.run {
        chenScreen.toggleDraw()
        chenScreen.clearAllTapped()
      }
      #expect(Self.serviceShare(of: rivera)?.clearCount == 1)
      #expect(helper.strokes.isEmpty)
      annotators.insert(try #require(Self.id(of: chen)))

      // The student's pencil again stops, then destroys the helper, and resets the panel.
      student.run { screen.toggleDraw() }
      #expect(screen.annotationHelper == nil)
      #expect(helper.isReleased)
      #expect(!screen.annotationStarted)
      #expect(screen.annotationPanel.isHidden)
      #expect(screen.isShareZoomGesturesEnabled)
      annotators.remove(try #require(Self.id(of: student)))
      #expect(Self.serviceShare(of: rivera)?.annotators == annotators)

      // The share tab again stops the share: every helper is cleaned up and each panel reset.
      rivera.tap(\.toggleShareBarItem)
      #expect(Self.serviceShare(of: rivera) == nil)
      #expect(riveraScreen.toggleShareBarItem.title == "Share")
      #expect(riveraScreen.isPDFNavigationEnabled)
      for peer in [rivera, chen] + students {
        let screen = try #require(peer.session)
        #expect(screen.annotationHelper == nil, "\(peer.name)")
        #expect(!screen.annotationStarted)
        #expect(screen.annotationPanel.isHidden)
        #expect(screen.isShareZoomGesturesEnabled)
        #expect(peer === rivera || screen.sharerView.isHidden)
      }
      for peer in [chen] + students + [rivera] { _ = peer.run { peer.sdk.leaveSession(false) } }
    }

    @MainActor
    @Test func theManagerSharesTheAppAndAnnotationUsesTheAnnotationView() throws {
      Self.reset()
      defer { Self.reset() }
      let (rivera, chen, students) = Self.classroom()
      let chenScreen = try #require(chen.session)

      // While Mr. Chen shares the app, a student's share tab is refused.
      chen.tap(\.toggleShareBarItem)
      #expect(chen.tapAlertButton("InAppScreenShare"))
      #expect(chenScreen.chosenShareType == .InAppScreenShare)
      #expect(Self.serviceShare(of: chen)?.kind == .inAppScreen)
      students[0].tap(\.toggleShareBarItem)
      #expect(students[0].alert?.message == "Someone else is sharing.")
      #expect(students[0].tapAlertButton("OK"))

      // His pencil on his own in-app share: the annotation view is his screen's view; PDF
      // navigation stays (no PDF is shared).
      chen.run { chenScreen.toggleDraw() }
      #expect(chenScreen.annotationStarted)
      #expect(chenScreen.isPDFNavigationEnabled && !chenScreen.isShareZoomGesturesEnabled)
      // A student's pencil on the remote in-app share: the annotation view is sharerView.
      let screen = try #require(students[2].session)
      students[2].run { screen.toggleDraw() }
      #expect(screen.annotationStarted)
      #expect(screen.annotationHelper?.isStarted == true)
      let annotators = Set([Self.id(of: chen), Self.id(of: students[2])].compactMap { $0 })
      #expect(Self.serviceShare(of: chen)?.annotators == annotators)

      // A student with nothing shared to annotate is told so.
      chen.tap(\.toggleShareBarItem)
      #expect(Self.serviceShare(of: chen) == nil)
      #expect(screen.annotationPanel.isHidden)
      students[3].run { students[3].session?.toggleDraw() }
      #expect(students[3].alert?.message == "There is no share to annotate.")
      // Read and closed, as a student would; an alert left up holds its screen through the
      // button's handler, as UIKit's does (LeakSanitizer reports the screen at exit).
      #expect(students[3].tapAlertButton("OK"))
      #expect(students[3].alert == nil && students[3].session != nil)
      for peer in [chen] + students + [rivera] { _ = peer.run { peer.sdk.leaveSession(false) } }
    }

    /// The JWT generator's published claims.
    @Test func theJWTGeneratorsPayloadNamesTheClassCodeAndTheRole() {
      let payload = jwtPayload(
        sdkKey: "key", sessionName: Self.classCode, role: 1, iat: 1_000, exp: 8_200)
      #expect(payload["tpc"] as? String == Self.classCode)
      #expect(payload["role_type"] as? Int == 1)
      #expect(payload["app_key"] as? String == "key")
      #expect(payload["version"] as? Int == 1)
      #expect(payload["exp"] as? Int == 8_200)
    }
  }
}
