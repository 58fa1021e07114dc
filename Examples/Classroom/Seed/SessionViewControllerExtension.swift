// swift-format-ignore-file
// Seed 002's SessionViewControllerExtension.swift: the pieces the article publishes, byte for
// byte, each inside the method it belongs to (so grouped by method, not in the article's order).
// Lines marked `// (added)` (and this header) are not the article's:
//
// - the imports and the extension's declaration and closing brace;
// - around each published statement, the method the article names for it, with what the
//   article says the method does and no more: `refreshParticipants()` (the session and
//   `myself`), `presentLessonPicker()` (an action sheet of the lessons; a choice shares it
//   with ShareWithView), `openBundledPDF()` (the lesson's PDF from the main bundle),
//   `toggleDraw()` (annotation supported and a share live; the helper for a local share or
//   for `sharerView`; `setAnnotationView` for an in-app share: yours as you chose it, or any
//   remote one, which the SDK's share type cannot tell apart; the panel shown; the pencil
//   again stops annotating, in `stopDrawing(shareHelper:)`), one method per published panel
//   control (pen, colour, undo, redo, clear all) and `resetAnnotationUI(shareHelper:)`.

import Foundation // (added)
import SessionCore // (added)
import SessionSDK // (added)

extension SessionViewController { // (added)
func setupUI() {
    setupViews()
    setupConstraints()
    setupTabBar()
    setupAnnotationPanel()
    setupParticipantsPanel()
}

    func refreshParticipants() { // (added)
        guard let session = ZoomVideoSDK.shareInstance()?.getSession(), let myself = session.getMySelf() else { return } // (added)
participants = ([myself] + (session.getRemoteUsers() ?? [])).sorted {
    participantRoleRank($0) < participantRoleRank($1)
}
    } // (added)

    func presentLessonPicker() { // (added)
let lessons = [
    ("Linear Equations", "Linear_Equations_Annotation_Lab"),
    ("Quadratic Functions", "Quadratic_Functions_Challenge"),
    ("Systems of Equations", "Systems_of_Equations_Investigation")
]
        let picker = UIAlertController(title: "Choose Math Lab PDF", message: nil, preferredStyle: .actionSheet) // (added)
        for (title, file) in lessons { // (added)
            picker.addAction(UIAlertAction(title: title, style: .default) { _ in // (added)
                self.selectedLessonPDF = file // (added)
                self.handleShareSelection(with: .ShareWithView) // (added)
            }) // (added)
        } // (added)
        picker.addAction(UIAlertAction(title: "Cancel", style: .cancel)) // (added)
        present(picker, animated: true) // (added)
    } // (added)

    func openBundledPDF() { // (added)
        guard let pdfURL = Bundle.main.url(forResource: selectedLessonPDF, withExtension: "pdf"), let pdfDoc = PDFDocument(url: pdfURL) else { // (added)
            print("Could not find \(selectedLessonPDF ?? "the lesson") in bundle") // (added)
            return // (added)
        } // (added)
sharedPDFView.autoScales = true
sharedPDFView.document = pdfDoc
sharedPDFView.isHidden = false
    } // (added)

    func toggleDraw() { // (added)
        guard let shareHelper = ZoomVideoSDK.shareInstance()?.getShareHelper() else { return } // (added)
        if annotationStarted { // (added)
            stopDrawing(shareHelper: shareHelper) // (added)
            return // (added)
        } // (added)
        guard shareHelper.isAnnotationFeatureSupport(), shareHelper.isSharingOut() || shareHelper.isOtherSharing() else { // (added)
            showError(message: "There is no share to annotate.", dismiss: false) // (added)
            return // (added)
        } // (added)
        let isLocalShare = shareHelper.isSharingOut() // (added)
        if isLocalShare { // (added)
annotationHelper = shareHelper.createAnnotationHelper(nil)
        } else { // (added)
annotationHelper = shareHelper.createAnnotationHelper(sharerView)
        } // (added)
        guard let annotationHelper else { // (added)
            showError(message: "You are not allowed to annotate.", dismiss: false) // (added)
            return // (added)
        } // (added)
guard annotationHelper.startAnnotation() == .Errors_Success else {
    showError(message: "Unable to start annotation.", dismiss: false)
    return
}
        if !isLocalShare || chosenShareType == .InAppScreenShare { // (added)
let annotationView = isLocalShare ? view : sharerView
shareHelper.setAnnotationView(annotationView)
        } // (added)
setShareZoomGesturesEnabled(false)

if case .ShareWithView = chosenShareType {
    setPDFNavigationEnabled(false)
}
        annotationStarted = true // (added)
        annotationPanel.isHidden = false // (added)
    } // (added)

    func penTapped() { // (added)
        guard let helper = annotationHelper else { return } // (added)
helper.setToolType(.pen)
    } // (added)

    func colorTapped(_ color: AnnotationColor) { // (added)
        guard let helper = annotationHelper else { return } // (added)
        selectedAnnotationColor = color // (added)
helper.setToolColor(selectedAnnotationColor)
    } // (added)

    func undoTapped() { // (added)
        guard let helper = annotationHelper else { return } // (added)
helper.undo()
    } // (added)

    func redoTapped() { // (added)
        guard let helper = annotationHelper else { return } // (added)
helper.redo()
    } // (added)

    func clearAllTapped() { // (added)
        guard let helper = annotationHelper else { return } // (added)
helper.clear(.all)
    } // (added)

    func resetAnnotationUI(shareHelper: ZoomVideoSDKShareHelper) { // (added)
setPDFNavigationEnabled(true)
setShareZoomGesturesEnabled(true)
annotationStarted = false
annotationPanel.isHidden = true
    } // (added)
} // (added)
