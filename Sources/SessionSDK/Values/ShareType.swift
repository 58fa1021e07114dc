import SessionCore

/// What a share carries, as `ShareAction.getShareType()` reports it: `ZoomVideoSDKShareType`.
public enum ShareType: UInt8, Sendable, Codable, Hashable, CaseIterable {
  /// No share.
  case none = 0
  /// A view, the app's screen, or an external source.
  case normal = 1
  /// Audio only.
  case pureAudio = 2
  /// The camera (`startShareCamera(_:)`).
  case camera = 3

  /// The SDK share type of an engine share kind.
  ///
  /// - Parameter kind: What the share shows; a camera share is ``camera``, any other ``normal``.
  public init(_ kind: ShareKind) {
    self = kind == .camera ? .camera : .normal
  }
}
