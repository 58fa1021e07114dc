/// A user's video status, read from their canvas: `ZoomVideoSDKVideoStatus`.
///
/// A value: it is what the canvas said when asked, and does not change afterwards.
public struct VideoStatus: Sendable, Codable, Hashable {
  /// Whether the camera is on (`videoStatus()?.on`).
  public var on: Bool
  /// Whether the user has a camera; always `true` in the engine.
  public var hasVideoDevice: Bool

  /// Creates a status.
  ///
  /// - Parameters:
  ///   - on: Whether the camera is on.
  ///   - hasVideoDevice: Whether the user has a camera.
  public init(on: Bool, hasVideoDevice: Bool = true) {
    self.on = on
    self.hasVideoDevice = hasVideoDevice
  }
}
