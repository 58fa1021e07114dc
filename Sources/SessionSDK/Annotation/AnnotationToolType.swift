/// An annotation tool: `ZoomVideoSDKAnnotationToolType`.
public enum AnnotationToolType: UInt8, Sendable, Codable, Hashable, CaseIterable {
  /// No tool.
  case none = 0
  /// Pen.
  case pen = 1
  /// Highlighter.
  case highLighter = 2
  /// Straight line.
  case autoLine = 3
  /// Rectangle outline.
  case autoRectangle = 4
  /// Ellipse outline.
  case autoEllipse = 5
  /// Straight arrow.
  case autoArrow = 6
  /// Filled rectangle.
  case autoRectangleFill = 7
  /// Filled ellipse.
  case autoEllipseFill = 8
  /// Spotlight (not for viewers).
  case spotLight = 9
  /// Freehand arrow.
  case arrow = 10
  /// Eraser.
  case eraser = 11
  /// Colour picker (not for viewers).
  case picker = 12
  /// Semi-filled rectangle.
  case autoRectangleSemiFill = 13
  /// Semi-filled ellipse.
  case autoEllipseSemiFill = 14
  /// Double-headed arrow.
  case autoDoubleArrow = 15
  /// Diamond.
  case autoDiamond = 16
  /// Arrow stamp.
  case autoStampArrow = 17
  /// Check-mark stamp.
  case autoStampCheck = 18
  /// Cross stamp.
  case autoStampX = 19
  /// Star stamp.
  case autoStampStar = 20
  /// Heart stamp.
  case autoStampHeart = 21
  /// Question-mark stamp.
  case autoStampQm = 22

  /// Whether only the share owner may use the tool (Picker and SpotLight).
  public var isOwnerOnly: Bool { self == .picker || self == .spotLight }
}
