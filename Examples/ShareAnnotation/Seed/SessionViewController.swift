// swift-format-ignore-file
// Seed 001's SessionViewController.swift, as the article publishes it. Every line is the
// article's, byte for byte, except the lines marked `// (added)` (and this header):
//
// - the imports the port needs, and each published import kept behind `#if canImport(...)`,
//   since Linux has no UIKit, PDFKit or ZoomVideoSDK (the Zoom names resolve through
//   ZoomNames.swift, the UIKit and PDFKit ones through PlatformStandIns.swift);
// - at the class's first `// ...`, five stored properties the article elides (they come from
//   the quickstart it builds on): `localView`, `localPlaceholder`, `remoteUserViews` (declared
//   as seed 002 publishes it), `loadingLabel` and `tabBar`.
//
// The pieces are in the article's order, but for two that the article shows apart from where
// they go: the bonus section's `handleVideoToggle(_:)` ("In SessionViewController, add the
// following check") sits at the UITabBarDelegate extension's `// ...`, beside the other
// handlers it elides; and the bonus section's second showing of `class SessionViewController:
// UIViewController { // ... showError ... }` is the same class, so `showError` sits at the
// class's last `// ...` and that class line, its `// ...` and its `}` are not repeated. The
// methods the article elides (`addLocalViewToGrid`, `handleAudioToggle`, ...) are in
// SessionViewController+Elided.swift.

import Foundation // (added)
import SessionCore // (added)
import SessionSDK // (added)
#if canImport(UIKit) // (added)
import UIKit
#endif // (added)
#if canImport(PDFKit) // (added)
import PDFKit // Add
#endif // (added)
#if canImport(ZoomVideoSDK) // (added)
import ZoomVideoSDK
#endif // (added)
enum ControlOption: Int {
    case toggleVideo, toggleAudio, toggleShare, leaveSession
}
enum ShareSelection {
    case InAppScreenShare
    case ShareWithView
}
class SessionViewController: UIViewController {
    // ...
    var localView: UIView? // (added) elided: the local video tile (addLocalViewToGrid)
    var localPlaceholder: UIView? // (added) elided: shown over the local tile while the camera is off
    var remoteUserViews: [Int: (view: UIView, placeholder: UIView)] = [:] // (added) elided: remote tiles by user ID
    let loadingLabel = UILabel() // (added) elided: "Loading session..."
    let tabBar = UITabBar() // (added) elided: the control bar
    var toggleVideoBarItem: UITabBarItem = .init(title: "Stop Video", image: UIImage(systemName: "video.slash"), tag: ControlOption.toggleVideo.rawValue)
    var toggleAudioBarItem: UITabBarItem = .init(title: "Mute", image: UIImage(systemName: "mic.slash"), tag: ControlOption.toggleAudio.rawValue)
    // Add the toggleShareBarItem below the other video and audio toggle bar item
    var toggleShareBarItem: UITabBarItem = .init(title: "Share Locked", image: UIImage(systemName: "rectangle.on.rectangle.slash"), tag: ControlOption.toggleShare.rawValue)
    // For Screen Share and Annotation purpose
    var sharerView: UIView = .init() // Share view when remote user is sharing
    var localViewDuringShare: UIView = .init() // Container (UIView) for actualLocalViewDuringShare
    var actualLocalViewDuringShare: (view: UIView, placeholder: UIView)? // Local user video view or placeholder view
    var chosenShareType: ShareSelection? // InAppScreenShare and ShareWithView
    var shareBtnStackView: UIStackView = .init() // StackView for holding PDF and Draw buttons
    var sharePDFBtn = UIButton(type: .system)
    var shareDrawBtn = UIButton(type: .system)
    let sharedPDFView = PDFView() // PDFView for local sharer
    var annotationStarted: Bool = false
    var annotationHelper: ZoomVideoSDKAnnotationHelper?
    // ...
    // Replace the onSessionJoin with the following one with screen share check logic and also a more simplified onSessionJoin logic
    func onSessionJoin() {
        addLocalViewToGrid()
        actualLocalViewDuringShare = addLocalViewDuringShare() // Add local video view during screen share
        self.loadingLabel.isHidden = true
        self.tabBar.isHidden = false
        // Check if the local user is host, if yes then enable share and disable multi share.
        if let localUserIsHost = ZoomVideoSDK.shareInstance()?.getSession()?.getMySelf()?.isHost(), localUserIsHost {
            ZoomVideoSDK.shareInstance()?.getShareHelper()?.enableMultiShare(false)
            ZoomVideoSDK.shareInstance()?.getShareHelper()?.lockShare(false)
        }
        // For local and remote user, check if share is enabled.
        if let shareHelper = ZoomVideoSDK.shareInstance()?.getShareHelper() {
            if shareHelper.isMultiShareEnabled() == false && !shareHelper.isShareLocked() {
                toggleShareBarItem.title = "Start Share"
                toggleShareBarItem.image = UIImage(systemName: "rectangle.on.rectangle")
            }
        }
    }
    // Replace the onUserVideoStatusChanged with the following one with screen share subscribe/unsubscribe logic and also a more simplified onUserVideoStatusChanged logic
    func onUserVideoStatusChanged(_: ZoomVideoSDKVideoHelper?, user: [ZoomVideoSDKUser]?) {
        guard let users = user,
            let myself = ZoomVideoSDK.shareInstance()?.getSession()?.getMySelf() else { return }
        for user in users {
            if user.getID() == myself.getID() {
                if let canvas = user.getVideoCanvas(),
                let isVideoOn = canvas.videoStatus()?.on {
                    Task(priority: .background) {
                        if isVideoOn {
                            canvas.subscribe(with: self.localView, aspectMode: .panAndScan, andResolution: ._Auto)
                            canvas.subscribe(with: self.actualLocalViewDuringShare?.view, aspectMode: .panAndScan, andResolution: ._Auto)
                        } else {
                            canvas.unSubscribe(with: self.localView)
                            canvas.unSubscribe(with: self.actualLocalViewDuringShare?.view)
                        }
                        self.localPlaceholder?.isHidden = isVideoOn
                        self.toggleVideoBarItem.title = isVideoOn ? "Stop Video" : "Start Video"
                        self.toggleVideoBarItem.image = UIImage(systemName: isVideoOn ? "video.slash" : "video")
                        self.actualLocalViewDuringShare?.placeholder.isHidden = isVideoOn
                    }
                }
            } else {
                if let canvas = user.getVideoCanvas(),
                let isVideoOn = canvas.videoStatus()?.on,
                let views = remoteUserViews[user.getID()] {
                    Task(priority: .background) {
                        views.placeholder.isHidden = isVideoOn
                    }
                }
            }
        }
    }
    // Add the Zoom VSDK's onShareSettingChanged callback to listen for changes
    func onShareSettingChanged(_ setting: ZoomVideoSDKShareSetting) {
        if setting == .singleShare {
            toggleShareBarItem.title = "Start Share"
            toggleShareBarItem.image = UIImage(systemName: "rectangle.on.rectangle")
        }
    }
    func onUserShareStatusChanged(_ helper: ZoomVideoSDKShareHelper?, user: ZoomVideoSDKUser?, shareAction: ZoomVideoSDKShareAction?) {
        guard let user = user, let myself = ZoomVideoSDK.shareInstance()?.getSession()?.getMySelf(), let shareAction = shareAction else { return }
        let shareStatus = shareAction.getShareStatus()
        if user.getID() == myself.getID() {
            // Local user share status changed
            if shareStatus == .start || shareStatus == .resume {
                sharerView.isHidden = true
                shareBtnStackView.isHidden = false
            } else {
                sharedPDFView.isHidden = true
                shareBtnStackView.isHidden = true
            }
        } else {
            // Remote user share status changed
            if shareStatus == .start || shareStatus == .resume {
                shareAction.getShareCanvas()?.subscribe(with: sharerView, aspectMode: .letterBox, andResolution: ._Auto)
                sharerView.isHidden = false
                shareBtnStackView.isHidden = false
                toggleShareBarItem.title = "Share Locked"
                toggleShareBarItem.image = UIImage(systemName: "rectangle.on.rectangle.slash")
            } else {
                shareAction.getShareCanvas()?.unSubscribe(with: sharerView)
                sharerView.isHidden = true
                shareBtnStackView.isHidden = true
            }
        }
        localViewDuringShare.isHidden = !(shareStatus == .start || shareStatus == .resume)
    }
    // ...
    public func showError(message: String, dismiss: Bool = true) {
        Task { @MainActor in
            let alert = UIAlertController(title: "Error", message: message, preferredStyle: .alert)
            alert.addAction(UIAlertAction(title: "OK", style: .default) { _ in
                if (dismiss) {
                    self.dismiss(animated: true)
                }
            })
            present(alert, animated: true)
        }
    }
}
/*
Under the UITabBarDelegate, we will have to do the following:
1. Add the ControlOption.toggleShare.rawValue and handleShareToggle
2. Add handleShareToggle - Method that contains the share button logic when local user click onto it
3. Add handleShareSelection - Method that contains handling of the share selected (InAppScreenShare or ShareWithView)
*/
extension SessionViewController: UITabBarDelegate {
    func tabBar(_ tabBar: UITabBar, didSelect item: UITabBarItem) {
        tabBar.selectedItem = nil
        switch item.tag {
        case ControlOption.toggleVideo.rawValue:
            handleVideoToggle(tabBar)
        case ControlOption.toggleAudio.rawValue:
            handleAudioToggle(tabBar)
        case ControlOption.toggleShare.rawValue:
            handleShareToggle(tabBar)
        case ControlOption.leaveSession.rawValue:
            tabBar.isUserInteractionEnabled = false
            ZoomVideoSDK.shareInstance()?.leaveSession(false)
        default:
            break
        }
    }
    // ...
private func handleVideoToggle(_ tabBar: UITabBar) {
    #if targetEnvironment(simulator)
    showError(message: "Simulator detected, video is not supported", dismiss: false)
    #else
    // ...
    #endif
}
    private func handleShareToggle(_ tabBar: UITabBar) {
        #if targetEnvironment(simulator)
        showError(message: "Simulator detected, share is not supported", dismiss: false)
        #else
        guard let shareHelper = ZoomVideoSDK.shareInstance()?.getShareHelper() else { return }
        // 1. Check if share is enabled.
        guard shareHelper.isMultiShareEnabled() != true || shareHelper.isShareLocked() else {
            showError(message: "Screen sharing is locked. Wait for host to be in.", dismiss: false)
            return
        }
        // 2. Check if someone is sharing - Single share only
        guard !shareHelper.isOtherSharing() else {
            showError(message: "Others is sharing. Only 1 share allowed.", dismiss: false)
            return
        }
        // 3. Check if InAppscreenShare is supported
        guard shareHelper.isSupportInAppScreenShare() else {
            showError(message: "In app screen share is not supported.", dismiss: false)
            return
        }
        toggleShareBarItem.isEnabled = false
        // 4.1 Create an UIAlertController for user to select if they want InAppScreenShare or ShareWithView.
        let alert = UIAlertController(
            title: "Screen share mode",
            message: "1. InAppScreenShare - Share your entire app + any system API UI (FilePicker, AlertBox and etc).\n2. ShareWithView - Share a specific view of your choice. In the sample app we have simplify the process with a sample_health_report.pdf.",
            preferredStyle: .alert
        )
        // 4.2 Check if local user is currently sharing out.
        if shareHelper.isSharingOut() {
            // 4.3 Local user is already sharing, so by clicking on the share button we should stop share
            let error = shareHelper.stopShare()
            if error == .Errors_Success {
                print("stopShare")
                toggleShareBarItem.title = "Start Share"
                toggleShareBarItem.image = UIImage(systemName: "rectangle.on.rectangle")
            } else {
                print("Fail stopShare")
            }
        } else {
            // 4.4  Local user is not sharing, so by clicking on the share button we should provide the 2 UIAlertAction options (InAppScreenShare and ShareWithView)
            alert.addAction(UIAlertAction(title: "InAppScreenShare", style: .default, handler: { _ in
                self.handleShareSelection(with: .InAppScreenShare)
            }))
            alert.addAction(UIAlertAction(title: "ShareWithView", style: .default, handler: { _ in
                self.handleShareSelection(with: .ShareWithView)
            }))
            alert.addAction(UIAlertAction(title: "Cancel", style: .cancel, handler: { _ in
                print("Cancel share")
            }))
            present(alert, animated: true, completion: nil)
        }
        toggleShareBarItem.isEnabled = true
        #endif
    }
    func handleShareSelection(with chosenShare: ShareSelection) {
        guard let shareHelper = ZoomVideoSDK.shareInstance()?.getShareHelper() else { return }
        chosenShareType = chosenShare
        var error = ZoomVideoSDKError.Errors_Audio_Module_Error
        switch chosenShare {
        // User selected InAppScreenShare
        case .InAppScreenShare:
            error = shareHelper.startInAppScreenShare()
            if error == .Errors_Success {
                print("startInAppScreenShare")
            } else {
                print("Fail startInAppScreenShare")
            }
        // User selected ShareWithView
        case .ShareWithView:
            openBundledPDF() // This methiod is for opening up the sample PDF (sample_health_report.pdf) added earlier.
            error = shareHelper.startShare(with: sharedPDFView)
            if error == .Errors_Success {
                print("startShareWithView")
            } else {
                print("Fail startShareWithView")
            }
        }
        if error == .Errors_Success {
            toggleShareBarItem.title = "Stop Share"
            toggleShareBarItem.image = UIImage(systemName: "rectangle.on.rectangle.slash")
        }
    }
}
// MARK: - ZoomVideoSDKDelegate
extension SessionViewController: ZoomVideoSDKDelegate {
    func onError(_ ErrorType: ZoomVideoSDKError, detail details: Int) {
        showError(message: "Error occured: \(ErrorType.rawValue)", dismiss: false)
    }
    // ...
}
