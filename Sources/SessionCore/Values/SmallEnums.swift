/// Network quality of a user: `ZoomVideoSDKNetworkStatus`.
public enum NetworkQuality: UInt8, Sendable, Codable, Hashable, CaseIterable {
  /// Unknown.
  case none = 0
  /// Bad.
  case bad = 1
  /// Normal.
  case normal = 2
  /// Good.
  case good = 3
}

/// Who may chat: `ZoomVideoSDKChatPrivilegeType`.
public enum ChatPrivilege: UInt8, Sendable, Codable, Hashable, CaseIterable {
  /// Unknown.
  case unknown = 0
  /// Everyone may chat publicly and privately (the default).
  case everyonePubliclyAndPrivately = 1
  /// Chat is disabled.
  case noOne = 2
  /// Everyone may chat publicly only.
  case everyonePublicly = 3
}

/// Who deleted a chat message: `ZoomVideoSDKChatMsgDeleteBy`.
public enum ChatDeleteBy: UInt8, Sendable, Codable, Hashable, CaseIterable {
  /// Unknown.
  case none = 0
  /// The sender.
  case selfSender = 1
  /// The host or a manager.
  case host = 2
  /// Data-loss prevention.
  case dlp = 3
}

/// Why the local user left: `ZoomVideoSDKSessionLeaveReason`.
public enum LeaveReason: UInt8, Sendable, Codable, Hashable, CaseIterable {
  /// Unknown.
  case unknown = 0
  /// The user left.
  case bySelf = 1
  /// The host removed the user.
  case kickByHost = 2
  /// The host ended the session.
  case endByHost = 3
  /// The connection was lost.
  case networkError = 4
}
