// Scaffolding, not seed code: what seed 002's `SessionViewController` uses but the article only
// names or describes. Added here, and nothing else:
//
// - `ElidedSessionViewController`, the published class's superclass: the views and state the
//   published code uses without declaring them (the tab bar and its items, the loading label,
//   the share views, the floating pencil, the annotation and participants panels, the chosen
//   share type, the annotation helper and its state, the chosen lesson and colour), and
//   `setPDFNavigationEnabled(_:)` / `setShareZoomGesturesEnabled(_:)`, which only record
//   whether drawing has locked navigation (no gestures exist headless);
// - the setup steps `setupUI()` calls, which show and hide the views as the article describes;
// - `participantRoleRank(_:)` and `roleLabel(for:)`: hosts first, then managers ("Teacher"),
//   then everyone else ("Student");
// - the handlers `tabBar(_:didSelect:)` routes to: the camera, the microphone, the share
//   button (a live share of yours stops; otherwise, with nobody else sharing and in-app share
//   available, an action sheet offers InAppScreenShare and Choose Math Lab PDF), the
//   participants panel;
// - `showError(message:dismiss:)` (an alert), `stopDrawing(shareHelper:)` (stop, then destroy,
//   as the article insists, then `resetAnnotationUI`), `addLocalViewToGrid()` and
//   `addLocalViewDuringShare()`;
// - the delegate callbacks the article describes without code: `onUserLeave` (the tile goes),
//   `onUserShareStatusChanged` (a local share shows the pencil; a remote one is subscribed to
//   `sharerView`), `onAnnotationHelperCleanUp` (a share that ends resets the annotation UI),
//   and `refreshParticipants()` on every change the article lists.

import SessionCore
import SessionSDK

#if canImport(UIKit)
  import PDFKit
  import UIKit
#endif

/// The parts of seed 002's `SessionViewController` that the article uses but does not declare.
@MainActor
class ElidedSessionViewController: UIViewController {
  let loadingLabel = UILabel()
  let tabBar = UITabBar()
  let toggleVideoBarItem = UITabBarItem(
    title: "Start Video", image: UIImage(systemName: "video"),
    tag: ControlOption.toggleVideo.rawValue)
  let toggleAudioBarItem = UITabBarItem(
    title: "Unmute", image: UIImage(systemName: "mic"), tag: ControlOption.toggleAudio.rawValue)
  let toggleShareBarItem = UITabBarItem(
    title: "Share", image: UIImage(systemName: "rectangle.on.rectangle"),
    tag: ControlOption.toggleShare.rawValue)
  let participantsBarItem = UITabBarItem(
    title: "People", image: UIImage(systemName: "person.2"),
    tag: ControlOption.participants.rawValue)
  let leaveSessionBarItem = UITabBarItem(
    title: "Leave", image: UIImage(systemName: "phone.down"),
    tag: ControlOption.leaveSession.rawValue)
  var localView: UIView?
  let localViewDuringShare = UIView()
  var actualLocalViewDuringShare: (view: UIView, placeholder: UIView)?
  let sharerView = UIView()
  let sharedPDFView = PDFView()
  /// The floating pencil button's stack.
  let shareBtnStackView = UIStackView()
  let annotationPanel = UIView()
  let participantsPanel = UIView()
  var chosenShareType: ShareSelection?
  var annotationHelper: ZoomVideoSDKAnnotationHelper?
  var annotationStarted = false
  var selectedLessonPDF: String?
  var selectedAnnotationColor = AnnotationColor.red
  private(set) var isPDFNavigationEnabled = true
  private(set) var isShareZoomGesturesEnabled = true

  func setPDFNavigationEnabled(_ enabled: Bool) {
    isPDFNavigationEnabled = enabled
  }

  func setShareZoomGesturesEnabled(_ enabled: Bool) {
    isShareZoomGesturesEnabled = enabled
  }
}

extension SessionViewController {
  // MARK: setupUI()'s steps

  func setupViews() {
    for hidden in [
      sharerView, sharedPDFView, localViewDuringShare, shareBtnStackView, annotationPanel,
      participantsPanel,
    ] {
      hidden.isHidden = true
    }
  }

  func setupConstraints() {}

  func setupTabBar() {
    tabBar.delegate = self
    tabBar.isHidden = true
    tabBar.items = [
      toggleVideoBarItem, toggleAudioBarItem, toggleShareBarItem, participantsBarItem,
      leaveSessionBarItem,
    ]
  }

  func setupAnnotationPanel() {}

  func setupParticipantsPanel() {}

  func addLocalViewToGrid() {
    localView = UIView()
  }

  func addLocalViewDuringShare() -> (view: UIView, placeholder: UIView) {
    (view: UIView(), placeholder: UIView())
  }

  // MARK: The participants sheet

  func participantRoleRank(_ user: ZoomVideoSDKUser) -> Int {
    if user.isHost() { return 0 }
    if user.isManager() { return 1 }
    return 2
  }

  func roleLabel(for user: ZoomVideoSDKUser) -> String {
    participantRoleRank(user) < 2 ? "Teacher" : "Student"
  }

  func toggleParticipantsPanel() {
    participantsPanel.isHidden.toggle()
  }

  // MARK: The tab bar's handlers

  func handleVideoToggle(_ tabBar: UITabBar) {
    guard let sdk = ZoomVideoSDK.shareInstance(),
      let canvas = sdk.getSession()?.getMySelf()?.getVideoCanvas()
    else { return }
    let isOn = canvas.videoStatus()?.on ?? false
    let helper: VideoHelper = sdk.getVideoHelper()
    if (isOn ? helper.stopVideo() : helper.startVideo()) == .Errors_Success {
      toggleVideoBarItem.title = isOn ? "Start Video" : "Stop Video"
    }
  }

  func handleAudioToggle(_ tabBar: UITabBar) {
    guard let sdk = ZoomVideoSDK.shareInstance(), let myself = sdk.getSession()?.getMySelf(),
      let status = myself.audioStatus()
    else { return }
    let helper: AudioHelper = sdk.getAudioHelper()
    if status.audioType == .none {
      helper.startAudio()
    } else if status.isMuted {
      helper.unmuteAudio(myself)
    } else {
      helper.muteAudio(myself)
    }
  }

  func handleShareToggle(_ tabBar: UITabBar) {
    guard let shareHelper = ZoomVideoSDK.shareInstance()?.getShareHelper() else { return }
    if shareHelper.isSharingOut() {
      shareHelper.stopShare()
      return
    }
    guard !shareHelper.isOtherSharing() else {
      showError(message: "Someone else is sharing.", dismiss: false)
      return
    }
    guard shareHelper.isSupportInAppScreenShare() else {
      showError(message: "In app screen share is not supported.", dismiss: false)
      return
    }
    let sheet = UIAlertController(title: "Share", message: nil, preferredStyle: .actionSheet)
    sheet.addAction(
      UIAlertAction(title: "InAppScreenShare", style: .default) { _ in
        self.handleShareSelection(with: .InAppScreenShare)
      })
    sheet.addAction(
      UIAlertAction(title: "Choose Math Lab PDF", style: .default) { _ in
        self.presentLessonPicker()
      })
    sheet.addAction(UIAlertAction(title: "Cancel", style: .cancel))
    present(sheet, animated: true)
  }

  // MARK: Errors and annotation

  func showError(message: String, dismiss: Bool = true) {
    let alert = UIAlertController(title: "Error", message: message, preferredStyle: .alert)
    alert.addAction(
      UIAlertAction(title: "OK", style: .default) { _ in
        if dismiss { self.dismiss(animated: true) }
      })
    present(alert, animated: true)
  }

  func stopDrawing(shareHelper: ZoomVideoSDKShareHelper) {
    if let annotationHelper {
      annotationHelper.stopAnnotation()
      shareHelper.destroy(annotationHelper)
      self.annotationHelper = nil
    }
    resetAnnotationUI(shareHelper: shareHelper)
  }

  // MARK: Delegate callbacks the article describes

  func onUserLeave(_ helper: ZoomVideoSDKUserHelper?, users: [ZoomVideoSDKUser]?) {
    for user in users ?? [] {
      if let views = remoteUserViews.removeValue(forKey: user.getID()) {
        user.getVideoCanvas()?.unSubscribe(with: views.view)
      }
    }
    refreshParticipants()
  }

  func onUserVideoStatusChanged(_ helper: VideoHelper?, user: [ZoomVideoSDKUser]?) {
    refreshParticipants()
  }

  func onUserAudioStatusChanged(_ helper: AudioHelper?, user: [ZoomVideoSDKUser]?) {
    refreshParticipants()
  }

  func onUserNameChanged(_ user: ZoomVideoSDKUser?) {
    refreshParticipants()
  }

  func onUserHostChanged(_ helper: ZoomVideoSDKUserHelper?, users user: ZoomVideoSDKUser?) {
    refreshParticipants()
  }

  func onUserManagerChanged(_ user: ZoomVideoSDKUser?) {
    refreshParticipants()
  }

  func onUserShareStatusChanged(
    _ helper: ZoomVideoSDKShareHelper?, user: ZoomVideoSDKUser?, shareAction: ShareAction?
  ) {
    guard let user, let shareAction,
      let myself = ZoomVideoSDK.shareInstance()?.getSession()?.getMySelf()
    else { return }
    let isLive = shareAction.getShareStatus() == .start || shareAction.getShareStatus() == .resume
    if user.getID() == myself.getID() {
      shareBtnStackView.isHidden = !isLive
      toggleShareBarItem.title = isLive ? "Stop Share" : "Share"
      if !isLive { sharedPDFView.isHidden = true }
    } else if isLive {
      shareAction.getShareCanvas()?.subscribe(
        with: sharerView, aspectMode: .letterBox, andResolution: ._Auto)
      sharerView.isHidden = false
      shareBtnStackView.isHidden = false
    } else {
      shareAction.getShareCanvas()?.unSubscribe(with: sharerView)
      sharerView.isHidden = true
      shareBtnStackView.isHidden = true
    }
    localViewDuringShare.isHidden = !isLive
  }

  func onAnnotationHelperCleanUp(_ helper: ZoomVideoSDKAnnotationHelper?) {
    guard helper === annotationHelper else { return }
    annotationHelper = nil
    if let shareHelper = ZoomVideoSDK.shareInstance()?.getShareHelper() {
      resetAnnotationUI(shareHelper: shareHelper)
    }
  }
}
