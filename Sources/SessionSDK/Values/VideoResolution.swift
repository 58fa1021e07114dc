/// The resolution a canvas subscribes at: `ZoomVideoSDKVideoResolution`.
///
/// The SDK spells these `_90`, `_180`, `_360`, `_720` and `_Auto`; here they read
/// ``resolution90`` … ``auto``.
public enum VideoResolution: Int, Sendable, Codable, Hashable, CaseIterable {
  /// 90p.
  case resolution90 = 0
  /// 180p.
  case resolution180 = 1
  /// 360p.
  case resolution360 = 2
  /// 720p.
  case resolution720 = 3
  /// Chosen by the SDK.
  case auto = 100

  // swift-format-ignore: AlwaysUseLowerCamelCase
  /// The SDK's Swift spelling of ``auto`` (`ZoomVideoSDKVideoResolution_Auto`).
  public static let _Auto = VideoResolution.auto
}
