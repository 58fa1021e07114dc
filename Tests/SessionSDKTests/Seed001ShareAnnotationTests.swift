import SessionCore
import SessionSDK
import SessionService
import SessionTestSupport
import Testing

// Seed 001, screen share with annotation, end to end over the real service: a doctor (host)
// shares a PDF and a patient annotates it. `SessionViewController`'s share and annotation logic
// is ported as a headless model on one SDK instance: `ZoomVideoSDK.shareInstance()?` becomes the
// instance, views become stand-in objects, UI state becomes properties, `showError` collects
// its messages, and the bar item's title is kept as the seed sets it.

/// The seed's `ShareSelection`.
enum ShareSelection {
  case inAppScreenShare
  case shareWithView
}

/// What tapping the share bar item did (`handleShareToggle`).
enum ShareToggleOutcome: Equatable {
  /// A guard refused, with the seed's error message.
  case refused(String)
  /// The local user was sharing: `stopShare()` ran and returned this.
  case stopped(VideoSDKError)
  /// The alert offering InAppScreenShare and ShareWithView was shown.
  case offeredChoices
}

/// The share and annotation parts of seed 001's `SessionViewController`.
@MainActor
final class ShareAnnotationViewModel: @preconcurrency VideoSDKDelegate {
  let sdk: VideoSDK
  /// The bar item's title.
  var toggleShareTitle = "Share Locked"
  /// The view a remote share is subscribed to.
  let sharerView = NSObjectStandIn()
  var sharerViewHidden = true
  /// The local PDF view (a stand-in) and whether a document is loaded in it.
  let sharedPDFView = NSObjectStandIn()
  var pdfLoaded = false
  var chosenShareType: ShareSelection?
  var annotationStarted = false
  var annotationHelper: AnnotationHelper?
  /// Messages `showError` would present.
  var errors: [String] = []
  /// What `enableMultiShare(false)` and `lockShare(false)` returned in `onSessionJoin` (the seed
  /// ignores them).
  var hostSetupResults: [VideoSDKError] = []

  init(sdk: VideoSDK) {
    self.sdk = sdk
    sdk.delegate = self
  }

  var shareHelper: ShareHelper { sdk.getShareHelper() }

  // MARK: Delegate

  func onSessionJoin() {
    if let localUserIsHost = sdk.getSession()?.getMySelf()?.isHost(), localUserIsHost {
      hostSetupResults = [shareHelper.enableMultiShare(false), shareHelper.lockShare(false)]
    }
    if shareHelper.isMultiShareEnabled() == false && !shareHelper.isShareLocked() {
      toggleShareTitle = "Start Share"
    }
  }

  func onShareSettingChanged(_ setting: ShareSetting) {
    if setting == .single {
      toggleShareTitle = "Start Share"
    }
  }

  func onUserShareStatusChanged(_ helper: ShareHelper?, user: User?, shareAction: ShareAction?) {
    guard let user, let myself = sdk.getSession()?.getMySelf(), let shareAction else { return }
    let shareStatus = shareAction.getShareStatus()
    if user.getID() != myself.getID() {
      if shareStatus == .started || shareStatus == .resumed {
        shareAction.getShareCanvas()?.subscribe(
          with: sharerView, aspectMode: .letterBox, andResolution: .auto)
        sharerViewHidden = false
        toggleShareTitle = "Share Locked"
      } else {
        shareAction.getShareCanvas()?.unSubscribe(with: sharerView)
        sharerViewHidden = true
      }
    }
  }

  func onError(_ errorType: VideoSDKError, detail details: Int) {
    errors.append("Error occured: \(errorType.rawValue)")
  }

  // MARK: Share button

  func handleShareToggle() -> ShareToggleOutcome {
    // 1. Check if share is enabled.
    guard shareHelper.isMultiShareEnabled() != true || shareHelper.isShareLocked() else {
      return refuse("Screen sharing is locked. Wait for host to be in.")
    }
    // 2. Check if someone is sharing - Single share only
    guard !shareHelper.isOtherSharing() else {
      return refuse("Others is sharing. Only 1 share allowed.")
    }
    // 3. Check if InAppscreenShare is supported
    guard shareHelper.isSupportInAppScreenShare() else {
      return refuse("In app screen share is not supported.")
    }
    if shareHelper.isSharingOut() {
      let error = shareHelper.stopShare()
      if error == .success {
        toggleShareTitle = "Start Share"
      }
      return .stopped(error)
    }
    return .offeredChoices
  }

  @discardableResult
  func handleShareSelection(with chosenShare: ShareSelection) -> VideoSDKError {
    chosenShareType = chosenShare
    let error: VideoSDKError
    switch chosenShare {
    case .inAppScreenShare:
      error = shareHelper.startInAppScreenShare()
    case .shareWithView:
      pdfLoaded = true  // openBundledPDF()
      error = shareHelper.startShare(with: sharedPDFView)
    }
    if error == .success {
      toggleShareTitle = "Stop Share"
    }
    return error
  }

  /// `pickPDF()` and the document picker's callback: the chosen PDF is shown in
  /// `sharedPDFView` (for InAppScreenShare, the user opens it in the file explorer).
  func pickPDF() {
    pdfLoaded = true
  }

  // MARK: Draw button

  func toggleDraw() {
    // 1. If local share owner is sharing - Allow viewer to annotation
    shareHelper.disableViewerAnnotation(false)
    // 2. Check if annotation is supported and if viewer annotation is disable
    guard shareHelper.isAnnotationFeatureSupport(), !shareHelper.isViewerAnnotationDisabled() else {
      errors.append("Annotation is not supported")
      return
    }
    // 3. Check if annotationHelper exist, if so we will destory it.
    if annotationHelper != nil {
      shareHelper.destroy(annotationHelper)
    }
    // 4. Check if local user is the one sharing out.
    if shareHelper.isSharingOut() {
      guard pdfLoaded else {
        errors.append("Select a PDF first.")
        return
      }
      annotationHelper = shareHelper.createAnnotationHelper(nil)
    } else if shareHelper.isOtherSharing() {
      annotationHelper = shareHelper.createAnnotationHelper(sharerView)
    }
    // 5. If annotationHelper is still nil at this stage, means annotation is invalid.
    guard let annotationHelper else {
      errors.append("You are not allowed to annotate")
      return
    }
    // 6. Check the current status of annotation
    if annotationStarted {
      if annotationHelper.stopAnnotation() == .success {
        annotationStarted = false
      }
    } else {
      guard annotationHelper.startAnnotation() == .success else {
        errors.append("Fail to start annotation")
        return
      }
      switch chosenShareType {
      case .inAppScreenShare:
        let view = shareHelper.isSharingOut() ? sharedPDFView : sharerView
        if shareHelper.setAnnotationView(view) == .success {
          annotationHelper.setToolType(.pen)
          annotationHelper.setToolColor(.red)
          annotationHelper.setToolWidth(2)
        } else {
          errors.append("Fail to set annotation")
        }
      case .shareWithView:
        annotationHelper.setToolType(.pen)
        annotationHelper.setToolColor(.red)
        annotationHelper.setToolWidth(2)
      case nil:
        return
      }
      annotationStarted = true
    }
  }

  private func refuse(_ message: String) -> ShareToggleOutcome {
    errors.append(message)
    return .refused(message)
  }
}

@MainActor
@Suite("Seed 001: share with annotation")
struct Seed001ShareAnnotationTests {
  let testbed = SessionTestbed(sessionName: "Consultation")
  let doctor: ShareAnnotationViewModel
  let patient: ShareAnnotationViewModel
  let doctorStore: SDKTestStore
  let patientStore: SDKTestStore

  /// The doctor (host, 1) and the patient (2) joined through the seed's `onSessionJoin`.
  init() throws {
    doctor = ShareAnnotationViewModel(sdk: testbed.makeSDK())
    patient = ShareAnnotationViewModel(sdk: testbed.makeSDK())
    doctorStore = SDKTestStore(doctor.sdk, in: testbed)
    patientStore = SDKTestStore(patient.sdk, in: testbed)
    let testbed = testbed
    doctorStore.perform(
      { $0.joinSession(testbed.context("Doctor", role: .host)) },
      assert: { expected in
        guard let service = testbed.serviceState() else { return }
        expected = .member(1, of: service)
      })
    doctorStore.receive(
      .onSessionJoin, .onUserJoin([1]), .onUserAudioStatusChanged([1]),
      .onCmdChannelConnectResult(true))
    patientStore.perform(
      { $0.joinSession(testbed.context("Patient")) },
      assert: { expected in
        guard let service = testbed.serviceState() else { return }
        expected = .member(2, of: service)
      })
    patientStore.receive(
      .onSessionJoin, .onUserJoin([1, 2]), .onUserAudioStatusChanged([2]),
      .onCmdChannelConnectResult(true))
    let patientParticipant = try #require(patientStore.state.myself)
    doctorStore.receive(.onUserJoin([2]), .onUserAudioStatusChanged([2])) {
      $0.participants[2] = patientParticipant
    }
  }

  func converged(sourceLocation: SourceLocation = #_sourceLocation) {
    testbed.assertConverged(sourceLocation: sourceLocation)
  }

  /// Doctor shares the PDF with ShareWithView; both sides see it start.
  func doctorSharesThePDF() {
    #expect(doctor.handleShareToggle() == .offeredChoices)
    doctorStore.perform(
      { _ in doctor.handleShareSelection(with: .shareWithView) }, returns: .success,
      assert: {
        $0.participants[1]?.shareStatus = .started
        $0.shares[1] = ActiveShare(owner: 1, kind: .view, startOrder: 1)
      })
    doctorStore.receive(.onUserShareStatusChanged(1, .started, .view))
    patientStore.receive(.onUserShareStatusChanged(1, .started, .view)) {
      $0.participants[1]?.shareStatus = .started
      $0.shares[1] = ActiveShare(owner: 1, kind: .view, startOrder: 1)
    }
    #expect(doctor.toggleShareTitle == "Stop Share")
    #expect(patient.toggleShareTitle == "Share Locked")
    #expect(!patient.sharerViewHidden)
  }

  @Test func theHostsOnSessionJoinSetsSingleUnlockedShareAndEveryoneMayStart() {
    #expect(doctor.hostSetupResults == [.success, .success], "already single and unlocked")
    #expect(patient.hostSetupResults.isEmpty, "only the host runs the setup")
    #expect(doctor.toggleShareTitle == "Start Share")
    #expect(patient.toggleShareTitle == "Start Share")
    #expect(patient.handleShareToggle() == .offeredChoices)
    doctorStore.finish()
    patientStore.finish()
    converged()
  }

  @Test func theSeedsShareGuardsFollowTheSessionsShareState() {
    doctorSharesThePDF()
    #expect(patient.handleShareToggle() == .refused("Others is sharing. Only 1 share allowed."))
    patientStore.perform(
      { $0.getShareHelper().startShare(with: NSObjectStandIn()) }, returns: .sessionShareError)

    // Multi-share on, unlocked: the seed's first guard reads that as "locked".
    doctorStore.perform(
      { $0.getShareHelper().enableMultiShare(true) }, returns: .success,
      assert: { $0.shareSetting = .multi })
    doctorStore.receive(.onShareSettingChanged(.multi))
    patientStore.receive(.onShareSettingChanged(.multi)) { $0.shareSetting = .multi }
    #expect(
      patient.handleShareToggle() == .refused("Screen sharing is locked. Wait for host to be in."))

    // Back to single share: the seed's onShareSettingChanged says "Start Share" again.
    doctorStore.perform(
      { $0.getShareHelper().enableMultiShare(false) }, returns: .success,
      assert: { $0.shareSetting = .single })
    doctorStore.receive(.onShareSettingChanged(.single))
    patientStore.receive(.onShareSettingChanged(.single)) { $0.shareSetting = .single }
    #expect(patient.toggleShareTitle == "Start Share")

    // The doctor taps again while sharing: the seed stops the share.
    doctorStore.perform(
      { _ in doctor.handleShareToggle() }, returns: .stopped(.success),
      assert: {
        $0.participants[1]?.shareStatus = .stopped
        $0.shares[1] = nil
      })
    doctorStore.receive(.onUserShareStatusChanged(1, .stopped, .view))
    patientStore.receive(.onUserShareStatusChanged(1, .stopped, .view)) {
      $0.participants[1]?.shareStatus = .stopped
      $0.shares[1] = nil
    }
    #expect(patient.sharerViewHidden)

    // Locked: the guards pass, and the service's rule refuses the patient.
    doctorStore.perform(
      { $0.getShareHelper().lockShare(true) }, returns: .success,
      assert: { $0.shareSetting = .locked })
    doctorStore.receive(.onShareSettingChanged(.locked))
    patientStore.receive(.onShareSettingChanged(.locked)) { $0.shareSetting = .locked }
    #expect(patient.handleShareToggle() == .offeredChoices)
    patientStore.perform(
      { _ in patient.handleShareSelection(with: .shareWithView) }, returns: .sessionNoRights)
    #expect(patient.toggleShareTitle == "Start Share")
    doctorStore.finish()
    patientStore.finish()
    converged()
  }

  @Test func aViewerAnnotatesWithToolsUndoRedoAndClearsOnlyTheirOwn() throws {
    doctorSharesThePDF()

    // The seed's toggleDraw for a viewer: the helper comes from the subscribed view.
    patientStore.perform(
      { _ in patient.toggleDraw() },
      assert: { $0.shares[1]?.annotators = [2] })
    doctorStore.assert { $0.shares[1]?.annotators = [2] }
    let helper = try #require(patient.annotationHelper)
    #expect(helper.shareOwner == 1)
    #expect(helper.isStarted)
    #expect(
      !patient.annotationStarted,
      "the seed sets annotationStarted only for a share type it chose itself; a viewer has none")
    #expect(patient.errors.isEmpty)

    // Tools are local: a change of tool fires onAnnotationToolTypeChanged, nothing else.
    patientStore.perform({ _ in helper.setToolType(.pen) }, returns: .success)
    patientStore.perform({ _ in helper.setToolType(.highLighter) }, returns: .success)
    patientStore.receive(.onAnnotationToolTypeChanged(shareOwner: 1, .highLighter))
    patientStore.perform({ _ in helper.setToolType(.picker) }, returns: .dontSupportFeature)
    patientStore.perform({ _ in helper.setToolType(.pen) }, returns: .success)
    patientStore.receive(.onAnnotationToolTypeChanged(shareOwner: 1, .pen))
    #expect(helper.setToolColor(.blue) == .success)
    #expect(helper.getToolColor() == .blue)
    #expect(helper.setToolWidth(0) == .invalidParameter)
    #expect(helper.setToolWidth(4) == .success)
    #expect(helper.getToolWidth() == 4)

    // Strokes, undo and redo walk the local stack.
    for index in 0..<3 {
      let point = AnnotationPoint(x: Double(index), y: 1)
      #expect(helper.draw(AnnotationStroke(points: [point, point])) == .success)
    }
    #expect(helper.strokes.allSatisfy { $0.color == .blue && $0.width == 4 && $0.toolType == .pen })
    #expect(helper.undo() == .success)
    #expect(helper.undo() == .success)
    #expect(helper.redo() == .success)
    #expect(helper.strokes.count == 2)
    #expect(helper.canRedo)

    // Clearing: all and others are refused to a viewer; their own is allowed.
    patientStore.perform({ _ in helper.clear(.all) }, returns: .sessionNoRights)
    patientStore.perform({ _ in helper.clear(.others) }, returns: .sessionNoRights)
    patientStore.perform(
      { _ in helper.clear(.mine) }, returns: .success, assert: { $0.shares[1]?.clearCount = 1 })
    doctorStore.assert { $0.shares[1]?.clearCount = 1 }
    #expect(helper.strokes.isEmpty)

    // The owner (and host) may clear everyone's, which clears the viewer's strokes too.
    #expect(helper.draw(AnnotationStroke(points: [AnnotationPoint(x: 0, y: 0)])) == .success)
    let own = try #require(doctor.sdk.getShareHelper().createAnnotationHelper(nil))
    doctorStore.perform(
      { _ in own.clear(.all) }, returns: .success, assert: { $0.shares[1]?.clearCount = 2 })
    patientStore.assert { $0.shares[1]?.clearCount = 2 }
    #expect(helper.strokes.isEmpty)
    doctorStore.perform(
      { _ in own.clear(.others) }, returns: .success, assert: { $0.shares[1]?.clearCount = 3 })
    patientStore.assert { $0.shares[1]?.clearCount = 3 }

    // A started helper cannot be destroyed; the seed's second tap then fails to start again.
    patientStore.perform({ $0.getShareHelper().destroy(helper) }, returns: .wrongUsage)
    patientStore.perform({ _ in patient.toggleDraw() })
    #expect(patient.annotationHelper === helper)
    #expect(patient.errors == ["Fail to start annotation"])
    patientStore.perform(
      { _ in helper.stopAnnotation() }, returns: .success,
      assert: { $0.shares[1]?.annotators = [] })
    doctorStore.assert { $0.shares[1]?.annotators = [] }
    patientStore.perform({ $0.getShareHelper().destroy(helper) }, returns: .success)
    #expect(helper.isReleased)
    #expect(helper.startAnnotation() == .wrongUsage)
    doctorStore.finish()
    patientStore.finish()
    converged()
  }

  @Test func theOwnerTurnsViewerAnnotationOffAndTheViewerCannotAnnotate() throws {
    doctorSharesThePDF()
    let testbed = testbed
    patientStore.perform(
      { _ in patient.toggleDraw() }, assert: { $0.shares[1]?.annotators = [2] })
    doctorStore.assert { $0.shares[1]?.annotators = [2] }
    let helper = try #require(patient.annotationHelper)

    doctorStore.perform(
      { $0.getShareHelper().disableViewerAnnotation(true) }, returns: .success,
      assert: {
        $0.shares[1]?.isViewerAnnotationDisabled = true
        $0.shares[1]?.annotators = []
      })
    patientStore.receive(
      .onAnnotationPrivilegeChangeWithUser(1, isEnabled: false),
      .onAnnotationPrivilegeChange(enable: false, shareOwner: 1)
    ) {
      $0.shares[1]?.isViewerAnnotationDisabled = true
      $0.shares[1]?.annotators = []
    }
    #expect(!helper.isStarted)
    #expect(!helper.canDoAnnotation())
    #expect(patient.sdk.getShareHelper().isViewerAnnotationDisabled())
    patientStore.perform({ _ in helper.startAnnotation() }, returns: .sessionNoRights)
    patientStore.perform(
      { _ in helper.draw(AnnotationStroke(points: [AnnotationPoint(x: 1, y: 1)])) },
      returns: .wrongUsage)
    patientStore.perform(
      { $0.getShareHelper().disableViewerAnnotation(false) },
      returns: .sessionShareYouAreNotSharing)
    patientStore.perform({ _ in patient.toggleDraw() })
    #expect(patient.errors == ["Annotation is not supported"])
    patientStore.perform({ $0.getShareHelper().destroy(helper) }, returns: .success)
    #expect(testbed.serviceState()?.shares[1]?.isViewerAnnotationDisabled == true)

    // The owner's own toggleDraw begins with disableViewerAnnotation(false): viewers may again.
    doctorStore.perform(
      { _ in doctor.toggleDraw() },
      assert: {
        $0.shares[1]?.isViewerAnnotationDisabled = false
        $0.shares[1]?.annotators = [1]
      })
    #expect(doctor.annotationStarted)
    // The callbacks' state is the one right after their event, before the doctor's start.
    patientStore.receive(
      .onAnnotationPrivilegeChangeWithUser(1, isEnabled: true),
      .onAnnotationPrivilegeChange(enable: true, shareOwner: 1)
    ) { $0.shares[1]?.isViewerAnnotationDisabled = false }
    patientStore.assert { $0.shares[1]?.annotators = [1] }
    let again = try #require(
      patient.sdk.getShareHelper().createAnnotationHelper(patient.sharerView))
    #expect(again !== helper)
    patientStore.perform(
      { _ in again.startAnnotation() }, returns: .success,
      assert: { $0.shares[1]?.annotators = [1, 2] })
    doctorStore.assert { $0.shares[1]?.annotators = [1, 2] }

    // The share stops: the viewer's (and the owner's) helper is cleaned up after the status.
    doctorStore.perform(
      { _ in doctor.handleShareToggle() }, returns: .stopped(.success),
      assert: {
        $0.participants[1]?.shareStatus = .stopped
        $0.shares[1] = nil
      })
    doctorStore.receive(
      .onUserShareStatusChanged(1, .stopped, .view), .onAnnotationHelperCleanUp(shareOwner: 1))
    patientStore.receive(
      .onUserShareStatusChanged(1, .stopped, .view), .onAnnotationHelperCleanUp(shareOwner: 1)
    ) {
      $0.participants[1]?.shareStatus = .stopped
      $0.shares[1] = nil
    }
    #expect(again.isReleased)
    #expect(doctor.annotationHelper?.isReleased == true)
    #expect(doctor.toggleShareTitle == "Start Share")
    doctorStore.finish()
    patientStore.finish()
    converged()
  }

  @Test func inAppScreenShareIsRateLimitedAndAnnotatesThroughTheAnnotationView() throws {
    #expect(doctor.handleShareToggle() == .offeredChoices)
    doctorStore.perform(
      { _ in doctor.handleShareSelection(with: .inAppScreenShare) }, returns: .success,
      assert: {
        $0.participants[1]?.shareStatus = .started
        $0.shares[1] = ActiveShare(owner: 1, kind: .inAppScreen, startOrder: 1)
      })
    doctorStore.receive(.onUserShareStatusChanged(1, .started, .inAppScreen))
    patientStore.receive(.onUserShareStatusChanged(1, .started, .inAppScreen)) {
      $0.participants[1]?.shareStatus = .started
      $0.shares[1] = ActiveShare(owner: 1, kind: .inAppScreen, startOrder: 1)
    }
    // A second tap within 500 ms is too frequent; after that, it is a second share.
    testbed.advance(by: 499)
    doctorStore.perform(
      { _ in doctor.handleShareSelection(with: .inAppScreenShare) }, returns: .callTooFrequently)
    testbed.advance(by: 1)
    doctorStore.perform(
      { _ in doctor.handleShareSelection(with: .inAppScreenShare) }, returns: .sessionShareError)

    // The owner must pick the PDF in the file explorer before drawing over the app's screen.
    doctorStore.perform({ _ in doctor.toggleDraw() })
    #expect(doctor.errors == ["Select a PDF first."])
    doctor.pickPDF()

    // The owner annotates over their own screen; tools are set because the seed chose in-app.
    doctorStore.perform(
      { _ in doctor.toggleDraw() }, assert: { $0.shares[1]?.annotators = [1] })
    patientStore.assert { $0.shares[1]?.annotators = [1] }
    #expect(doctor.annotationStarted)
    #expect(doctor.errors == ["Select a PDF first."])
    #expect(doctor.annotationHelper?.getToolWidth() == 2)

    // The viewer sets the annotation view to the view that shows the in-app share.
    patientStore.perform(
      { $0.getShareHelper().setAnnotationView(patient.sharerView) }, returns: .success)
    patientStore.perform({ $0.getShareHelper().setAnnotationView(nil) }, returns: .invalidParameter)

    // The doctor's second tap stops annotating.
    doctorStore.perform({ _ in doctor.toggleDraw() }, assert: { $0.shares[1]?.annotators = [] })
    patientStore.assert { $0.shares[1]?.annotators = [] }
    #expect(!doctor.annotationStarted)
    doctorStore.finish()
    patientStore.finish()
    converged()
  }

  @Test func theAnnotationViewIsOnlyForInAppScreenShare() {
    doctorSharesThePDF()
    doctorStore.perform(
      { _ in doctor.sdk.getShareHelper().setAnnotationView(doctor.sharedPDFView) },
      returns: .wrongUsage)
    patientStore.perform(
      { $0.getShareHelper().setAnnotationView(patient.sharerView) }, returns: .wrongUsage)
    doctorStore.finish()
    patientStore.finish()
    converged()
  }

  @Test func theSharerLeavingStopsTheShareAndCleansUpTheViewersHelperFirst() throws {
    doctorSharesThePDF()
    patientStore.perform(
      { _ in patient.toggleDraw() }, assert: { $0.shares[1]?.annotators = [2] })
    doctorStore.assert { $0.shares[1]?.annotators = [2] }
    let helper = try #require(patient.annotationHelper)

    // The doctor leaves without ending: the share stops, the helper goes, then the user, then
    // the patient becomes host.
    doctorStore.perform(
      { $0.leaveSession(false) }, returns: .success,
      assert: {
        $0 = SessionStateFields(SessionState())
        $0.phase = .left(.bySelf)
        $0.sessionName = "Consultation"
      })
    doctorStore.receive(.onSessionLeave(.bySelf), .onSessionLeaveLegacy)
    patientStore.receive(
      .onUserShareStatusChanged(1, .stopped, .view), .onAnnotationHelperCleanUp(shareOwner: 1),
      .onUserLeave([1]), .onUserHostChanged(2)
    ) {
      $0.participants[1] = nil
      $0.shares[1] = nil
      $0.participants[2]?.role = .host
      $0.hostID = 2
    }
    #expect(helper.isReleased)
    #expect(patient.sharerViewHidden)
    #expect(patient.sdk.getSession()?.getMySelf()?.isHost() == true)
    doctorStore.finish()
    patientStore.finish()
    converged()
  }

  @Test func endingTheSessionCleansUpEveryHelperBeforeTheLeave() throws {
    doctorSharesThePDF()
    patientStore.perform(
      { _ in patient.toggleDraw() }, assert: { $0.shares[1]?.annotators = [2] })
    doctorStore.assert { $0.shares[1]?.annotators = [2] }
    let own = try #require(doctor.sdk.getShareHelper().createAnnotationHelper(nil))
    doctorStore.perform(
      { $0.leaveSession(true) }, returns: .success,
      assert: {
        $0 = SessionStateFields(SessionState())
        $0.phase = .left(.bySelf)
        $0.sessionName = "Consultation"
      })
    doctorStore.receive(
      .onAnnotationHelperCleanUp(shareOwner: 1), .onSessionLeave(.bySelf), .onSessionLeaveLegacy)
    patientStore.receive(
      .onAnnotationHelperCleanUp(shareOwner: 1), .onSessionLeave(.endByHost),
      .onSessionLeaveLegacy
    ) {
      $0 = SessionStateFields(SessionState())
      $0.phase = .left(.endByHost)
      $0.sessionName = "Consultation"
    }
    #expect(own.isReleased)
    #expect(patient.annotationHelper?.isReleased == true)
    #expect(testbed.serviceState() == nil)
    doctorStore.finish()
    patientStore.finish()
    converged()
  }
}
