extension MediaRouter {
  /// The resolution a subscriber asks for, as `ZoomVideoSDKVideoResolution` numbers it (the
  /// SDK's own `VideoResolution` lives in SessionSDK, which the service does not import).
  ///
  /// A resolution caps the layer the router may select: a layer fits when the shorter side of
  /// its frames is at most the resolution's lines, so portrait and landscape video read alike.
  /// ``auto`` caps nothing and leaves the choice to the downlink estimate.
  public enum Resolution: Int, Sendable, Hashable, Codable, CaseIterable {
    /// `ZoomVideoSDKVideoResolution_90`.
    case p90 = 0
    /// `ZoomVideoSDKVideoResolution_180`.
    case p180 = 1
    /// `ZoomVideoSDKVideoResolution_360`.
    case p360 = 2
    /// `ZoomVideoSDKVideoResolution_720`.
    case p720 = 3
    /// `ZoomVideoSDKVideoResolution_1080`.
    case p1080 = 4
    /// `ZoomVideoSDKVideoResolution_Auto`: the best the downlink carries.
    case auto = 100

    /// The most lines (the shorter side of a frame) a layer may have, or `nil` for no cap.
    public var maxLines: Int? {
      switch self {
      case .p90: 90
      case .p180: 180
      case .p360: 360
      case .p720: 720
      case .p1080: 1080
      case .auto: nil
      }
    }
  }
}
