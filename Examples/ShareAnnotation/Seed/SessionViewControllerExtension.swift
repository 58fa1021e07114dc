// swift-format-ignore-file
// Seed 001's SessionViewControllerExtension.swift, as the article publishes it. Every line is
// the article's, byte for byte, except the lines marked `// (added)` (and this header):
//
// - the imports the port needs, and each published import kept behind `#if canImport(...)`
//   (see SessionViewController.swift);
// - `@objc` cannot compile on Linux ("error: Objective-C interoperability is disabled"), so
//   each of the two published `@objc func` lines (`pickPDF()`, `toggleDraw()`) is kept under
//   `#if canImport(ObjectiveC)`, and under `#else` the same method follows with that one line
//   written without `@objc` (marked) and the rest of its lines as published;
//   ShareAnnotationSeedTests checks that the two copies differ in that line alone;
// - at the end, a one-line trampoline to the published `private func setupTabBar()`, which
//   only this file can call (the article's elided viewDidLoad calls it in the app).
//
// The article shows this extension twice ("Setup for share button and PDFKit", then "Setup for
// annotation": `extension SessionViewController: UIDocumentPickerDelegate { // ... toggleDraw
// ... }`). Swift allows one such conformance, so `toggleDraw()` sits at the end of the first,
// and the second's `extension` line, `// ...` and `}` are not repeated.

import Foundation // (added)
import SessionCore // (added)
import SessionSDK // (added)
#if canImport(UIKit) // (added)
import UIKit
#endif // (added)
#if canImport(UniformTypeIdentifiers) // (added)
import UniformTypeIdentifiers // Add
#endif // (added)
#if canImport(PDFKit) // (added)
import PDFKit // Add
#endif // (added)
#if canImport(ZoomVideoSDK) // (added)
import ZoomVideoSDK
#endif // (added)
extension SessionViewController: UIDocumentPickerDelegate {
    private func setupTabBar() {
        tabBar.delegate = self
        tabBar.isHidden = true
        let leaveSessionBarItem = UITabBarItem(title: "Leave Session", image: UIImage(systemName: "phone.down"), tag: ControlOption.leaveSession.rawValue)
        tabBar.items = [toggleVideoBarItem, toggleAudioBarItem, toggleShareBarItem, leaveSessionBarItem]
    }
    // ...
#if canImport(ObjectiveC) // (added)
    @objc func pickPDF() {
        let picker = UIDocumentPickerViewController(forOpeningContentTypes: [UTType.pdf])
        picker.delegate = self
        present(picker, animated: true)
    }
#else // (added)
    func pickPDF() { // (added) the line above without @objc
        let picker = UIDocumentPickerViewController(forOpeningContentTypes: [UTType.pdf])
        picker.delegate = self
        present(picker, animated: true)
    }
#endif // (added)
    func documentPicker(_ controller: UIDocumentPickerViewController, didPickDocumentsAt urls: [URL]) {
        guard let url = urls.first else { return }
        // Gain temporary read access to files outside your sandbox.
        let didAccess = url.startAccessingSecurityScopedResource()
        defer { if didAccess { url.stopAccessingSecurityScopedResource() } }
        // Coordinate reading (helps with iCloud/third-party providers ensuring the file is available).
        let coordinator = NSFileCoordinator()
        var coordError: NSError?
        var readableURL: URL?
        coordinator.coordinate(readingItemAt: url, options: [], error: &coordError) { securedURL in
            // Copy to a local temp URL you fully control (robust across providers).
            let tmpURL = FileManager.default.temporaryDirectory
                .appendingPathComponent(UUID().uuidString)
                .appendingPathExtension("pdf")
            do {
                // If the provider streams the file, copying forces a local, complete file.
                try FileManager.default.copyItem(at: securedURL, to: tmpURL)
                readableURL = tmpURL
            } catch {
                // If copy fails (e.g., already local), fall back to using the securedURL directly.
                readableURL = securedURL
            }
        }
        if let e = coordError {
            print("NSFileCoordinator error: \(e)")
        }
        guard let openURL = readableURL else {
            print("No readable URL resolved.")
            return
        }
        // Try opening with URL first.
        if let doc = PDFDocument(url: openURL) {
            sharedPDFView.document = doc
            sharedPDFView.autoScales = true
            sharedPDFView.isHidden = false
            shareBtnStackView.isHidden = false
        }
    }
    func openBundledPDF() {
        // Make sure your PDF is added to the project and "Target Membership" is checked
        if let pdfURL = Bundle.main.url(forResource: "sample_health_report", withExtension: "pdf") {
            if let pdfDoc = PDFDocument(url: pdfURL) {
                sharedPDFView.autoScales = true
                sharedPDFView.document = pdfDoc
                sharedPDFView.isHidden = false
                shareBtnStackView.isHidden = true
            }
        } else {
            print("Could not find PDF in bundle")
        }
    }
#if canImport(ObjectiveC) // (added)
    @objc func toggleDraw() {
        guard let shareHelper = ZoomVideoSDK.shareInstance()?.getShareHelper() else { return }
        // 1. If local share owner is sharing - Allow viewer to annotation
        shareHelper.disableViewerAnnotation(false)
        // 2. Check if annotation is supported and if viewer annotation is disable
        guard shareHelper.isAnnotationFeatureSupport(), !shareHelper.isViewerAnnotationDisabled() else {
            showError(message: "Annotation is not supported", dismiss: false)
            return
        }
        // 3. Check if annotationHelper exist, if so we will destory it.
        if annotationHelper != nil {
            shareHelper.destroy(annotationHelper)
        }
        // 4. Check if local user is the one sharing out.
        if shareHelper.isSharingOut() {
            // 4.1 Local user is the one sharing, first check if sharedPDFView contains the sample PDF or a selected PDF. Then create the annotationHelper.
            guard sharedPDFView.document != nil else {
                showError(message: "Select a PDF first.", dismiss: false)
                return
            }
            annotationHelper = shareHelper.createAnnotationHelper(nil) // Nil for self sharing as mentioned for shareHelper.createAnnotationHelper
        } else if shareHelper.isOtherSharing() {
            // 4.2 Check if other is sharing. If so, create a annotation helper.
            annotationHelper = shareHelper.createAnnotationHelper(sharerView)
        }
        // 5. If annotationHelper is still nil at this stage, means annotation is invalid.
        guard let annotationHelper = annotationHelper else {
            showError(message: "You are not allowed to annotate", dismiss: false)
            return
        }
        // 6. Check the current status of annotation
        if annotationStarted {
            // 6.1 Annotation has already been started before, so by toggle this button again we will stop annotation.
            let error = annotationHelper.stopAnnotation()
            if error == .Errors_Success {
                shareDrawBtn.setImage(UIImage(systemName: "pencil")?.withConfiguration(UIImage.SymbolConfiguration(pointSize: 30, weight: .regular)), for: .normal)
                annotationStarted = false
            }
        } else {
            // 6.2 Annotation not yet started, so by toggle this button again we will start annotation.
            let error = annotationHelper.startAnnotation()
            if error == .Errors_Success {
                var errorInAppAnnotationResult: ZoomVideoSDKError?
                // Check what is the chosenShareType.
                switch chosenShareType {
                case .InAppScreenShare:
                    // For InAppScreenShare, we will need to use setAnnotationView for annotation.
                    // Check if local user or remote user is sharing, then set annotation view accordingly.
                    if (shareHelper.isSharingOut()) {
                        errorInAppAnnotationResult = shareHelper.setAnnotationView(sharedPDFView)
                    } else {
                        errorInAppAnnotationResult = shareHelper.setAnnotationView(sharerView)
                    }
                    if errorInAppAnnotationResult == .Errors_Success {
                        // Set the annotation tool type, color and width. There are various configurations available. Check the ZoomVideoSDKAnnotationHelper for more information.
                        annotationHelper.setToolType(.pen)
                        annotationHelper.setToolColor(.red)
                        annotationHelper.setToolWidth(2)
                        shareDrawBtn.setImage(UIImage(systemName: "pencil.slash")?.withConfiguration(UIImage.SymbolConfiguration(pointSize: 30, weight: .regular)), for: .normal)
                    } else {
                        print("Fail to set annotation")
                    }
                case .ShareWithView:
                    // For ShareWithView, we will directly set the tool type, color and width
                    annotationHelper.setToolType(.pen)
                    annotationHelper.setToolColor(.red)
                    annotationHelper.setToolWidth(2)
                    shareDrawBtn.setImage(UIImage(systemName: "pencil.slash")?.withConfiguration(UIImage.SymbolConfiguration(pointSize: 30, weight: .regular)), for: .normal)
                default:
                    return
                }
                annotationStarted = true
            } else {
                print("Fail to start annotation")
            }
        }
    }
#else // (added)
    func toggleDraw() { // (added) the line above without @objc
        guard let shareHelper = ZoomVideoSDK.shareInstance()?.getShareHelper() else { return }
        // 1. If local share owner is sharing - Allow viewer to annotation
        shareHelper.disableViewerAnnotation(false)
        // 2. Check if annotation is supported and if viewer annotation is disable
        guard shareHelper.isAnnotationFeatureSupport(), !shareHelper.isViewerAnnotationDisabled() else {
            showError(message: "Annotation is not supported", dismiss: false)
            return
        }
        // 3. Check if annotationHelper exist, if so we will destory it.
        if annotationHelper != nil {
            shareHelper.destroy(annotationHelper)
        }
        // 4. Check if local user is the one sharing out.
        if shareHelper.isSharingOut() {
            // 4.1 Local user is the one sharing, first check if sharedPDFView contains the sample PDF or a selected PDF. Then create the annotationHelper.
            guard sharedPDFView.document != nil else {
                showError(message: "Select a PDF first.", dismiss: false)
                return
            }
            annotationHelper = shareHelper.createAnnotationHelper(nil) // Nil for self sharing as mentioned for shareHelper.createAnnotationHelper
        } else if shareHelper.isOtherSharing() {
            // 4.2 Check if other is sharing. If so, create a annotation helper.
            annotationHelper = shareHelper.createAnnotationHelper(sharerView)
        }
        // 5. If annotationHelper is still nil at this stage, means annotation is invalid.
        guard let annotationHelper = annotationHelper else {
            showError(message: "You are not allowed to annotate", dismiss: false)
            return
        }
        // 6. Check the current status of annotation
        if annotationStarted {
            // 6.1 Annotation has already been started before, so by toggle this button again we will stop annotation.
            let error = annotationHelper.stopAnnotation()
            if error == .Errors_Success {
                shareDrawBtn.setImage(UIImage(systemName: "pencil")?.withConfiguration(UIImage.SymbolConfiguration(pointSize: 30, weight: .regular)), for: .normal)
                annotationStarted = false
            }
        } else {
            // 6.2 Annotation not yet started, so by toggle this button again we will start annotation.
            let error = annotationHelper.startAnnotation()
            if error == .Errors_Success {
                var errorInAppAnnotationResult: ZoomVideoSDKError?
                // Check what is the chosenShareType.
                switch chosenShareType {
                case .InAppScreenShare:
                    // For InAppScreenShare, we will need to use setAnnotationView for annotation.
                    // Check if local user or remote user is sharing, then set annotation view accordingly.
                    if (shareHelper.isSharingOut()) {
                        errorInAppAnnotationResult = shareHelper.setAnnotationView(sharedPDFView)
                    } else {
                        errorInAppAnnotationResult = shareHelper.setAnnotationView(sharerView)
                    }
                    if errorInAppAnnotationResult == .Errors_Success {
                        // Set the annotation tool type, color and width. There are various configurations available. Check the ZoomVideoSDKAnnotationHelper for more information.
                        annotationHelper.setToolType(.pen)
                        annotationHelper.setToolColor(.red)
                        annotationHelper.setToolWidth(2)
                        shareDrawBtn.setImage(UIImage(systemName: "pencil.slash")?.withConfiguration(UIImage.SymbolConfiguration(pointSize: 30, weight: .regular)), for: .normal)
                    } else {
                        print("Fail to set annotation")
                    }
                case .ShareWithView:
                    // For ShareWithView, we will directly set the tool type, color and width
                    annotationHelper.setToolType(.pen)
                    annotationHelper.setToolColor(.red)
                    annotationHelper.setToolWidth(2)
                    shareDrawBtn.setImage(UIImage(systemName: "pencil.slash")?.withConfiguration(UIImage.SymbolConfiguration(pointSize: 30, weight: .regular)), for: .normal)
                default:
                    return
                }
                annotationStarted = true
            } else {
                print("Fail to start annotation")
            }
        }
    }
#endif // (added)
}
// (added) The published setupTabBar() is private to this file; SessionViewController+Elided.swift
// (added) calls it through this, as the article's elided viewDidLoad would.
extension SessionViewController { // (added)
    func setupTabBarFromElidedViewDidLoad() { setupTabBar() } // (added)
} // (added)
