// What seed 002 takes from Apple's frameworks, for platforms that have none: plain headless
// stand-ins with the members the seed (and its scaffolding) uses, and no more. On iOS these are
// not compiled and the seed uses UIKit and PDFKit themselves. Without UIKit (Linux, macOS) the
// stand-ins replace both: PDFKit's view is a UIKit view, and a type declared in this module takes
// precedence over one of the same name that an import brings (PDFKit's, on macOS). Nothing is
// drawn: a view is its flags and subviews.

import Foundation

#if !canImport(UIKit)
  /// UIKit's `UIView`: a canvas to subscribe, whether it shows, and its subviews.
  @MainActor
  class UIView {
    var isHidden = false
    private(set) var subviews: [UIView] = []

    init() {}

    func addSubview(_ view: UIView) {
      subviews.append(view)
    }

    /// Resigns the first responder: there is no keyboard here.
    @discardableResult
    func endEditing(_ force: Bool) -> Bool { true }
  }

  /// UIKit's `UILabel`.
  @MainActor
  class UILabel: UIView {}

  /// UIKit's `UIStackView`.
  @MainActor
  class UIStackView: UIView {}

  /// UIKit's `UIAction`: what a control runs for an event.
  @MainActor
  final class UIAction {
    let handler: (UIAction) -> Void

    init(handler: @escaping (UIAction) -> Void) {
      self.handler = handler
    }
  }

  /// UIKit's `UIControl`: actions for events, which `sendActions(for:)` runs as a tap would.
  @MainActor
  class UIControl: UIView {
    /// UIKit's `UIControl.Event`.
    enum Event {
      case touchUpInside
    }

    private var actions: [(action: UIAction, event: Event)] = []

    func addAction(_ action: UIAction, for controlEvents: Event) {
      actions.append((action, controlEvents))
    }

    func sendActions(for controlEvents: Event) {
      for entry in actions where entry.event == controlEvents {
        entry.action.handler(entry.action)
      }
    }
  }

  /// UIKit's `UIButton`.
  @MainActor
  final class UIButton: UIControl {
    /// UIKit's `UIButton.ButtonType`.
    enum ButtonType {
      case system
    }

    init(type: ButtonType) {}
  }

  /// UIKit's `UITextField`: its text.
  @MainActor
  final class UITextField: UIControl {
    var text: String?
  }

  /// UIKit's `UISegmentedControl`: its segments and the selected one (-1 for none).
  @MainActor
  final class UISegmentedControl: UIControl {
    let numberOfSegments: Int
    var selectedSegmentIndex = -1

    init(items: [Any]?) {
      numberOfSegments = items?.count ?? 0
    }
  }

  /// UIKit's `UIImage`, as an SF Symbol's name.
  final class UIImage {
    let systemName: String

    init?(systemName: String) {
      self.systemName = systemName
    }
  }

  /// UIKit's `UITabBarItem`.
  @MainActor
  final class UITabBarItem {
    var title: String?
    var image: UIImage?
    var tag: Int

    init(title: String?, image: UIImage?, tag: Int) {
      self.title = title
      self.image = image
      self.tag = tag
    }
  }

  /// UIKit's `UITabBarDelegate`: a tap on an item.
  @MainActor
  protocol UITabBarDelegate: AnyObject {
    func tabBar(_ tabBar: UITabBar, didSelect item: UITabBarItem)
  }

  /// UIKit's `UITabBar`.
  @MainActor
  final class UITabBar: UIView {
    weak var delegate: (any UITabBarDelegate)?
    var items: [UITabBarItem]?
  }

  /// UIKit's `UIModalPresentationStyle`.
  enum UIModalPresentationStyle {
    case automatic
    case fullScreen
  }

  /// UIKit's `UIViewController`: its view, loaded on first use (then `viewDidLoad()`), and
  /// modal presentation, one controller at a time as in UIKit.
  @MainActor
  class UIViewController {
    private var loadedView: UIView?
    private(set) var presentedViewController: UIViewController?
    private(set) weak var presentingViewController: UIViewController?
    var title: String?
    var modalPresentationStyle = UIModalPresentationStyle.automatic

    init() {}

    var view: UIView {
      if let loadedView { return loadedView }
      let view = UIView()
      loadedView = view
      viewDidLoad()
      return view
    }

    func viewDidLoad() {}

    func loadViewIfNeeded() { _ = view }

    /// Presents `viewControllerToPresent`; as UIKit, nothing happens while this controller
    /// already presents one.
    func present(
      _ viewControllerToPresent: UIViewController, animated flag: Bool,
      completion: (() -> Void)? = nil
    ) {
      guard presentedViewController == nil else {
        print("Attempt to present \(viewControllerToPresent) while already presenting")
        return
      }
      presentedViewController = viewControllerToPresent
      viewControllerToPresent.presentingViewController = self
      viewControllerToPresent.loadViewIfNeeded()
      completion?()
    }

    /// Dismisses the controller this one presents, or else this one (as UIKit does).
    func dismiss(animated flag: Bool, completion: (() -> Void)? = nil) {
      if let presented = presentedViewController {
        presented.presentingViewController = nil
        presentedViewController = nil
      } else if let presenting = presentingViewController {
        presenting.dismiss(animated: flag, completion: completion)
        return
      }
      completion?()
    }
  }

  /// UIKit's `UIAlertAction`.
  @MainActor
  final class UIAlertAction {
    /// UIKit's `UIAlertAction.Style`.
    enum Style {
      case `default`
      case cancel
    }

    let title: String?
    let style: Style
    /// What a tap runs: private in UIKit, readable here so that a test can tap.
    let handler: ((UIAlertAction) -> Void)?

    init(title: String?, style: Style, handler: ((UIAlertAction) -> Void)? = nil) {
      self.title = title
      self.style = style
      self.handler = handler
    }
  }

  /// UIKit's `UIAlertController`.
  @MainActor
  final class UIAlertController: UIViewController {
    /// UIKit's `UIAlertController.Style`.
    enum Style {
      case actionSheet
      case alert
    }

    let message: String?
    let preferredStyle: Style
    private(set) var actions: [UIAlertAction] = []

    init(title: String?, message: String?, preferredStyle: Style) {
      self.message = message
      self.preferredStyle = preferredStyle
      super.init()
      self.title = title
    }

    func addAction(_ action: UIAlertAction) {
      actions.append(action)
    }
  }

  /// PDFKit's `PDFDocument`: a readable file.
  final class PDFDocument {
    let documentURL: URL?

    init?(url: URL) {
      guard FileManager.default.isReadableFile(atPath: url.path) else { return nil }
      documentURL = url
    }
  }

  /// PDFKit's `PDFView`: the document it shows.
  @MainActor
  final class PDFView: UIView {
    var document: PDFDocument?
    var autoScales = false
  }
#endif
