import SessionCore

/// Annotating on one share: `ZoomVideoSDKAnnotationHelper`.
///
/// Made by ``ShareHelper/createAnnotationHelper(_:)``. Starting and stopping go to the
/// service; the tool, colour, width and the stroke stack that ``undo()`` and ``redo()`` walk
/// are local-only state beside the replica. ``draw(_:)`` adds a synthetic stroke. A clear
/// (yours or anyone's that covers your strokes) empties the stack when its event arrives.
///
/// A helper is released when its share stops or the session ends
/// (``VideoSDKDelegate/onAnnotationHelperCleanUp(_:)``) or when destroyed; after that every
/// call returns `Errors_Wrong_Usage`. A started helper cannot be destroyed: stop it first.
///
/// > Important: Not `Sendable`. Confined to the isolation domain of its ``VideoSDK``.
public final class AnnotationHelper {
  /// Whose share this helper annotates.
  public let shareOwner: UserID
  /// The instance, until it is gone (see `EngineReference`).
  var reference: EngineReference?
  var sdk: SDKEngine? { reference?.object }
  weak var view: AnyObject?
  /// Whether annotation was started (and not stopped, refused, disabled or released).
  public internal(set) var isStarted = false
  /// Whether the helper was cleaned up or destroyed.
  public private(set) var isReleased = false
  /// Strokes drawn and not undone, oldest first.
  public private(set) var strokes: [AnnotationStroke] = []
  private var undone: [AnnotationStroke] = []
  private var toolType: AnnotationToolType = .pen
  private var toolColor: AnnotationColor = .red
  private var toolWidth: UInt = 2

  init(shareOwner: UserID, sdk: SDKEngine, view: AnyObject?) {
    self.shareOwner = shareOwner
    self.reference = sdk.reference
    self.view = view
  }

  func markReleased() {
    isReleased = true
    isStarted = false
  }

  func markCleanedUp() { markReleased() }

  private var usability: VideoSDKError {
    guard let sdk, sdk.isInitialized else { return .uninitialize }
    return isReleased ? .wrongUsage : .success
  }

  private var isOwnShare: Bool { sdk?.store.state.myselfID == shareOwner }

  // MARK: Starting

  /// Whether you may annotate on this share now (the owner has not turned viewer annotation
  /// off, and the share is live).
  ///
  /// - Returns: `true` if you may annotate on the share now; `false` if viewer annotation is
  ///   off, the share has stopped, the helper is released, or you are not in the session.
  public func canDoAnnotation() -> Bool {
    guard usability == .success, let sdk else { return false }
    return sdk.store.state.annotationBlocker(on: shareOwner) == nil
  }

  /// Starts annotating.
  ///
  /// - Returns: `Errors_Wrong_Usage` when already started or released;
  ///   `Errors_Session_No_Rights` when the owner disabled viewer annotation;
  ///   `Errors_Session_Share_Error` when the share is gone.
  @discardableResult
  public func startAnnotation() -> VideoSDKError {
    let usable = usability
    guard usable == .success, let sdk else { return usable }
    guard !isStarted else { return .wrongUsage }
    return sdk.perform(
      .startAnnotation(shareOwner: shareOwner), pending: .startAnnotation(shareOwner: shareOwner)
    ) { isStarted = true }
  }

  /// Stops annotating.
  ///
  /// - Returns: `Errors_Wrong_Usage` when not started (or the start is not yet confirmed).
  @discardableResult
  public func stopAnnotation() -> VideoSDKError {
    let usable = usability
    guard usable == .success, let sdk else { return usable }
    guard isStarted else { return .wrongUsage }
    return sdk.perform(.stopAnnotation(shareOwner: shareOwner)) { isStarted = false }
  }

  // MARK: Tools (local)

  /// Chooses the tool. Picker and SpotLight are for the share owner only.
  ///
  /// - Parameter toolType: The tool to annotate with next.
  /// - Returns: `Errors_Dont_Support_Feature` for an owner-only tool on someone else's share.
  @discardableResult
  public func setToolType(_ toolType: AnnotationToolType) -> VideoSDKError {
    let usable = usability
    guard usable == .success, let sdk else { return usable }
    if toolType.isOwnerOnly, !isOwnShare { return .dontSupportFeature }
    guard toolType != self.toolType else { return .success }
    self.toolType = toolType
    sdk.fireLocal(.onAnnotationToolTypeChanged(shareOwner: shareOwner, toolType), view: view)
    return .success
  }

  /// The current tool.
  ///
  /// - Returns: The tool strokes are drawn with; ``AnnotationToolType/pen`` until you choose one.
  public func getToolType() -> AnnotationToolType { toolType }

  // Disfavoured so that, where UIKit's overload below exists, `setToolColor(.red)` means
  // `UIColor.red` as it does in the SDK instead of being ambiguous; elsewhere it is the only one.
  /// Chooses the colour.
  ///
  /// - Parameter color: The colour to draw with next.
  /// - Returns: `Errors_Success`; `Errors_Wrong_Usage` when the helper is released,
  ///   `Errors_Uninitialize` when the SDK is not initialized.
  @discardableResult @_disfavoredOverload
  public func setToolColor(_ color: AnnotationColor) -> VideoSDKError {
    let usable = usability
    guard usable == .success else { return usable }
    toolColor = color
    return .success
  }

  /// The current colour.
  ///
  /// - Returns: The colour strokes are drawn with; red until you choose one.
  public func getToolColor() -> AnnotationColor { toolColor }

  /// Chooses the line width.
  ///
  /// - Parameter width: The line width to draw with next; more than 0.
  /// - Returns: `Errors_Invalid_Parameter` for 0.
  @discardableResult
  public func setToolWidth(_ width: UInt) -> VideoSDKError {
    let usable = usability
    guard usable == .success else { return usable }
    guard width > 0 else { return .invalidParameter }
    toolWidth = width
    return .success
  }

  /// The current line width.
  ///
  /// - Returns: The line width strokes are drawn with; 2 until you choose one.
  public func getToolWidth() -> UInt { toolWidth }

  // MARK: Strokes (local)

  /// Draws a synthetic stroke with the current tool, colour and width.
  ///
  /// - Parameter stroke: The points to draw; its tool, colour and width are replaced by the
  ///   helper's current ones.
  /// - Returns: `Errors_Wrong_Usage` unless started and allowed to annotate.
  @discardableResult
  public func draw(_ stroke: AnnotationStroke) -> VideoSDKError {
    let usable = usability
    guard usable == .success else { return usable }
    guard isStarted, canDoAnnotation() else { return .wrongUsage }
    var stamped = stroke
    stamped.toolType = toolType
    stamped.color = toolColor
    stamped.width = toolWidth
    strokes.append(stamped)
    undone.removeAll()
    return .success
  }

  /// Whether ``undo()`` has a stroke to take back.
  public var canUndo: Bool { !strokes.isEmpty }

  /// Whether ``redo()`` has a stroke to put back.
  public var canRedo: Bool { !undone.isEmpty }

  /// Takes back your last stroke.
  ///
  /// - Returns: `Errors_Wrong_Usage` when not started or nothing to undo.
  @discardableResult
  public func undo() -> VideoSDKError {
    let usable = usability
    guard usable == .success else { return usable }
    guard isStarted, let last = strokes.popLast() else { return .wrongUsage }
    undone.append(last)
    return .success
  }

  /// Puts back the stroke last undone.
  ///
  /// - Returns: `Errors_Wrong_Usage` when not started or nothing to redo.
  @discardableResult
  public func redo() -> VideoSDKError {
    let usable = usability
    guard usable == .success else { return usable }
    guard isStarted, let last = undone.popLast() else { return .wrongUsage }
    strokes.append(last)
    return .success
  }

  /// Clears annotations: everyone's (host, manager or owner), everyone's but the owner's
  /// (owner), or yours (anyone).
  ///
  /// - Parameter type: Whose annotations to clear: `.all`, `.others` or `.mine`.
  /// - Returns: `Errors_Session_No_Rights` when the type is not yours to clear.
  @discardableResult
  public func clear(_ type: AnnotationClearType) -> VideoSDKError {
    let usable = usability
    guard usable == .success, let sdk else { return usable }
    return sdk.perform(.clearAnnotation(shareOwner: shareOwner, type: type))
  }

  /// Applies a clear that arrived from the service to the local stroke stack.
  func applyClear(_ type: AnnotationClearType, by user: UserID, me: UserID) {
    let coversMine: Bool =
      switch type {
      case .all: true
      case .others: user != me
      case .mine: user == me
      }
    guard coversMine else { return }
    strokes.removeAll()
    undone.removeAll()
  }
}

#if canImport(UIKit)
  import UIKit

  extension AnnotationHelper {
    /// Chooses the colour, as the SDK's `setToolColor(_:)` takes it.
    ///
    /// - Parameter color: The colour to draw with next (its RGB components).
    /// - Returns: As the variant that takes an ``AnnotationColor``.
    @discardableResult
    public func setToolColor(_ color: UIColor) -> VideoSDKError {
      setToolColor(AnnotationColor(color))
    }
  }
#endif
