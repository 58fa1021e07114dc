// Version 2's enumeration values: each by its Swift case name, spelled out here rather than
// taken from reflection, so that the format does not depend on how the module is built. A new
// case does not compile until it has a name here; Docs/TraceFormat.md lists them all.

extension Role: TraceName {
  static var traceTypeName: String { "Role" }
  var traceName: String {
    switch self {
    case .host: "host"
    case .manager: "manager"
    case .participant: "participant"
    }
  }
}

extension AudioType: TraceName {
  static var traceTypeName: String { "AudioType" }
  var traceName: String {
    switch self {
    case .none: "none"
    case .voip: "voip"
    case .telephony: "telephony"
    }
  }
}

extension ShareStatus: TraceName {
  static var traceTypeName: String { "ShareStatus" }
  var traceName: String {
    switch self {
    case .none: "none"
    case .started: "started"
    case .paused: "paused"
    case .resumed: "resumed"
    case .stopped: "stopped"
    }
  }
}

extension ShareSetting: TraceName {
  static var traceTypeName: String { "ShareSetting" }
  var traceName: String {
    switch self {
    case .none: "none"
    case .locked: "locked"
    case .single: "single"
    case .multi: "multi"
    }
  }
}

extension ShareKind: TraceName {
  static var traceTypeName: String { "ShareKind" }
  var traceName: String {
    switch self {
    case .view: "view"
    case .inAppScreen: "inAppScreen"
    case .camera: "camera"
    case .external: "external"
    }
  }
}

extension AnnotationClearType: TraceName {
  static var traceTypeName: String { "AnnotationClearType" }
  var traceName: String {
    switch self {
    case .all: "all"
    case .others: "others"
    case .mine: "mine"
    }
  }
}

extension NetworkQuality: TraceName {
  static var traceTypeName: String { "NetworkQuality" }
  var traceName: String {
    switch self {
    case .none: "none"
    case .bad: "bad"
    case .normal: "normal"
    case .good: "good"
    }
  }
}

extension ChatPrivilege: TraceName {
  static var traceTypeName: String { "ChatPrivilege" }
  var traceName: String {
    switch self {
    case .unknown: "unknown"
    case .everyonePubliclyAndPrivately: "everyonePubliclyAndPrivately"
    case .noOne: "noOne"
    case .everyonePublicly: "everyonePublicly"
    }
  }
}

extension ChatDeleteBy: TraceName {
  static var traceTypeName: String { "ChatDeleteBy" }
  var traceName: String {
    switch self {
    case .none: "none"
    case .selfSender: "selfSender"
    case .host: "host"
    case .dlp: "dlp"
    }
  }
}

extension LeaveReason: TraceName {
  static var traceTypeName: String { "LeaveReason" }
  var traceName: String {
    switch self {
    case .unknown: "unknown"
    case .bySelf: "bySelf"
    case .kickByHost: "kickByHost"
    case .endByHost: "endByHost"
    case .networkError: "networkError"
    }
  }
}

extension RecordingStatus: TraceName {
  static var traceTypeName: String { "RecordingStatus" }
  var traceName: String {
    switch self {
    case .none: "none"
    case .start: "start"
    case .stop: "stop"
    case .diskFull: "diskFull"
    case .pause: "pause"
    case .connecting: "connecting"
    }
  }
}

extension SubSessionStatus: TraceName {
  static var traceTypeName: String { "SubSessionStatus" }
  var traceName: String {
    switch self {
    case .none: "none"
    case .committed: "committed"
    case .withdrawn: "withdrawn"
    case .started: "started"
    case .stopping: "stopping"
    case .stopped: "stopped"
    case .commitFailed: "commitFailed"
    case .withdrawFailed: "withdrawFailed"
    case .startFailed: "startFailed"
    case .stopFailed: "stopFailed"
    }
  }
}

extension SubSessionHelpResult: TraceName {
  static var traceTypeName: String { "SubSessionHelpResult" }
  var traceName: String {
    switch self {
    case .idle: "idle"
    case .busy: "busy"
    case .ignore: "ignore"
    case .hostAlreadyInSubSession: "hostAlreadyInSubSession"
    }
  }
}

extension VideoSDKError: TraceName {
  static var traceTypeName: String { "VideoSDKError" }
  var traceName: String {
    switch self {
    case .success: "success"
    case .wrongUsage: "wrongUsage"
    case .internalError: "internalError"
    case .uninitialize: "uninitialize"
    case .memoryError: "memoryError"
    case .loadModuleError: "loadModuleError"
    case .unLoadModuleError: "unLoadModuleError"
    case .invalidParameter: "invalidParameter"
    case .callTooFrequently: "callTooFrequently"
    case .noImpl: "noImpl"
    case .dontSupportFeature: "dontSupportFeature"
    case .unknown: "unknown"
    case .removeFolderFail: "removeFolderFail"
    case .authBase: "authBase"
    case .authError: "authError"
    case .authEmptyKeyOrSecret: "authEmptyKeyOrSecret"
    case .authWrongKeyOrSecret: "authWrongKeyOrSecret"
    case .authDoesNotSupportSDK: "authDoesNotSupportSDK"
    case .authDisableSDK: "authDisableSDK"
    case .joinSessionNoSessionName: "joinSessionNoSessionName"
    case .joinSessionNoSessionToken: "joinSessionNoSessionToken"
    case .joinSessionNoUserName: "joinSessionNoUserName"
    case .joinSessionInvalidSessionName: "joinSessionInvalidSessionName"
    case .joinSessionInvalidPassword: "joinSessionInvalidPassword"
    case .joinSessionInvalidSessionToken: "joinSessionInvalidSessionToken"
    case .joinSessionSessionNameTooLong: "joinSessionSessionNameTooLong"
    case .joinSessionTokenMismatchedSessionName: "joinSessionTokenMismatchedSessionName"
    case .joinSessionTokenNoSessionName: "joinSessionTokenNoSessionName"
    case .joinSessionTokenRoleTypeEmptyOrWrong: "joinSessionTokenRoleTypeEmptyOrWrong"
    case .joinSessionTokenUserIdentityTooLong: "joinSessionTokenUserIdentityTooLong"
    case .sessionBase: "sessionBase"
    case .sessionModuleNotFound: "sessionModuleNotFound"
    case .sessionServiceInvalid: "sessionServiceInvalid"
    case .sessionJoinFailed: "sessionJoinFailed"
    case .sessionNoRights: "sessionNoRights"
    case .sessionAlreadyInProgress: "sessionAlreadyInProgress"
    case .sessionDontSupportSessionType: "sessionDontSupportSessionType"
    case .sessionYouHaveNoShare: "sessionYouHaveNoShare"
    case .sessionReconnecting: "sessionReconnecting"
    case .sessionDisconnecting: "sessionDisconnecting"
    case .sessionNotStarted: "sessionNotStarted"
    case .sessionNeedPassword: "sessionNeedPassword"
    case .sessionPasswordWrong: "sessionPasswordWrong"
    case .sessionRemoteDBError: "sessionRemoteDBError"
    case .sessionInvalidParam: "sessionInvalidParam"
    case .sessionClientIncompatible: "sessionClientIncompatible"
    case .sessionAccountFreeMinutesExceeded: "sessionAccountFreeMinutesExceeded"
    case .sessionAccountFreeCreditExceeded: "sessionAccountFreeCreditExceeded"
    case .sessionAudioError: "sessionAudioError"
    case .sessionAudioNoMicrophone: "sessionAudioNoMicrophone"
    case .sessionAudioNoSpeaker: "sessionAudioNoSpeaker"
    case .sessionBluetoothSCOConnectionFailed: "sessionBluetoothSCOConnectionFailed"
    case .sessionVideoError: "sessionVideoError"
    case .sessionVideoDeviceError: "sessionVideoDeviceError"
    case .sessionLiveStreamError: "sessionLiveStreamError"
    case .sessionPhoneError: "sessionPhoneError"
    case .dontSupportMultiStreamVideoUser: "dontSupportMultiStreamVideoUser"
    case .failAssignUserPrivilege: "failAssignUserPrivilege"
    case .noRecordingInProcess: "noRecordingInProcess"
    case .recordingIsConnecting: "recordingIsConnecting"
    case .setVirtualBackgroundFail: "setVirtualBackgroundFail"
    case .mallocFailed: "mallocFailed"
    case .notInSession: "notInSession"
    case .noLicense: "noLicense"
    case .videoModuleNotReady: "videoModuleNotReady"
    case .videoModuleError: "videoModuleError"
    case .videoDeviceError: "videoDeviceError"
    case .noVideoData: "noVideoData"
    case .shareModuleNotReady: "shareModuleNotReady"
    case .shareModuleError: "shareModuleError"
    case .noShareData: "noShareData"
    case .audioModuleNotReady: "audioModuleNotReady"
    case .audioModuleError: "audioModuleError"
    case .noAudioData: "noAudioData"
    case .preprocessRawdataError: "preprocessRawdataError"
    case .rawdataNoDeviceRunning: "rawdataNoDeviceRunning"
    case .rawdataInitDevice: "rawdataInitDevice"
    case .rawdataVirtualDevice: "rawdataVirtualDevice"
    case .rawdataCannotChangeVirtualDeviceInPreview: "rawdataCannotChangeVirtualDeviceInPreview"
    case .rawdataInternalError: "rawdataInternalError"
    case .rawdataSendTooMuchDataInSingleTime: "rawdataSendTooMuchDataInSingleTime"
    case .rawdataSendTooFrequently: "rawdataSendTooFrequently"
    case .rawdataVirtualMicIsTerminate: "rawdataVirtualMicIsTerminate"
    case .rawdataInvalidSharePreprocessingDataObject: "rawdataInvalidSharePreprocessingDataObject"
    case .rawdataSharePreprocessingIsStopped: "rawdataSharePreprocessingIsStopped"
    case .sessionShareError: "sessionShareError"
    case .sessionShareModuleNotReady: "sessionShareModuleNotReady"
    case .sessionShareYouAreNotSharing: "sessionShareYouAreNotSharing"
    case .sessionShareTypeIsNotSupport: "sessionShareTypeIsNotSupport"
    case .sessionShareInternalError: "sessionShareInternalError"
    case .sessionShareCameraVideoNotStart: "sessionShareCameraVideoNotStart"
    case .sessionShareCameraConflictWithVideoEffects: "sessionShareCameraConflictWithVideoEffects"
    case .sessionShareConflictWithWhiteboard: "sessionShareConflictWithWhiteboard"
    case .sessionFiletransferUnknownError: "sessionFiletransferUnknownError"
    case .sessionFiletransferFileTypeBlocked: "sessionFiletransferFileTypeBlocked"
    case .sessionFiletransferFileSizelimited: "sessionFiletransferFileSizelimited"
    case .spotlightNotEnoughUsers: "spotlightNotEnoughUsers"
    case .spotlightToMuchSpotlightedUsers: "spotlightToMuchSpotlightedUsers"
    case .spotlightUserCannotBeSpotlighted: "spotlightUserCannotBeSpotlighted"
    case .spotlightUserWithoutVideo: "spotlightUserWithoutVideo"
    case .spotlightUserNotSpotlighted: "spotlightUserNotSpotlighted"
    }
  }
}
