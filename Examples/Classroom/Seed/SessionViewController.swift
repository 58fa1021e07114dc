// swift-format-ignore-file
// Seed 002's SessionViewController.swift: the pieces the article publishes, byte for byte, each
// inside the declaration it belongs to (so grouped by declaration, not in the article's order).
// Lines marked `// (added)` (and this header) are not the article's:
//
// - the imports (the article shows none);
// - the class's declaration and closing brace: its superclass is
//   `ElidedSessionViewController` (SessionViewController+Elided.swift), a `UIViewController`
//   holding the views and state the article uses but does not declare (`tabBar`,
//   `sharerView`, `annotationHelper`, ...);
// - the extension lines for the delegate conformance (which the article does not show) and
//   the tab bar's delegate;
// - around the published statements of `onUserJoin(_:users:)` ("creates a tile and
//   subscribes the SDK canvas"), `tabBar(_:didSelect:)` and `handleShareSelection(with:)`,
//   the method they belong to: the signature; the tile; and for `handleShareSelection`, the
//   share helper, the chosen type and the bar item's title on success as seed 001 publishes
//   that method (with `error` declared, where seed 001 presets it to an unrelated error).
//
// The delegate callbacks the article describes without code (`onUserLeave`,
// `onUserShareStatusChanged`, ...) and the handlers it elides are in
// SessionViewController+Elided.swift.

import Foundation // (added)
import SessionCore // (added)
import SessionSDK // (added)

enum ControlOption: Int {
    case toggleVideo, toggleAudio, toggleShare, participants, leaveSession
}

enum ShareSelection {
    case InAppScreenShare
    case ShareWithView
}

class SessionViewController: ElidedSessionViewController { // (added)
let jwtToken = ""
var sessionname = ""
var username = ""
var userInputJWT = ""

var remoteUserViews: [Int: (view: UIView, placeholder: UIView)] = [:]

var participants: [ZoomVideoSDKUser] = []

func joinSession() {
    let sessionContext = ZoomVideoSDKSessionContext()
    sessionContext.token = jwtToken.isEmpty ? userInputJWT : jwtToken
    sessionContext.sessionName = sessionname
    sessionContext.userName = username

    if ZoomVideoSDK.shareInstance()?.joinSession(sessionContext) == nil {
        showError(message: "Failed to join session", dismiss: true)
    }
}

override func viewDidLoad() {
    super.viewDidLoad()
    setupUI()
    ZoomVideoSDK.shareInstance()?.delegate = self
}
} // (added)

extension SessionViewController: ZoomVideoSDKDelegate { // (added)
func onSessionJoin() {
    addLocalViewToGrid()
    actualLocalViewDuringShare = addLocalViewDuringShare()
    loadingLabel.isHidden = true
    tabBar.isHidden = false
    refreshParticipants()
}

    func onUserJoin(_ helper: ZoomVideoSDKUserHelper?, users: [ZoomVideoSDKUser]?) { // (added)
        let myself = ZoomVideoSDK.shareInstance()?.getSession()?.getMySelf() // (added)
        for user in users ?? [] where user.getID() != myself?.getID() { // (added)
            let views = (view: UIView(), placeholder: UIView()) // (added)
            remoteUserViews[user.getID()] = views // (added)
            guard let remoteUserVideoCanvas = user.getVideoCanvas() else { continue } // (added)
remoteUserVideoCanvas.subscribe(
    with: views.view,
    aspectMode: .panAndScan,
    andResolution: ._Auto
)
        } // (added)
        refreshParticipants() // (added)
    } // (added)
} // (added)

extension SessionViewController: UITabBarDelegate { // (added)
    func tabBar(_ tabBar: UITabBar, didSelect item: UITabBarItem) { // (added)
switch item.tag {
case ControlOption.toggleVideo.rawValue:
    handleVideoToggle(tabBar)
case ControlOption.toggleAudio.rawValue:
    handleAudioToggle(tabBar)
case ControlOption.toggleShare.rawValue:
    handleShareToggle(tabBar)
case ControlOption.participants.rawValue:
    toggleParticipantsPanel()
case ControlOption.leaveSession.rawValue:
    ZoomVideoSDK.shareInstance()?.leaveSession(false)
default:
    break
}
    } // (added)

    func handleShareSelection(with chosenShare: ShareSelection) { // (added)
        guard let shareHelper = ZoomVideoSDK.shareInstance()?.getShareHelper() else { return } // (added)
        chosenShareType = chosenShare // (added)
        let error: ZoomVideoSDKError // (added)
switch chosenShare {
case .InAppScreenShare:
    error = shareHelper.startInAppScreenShare()

case .ShareWithView:
    openBundledPDF()
    error = shareHelper.startShare(with: sharedPDFView)
}
        if error == .Errors_Success { // (added)
            toggleShareBarItem.title = "Stop Share" // (added)
        } // (added)
    } // (added)
} // (added)
