import SessionCore

/// The command channel: `ZoomVideoSDKCmdChannel`. Short texts an app sends to one member or to
/// everyone else in the session (raising a hand, a poll, a reaction), delivered through the
/// session service and received as ``VideoSDKDelegate/onCommandReceived(_:sendUser:)``; nothing
/// of them stays in the session's state.
///
/// Limits, as the SDK documents them: a command holds 1 to 512 characters
/// (`Errors_Invalid_Parameter` otherwise, as for a receiver who is not in the session or is
/// yourself), and a session carries at most 2 commands a second from all its members together.
/// The instance refuses a third within a second of its own clock at once
/// (`Errors_Call_Too_Frequently`); the service refuses one over the session's rate the same
/// way, through ``VideoSDKDelegate/onError(_:detail:)`` with the command's id. The sender does
/// not receive its own command.
///
/// > Important: Not `Sendable`. Confined to the isolation domain of its ``VideoSDK``.
public final class CmdChannel {
  /// The instance, until it is gone (see `EngineReference`).
  var reference: EngineReference?
  var sdk: SDKEngine? { reference?.object }

  /// A helper for an instance to point at (``sdk``) once it is made.
  init() {}

  /// The most commands one instance sends in a second of its clock; the session's limit too.
  public static let maxCommandsPerSecond = 2

  /// Sends a command to one member, or to everyone else in the session.
  ///
  /// - Parameters:
  ///   - commandContent: The text, 1 to 512 characters; `nil` counts as empty.
  ///   - receiveUser: The member to send it to; `nil` sends it to everyone but you.
  /// - Returns: `Errors_Success` once sent; `Errors_Invalid_Parameter` for an empty or
  ///   too-long text, yourself, or a user not in the session; `Errors_Call_Too_Frequently` for
  ///   a third command within a second; `Errors_Not_In_Session` outside a session;
  ///   `Errors_Uninitialize` before `initialize`.
  @discardableResult
  public func sendCommand(_ commandContent: String?, receiveUser: User?) -> VideoSDKError {
    guard let sdk, sdk.isInitialized else { return .uninitialize }
    let command = SessionCommand.sendCommand(
      receiver: receiveUser?.id, content: commandContent ?? "")
    // The rules first, so that a bad command names its own error rather than the rate's (the
    // rate counts only commands sent).
    if let me = sdk.store.state.myselfID {
      let verdict = sdk.store.state.authorize(command, by: me)
      guard verdict == .success else { return verdict }
    }
    let now = sdk.clock.now()
    sdk.local.commandTimes.removeAll { now < $0 || now - $0 >= 1_000 }
    guard sdk.local.commandTimes.count < Self.maxCommandsPerSecond else {
      return .callTooFrequently
    }
    let result = sdk.perform(command)
    if result == .success { sdk.local.commandTimes.append(now) }
    return result
  }
}
