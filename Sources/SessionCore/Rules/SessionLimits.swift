/// Configurable limits of a session; the defaults are the engine policy's.
public struct SessionLimits: Sendable, Hashable, Codable {
  /// Most users in one session.
  public var maxUsers: Int = 1_000
  /// Longest session name, in characters.
  public var maxSessionNameLength: Int = 150
  /// Longest user name; longer names are truncated.
  public var maxUserNameLength: Int = 200
  /// Longest session password, in printable ASCII characters.
  public var maxPasswordLength: Int = 10
  /// Longest chat message in UTF-8 bytes; longer messages are truncated.
  public var maxChatBytes: Int = 10_000
  /// Most video subscriptions one member may hold.
  public var maxVideoSubscriptions: Int = 25

  /// The default limits.
  public init() {}

  /// Characters a session name may use besides letters and digits: space and
  /// `! # $ % & ( ) + - : ; < = . > ? @ [ ] ^ _ { } | ~ ,`.
  public static let sessionNameSymbols: Set<Character> = Set(" !#$%&()+-:;<=.>?@[]^_{}|~,")

  /// Whether a session name uses only the documented characters.
  public static func isValidSessionNameCharacterSet(_ name: String) -> Bool {
    name.allSatisfy { ($0.isLetter || $0.isNumber) || sessionNameSymbols.contains($0) }
  }

  /// Truncates a string to at most `maxBytes` UTF-8 bytes without splitting a character.
  public static func truncate(_ text: String, toUTF8Bytes maxBytes: Int) -> String {
    guard text.utf8.count > maxBytes else { return text }
    var result = ""
    var used = 0
    for character in text {
      let size = character.utf8.count
      if used + size > maxBytes { break }
      used += size
      result.append(character)
    }
    return result
  }
}
