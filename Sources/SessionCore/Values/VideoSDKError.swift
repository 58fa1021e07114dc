/// The SDK's error codes: `ZoomVideoSDKError`, every code of the v2 headers, numbered as they
/// number them (where the newest header renumbered, as the newest does: 5504 is
/// `Errors_Recording_Is_Connecting` and 5505 `Errors_Set_Virtual_Background_Fail`).
///
/// Case names are the SDK's names in lower camel case, so `Errors_Session_No_Rights` is
/// ``sessionNoRights``; ``sdkName`` gives the SDK spelling back, and each SDK spelling is
/// also a static member (`VideoSDKError.Errors_Session_No_Rights`). Most codes are never
/// returned here: they name devices, raw data, licences or modules a headless engine does not
/// have; they exist so that app code that mentions them compiles and compares.
public enum VideoSDKError: Int, Sendable, Codable, Hashable, CaseIterable, Error {
  /// `Errors_Success`.
  case success = 0
  /// `Errors_Wrong_Usage`.
  case wrongUsage = 1
  /// `Errors_Internal_Error`.
  case internalError = 2
  /// `Errors_Uninitialize`: a call before `initialize`.
  case uninitialize = 3
  /// `Errors_Memory_Error`.
  case memoryError = 4
  /// `Errors_Load_Module_Error`.
  case loadModuleError = 5
  /// `Errors_UnLoad_Module_Error`.
  case unLoadModuleError = 6
  /// `Errors_Invalid_Parameter`.
  case invalidParameter = 7
  /// `Errors_Call_Too_Frequently`.
  case callTooFrequently = 8
  /// `Errors_No_Impl`.
  case noImpl = 9
  /// `Errors_Dont_Support_Feature`.
  case dontSupportFeature = 10
  /// `Errors_Unknown`.
  case unknown = 11
  /// `Errors_Remove_Folder_Fail`.
  case removeFolderFail = 12
  /// `Errors_Auth_Base`.
  case authBase = 1000
  /// `Errors_Auth_Error`.
  case authError = 1001
  /// `Errors_Auth_Empty_Key_or_Secret`.
  case authEmptyKeyOrSecret = 1002
  /// `Errors_Auth_Wrong_Key_or_Secret`.
  case authWrongKeyOrSecret = 1003
  /// `Errors_Auth_DoesNot_Support_SDK`.
  case authDoesNotSupportSDK = 1004
  /// `Errors_Auth_Disable_SDK`.
  case authDisableSDK = 1005
  /// `Errors_JoinSession_NoSessionName`.
  case joinSessionNoSessionName = 1500
  /// `Errors_JoinSession_NoSessionToken`.
  case joinSessionNoSessionToken = 1501
  /// `Errors_JoinSession_NoUserName`.
  case joinSessionNoUserName = 1502
  /// `Errors_JoinSession_Invalid_SessionName`.
  case joinSessionInvalidSessionName = 1503
  /// `Errors_JoinSession_Invalid_Password`.
  case joinSessionInvalidPassword = 1504
  /// `Errors_JoinSession_Invalid_SessionToken`.
  case joinSessionInvalidSessionToken = 1505
  /// `Errors_JoinSession_SessionName_TooLong`.
  case joinSessionSessionNameTooLong = 1506
  /// `Errors_JoinSession_Token_MismatchedSessionName`.
  case joinSessionTokenMismatchedSessionName = 1507
  /// `Errors_JoinSession_Token_NoSessionName`.
  case joinSessionTokenNoSessionName = 1508
  /// `Errors_JoinSession_Token_RoleType_EmptyOrWrong`.
  case joinSessionTokenRoleTypeEmptyOrWrong = 1509
  /// `Errors_JoinSession_Token_UserIdentity_TooLong`.
  case joinSessionTokenUserIdentityTooLong = 1510
  /// `Errors_Session_Base`.
  case sessionBase = 2000
  /// `Errors_Session_Module_Not_Found`.
  case sessionModuleNotFound = 2001
  /// `Errors_Session_Service_Invalid`.
  case sessionServiceInvalid = 2002
  /// `Errors_Session_Join_Failed`: for example, the session is full.
  case sessionJoinFailed = 2003
  /// `Errors_Session_No_Rights`.
  case sessionNoRights = 2004
  /// `Errors_Session_Already_In_Progress`.
  case sessionAlreadyInProgress = 2005
  /// `Errors_Session_Dont_Support_SessionType`.
  case sessionDontSupportSessionType = 2006
  /// `Errors_Session_You_Have_No_Share`.
  case sessionYouHaveNoShare = 2007
  /// `Errors_Session_Reconnecting`.
  case sessionReconnecting = 2008
  /// `Errors_Session_Disconnecting`.
  case sessionDisconnecting = 2009
  /// `Errors_Session_Not_Started`.
  case sessionNotStarted = 2010
  /// `Errors_Session_Need_Password`.
  case sessionNeedPassword = 2011
  /// `Errors_Session_Password_Wrong`.
  case sessionPasswordWrong = 2012
  /// `Errors_Session_Remote_DB_Error`.
  case sessionRemoteDBError = 2013
  /// `Errors_Session_Invalid_Param`.
  case sessionInvalidParam = 2014
  /// `Errors_Session_Client_Incompatible`.
  case sessionClientIncompatible = 2015
  /// `Errors_Session_Account_FreeMinutesExceeded`.
  case sessionAccountFreeMinutesExceeded = 2016
  /// `Errors_Session_Account_FreeCreditExceeded`.
  case sessionAccountFreeCreditExceeded = 2017
  /// `Errors_Session_Audio_Error`.
  case sessionAudioError = 3000
  /// `Errors_Session_Audio_No_Microphone`.
  case sessionAudioNoMicrophone = 3001
  /// `Errors_Session_Audio_No_Speaker`.
  case sessionAudioNoSpeaker = 3002
  /// `Errors_Session_Bluetooth_SCO_Connection_Failed`.
  case sessionBluetoothSCOConnectionFailed = 3003
  /// `Errors_Session_Video_Error`.
  case sessionVideoError = 4000
  /// `Errors_Session_Video_Device_Error`.
  case sessionVideoDeviceError = 4001
  /// `Errors_Session_Live_Stream_Error`.
  case sessionLiveStreamError = 5000
  /// `Errors_Session_Phone_Error`.
  case sessionPhoneError = 5500
  /// `Errors_Dont_Support_Multi_Stream_Video_User`.
  case dontSupportMultiStreamVideoUser = 5501
  /// `Errors_Fail_Assign_User_Privilege`.
  case failAssignUserPrivilege = 5502
  /// `Errors_No_Recording_In_Process`.
  case noRecordingInProcess = 5503
  /// `Errors_Recording_Is_Connecting`.
  case recordingIsConnecting = 5504
  /// `Errors_Set_Virtual_Background_Fail`.
  case setVirtualBackgroundFail = 5505
  /// `Errors_Malloc_Failed`.
  case mallocFailed = 6001
  /// `Errors_Not_In_Session`.
  case notInSession = 6002
  /// `Errors_No_License`.
  case noLicense = 6003
  /// `Errors_Video_Module_Not_Ready`.
  case videoModuleNotReady = 6004
  /// `Errors_Video_Module_Error`.
  case videoModuleError = 6005
  /// `Errors_Video_device_error`.
  case videoDeviceError = 6006
  /// `Errors_No_Video_Data`.
  case noVideoData = 6007
  /// `Errors_Share_Module_Not_Ready`.
  case shareModuleNotReady = 6008
  /// `Errors_Share_Module_Error`.
  case shareModuleError = 6009
  /// `Errors_No_Share_Data`.
  case noShareData = 6010
  /// `Errors_Audio_Module_Not_Ready`.
  case audioModuleNotReady = 6011
  /// `Errors_Audio_Module_Error`.
  case audioModuleError = 6012
  /// `Errors_No_Audio_Data`.
  case noAudioData = 6013
  /// `Errors_Preprocess_Rawdata_Error`.
  case preprocessRawdataError = 6014
  /// `Errors_Rawdata_No_Device_Running`.
  case rawdataNoDeviceRunning = 6015
  /// `Errors_Rawdata_Init_Device`.
  case rawdataInitDevice = 6016
  /// `Errors_Rawdata_Virtual_Device`.
  case rawdataVirtualDevice = 6017
  /// `Errors_Rawdata_Cannot_Change_Virtual_Device_In_Preview`.
  case rawdataCannotChangeVirtualDeviceInPreview = 6018
  /// `Errors_Rawdata_Internal_Error`.
  case rawdataInternalError = 6019
  /// `Errors_Rawdata_Send_Too_Much_Data_In_Single_Time`.
  case rawdataSendTooMuchDataInSingleTime = 6020
  /// `Errors_Rawdata_Send_Too_Frequently`.
  case rawdataSendTooFrequently = 6021
  /// `Errors_Rawdata_Virtual_Mic_Is_Terminate`.
  case rawdataVirtualMicIsTerminate = 6022
  /// `Errors_Rawdata_Invalid_Share_Preprocessing_Data_Object`.
  case rawdataInvalidSharePreprocessingDataObject = 6023
  /// `Errors_Rawdata_Share_Preprocessing_Is_Stopped`.
  case rawdataSharePreprocessingIsStopped = 6024
  /// `Errors_Session_Share_Error`.
  case sessionShareError = 7001
  /// `Errors_Session_Share_Module_Not_Ready`.
  case sessionShareModuleNotReady = 7002
  /// `Errors_Session_Share_You_Are_Not_Sharing`.
  case sessionShareYouAreNotSharing = 7003
  /// `Errors_Session_Share_Type_Is_Not_Support`.
  case sessionShareTypeIsNotSupport = 7004
  /// `Errors_Session_Share_Internal_Error`.
  case sessionShareInternalError = 7005
  /// `Errors_Session_Share_Camera_Video_Not_Start`.
  case sessionShareCameraVideoNotStart = 7006
  /// `Errors_Session_Share_Camera_Conflict_With_Video_Effects`.
  case sessionShareCameraConflictWithVideoEffects = 7007
  /// `Errors_Session_Share_Conflict_With_Whiteboard`.
  case sessionShareConflictWithWhiteboard = 7008
  /// `Errors_Session_Filetransfer_UnknownError`.
  case sessionFiletransferUnknownError = 7500
  /// `Errors_Session_Filetransfer_FileTypeBlocked`.
  case sessionFiletransferFileTypeBlocked = 7501
  /// `Errors_Session_Filetransfer_FileSizelimited`.
  case sessionFiletransferFileSizelimited = 7502
  /// `Errors_Spotlight_NotEnoughUsers`.
  case spotlightNotEnoughUsers = 7600
  /// `Errors_Spotlight_ToMuchSpotlightedUsers`.
  case spotlightToMuchSpotlightedUsers = 7601
  /// `Errors_Spotlight_UserCannotBeSpotlighted`.
  case spotlightUserCannotBeSpotlighted = 7602
  /// `Errors_Spotlight_UserWithoutVideo`.
  case spotlightUserWithoutVideo = 7603
  /// `Errors_Spotlight_UserNotSpotlighted`.
  case spotlightUserNotSpotlighted = 7604

  /// The SDK's own spelling of the case, for logs and porting.
  public var sdkName: String {
    switch self {
    case .success: "Errors_Success"
    case .wrongUsage: "Errors_Wrong_Usage"
    case .internalError: "Errors_Internal_Error"
    case .uninitialize: "Errors_Uninitialize"
    case .memoryError: "Errors_Memory_Error"
    case .loadModuleError: "Errors_Load_Module_Error"
    case .unLoadModuleError: "Errors_UnLoad_Module_Error"
    case .invalidParameter: "Errors_Invalid_Parameter"
    case .callTooFrequently: "Errors_Call_Too_Frequently"
    case .noImpl: "Errors_No_Impl"
    case .dontSupportFeature: "Errors_Dont_Support_Feature"
    case .unknown: "Errors_Unknown"
    case .removeFolderFail: "Errors_Remove_Folder_Fail"
    case .authBase: "Errors_Auth_Base"
    case .authError: "Errors_Auth_Error"
    case .authEmptyKeyOrSecret: "Errors_Auth_Empty_Key_or_Secret"
    case .authWrongKeyOrSecret: "Errors_Auth_Wrong_Key_or_Secret"
    case .authDoesNotSupportSDK: "Errors_Auth_DoesNot_Support_SDK"
    case .authDisableSDK: "Errors_Auth_Disable_SDK"
    case .joinSessionNoSessionName: "Errors_JoinSession_NoSessionName"
    case .joinSessionNoSessionToken: "Errors_JoinSession_NoSessionToken"
    case .joinSessionNoUserName: "Errors_JoinSession_NoUserName"
    case .joinSessionInvalidSessionName: "Errors_JoinSession_Invalid_SessionName"
    case .joinSessionInvalidPassword: "Errors_JoinSession_Invalid_Password"
    case .joinSessionInvalidSessionToken: "Errors_JoinSession_Invalid_SessionToken"
    case .joinSessionSessionNameTooLong: "Errors_JoinSession_SessionName_TooLong"
    case .joinSessionTokenMismatchedSessionName: "Errors_JoinSession_Token_MismatchedSessionName"
    case .joinSessionTokenNoSessionName: "Errors_JoinSession_Token_NoSessionName"
    case .joinSessionTokenRoleTypeEmptyOrWrong: "Errors_JoinSession_Token_RoleType_EmptyOrWrong"
    case .joinSessionTokenUserIdentityTooLong: "Errors_JoinSession_Token_UserIdentity_TooLong"
    case .sessionBase: "Errors_Session_Base"
    case .sessionModuleNotFound: "Errors_Session_Module_Not_Found"
    case .sessionServiceInvalid: "Errors_Session_Service_Invalid"
    case .sessionJoinFailed: "Errors_Session_Join_Failed"
    case .sessionNoRights: "Errors_Session_No_Rights"
    case .sessionAlreadyInProgress: "Errors_Session_Already_In_Progress"
    case .sessionDontSupportSessionType: "Errors_Session_Dont_Support_SessionType"
    case .sessionYouHaveNoShare: "Errors_Session_You_Have_No_Share"
    case .sessionReconnecting: "Errors_Session_Reconnecting"
    case .sessionDisconnecting: "Errors_Session_Disconnecting"
    case .sessionNotStarted: "Errors_Session_Not_Started"
    case .sessionNeedPassword: "Errors_Session_Need_Password"
    case .sessionPasswordWrong: "Errors_Session_Password_Wrong"
    case .sessionRemoteDBError: "Errors_Session_Remote_DB_Error"
    case .sessionInvalidParam: "Errors_Session_Invalid_Param"
    case .sessionClientIncompatible: "Errors_Session_Client_Incompatible"
    case .sessionAccountFreeMinutesExceeded: "Errors_Session_Account_FreeMinutesExceeded"
    case .sessionAccountFreeCreditExceeded: "Errors_Session_Account_FreeCreditExceeded"
    case .sessionAudioError: "Errors_Session_Audio_Error"
    case .sessionAudioNoMicrophone: "Errors_Session_Audio_No_Microphone"
    case .sessionAudioNoSpeaker: "Errors_Session_Audio_No_Speaker"
    case .sessionBluetoothSCOConnectionFailed: "Errors_Session_Bluetooth_SCO_Connection_Failed"
    case .sessionVideoError: "Errors_Session_Video_Error"
    case .sessionVideoDeviceError: "Errors_Session_Video_Device_Error"
    case .sessionLiveStreamError: "Errors_Session_Live_Stream_Error"
    case .sessionPhoneError: "Errors_Session_Phone_Error"
    case .dontSupportMultiStreamVideoUser: "Errors_Dont_Support_Multi_Stream_Video_User"
    case .failAssignUserPrivilege: "Errors_Fail_Assign_User_Privilege"
    case .noRecordingInProcess: "Errors_No_Recording_In_Process"
    case .recordingIsConnecting: "Errors_Recording_Is_Connecting"
    case .setVirtualBackgroundFail: "Errors_Set_Virtual_Background_Fail"
    case .mallocFailed: "Errors_Malloc_Failed"
    case .notInSession: "Errors_Not_In_Session"
    case .noLicense: "Errors_No_License"
    case .videoModuleNotReady: "Errors_Video_Module_Not_Ready"
    case .videoModuleError: "Errors_Video_Module_Error"
    case .videoDeviceError: "Errors_Video_device_error"
    case .noVideoData: "Errors_No_Video_Data"
    case .shareModuleNotReady: "Errors_Share_Module_Not_Ready"
    case .shareModuleError: "Errors_Share_Module_Error"
    case .noShareData: "Errors_No_Share_Data"
    case .audioModuleNotReady: "Errors_Audio_Module_Not_Ready"
    case .audioModuleError: "Errors_Audio_Module_Error"
    case .noAudioData: "Errors_No_Audio_Data"
    case .preprocessRawdataError: "Errors_Preprocess_Rawdata_Error"
    case .rawdataNoDeviceRunning: "Errors_Rawdata_No_Device_Running"
    case .rawdataInitDevice: "Errors_Rawdata_Init_Device"
    case .rawdataVirtualDevice: "Errors_Rawdata_Virtual_Device"
    case .rawdataCannotChangeVirtualDeviceInPreview:
      "Errors_Rawdata_Cannot_Change_Virtual_Device_In_Preview"
    case .rawdataInternalError: "Errors_Rawdata_Internal_Error"
    case .rawdataSendTooMuchDataInSingleTime: "Errors_Rawdata_Send_Too_Much_Data_In_Single_Time"
    case .rawdataSendTooFrequently: "Errors_Rawdata_Send_Too_Frequently"
    case .rawdataVirtualMicIsTerminate: "Errors_Rawdata_Virtual_Mic_Is_Terminate"
    case .rawdataInvalidSharePreprocessingDataObject:
      "Errors_Rawdata_Invalid_Share_Preprocessing_Data_Object"
    case .rawdataSharePreprocessingIsStopped: "Errors_Rawdata_Share_Preprocessing_Is_Stopped"
    case .sessionShareError: "Errors_Session_Share_Error"
    case .sessionShareModuleNotReady: "Errors_Session_Share_Module_Not_Ready"
    case .sessionShareYouAreNotSharing: "Errors_Session_Share_You_Are_Not_Sharing"
    case .sessionShareTypeIsNotSupport: "Errors_Session_Share_Type_Is_Not_Support"
    case .sessionShareInternalError: "Errors_Session_Share_Internal_Error"
    case .sessionShareCameraVideoNotStart: "Errors_Session_Share_Camera_Video_Not_Start"
    case .sessionShareCameraConflictWithVideoEffects:
      "Errors_Session_Share_Camera_Conflict_With_Video_Effects"
    case .sessionShareConflictWithWhiteboard: "Errors_Session_Share_Conflict_With_Whiteboard"
    case .sessionFiletransferUnknownError: "Errors_Session_Filetransfer_UnknownError"
    case .sessionFiletransferFileTypeBlocked: "Errors_Session_Filetransfer_FileTypeBlocked"
    case .sessionFiletransferFileSizelimited: "Errors_Session_Filetransfer_FileSizelimited"
    case .spotlightNotEnoughUsers: "Errors_Spotlight_NotEnoughUsers"
    case .spotlightToMuchSpotlightedUsers: "Errors_Spotlight_ToMuchSpotlightedUsers"
    case .spotlightUserCannotBeSpotlighted: "Errors_Spotlight_UserCannotBeSpotlighted"
    case .spotlightUserWithoutVideo: "Errors_Spotlight_UserWithoutVideo"
    case .spotlightUserNotSpotlighted: "Errors_Spotlight_UserNotSpotlighted"
    }
  }
}
