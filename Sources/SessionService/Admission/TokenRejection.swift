import SessionCore

/// Why ``TokenVerifier`` refused a session token: the SDK error code a joiner receives, and a
/// sentence for logs.
///
/// The ``code`` is the contract (tests assert on it); the ``reason`` is for people and may change.
///
/// > Important: A plain `Sendable` value.
public struct TokenRejection: Error, Sendable, Hashable, CustomStringConvertible {
  /// The SDK error code the joiner sees, for example
  /// ``SessionCore/VideoSDKError/joinSessionInvalidSessionToken``.
  public var code: VideoSDKError
  /// What was wrong, in words; never contains the secret or the expected signature.
  public var reason: String

  /// Creates a rejection.
  ///
  /// - Parameters:
  ///   - code: The SDK error code.
  ///   - reason: What was wrong, in words.
  public init(code: VideoSDKError, reason: String) {
    self.code = code
    self.reason = reason
  }

  /// The SDK code's name and number, then the reason.
  public var description: String { "\(code.sdkName) (\(code.rawValue)): \(reason)" }
}

extension TokenRejection {
  /// `Errors_JoinSession_Invalid_SessionToken` (1505) with `reason`.
  static func invalid(_ reason: String) -> TokenRejection {
    TokenRejection(code: .joinSessionInvalidSessionToken, reason: reason)
  }
}
