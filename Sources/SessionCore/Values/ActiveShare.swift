/// A live share and its annotation state.
///
/// A value keyed by its owner: a user has at most one share at a time.
public struct ActiveShare: Sendable, Codable, Hashable {
  /// Who is sharing.
  public var owner: UserID
  /// Started, paused or resumed.
  public var status: ShareStatus
  /// What is shared.
  public var kind: ShareKind
  /// Whether the owner has turned viewer annotation off (`disableViewerAnnotation`).
  public var isViewerAnnotationDisabled: Bool
  /// Who is annotating on this share now.
  public var annotators: Set<UserID>
  /// How many times annotations on this share were cleared.
  public var clearCount: Int
  /// When the share started, relative to the other live shares: smaller started earlier.
  ///
  /// The reducer gives a new share one more than the largest live share's, so it depends only
  /// on the state, and replicas with equal states number a new share alike.
  public var startOrder: UInt64

  /// Creates a share.
  ///
  /// - Parameters:
  ///   - owner: Who is sharing.
  ///   - status: Started, paused or resumed; a new share is started.
  ///   - kind: What is shared: a view, the app's screen, the camera or an external source.
  ///   - isViewerAnnotationDisabled: Whether the owner has turned viewer annotation off.
  ///   - annotators: Who is annotating on the share now.
  ///   - clearCount: How many times annotations on the share were cleared.
  ///   - startOrder: When the share started relative to the other live shares; smaller
  ///     started earlier.
  public init(
    owner: UserID,
    status: ShareStatus = .started,
    kind: ShareKind = .view,
    isViewerAnnotationDisabled: Bool = false,
    annotators: Set<UserID> = [],
    clearCount: Int = 0,
    startOrder: UInt64 = 0
  ) {
    self.owner = owner
    self.status = status
    self.kind = kind
    self.isViewerAnnotationDisabled = isViewerAnnotationDisabled
    self.annotators = annotators
    self.clearCount = clearCount
    self.startOrder = startOrder
  }
}
