/// An operating-system permission the SDK needs: `ZoomVideoSDKSystemPermissionType`.
public enum SystemPermissionType: UInt8, Sendable, Codable, Hashable, CaseIterable {
  /// The camera.
  case camera = 0
  /// The microphone.
  case microphone = 1
}
