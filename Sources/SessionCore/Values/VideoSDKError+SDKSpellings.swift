/// The SDK's own Swift spellings of its error values, so that app code written against the real
/// SDK (`case .Errors_Success:`, `== .Errors_Session_No_Rights`) compiles unchanged.
///
/// Each is the case of the same code: `VideoSDKError.Errors_Session_No_Rights` *is*
/// ``VideoSDKError/sessionNoRights``, equal to it and matched by it in a `switch`.
extension VideoSDKError {
  // swift-format-ignore: AlwaysUseLowerCamelCase
  /// `Errors_Success`: ``success``.
  public static let Errors_Success = VideoSDKError.success
  // swift-format-ignore: AlwaysUseLowerCamelCase
  /// `Errors_Wrong_Usage`: ``wrongUsage``.
  public static let Errors_Wrong_Usage = VideoSDKError.wrongUsage
  // swift-format-ignore: AlwaysUseLowerCamelCase
  /// `Errors_Internal_Error`: ``internalError``.
  public static let Errors_Internal_Error = VideoSDKError.internalError
  // swift-format-ignore: AlwaysUseLowerCamelCase
  /// `Errors_Uninitialize`: ``uninitialize``.
  public static let Errors_Uninitialize = VideoSDKError.uninitialize
  // swift-format-ignore: AlwaysUseLowerCamelCase
  /// `Errors_Memory_Error`: ``memoryError``.
  public static let Errors_Memory_Error = VideoSDKError.memoryError
  // swift-format-ignore: AlwaysUseLowerCamelCase
  /// `Errors_Load_Module_Error`: ``loadModuleError``.
  public static let Errors_Load_Module_Error = VideoSDKError.loadModuleError
  // swift-format-ignore: AlwaysUseLowerCamelCase
  /// `Errors_UnLoad_Module_Error`: ``unLoadModuleError``.
  public static let Errors_UnLoad_Module_Error = VideoSDKError.unLoadModuleError
  // swift-format-ignore: AlwaysUseLowerCamelCase
  /// `Errors_Invalid_Parameter`: ``invalidParameter``.
  public static let Errors_Invalid_Parameter = VideoSDKError.invalidParameter
  // swift-format-ignore: AlwaysUseLowerCamelCase
  /// `Errors_Call_Too_Frequently`: ``callTooFrequently``.
  public static let Errors_Call_Too_Frequently = VideoSDKError.callTooFrequently
  // swift-format-ignore: AlwaysUseLowerCamelCase
  /// `Errors_No_Impl`: ``noImpl``.
  public static let Errors_No_Impl = VideoSDKError.noImpl
  // swift-format-ignore: AlwaysUseLowerCamelCase
  /// `Errors_Dont_Support_Feature`: ``dontSupportFeature``.
  public static let Errors_Dont_Support_Feature = VideoSDKError.dontSupportFeature
  // swift-format-ignore: AlwaysUseLowerCamelCase
  /// `Errors_Unknown`: ``unknown``.
  public static let Errors_Unknown = VideoSDKError.unknown
  // swift-format-ignore: AlwaysUseLowerCamelCase
  /// `Errors_Remove_Folder_Fail`: ``removeFolderFail``.
  public static let Errors_Remove_Folder_Fail = VideoSDKError.removeFolderFail
  // swift-format-ignore: AlwaysUseLowerCamelCase
  /// `Errors_Auth_Base`: ``authBase``.
  public static let Errors_Auth_Base = VideoSDKError.authBase
  // swift-format-ignore: AlwaysUseLowerCamelCase
  /// `Errors_Auth_Error`: ``authError``.
  public static let Errors_Auth_Error = VideoSDKError.authError
  // swift-format-ignore: AlwaysUseLowerCamelCase
  /// `Errors_Auth_Empty_Key_or_Secret`: ``authEmptyKeyOrSecret``.
  public static let Errors_Auth_Empty_Key_or_Secret = VideoSDKError.authEmptyKeyOrSecret
  // swift-format-ignore: AlwaysUseLowerCamelCase
  /// `Errors_Auth_Wrong_Key_or_Secret`: ``authWrongKeyOrSecret``.
  public static let Errors_Auth_Wrong_Key_or_Secret = VideoSDKError.authWrongKeyOrSecret
  // swift-format-ignore: AlwaysUseLowerCamelCase
  /// `Errors_Auth_DoesNot_Support_SDK`: ``authDoesNotSupportSDK``.
  public static let Errors_Auth_DoesNot_Support_SDK = VideoSDKError.authDoesNotSupportSDK
  // swift-format-ignore: AlwaysUseLowerCamelCase
  /// `Errors_Auth_Disable_SDK`: ``authDisableSDK``.
  public static let Errors_Auth_Disable_SDK = VideoSDKError.authDisableSDK
  // swift-format-ignore: AlwaysUseLowerCamelCase
  /// `Errors_JoinSession_NoSessionName`: ``joinSessionNoSessionName``.
  public static let Errors_JoinSession_NoSessionName = VideoSDKError.joinSessionNoSessionName
  // swift-format-ignore: AlwaysUseLowerCamelCase
  /// `Errors_JoinSession_NoSessionToken`: ``joinSessionNoSessionToken``.
  public static let Errors_JoinSession_NoSessionToken = VideoSDKError.joinSessionNoSessionToken
  // swift-format-ignore: AlwaysUseLowerCamelCase
  /// `Errors_JoinSession_NoUserName`: ``joinSessionNoUserName``.
  public static let Errors_JoinSession_NoUserName = VideoSDKError.joinSessionNoUserName
  // swift-format-ignore: AlwaysUseLowerCamelCase
  /// `Errors_JoinSession_Invalid_SessionName`: ``joinSessionInvalidSessionName``.
  public static let Errors_JoinSession_Invalid_SessionName = VideoSDKError
    .joinSessionInvalidSessionName
  // swift-format-ignore: AlwaysUseLowerCamelCase
  /// `Errors_JoinSession_Invalid_Password`: ``joinSessionInvalidPassword``.
  public static let Errors_JoinSession_Invalid_Password = VideoSDKError.joinSessionInvalidPassword
  // swift-format-ignore: AlwaysUseLowerCamelCase
  /// `Errors_JoinSession_Invalid_SessionToken`: ``joinSessionInvalidSessionToken``.
  public static let Errors_JoinSession_Invalid_SessionToken = VideoSDKError
    .joinSessionInvalidSessionToken
  // swift-format-ignore: AlwaysUseLowerCamelCase
  /// `Errors_JoinSession_SessionName_TooLong`: ``joinSessionSessionNameTooLong``.
  public static let Errors_JoinSession_SessionName_TooLong = VideoSDKError
    .joinSessionSessionNameTooLong
  // swift-format-ignore: AlwaysUseLowerCamelCase
  /// `Errors_JoinSession_Token_MismatchedSessionName`: ``joinSessionTokenMismatchedSessionName``.
  public static let Errors_JoinSession_Token_MismatchedSessionName = VideoSDKError
    .joinSessionTokenMismatchedSessionName
  // swift-format-ignore: AlwaysUseLowerCamelCase
  /// `Errors_JoinSession_Token_NoSessionName`: ``joinSessionTokenNoSessionName``.
  public static let Errors_JoinSession_Token_NoSessionName = VideoSDKError
    .joinSessionTokenNoSessionName
  // swift-format-ignore: AlwaysUseLowerCamelCase
  /// `Errors_JoinSession_Token_RoleType_EmptyOrWrong`: ``joinSessionTokenRoleTypeEmptyOrWrong``.
  public static let Errors_JoinSession_Token_RoleType_EmptyOrWrong = VideoSDKError
    .joinSessionTokenRoleTypeEmptyOrWrong
  // swift-format-ignore: AlwaysUseLowerCamelCase
  /// `Errors_JoinSession_Token_UserIdentity_TooLong`: ``joinSessionTokenUserIdentityTooLong``.
  public static let Errors_JoinSession_Token_UserIdentity_TooLong = VideoSDKError
    .joinSessionTokenUserIdentityTooLong
  // swift-format-ignore: AlwaysUseLowerCamelCase
  /// `Errors_Session_Base`: ``sessionBase``.
  public static let Errors_Session_Base = VideoSDKError.sessionBase
  // swift-format-ignore: AlwaysUseLowerCamelCase
  /// `Errors_Session_Module_Not_Found`: ``sessionModuleNotFound``.
  public static let Errors_Session_Module_Not_Found = VideoSDKError.sessionModuleNotFound
  // swift-format-ignore: AlwaysUseLowerCamelCase
  /// `Errors_Session_Service_Invalid`: ``sessionServiceInvalid``.
  public static let Errors_Session_Service_Invalid = VideoSDKError.sessionServiceInvalid
  // swift-format-ignore: AlwaysUseLowerCamelCase
  /// `Errors_Session_Join_Failed`: ``sessionJoinFailed``.
  public static let Errors_Session_Join_Failed = VideoSDKError.sessionJoinFailed
  // swift-format-ignore: AlwaysUseLowerCamelCase
  /// `Errors_Session_No_Rights`: ``sessionNoRights``.
  public static let Errors_Session_No_Rights = VideoSDKError.sessionNoRights
  // swift-format-ignore: AlwaysUseLowerCamelCase
  /// `Errors_Session_Already_In_Progress`: ``sessionAlreadyInProgress``.
  public static let Errors_Session_Already_In_Progress = VideoSDKError.sessionAlreadyInProgress
  // swift-format-ignore: AlwaysUseLowerCamelCase
  /// `Errors_Session_Dont_Support_SessionType`: ``sessionDontSupportSessionType``.
  public static let Errors_Session_Dont_Support_SessionType = VideoSDKError
    .sessionDontSupportSessionType
  // swift-format-ignore: AlwaysUseLowerCamelCase
  /// `Errors_Session_You_Have_No_Share`: ``sessionYouHaveNoShare``.
  public static let Errors_Session_You_Have_No_Share = VideoSDKError.sessionYouHaveNoShare
  // swift-format-ignore: AlwaysUseLowerCamelCase
  /// `Errors_Session_Reconnecting`: ``sessionReconnecting``.
  public static let Errors_Session_Reconnecting = VideoSDKError.sessionReconnecting
  // swift-format-ignore: AlwaysUseLowerCamelCase
  /// `Errors_Session_Disconnecting`: ``sessionDisconnecting``.
  public static let Errors_Session_Disconnecting = VideoSDKError.sessionDisconnecting
  // swift-format-ignore: AlwaysUseLowerCamelCase
  /// `Errors_Session_Not_Started`: ``sessionNotStarted``.
  public static let Errors_Session_Not_Started = VideoSDKError.sessionNotStarted
  // swift-format-ignore: AlwaysUseLowerCamelCase
  /// `Errors_Session_Need_Password`: ``sessionNeedPassword``.
  public static let Errors_Session_Need_Password = VideoSDKError.sessionNeedPassword
  // swift-format-ignore: AlwaysUseLowerCamelCase
  /// `Errors_Session_Password_Wrong`: ``sessionPasswordWrong``.
  public static let Errors_Session_Password_Wrong = VideoSDKError.sessionPasswordWrong
  // swift-format-ignore: AlwaysUseLowerCamelCase
  /// `Errors_Session_Remote_DB_Error`: ``sessionRemoteDBError``.
  public static let Errors_Session_Remote_DB_Error = VideoSDKError.sessionRemoteDBError
  // swift-format-ignore: AlwaysUseLowerCamelCase
  /// `Errors_Session_Invalid_Param`: ``sessionInvalidParam``.
  public static let Errors_Session_Invalid_Param = VideoSDKError.sessionInvalidParam
  // swift-format-ignore: AlwaysUseLowerCamelCase
  /// `Errors_Session_Client_Incompatible`: ``sessionClientIncompatible``.
  public static let Errors_Session_Client_Incompatible = VideoSDKError.sessionClientIncompatible
  // swift-format-ignore: AlwaysUseLowerCamelCase
  /// `Errors_Session_Account_FreeMinutesExceeded`: ``sessionAccountFreeMinutesExceeded``.
  public static let Errors_Session_Account_FreeMinutesExceeded = VideoSDKError
    .sessionAccountFreeMinutesExceeded
  // swift-format-ignore: AlwaysUseLowerCamelCase
  /// `Errors_Session_Account_FreeCreditExceeded`: ``sessionAccountFreeCreditExceeded``.
  public static let Errors_Session_Account_FreeCreditExceeded = VideoSDKError
    .sessionAccountFreeCreditExceeded
  // swift-format-ignore: AlwaysUseLowerCamelCase
  /// `Errors_Session_Audio_Error`: ``sessionAudioError``.
  public static let Errors_Session_Audio_Error = VideoSDKError.sessionAudioError
  // swift-format-ignore: AlwaysUseLowerCamelCase
  /// `Errors_Session_Audio_No_Microphone`: ``sessionAudioNoMicrophone``.
  public static let Errors_Session_Audio_No_Microphone = VideoSDKError.sessionAudioNoMicrophone
  // swift-format-ignore: AlwaysUseLowerCamelCase
  /// `Errors_Session_Audio_No_Speaker`: ``sessionAudioNoSpeaker``.
  public static let Errors_Session_Audio_No_Speaker = VideoSDKError.sessionAudioNoSpeaker
  // swift-format-ignore: AlwaysUseLowerCamelCase
  /// `Errors_Session_Bluetooth_SCO_Connection_Failed`: ``sessionBluetoothSCOConnectionFailed``.
  public static let Errors_Session_Bluetooth_SCO_Connection_Failed = VideoSDKError
    .sessionBluetoothSCOConnectionFailed
  // swift-format-ignore: AlwaysUseLowerCamelCase
  /// `Errors_Session_Video_Error`: ``sessionVideoError``.
  public static let Errors_Session_Video_Error = VideoSDKError.sessionVideoError
  // swift-format-ignore: AlwaysUseLowerCamelCase
  /// `Errors_Session_Video_Device_Error`: ``sessionVideoDeviceError``.
  public static let Errors_Session_Video_Device_Error = VideoSDKError.sessionVideoDeviceError
  // swift-format-ignore: AlwaysUseLowerCamelCase
  /// `Errors_Session_Live_Stream_Error`: ``sessionLiveStreamError``.
  public static let Errors_Session_Live_Stream_Error = VideoSDKError.sessionLiveStreamError
  // swift-format-ignore: AlwaysUseLowerCamelCase
  /// `Errors_Session_Phone_Error`: ``sessionPhoneError``.
  public static let Errors_Session_Phone_Error = VideoSDKError.sessionPhoneError
  // swift-format-ignore: AlwaysUseLowerCamelCase
  /// `Errors_Dont_Support_Multi_Stream_Video_User`: ``dontSupportMultiStreamVideoUser``.
  public static let Errors_Dont_Support_Multi_Stream_Video_User = VideoSDKError
    .dontSupportMultiStreamVideoUser
  // swift-format-ignore: AlwaysUseLowerCamelCase
  /// `Errors_Fail_Assign_User_Privilege`: ``failAssignUserPrivilege``.
  public static let Errors_Fail_Assign_User_Privilege = VideoSDKError.failAssignUserPrivilege
  // swift-format-ignore: AlwaysUseLowerCamelCase
  /// `Errors_No_Recording_In_Process`: ``noRecordingInProcess``.
  public static let Errors_No_Recording_In_Process = VideoSDKError.noRecordingInProcess
  // swift-format-ignore: AlwaysUseLowerCamelCase
  /// `Errors_Recording_Is_Connecting`: ``recordingIsConnecting``.
  public static let Errors_Recording_Is_Connecting = VideoSDKError.recordingIsConnecting
  // swift-format-ignore: AlwaysUseLowerCamelCase
  /// `Errors_Set_Virtual_Background_Fail`: ``setVirtualBackgroundFail``.
  public static let Errors_Set_Virtual_Background_Fail = VideoSDKError.setVirtualBackgroundFail
  // swift-format-ignore: AlwaysUseLowerCamelCase
  /// `Errors_Malloc_Failed`: ``mallocFailed``.
  public static let Errors_Malloc_Failed = VideoSDKError.mallocFailed
  // swift-format-ignore: AlwaysUseLowerCamelCase
  /// `Errors_Not_In_Session`: ``notInSession``.
  public static let Errors_Not_In_Session = VideoSDKError.notInSession
  // swift-format-ignore: AlwaysUseLowerCamelCase
  /// `Errors_No_License`: ``noLicense``.
  public static let Errors_No_License = VideoSDKError.noLicense
  // swift-format-ignore: AlwaysUseLowerCamelCase
  /// `Errors_Video_Module_Not_Ready`: ``videoModuleNotReady``.
  public static let Errors_Video_Module_Not_Ready = VideoSDKError.videoModuleNotReady
  // swift-format-ignore: AlwaysUseLowerCamelCase
  /// `Errors_Video_Module_Error`: ``videoModuleError``.
  public static let Errors_Video_Module_Error = VideoSDKError.videoModuleError
  // swift-format-ignore: AlwaysUseLowerCamelCase
  /// `Errors_Video_device_error`: ``videoDeviceError``.
  public static let Errors_Video_device_error = VideoSDKError.videoDeviceError
  // swift-format-ignore: AlwaysUseLowerCamelCase
  /// `Errors_No_Video_Data`: ``noVideoData``.
  public static let Errors_No_Video_Data = VideoSDKError.noVideoData
  // swift-format-ignore: AlwaysUseLowerCamelCase
  /// `Errors_Share_Module_Not_Ready`: ``shareModuleNotReady``.
  public static let Errors_Share_Module_Not_Ready = VideoSDKError.shareModuleNotReady
  // swift-format-ignore: AlwaysUseLowerCamelCase
  /// `Errors_Share_Module_Error`: ``shareModuleError``.
  public static let Errors_Share_Module_Error = VideoSDKError.shareModuleError
  // swift-format-ignore: AlwaysUseLowerCamelCase
  /// `Errors_No_Share_Data`: ``noShareData``.
  public static let Errors_No_Share_Data = VideoSDKError.noShareData
  // swift-format-ignore: AlwaysUseLowerCamelCase
  /// `Errors_Audio_Module_Not_Ready`: ``audioModuleNotReady``.
  public static let Errors_Audio_Module_Not_Ready = VideoSDKError.audioModuleNotReady
  // swift-format-ignore: AlwaysUseLowerCamelCase
  /// `Errors_Audio_Module_Error`: ``audioModuleError``.
  public static let Errors_Audio_Module_Error = VideoSDKError.audioModuleError
  // swift-format-ignore: AlwaysUseLowerCamelCase
  /// `Errors_No_Audio_Data`: ``noAudioData``.
  public static let Errors_No_Audio_Data = VideoSDKError.noAudioData
  // swift-format-ignore: AlwaysUseLowerCamelCase
  /// `Errors_Preprocess_Rawdata_Error`: ``preprocessRawdataError``.
  public static let Errors_Preprocess_Rawdata_Error = VideoSDKError.preprocessRawdataError
  // swift-format-ignore: AlwaysUseLowerCamelCase
  /// `Errors_Rawdata_No_Device_Running`: ``rawdataNoDeviceRunning``.
  public static let Errors_Rawdata_No_Device_Running = VideoSDKError.rawdataNoDeviceRunning
  // swift-format-ignore: AlwaysUseLowerCamelCase
  /// `Errors_Rawdata_Init_Device`: ``rawdataInitDevice``.
  public static let Errors_Rawdata_Init_Device = VideoSDKError.rawdataInitDevice
  // swift-format-ignore: AlwaysUseLowerCamelCase
  /// `Errors_Rawdata_Virtual_Device`: ``rawdataVirtualDevice``.
  public static let Errors_Rawdata_Virtual_Device = VideoSDKError.rawdataVirtualDevice
  // swift-format-ignore: AlwaysUseLowerCamelCase
  /// `Errors_Rawdata_Cannot_Change_Virtual_Device_In_Preview`: ``rawdataCannotChangeVirtualDeviceInPreview``.
  public static let Errors_Rawdata_Cannot_Change_Virtual_Device_In_Preview = VideoSDKError
    .rawdataCannotChangeVirtualDeviceInPreview
  // swift-format-ignore: AlwaysUseLowerCamelCase
  /// `Errors_Rawdata_Internal_Error`: ``rawdataInternalError``.
  public static let Errors_Rawdata_Internal_Error = VideoSDKError.rawdataInternalError
  // swift-format-ignore: AlwaysUseLowerCamelCase
  /// `Errors_Rawdata_Send_Too_Much_Data_In_Single_Time`: ``rawdataSendTooMuchDataInSingleTime``.
  public static let Errors_Rawdata_Send_Too_Much_Data_In_Single_Time = VideoSDKError
    .rawdataSendTooMuchDataInSingleTime
  // swift-format-ignore: AlwaysUseLowerCamelCase
  /// `Errors_Rawdata_Send_Too_Frequently`: ``rawdataSendTooFrequently``.
  public static let Errors_Rawdata_Send_Too_Frequently = VideoSDKError.rawdataSendTooFrequently
  // swift-format-ignore: AlwaysUseLowerCamelCase
  /// `Errors_Rawdata_Virtual_Mic_Is_Terminate`: ``rawdataVirtualMicIsTerminate``.
  public static let Errors_Rawdata_Virtual_Mic_Is_Terminate = VideoSDKError
    .rawdataVirtualMicIsTerminate
  // swift-format-ignore: AlwaysUseLowerCamelCase
  /// `Errors_Rawdata_Invalid_Share_Preprocessing_Data_Object`: ``rawdataInvalidSharePreprocessingDataObject``.
  public static let Errors_Rawdata_Invalid_Share_Preprocessing_Data_Object = VideoSDKError
    .rawdataInvalidSharePreprocessingDataObject
  // swift-format-ignore: AlwaysUseLowerCamelCase
  /// `Errors_Rawdata_Share_Preprocessing_Is_Stopped`: ``rawdataSharePreprocessingIsStopped``.
  public static let Errors_Rawdata_Share_Preprocessing_Is_Stopped = VideoSDKError
    .rawdataSharePreprocessingIsStopped
  // swift-format-ignore: AlwaysUseLowerCamelCase
  /// `Errors_Session_Share_Error`: ``sessionShareError``.
  public static let Errors_Session_Share_Error = VideoSDKError.sessionShareError
  // swift-format-ignore: AlwaysUseLowerCamelCase
  /// `Errors_Session_Share_Module_Not_Ready`: ``sessionShareModuleNotReady``.
  public static let Errors_Session_Share_Module_Not_Ready = VideoSDKError.sessionShareModuleNotReady
  // swift-format-ignore: AlwaysUseLowerCamelCase
  /// `Errors_Session_Share_You_Are_Not_Sharing`: ``sessionShareYouAreNotSharing``.
  public static let Errors_Session_Share_You_Are_Not_Sharing = VideoSDKError
    .sessionShareYouAreNotSharing
  // swift-format-ignore: AlwaysUseLowerCamelCase
  /// `Errors_Session_Share_Type_Is_Not_Support`: ``sessionShareTypeIsNotSupport``.
  public static let Errors_Session_Share_Type_Is_Not_Support = VideoSDKError
    .sessionShareTypeIsNotSupport
  // swift-format-ignore: AlwaysUseLowerCamelCase
  /// `Errors_Session_Share_Internal_Error`: ``sessionShareInternalError``.
  public static let Errors_Session_Share_Internal_Error = VideoSDKError.sessionShareInternalError
  // swift-format-ignore: AlwaysUseLowerCamelCase
  /// `Errors_Session_Share_Camera_Video_Not_Start`: ``sessionShareCameraVideoNotStart``.
  public static let Errors_Session_Share_Camera_Video_Not_Start = VideoSDKError
    .sessionShareCameraVideoNotStart
  // swift-format-ignore: AlwaysUseLowerCamelCase
  /// `Errors_Session_Share_Camera_Conflict_With_Video_Effects`: ``sessionShareCameraConflictWithVideoEffects``.
  public static let Errors_Session_Share_Camera_Conflict_With_Video_Effects = VideoSDKError
    .sessionShareCameraConflictWithVideoEffects
  // swift-format-ignore: AlwaysUseLowerCamelCase
  /// `Errors_Session_Share_Conflict_With_Whiteboard`: ``sessionShareConflictWithWhiteboard``.
  public static let Errors_Session_Share_Conflict_With_Whiteboard = VideoSDKError
    .sessionShareConflictWithWhiteboard
  // swift-format-ignore: AlwaysUseLowerCamelCase
  /// `Errors_Session_Filetransfer_UnknownError`: ``sessionFiletransferUnknownError``.
  public static let Errors_Session_Filetransfer_UnknownError = VideoSDKError
    .sessionFiletransferUnknownError
  // swift-format-ignore: AlwaysUseLowerCamelCase
  /// `Errors_Session_Filetransfer_FileTypeBlocked`: ``sessionFiletransferFileTypeBlocked``.
  public static let Errors_Session_Filetransfer_FileTypeBlocked = VideoSDKError
    .sessionFiletransferFileTypeBlocked
  // swift-format-ignore: AlwaysUseLowerCamelCase
  /// `Errors_Session_Filetransfer_FileSizelimited`: ``sessionFiletransferFileSizelimited``.
  public static let Errors_Session_Filetransfer_FileSizelimited = VideoSDKError
    .sessionFiletransferFileSizelimited
  // swift-format-ignore: AlwaysUseLowerCamelCase
  /// `Errors_Spotlight_NotEnoughUsers`: ``spotlightNotEnoughUsers``.
  public static let Errors_Spotlight_NotEnoughUsers = VideoSDKError.spotlightNotEnoughUsers
  // swift-format-ignore: AlwaysUseLowerCamelCase
  /// `Errors_Spotlight_ToMuchSpotlightedUsers`: ``spotlightToMuchSpotlightedUsers``.
  public static let Errors_Spotlight_ToMuchSpotlightedUsers = VideoSDKError
    .spotlightToMuchSpotlightedUsers
  // swift-format-ignore: AlwaysUseLowerCamelCase
  /// `Errors_Spotlight_UserCannotBeSpotlighted`: ``spotlightUserCannotBeSpotlighted``.
  public static let Errors_Spotlight_UserCannotBeSpotlighted = VideoSDKError
    .spotlightUserCannotBeSpotlighted
  // swift-format-ignore: AlwaysUseLowerCamelCase
  /// `Errors_Spotlight_UserWithoutVideo`: ``spotlightUserWithoutVideo``.
  public static let Errors_Spotlight_UserWithoutVideo = VideoSDKError.spotlightUserWithoutVideo
  // swift-format-ignore: AlwaysUseLowerCamelCase
  /// `Errors_Spotlight_UserNotSpotlighted`: ``spotlightUserNotSpotlighted``.
  public static let Errors_Spotlight_UserNotSpotlighted = VideoSDKError.spotlightUserNotSpotlighted
}
