/// A chat message: `ZoomVideoSDKChatMessage`.
public struct ChatMessage: Sendable, Codable, Hashable, Identifiable {
  /// The service-assigned message id (`messageID`).
  public var id: String
  /// Who sent it.
  public var sender: UserID
  /// The receiver of a private message; `nil` for a message to everyone.
  public var receiver: UserID?
  /// The text.
  public var content: String
  /// Service time when sent, in milliseconds.
  public var timestamp: Int64

  /// Creates a message.
  ///
  /// - Parameters:
  ///   - id: The service-assigned message id.
  ///   - sender: Who sent it.
  ///   - receiver: The receiver of a private message; `nil` for a message to everyone.
  ///   - content: The text.
  ///   - timestamp: Service time when sent, in milliseconds.
  public init(id: String, sender: UserID, receiver: UserID?, content: String, timestamp: Int64) {
    self.id = id
    self.sender = sender
    self.receiver = receiver
    self.content = content
    self.timestamp = timestamp
  }

  /// Whether the message went to everyone (`isChatToAll`).
  public var isChatToAll: Bool { receiver == nil }
}
