import SessionCore

// The SDK's spellings for SessionCore values, so that app code ports without renaming.

extension AudioStatus {
  /// How audio is connected, under the SDK's name (`audioStatus().audioType`).
  public var audioType: AudioType { type }

  /// Whether the user is speaking, under the SDK's name (`audioStatus().talking`).
  public var talking: Bool { isTalking }
}

extension ShareStatus {
  /// `ZoomVideoSDKReceiveSharingStatus_Start`: the SDK's name for ``started``.
  public static var start: ShareStatus { .started }
  /// `ZoomVideoSDKReceiveSharingStatus_Pause`: the SDK's name for ``paused``.
  public static var pause: ShareStatus { .paused }
  /// `ZoomVideoSDKReceiveSharingStatus_Resume`: the SDK's name for ``resumed``.
  public static var resume: ShareStatus { .resumed }
  /// `ZoomVideoSDKReceiveSharingStatus_Stop`: the SDK's name for ``stopped``.
  public static var stop: ShareStatus { .stopped }
}

extension ShareSetting {
  /// `ZoomVideoSDKShareSetting_LockedShare`: the SDK's name for ``locked``.
  public static var lockedShare: ShareSetting { .locked }
  /// `ZoomVideoSDKShareSetting_SingleShare`: the SDK's name for ``single``.
  public static var singleShare: ShareSetting { .single }
  /// `ZoomVideoSDKShareSetting_MultiShare`: the SDK's name for ``multi``.
  public static var multiShare: ShareSetting { .multi }
}
