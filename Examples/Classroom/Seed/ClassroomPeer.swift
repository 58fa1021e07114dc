import Foundation
import SessionCore
import SessionSDK

// Headless only: it taps alert buttons through the stand-ins' handlers, which UIKit keeps
// private.
#if !canImport(UIKit)
  /// One user of seed 002's classroom app, for tests: an SDK instance of its own and one copy of
  /// the seed's app (its `StartViewController`, and the `SessionViewController` that presents),
  /// whose code runs with that instance as `ZoomVideoSDK.shareInstance()`
  /// (`VideoSDK.withSharedInstance`), on the development service of `zoom.us`. Not seed code: the
  /// seed's app is driven here as its fields, buttons and alerts would drive it.
  ///
  /// > Important: Main-actor-bound, as the seed's app is.
  @MainActor
  final class ClassroomPeer {
    /// The domain the seed's `setupSDK()` initializes for.
    static let domain = "zoom.us"

    let name: String
    let sdk = VideoSDK()
    let start = StartViewController()

    init(name: String) {
      self.name = name
    }

    /// The session screen, once the start screen presented it.
    var session: SessionViewController? {
      start.presentedViewController as? SessionViewController
    }

    /// Runs `body` as this user's app: `ZoomVideoSDK.shareInstance()` is this user's instance in
    /// it and in every task it starts.
    func run<R>(_ body: () throws -> R) rethrows -> R {
      try VideoSDK.withSharedInstance(sdk, body)
    }

    /// Opens the app: the start screen loads (its `viewDidLoad` initializes the SDK).
    func launch() {
      run { start.loadViewIfNeeded() }
    }

    /// Fills the start screen (role, name, class code) and taps its enter button.
    func enter(name: String?, classCode: String?, teacher: Bool) {
      let controls = start.view.subviews
      let fields = controls.compactMap { $0 as? UITextField }
      fields.first?.text = name
      fields.last?.text = classCode
      controls.compactMap { $0 as? UISegmentedControl }.first?.selectedSegmentIndex =
        teacher ? 1 : 0
      run { controls.compactMap { $0 as? UIButton }.first?.sendActions(for: .touchUpInside) }
    }

    /// The JWT alert the session screen shows when it appears (the article describes it without
    /// code): the token pasted, then the published `joinSession()`. The role is the token's.
    func pasteTokenAndJoin(teacher: Bool) {
      guard let session else { return }
      run {
        session.userInputJWT = DevelopmentService.token(
          sessionName: session.sessionname, role: teacher ? .host : .participant)
        session.joinSession()
      }
    }

    /// Launches the app, enters the classroom and joins it.
    func join(classCode: String, teacher: Bool) {
      launch()
      enter(name: name, classCode: classCode, teacher: teacher)
      pasteTokenAndJoin(teacher: teacher)
    }

    /// Taps a tab bar item of the session screen: UIKit tells the tab bar's delegate.
    func tap(_ item: KeyPath<ElidedSessionViewController, UITabBarItem>) {
      guard let session else { return }
      run { session.tabBar.delegate?.tabBar(session.tabBar, didSelect: session[keyPath: item]) }
    }

    /// The alert on screen, if any: the session screen's, or else the start screen's.
    var alert: UIAlertController? {
      (session?.presentedViewController ?? start.presentedViewController) as? UIAlertController
    }

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
  }
#endif
