/// A point on an annotation surface, in the share's coordinates.
public struct AnnotationPoint: Sendable, Codable, Hashable {
  /// Horizontal position.
  public var x: Double
  /// Vertical position.
  public var y: Double

  /// Creates a point.
  ///
  /// - Parameters:
  ///   - x: Horizontal position, in the share's coordinates.
  ///   - y: Vertical position, in the share's coordinates.
  public init(x: Double, y: Double) {
    self.x = x
    self.y = y
  }
}

/// One synthetic annotation stroke, drawn with ``AnnotationHelper/draw(_:)``.
///
/// The engine renders nothing: strokes exist so that undo, redo and clear have something to
/// act on. The helper stamps each stroke with its tool, colour and width when it is drawn.
public struct AnnotationStroke: Sendable, Codable, Hashable {
  /// The points, in drawing order.
  public var points: [AnnotationPoint]
  /// The tool it was drawn with.
  public var toolType: AnnotationToolType
  /// Its colour.
  public var color: AnnotationColor
  /// Its width.
  public var width: UInt

  /// Creates a stroke; ``AnnotationHelper/draw(_:)`` replaces tool, colour and width with the
  /// helper's current ones.
  ///
  /// - Parameters:
  ///   - points: The points, in drawing order.
  ///   - toolType: The tool it is drawn with.
  ///   - color: Its colour.
  ///   - width: Its width, as ``AnnotationHelper/setToolWidth(_:)`` takes it.
  public init(
    points: [AnnotationPoint],
    toolType: AnnotationToolType = .pen,
    color: AnnotationColor = .red,
    width: UInt = 2
  ) {
    self.points = points
    self.toolType = toolType
    self.color = color
    self.width = width
  }
}
