import SessionCore

extension SDKEngine {
  /// Checks a join context the way the SDK does before it sends anything, with the rules the
  /// service applies when it arrives (``SessionLimits/validateJoin(sessionName:userName:token:password:)``),
  /// so both sides name the same error for the same context.
  static func validate(
    _ context: SessionContext, password: String?, limits: SessionLimits
  ) -> VideoSDKError? {
    limits.validateJoin(
      sessionName: context.sessionName, userName: context.userName, token: context.token,
      password: password)
  }

}
