import SessionCore

extension SDKEngine {
  /// Checks a join context the way the SDK does before it sends anything, in the service's
  /// order, so both sides name the same error for the same context.
  static func validate(
    _ context: SessionContext, password: String?, limits: SessionLimits
  ) -> VideoSDKError? {
    if context.sessionName.isEmpty { return .joinSessionNoSessionName }
    if context.token.isEmpty { return .joinSessionNoSessionToken }
    if context.userName.isEmpty { return .joinSessionNoUserName }
    if context.sessionName.count > limits.maxSessionNameLength {
      return .joinSessionSessionNameTooLong
    }
    if !SessionLimits.isValidSessionNameCharacterSet(context.sessionName) {
      return .joinSessionInvalidSessionName
    }
    if let password, !isValidPassword(password, limits: limits) {
      return .joinSessionInvalidPassword
    }
    return nil
  }

  /// At most `maxPasswordLength` characters, each printable ASCII (32–126).
  static func isValidPassword(_ password: String, limits: SessionLimits) -> Bool {
    password.unicodeScalars.count <= limits.maxPasswordLength
      && password.unicodeScalars.allSatisfy { (32...126).contains($0.value) }
  }
}
