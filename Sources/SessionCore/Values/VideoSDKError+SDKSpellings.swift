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
  /// `Errors_Invalid_Parameter`: ``invalidParameter``.
  public static let Errors_Invalid_Parameter = VideoSDKError.invalidParameter
  // swift-format-ignore: AlwaysUseLowerCamelCase
  /// `Errors_Call_Too_Frequently`: ``callTooFrequently``.
  public static let Errors_Call_Too_Frequently = VideoSDKError.callTooFrequently
  // swift-format-ignore: AlwaysUseLowerCamelCase
  /// `Errors_Dont_Support_Feature`: ``dontSupportFeature``.
  public static let Errors_Dont_Support_Feature = VideoSDKError.dontSupportFeature
  // swift-format-ignore: AlwaysUseLowerCamelCase
  /// `Errors_Unknown`: ``unknown``.
  public static let Errors_Unknown = VideoSDKError.unknown
  // swift-format-ignore: AlwaysUseLowerCamelCase
  /// `Errors_Auth_Error`: ``authError``.
  public static let Errors_Auth_Error = VideoSDKError.authError
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
  /// `Errors_Session_Join_Failed`: ``sessionJoinFailed``.
  public static let Errors_Session_Join_Failed = VideoSDKError.sessionJoinFailed
  // swift-format-ignore: AlwaysUseLowerCamelCase
  /// `Errors_Session_No_Rights`: ``sessionNoRights``.
  public static let Errors_Session_No_Rights = VideoSDKError.sessionNoRights
  // swift-format-ignore: AlwaysUseLowerCamelCase
  /// `Errors_Session_Already_In_Progress`: ``sessionAlreadyInProgress``.
  public static let Errors_Session_Already_In_Progress = VideoSDKError.sessionAlreadyInProgress
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
  /// `Errors_Session_Need_Password`: ``sessionNeedPassword``.
  public static let Errors_Session_Need_Password = VideoSDKError.sessionNeedPassword
  // swift-format-ignore: AlwaysUseLowerCamelCase
  /// `Errors_Session_Password_Wrong`: ``sessionPasswordWrong``.
  public static let Errors_Session_Password_Wrong = VideoSDKError.sessionPasswordWrong
  // swift-format-ignore: AlwaysUseLowerCamelCase
  /// `Errors_Session_Invalid_Param`: ``sessionInvalidParam``.
  public static let Errors_Session_Invalid_Param = VideoSDKError.sessionInvalidParam
  // swift-format-ignore: AlwaysUseLowerCamelCase
  /// `Errors_Session_Audio_Error`: ``sessionAudioError``.
  public static let Errors_Session_Audio_Error = VideoSDKError.sessionAudioError
  // swift-format-ignore: AlwaysUseLowerCamelCase
  /// `Errors_Session_Video_Error`: ``sessionVideoError``.
  public static let Errors_Session_Video_Error = VideoSDKError.sessionVideoError
  // swift-format-ignore: AlwaysUseLowerCamelCase
  /// `Errors_Fail_Assign_User_Privilege`: ``failAssignUserPrivilege``.
  public static let Errors_Fail_Assign_User_Privilege = VideoSDKError.failAssignUserPrivilege
  // swift-format-ignore: AlwaysUseLowerCamelCase
  /// `Errors_Not_In_Session`: ``notInSession``.
  public static let Errors_Not_In_Session = VideoSDKError.notInSession
  // swift-format-ignore: AlwaysUseLowerCamelCase
  /// `Errors_Session_Share_Error`: ``sessionShareError``.
  public static let Errors_Session_Share_Error = VideoSDKError.sessionShareError
  // swift-format-ignore: AlwaysUseLowerCamelCase
  /// `Errors_Session_Share_You_Are_Not_Sharing`: ``sessionShareYouAreNotSharing``.
  public static let Errors_Session_Share_You_Are_Not_Sharing = VideoSDKError
    .sessionShareYouAreNotSharing
  // swift-format-ignore: AlwaysUseLowerCamelCase
  /// `Errors_Session_Share_Camera_Video_Not_Start`: ``sessionShareCameraVideoNotStart``.
  public static let Errors_Session_Share_Camera_Video_Not_Start = VideoSDKError
    .sessionShareCameraVideoNotStart
}
