/// How a canvas fits its video into a view: `ZoomVideoSDKVideoAspect`.
///
/// The engine draws nothing; the value is recorded with each subscription.
public enum VideoAspect: UInt8, Sendable, Codable, Hashable, CaseIterable {
  /// The video's own aspect ratio.
  case original = 0
  /// Stretched to fill the view.
  case fullFilled = 1
  /// Fitted inside the view with bars.
  case letterBox = 2
  /// Cropped to fill the view.
  case panAndScan = 3
}
