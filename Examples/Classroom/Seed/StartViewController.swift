// swift-format-ignore-file
// Seed 002's StartViewController.swift: the pieces the article publishes, byte for byte and in
// its order, inside the class they belong to. Lines marked `// (added)` (and this header) are
// not the article's:
//
// - the imports (the article shows none for this file);
// - the class's declaration and closing brace (the article shows only its members);
// - at the end, `setupLayout()`, which the article elides: it must be in this file, the only
//   one that can reach the published `private` fields. It puts the fields, the role control
//   and the enter button in the view and sends the button's taps to the published
//   `enterButtonTapped(_:)` (an `@IBAction`, connected in the storyboard in the app).
//
// `setupAppearance()` and `updateRoleCopy()`, also elided, are in StartViewController+Elided.swift.

import Foundation // (added)
import SessionCore // (added)
import SessionSDK // (added)

class StartViewController: UIViewController { // (added)
private let nameField = UITextField()
private let classCodeField = UITextField()

override func viewDidLoad() {
    super.viewDidLoad()
    setupAppearance()
    setupLayout()
    updateRoleCopy()
    setupSDK()
}

private func setupSDK() {
    let initParams = ZoomVideoSDKInitParams()
    initParams.domain = "zoom.us"

    let status = ZoomVideoSDK.shareInstance()?.initialize(initParams)

    if status != .Errors_Success {
        print("SDK initialization failed: \(String(describing: status))")
    }
}

private let roleControl = UISegmentedControl(items: ["Student", "Teacher"])

@IBAction private func enterButtonTapped(_: UIButton) {
    view.endEditing(true)

    let enteredName = nameField.text?
        .trimmingCharacters(in: .whitespacesAndNewlines) ?? ""

    let enteredSessionName = classCodeField.text?
        .trimmingCharacters(in: .whitespacesAndNewlines) ?? ""

    guard !enteredName.isEmpty, !enteredSessionName.isEmpty else {
        let alert = UIAlertController(
            title: "Complete your details",
            message: "Enter both your name and class code to join the classroom.",
            preferredStyle: .alert
        )
        alert.addAction(UIAlertAction(title: "OK", style: .default))
        present(alert, animated: true)
        return
    }

    let sessionViewController = SessionViewController()
    sessionViewController.username = enteredName
    sessionViewController.sessionname = enteredSessionName
    sessionViewController.modalPresentationStyle = .fullScreen

    present(sessionViewController, animated: false)
}
} // (added)

extension StartViewController { // (added)
    func setupLayout() { // (added)
        let enterButton = UIButton(type: .system) // (added)
        enterButton.addAction(UIAction { [weak self, weak enterButton] _ in // (added)
            guard let self, let enterButton else { return } // (added)
            self.enterButtonTapped(enterButton) // (added)
        }, for: .touchUpInside) // (added)
        for field in [roleControl, nameField, classCodeField, enterButton] { // (added)
            view.addSubview(field) // (added)
        } // (added)
    } // (added)
} // (added)
