import Foundation
import SessionCore
import SessionSDK

// Headless only: it taps alert buttons through the stand-ins' handlers, which UIKit keeps
// private.
#if !canImport(UIKit)
  /// One user of seed 001's app, for tests: an SDK instance of its own and one copy of the seed's
  /// `SessionViewController`, whose code runs with that instance as `ZoomVideoSDK.shareInstance()`
  /// (`VideoSDK.withSharedInstance`), on the development service of `zoom.us`. Not seed code: the
  /// seed's app is driven here as its buttons, alerts and document picker would drive it.
  ///
  /// > Important: Main-actor-bound, as the seed's app is.
  @MainActor
  final class ShareAnnotationPeer {
    /// The domain the quickstart's `setupSDK()` initializes for.
    static let domain = "zoom.us"

    let name: String
    let sdk = VideoSDK()
    let controller = SessionViewController()

    init(name: String) {
      self.name = name
    }

    /// Runs `body` as this user's app: `ZoomVideoSDK.shareInstance()` is this user's instance in
    /// it and in every task it starts.
    func run<R>(_ body: () throws -> R) rethrows -> R {
      try VideoSDK.withSharedInstance(sdk, body)
    }

    /// The quickstart's `setupSDK()` (the article elides its `StartViewController`, unchanged),
    /// then the session screen's load and join.
    func join(sessionName: String, role: TokenRole) {
      run {
        let initParams = InitParams()
        initParams.domain = Self.domain
        _ = ZoomVideoSDK.shareInstance()?.initialize(initParams)
        controller.viewDidLoadAndJoin(
          sessionName: sessionName, userName: name,
          token: DevelopmentService.token(sessionName: sessionName, role: role))
      }
    }

    /// Taps a tab bar item: UIKit tells the tab bar's delegate.
    func tap(_ item: UITabBarItem) {
      run { controller.tabBar.delegate?.tabBar(controller.tabBar, didSelect: item) }
    }

    /// The alert on screen, if any.
    var alert: UIAlertController? { controller.presentedViewController as? UIAlertController }

    /// Taps the button titled `title` of the alert on screen: UIKit dismisses the alert, then
    /// runs the button's handler.
    ///
    /// - Returns: Whether there was such a button.
    @discardableResult
    func tapAlertButton(_ title: String) -> Bool {
      guard let alert, let action = alert.actions.first(where: { $0.title == title }) else {
        return false
      }
      run {
        alert.dismiss(animated: true)
        action.handler?(action)
      }
      return true
    }

    /// Picks `url` in the document picker on screen: the picker dismisses itself and tells its
    /// delegate.
    ///
    /// - Returns: Whether a document picker was on screen.
    @discardableResult
    func pickDocument(_ url: URL) -> Bool {
      guard let picker = controller.presentedViewController as? UIDocumentPickerViewController
      else { return false }
      run {
        picker.dismiss(animated: true)
        picker.delegate?.documentPicker(picker, didPickDocumentsAt: [url])
      }
      return true
    }
  }
#endif
