import SessionCore

/// A chat message as the delegate receives it: `ZoomVideoSDKChatMessage`.
///
/// (SessionCore's ``SessionCore/ChatMessage`` is the value in the replica; this object adds
/// the sender and receiver as ``User`` objects, as the SDK does.)
///
/// > Important: Not `Sendable`. Confined to the isolation domain of its ``VideoSDK``.
public final class ChatMessageInfo {
  /// The value in the replica.
  public let message: ChatMessage
  /// Who sent it.
  public let senderUser: User?
  /// Who it was sent to; `nil` for a message to everyone.
  public let receiverUser: User?
  /// Whether the local user sent it.
  public let isSelfSend: Bool

  init(message: ChatMessage, senderUser: User?, receiverUser: User?, isSelfSend: Bool) {
    self.message = message
    self.senderUser = senderUser
    self.receiverUser = receiverUser
    self.isSelfSend = isSelfSend
  }

  /// The service's message id.
  public var messageID: String { message.id }
  /// The text.
  public var content: String { message.content }
  /// Service time when sent, in milliseconds.
  public var timeStamp: Int64 { message.timestamp }
  /// Whether it went to everyone.
  public var isChatToAll: Bool { message.isChatToAll }
}
