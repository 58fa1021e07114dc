import SessionCore

/// Chat: `ZoomVideoSDKChatHelper`, with the SDK's capitalised selectors (`SendChatToAll`).
///
/// Messages, including your own, arrive as
/// ``VideoSDKDelegate/onChatNewMessageNotify(_:message:)``. Messages over 10,000 UTF-8 bytes
/// are truncated.
///
/// > Important: Not `Sendable`. Confined to the isolation domain of its ``VideoSDK``.
public final class ChatHelper {
  /// The instance, until it is gone (see `EngineReference`).
  var reference: EngineReference?
  var sdk: SDKEngine? { reference?.object }

  /// A helper for an instance to point at (``sdk``) once it is made.
  init() {}

  // swift-format-ignore: AlwaysUseLowerCamelCase
  /// Sends a message to everyone.
  ///
  /// - Parameter content: The text; cut to 10,000 UTF-8 bytes. `nil` counts as empty.
  /// - Returns: `Errors_Invalid_Parameter` for empty text; `Errors_Session_No_Rights` when
  ///   the chat privilege forbids it.
  @discardableResult
  public func SendChatToAll(_ content: String?) -> VideoSDKError {
    send(to: nil, content)
  }

  // swift-format-ignore: AlwaysUseLowerCamelCase
  /// Sends a private message to one user.
  ///
  /// - Parameters:
  ///   - user: The receiver; someone in the session other than you.
  ///   - content: The text; cut to 10,000 UTF-8 bytes. `nil` counts as empty.
  /// - Returns: `Errors_Invalid_Parameter` for empty text, yourself, `nil` or a user not
  ///   present; `Errors_Session_No_Rights` when private chat is disabled.
  @discardableResult
  public func SendChatToUser(_ user: User?, Content content: String?) -> VideoSDKError {
    guard let sdk else { return .uninitialize }
    guard let user else { return sdk.isInitialized ? .invalidParameter : .uninitialize }
    return send(to: user.id, content)
  }

  private func send(to receiver: UserID?, _ content: String?) -> VideoSDKError {
    guard let sdk else { return .uninitialize }
    return sdk.perform(.sendChat(receiver: receiver, content: content ?? ""))
  }

  /// Whether you may delete the message: your own, or any if you are host or manager.
  ///
  /// - Parameter msgID: The message's id (``ChatMessageInfo/messageID``).
  /// - Returns: `true` if you may delete it now; `false` for someone else's message without
  ///   the role, an unknown or `nil` id, or outside a session.
  public func canChatMessageBeDeleted(_ msgID: String?) -> Bool {
    guard let sdk, sdk.isInitialized, let msgID, let me = sdk.store.state.myselfID else {
      return false
    }
    return sdk.store.state.authorize(.deleteChatMessage(messageID: msgID), by: me) == .success
  }

  /// Deletes a message for everyone; your UI learns of it through
  /// ``VideoSDKDelegate/onChatMsgDeleteNotification(_:messageID:deleteBy:)``.
  ///
  /// - Parameter msgID: The message's id (``ChatMessageInfo/messageID``).
  /// - Returns: `Errors_Invalid_Parameter` for an unknown id; `Errors_Session_No_Rights` for
  ///   someone else's message without the role.
  @discardableResult
  public func deleteChatMessage(_ msgID: String?) -> VideoSDKError {
    guard let sdk else { return .uninitialize }
    guard let msgID else { return sdk.isInitialized ? .invalidParameter : .uninitialize }
    return sdk.perform(.deleteChatMessage(messageID: msgID))
  }

  // swift-format-ignore: AlwaysUseLowerCamelCase
  /// Whether nobody may chat.
  ///
  /// - Returns: `true` if the chat privilege is ``SessionCore/ChatPrivilege/noOne``; `false`
  ///   otherwise, and when the SDK is not initialized.
  public func IsChatDisabled() -> Bool {
    guard let sdk, sdk.isInitialized else { return false }
    return sdk.store.state.chatPrivilege == .noOne
  }

  // swift-format-ignore: AlwaysUseLowerCamelCase
  /// Whether private messages are disabled.
  ///
  /// - Returns: `true` unless everyone may chat publicly and privately; `false` also when the
  ///   SDK is not initialized.
  public func IsPrivateChatDisabled() -> Bool {
    guard let sdk, sdk.isInitialized else { return false }
    return sdk.store.state.chatPrivilege != .everyonePubliclyAndPrivately
  }

  /// Changes who may chat (host or manager).
  ///
  /// - Parameter privilege: Who may chat from now on.
  /// - Returns: `Errors_Invalid_Parameter` for ``SessionCore/ChatPrivilege/unknown``;
  ///   `Errors_Session_No_Rights` without the role.
  @discardableResult
  public func changeChatPrivilege(_ privilege: ChatPrivilege) -> VideoSDKError {
    guard let sdk else { return .uninitialize }
    guard privilege != .unknown else {
      return sdk.isInitialized ? .invalidParameter : .uninitialize
    }
    return sdk.perform(.changeChatPrivilege(privilege))
  }

  /// Who may chat now; ``SessionCore/ChatPrivilege/unknown`` outside a session.
  ///
  /// - Returns: The session's chat privilege, or ``SessionCore/ChatPrivilege/unknown`` outside
  ///   a session.
  public func getChatPrivilege() -> ChatPrivilege {
    guard let sdk, sdk.store.state.isInSession else { return .unknown }
    return sdk.store.state.chatPrivilege
  }
}
