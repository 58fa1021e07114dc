// What seed 001 takes from Apple's frameworks, for platforms that have none: plain headless
// stand-ins with the members the seed (and its scaffolding) uses, and no more. On iOS these are
// not compiled and the seed uses UIKit, PDFKit and UniformTypeIdentifiers themselves. Without
// UIKit (Linux, macOS) the stand-ins replace all three: PDFKit's view is a UIKit view, and a type
// declared in this module takes precedence over one of the same name that an import brings
// (PDFKit's or UniformTypeIdentifiers' on macOS). File coordination and security-scoped URLs
// get stand-ins only where Foundation lacks them (off Apple platforms). Nothing is drawn: a view
// is its flags.

import Foundation

#if !canImport(UIKit)
  /// UIKit's `UIView`: a canvas to subscribe, and whether it shows.
  @MainActor
  class UIView {
    var isHidden = false
    var isUserInteractionEnabled = true

    init() {}
  }

  /// UIKit's `UILabel`.
  @MainActor
  class UILabel: UIView {}

  /// UIKit's `UIStackView`.
  @MainActor
  class UIStackView: UIView {}

  /// UIKit's `UIControl`, for its states.
  @MainActor
  class UIControl: UIView {
    /// UIKit's `UIControl.State`.
    enum State {
      case normal
    }
  }

  /// UIKit's `UIButton`: an image per state.
  @MainActor
  class UIButton: UIControl {
    /// UIKit's `UIButton.ButtonType`.
    enum ButtonType {
      case system
    }

    private var images: [UIControl.State: UIImage] = [:]

    init(type: ButtonType) {}

    func setImage(_ image: UIImage?, for state: UIControl.State) {
      images[state] = image
    }

    func image(for state: UIControl.State) -> UIImage? { images[state] }
  }

  /// UIKit's `UIImage`, as an SF Symbol's name.
  final class UIImage {
    /// UIKit's `UIImage.Configuration`.
    class Configuration {}

    /// UIKit's `UIImage.SymbolConfiguration`.
    final class SymbolConfiguration: Configuration {
      init(pointSize: CGFloat, weight: SymbolWeight) {}
    }

    /// UIKit's `UIImage.SymbolWeight`.
    enum SymbolWeight {
      case regular
    }

    let systemName: String

    init?(systemName: String) {
      self.systemName = systemName
    }

    func withConfiguration(_ configuration: Configuration) -> UIImage { self }
  }

  /// UIKit's `UITabBarItem`.
  @MainActor
  final class UITabBarItem {
    var title: String?
    var image: UIImage?
    var tag: Int
    var isEnabled = true

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
    var selectedItem: UITabBarItem?
  }

  /// UIKit's `UIViewController`: its view, loaded on first use (then `viewDidLoad()`), and
  /// modal presentation, one controller at a time as in UIKit.
  @MainActor
  class UIViewController {
    private var loadedView: UIView?
    private(set) var presentedViewController: UIViewController?
    private(set) weak var presentingViewController: UIViewController?
    var title: String?

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

  /// UIKit's `UIDocumentPickerDelegate`: the documents the user picked.
  @MainActor
  protocol UIDocumentPickerDelegate: AnyObject {
    func documentPicker(
      _ controller: UIDocumentPickerViewController, didPickDocumentsAt urls: [URL])
  }

  /// UIKit's `UIDocumentPickerViewController`.
  @MainActor
  final class UIDocumentPickerViewController: UIViewController {
    let contentTypes: [UTType]
    weak var delegate: (any UIDocumentPickerDelegate)?

    init(forOpeningContentTypes contentTypes: [UTType]) {
      self.contentTypes = contentTypes
      super.init()
    }
  }

  /// UniformTypeIdentifiers' `UTType`.
  struct UTType: Hashable, Sendable {
    static let pdf = UTType(identifier: "com.adobe.pdf")

    let identifier: String
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

#if !canImport(Darwin)
  /// Foundation's `NSFileCoordinator`, which Foundation has only on Apple platforms: reading
  /// needs no coordination here, so the accessor runs at once with the URL given.
  final class NSFileCoordinator {
    /// Foundation's `NSFileCoordinator.ReadingOptions`.
    struct ReadingOptions: OptionSet {
      let rawValue: UInt
    }

    func coordinate(
      readingItemAt url: URL, options: ReadingOptions = [],
      error outError: UnsafeMutablePointer<NSError?>?, byAccessor reader: (URL) -> Void
    ) {
      reader(url)
    }
  }

  extension URL {
    /// Foundation's security-scoped access, which only Apple platforms have: there is no
    /// sandbox here, so no access to gain.
    func startAccessingSecurityScopedResource() -> Bool { false }

    /// Ends what ``startAccessingSecurityScopedResource()`` started: nothing here.
    func stopAccessingSecurityScopedResource() {}
  }
#endif
