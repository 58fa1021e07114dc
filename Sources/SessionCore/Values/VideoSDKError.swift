/// The SDK's error codes: `ZoomVideoSDKError`, numbered as the v2 headers number them.
///
/// Case names are the SDK's names in lower camel case, so `Errors_Session_No_Rights` is
/// ``sessionNoRights``; ``sdkName`` gives the SDK spelling back.
public enum VideoSDKError: Int, Sendable, Codable, Hashable, CaseIterable, Error {
  /// `Errors_Success`.
  case success = 0
  /// `Errors_Wrong_Usage`.
  case wrongUsage = 1
  /// `Errors_Internal_Error`.
  case internalError = 2
  /// `Errors_Uninitialize`: a call before `initialize`.
  case uninitialize = 3
  /// `Errors_Invalid_Parameter`.
  case invalidParameter = 7
  /// `Errors_Call_Too_Frequently`.
  case callTooFrequently = 8
  /// `Errors_Dont_Support_Feature`.
  case dontSupportFeature = 10
  /// `Errors_Unknown`.
  case unknown = 11
  /// `Errors_Auth_Error`.
  case authError = 1001
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
  /// `Errors_Session_Join_Failed`: for example, the session is full.
  case sessionJoinFailed = 2003
  /// `Errors_Session_No_Rights`.
  case sessionNoRights = 2004
  /// `Errors_Session_Already_In_Progress`.
  case sessionAlreadyInProgress = 2005
  /// `Errors_Session_You_Have_No_Share`.
  case sessionYouHaveNoShare = 2007
  /// `Errors_Session_Reconnecting`.
  case sessionReconnecting = 2008
  /// `Errors_Session_Disconnecting`.
  case sessionDisconnecting = 2009
  /// `Errors_Session_Need_Password`.
  case sessionNeedPassword = 2011
  /// `Errors_Session_Password_Wrong`.
  case sessionPasswordWrong = 2012
  /// `Errors_Session_Invalid_Param`.
  case sessionInvalidParam = 2014
  /// `Errors_Session_Audio_Error`.
  case sessionAudioError = 3000
  /// `Errors_Session_Video_Error`.
  case sessionVideoError = 4000
  /// `Errors_Fail_Assign_User_Privilege`.
  case failAssignUserPrivilege = 5502
  /// `Errors_Not_In_Session`.
  case notInSession = 6002
  /// `Errors_Session_Share_Error`.
  case sessionShareError = 7001
  /// `Errors_Session_Share_You_Are_Not_Sharing`.
  case sessionShareYouAreNotSharing = 7003
  /// `Errors_Session_Share_Camera_Video_Not_Start`.
  case sessionShareCameraVideoNotStart = 7006

  /// The SDK's own spelling of the case, for logs and porting.
  public var sdkName: String {
    switch self {
    case .success: "Errors_Success"
    case .wrongUsage: "Errors_Wrong_Usage"
    case .internalError: "Errors_Internal_Error"
    case .uninitialize: "Errors_Uninitialize"
    case .invalidParameter: "Errors_Invalid_Parameter"
    case .callTooFrequently: "Errors_Call_Too_Frequently"
    case .dontSupportFeature: "Errors_Dont_Support_Feature"
    case .unknown: "Errors_Unknown"
    case .authError: "Errors_Auth_Error"
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
    case .sessionJoinFailed: "Errors_Session_Join_Failed"
    case .sessionNoRights: "Errors_Session_No_Rights"
    case .sessionAlreadyInProgress: "Errors_Session_Already_In_Progress"
    case .sessionYouHaveNoShare: "Errors_Session_You_Have_No_Share"
    case .sessionReconnecting: "Errors_Session_Reconnecting"
    case .sessionDisconnecting: "Errors_Session_Disconnecting"
    case .sessionNeedPassword: "Errors_Session_Need_Password"
    case .sessionPasswordWrong: "Errors_Session_Password_Wrong"
    case .sessionInvalidParam: "Errors_Session_Invalid_Param"
    case .sessionAudioError: "Errors_Session_Audio_Error"
    case .sessionVideoError: "Errors_Session_Video_Error"
    case .failAssignUserPrivilege: "Errors_Fail_Assign_User_Privilege"
    case .notInSession: "Errors_Not_In_Session"
    case .sessionShareError: "Errors_Session_Share_Error"
    case .sessionShareYouAreNotSharing: "Errors_Session_Share_You_Are_Not_Sharing"
    case .sessionShareCameraVideoNotStart: "Errors_Session_Share_Camera_Video_Not_Start"
    }
  }
}
