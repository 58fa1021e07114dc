/// An annotation tool colour, as red, green, blue and alpha components from 0 to 1.
///
/// It stands in for the `UIColor` that `setToolColor(_:)` takes in the SDK; the static
/// colours let app code such as `setToolColor(.red)` port unchanged.
public struct AnnotationColor: Sendable, Codable, Hashable {
  /// Red, 0…1.
  public var red: Double
  /// Green, 0…1.
  public var green: Double
  /// Blue, 0…1.
  public var blue: Double
  /// Opacity, 0…1.
  public var alpha: Double

  /// Creates a colour; components are clamped to 0…1.
  ///
  /// - Parameters:
  ///   - red: Red, 0…1.
  ///   - green: Green, 0…1.
  ///   - blue: Blue, 0…1.
  ///   - alpha: Opacity, 0 (transparent) to 1 (opaque, the default).
  public init(red: Double, green: Double, blue: Double, alpha: Double = 1) {
    self.red = Self.clamp(red)
    self.green = Self.clamp(green)
    self.blue = Self.clamp(blue)
    self.alpha = Self.clamp(alpha)
  }

  private static func clamp(_ value: Double) -> Double {
    value.isNaN ? 0 : min(max(value, 0), 1)
  }

  /// Opaque red.
  public static let red = AnnotationColor(red: 1, green: 0, blue: 0)
  /// Opaque green.
  public static let green = AnnotationColor(red: 0, green: 1, blue: 0)
  /// Opaque blue.
  public static let blue = AnnotationColor(red: 0, green: 0, blue: 1)
  /// Opaque yellow.
  public static let yellow = AnnotationColor(red: 1, green: 1, blue: 0)
  /// Opaque black.
  public static let black = AnnotationColor(red: 0, green: 0, blue: 0)
  /// Opaque white.
  public static let white = AnnotationColor(red: 1, green: 1, blue: 1)
}

#if canImport(UIKit)
  import UIKit

  extension AnnotationColor {
    /// The components of a UIKit colour, in its RGB space (each clamped to 0…1).
    ///
    /// - Parameter color: The colour an app passes to `setToolColor(_:)`.
    public init(_ color: UIColor) {
      var red: CGFloat = 0
      var green: CGFloat = 0
      var blue: CGFloat = 0
      var alpha: CGFloat = 0
      color.getRed(&red, green: &green, blue: &blue, alpha: &alpha)
      self.init(red: Double(red), green: Double(green), blue: Double(blue), alpha: Double(alpha))
    }
  }
#endif
