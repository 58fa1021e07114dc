/// Configurable limits of a session; the defaults are the engine policy's.
///
/// Every text a client supplies is limited twice: in characters, as the SDK documents it, and
/// in UTF-8 bytes, because one character may hold any number of combining scalars
/// (`"e" + "\u{0301}" × 30,000` is one character of 60 KB). The byte limits are what keep a
/// session of ``maxUsers`` members with the longest names inside one wire frame: see
/// `Docs/SessionService.md` ("Limits").
///
/// > Important: A plain `Sendable` value.
public struct SessionLimits: Sendable, Hashable, Codable {
  /// Most users in one session.
  public var maxUsers: Int = 1_000
  /// Longest session name, in characters.
  public var maxSessionNameLength: Int = 150
  /// Longest session name, in UTF-8 bytes (four per allowed character).
  public var maxSessionNameBytes: Int = 600
  /// Longest user name, in characters; longer names are truncated.
  public var maxUserNameLength: Int = 200
  /// Longest user name, in UTF-8 bytes; longer names are truncated at a whole character.
  public var maxUserNameBytes: Int = 800
  /// Longest session password, in printable ASCII characters.
  public var maxPasswordLength: Int = 10
  /// Longest chat message in UTF-8 bytes; longer messages are truncated at a whole character.
  public var maxChatBytes: Int = 10_000
  /// Chat messages a session keeps, newest last; the oldest is forgotten when a new one
  /// arrives beyond this. Members who join later see none of them (snapshots carry no chat).
  public var maxChatHistory: Int = SessionLimits.defaultMaxChatHistory
  /// Most video subscriptions one member may hold.
  public var maxVideoSubscriptions: Int = 25

  /// The chat history a replica keeps unless told otherwise: 1,000 messages.
  public static let defaultMaxChatHistory = 1_000

  /// The default limits.
  public init() {}

  /// Characters a session name may use besides letters and digits: space and
  /// `! # $ % & ( ) + - : ; < = . > ? @ [ ] ^ _ { } | ~ ,`.
  public static let sessionNameSymbols: Set<Character> = Set(" !#$%&()+-:;<=.>?@[]^_{}|~,")

  /// Whether a session name uses only the documented characters.
  ///
  /// - Parameter name: The session name to check.
  /// - Returns: `true` if every character is a letter, a digit or one of
  ///   ``sessionNameSymbols``; `false` otherwise. An empty name passes.
  public static func isValidSessionNameCharacterSet(_ name: String) -> Bool {
    name.allSatisfy { ($0.isLetter || $0.isNumber) || sessionNameSymbols.contains($0) }
  }

  /// Truncates a string to at most `maxBytes` UTF-8 bytes without splitting a character.
  ///
  /// A string whose first character alone is longer than `maxBytes` truncates to `""`.
  ///
  /// - Parameters:
  ///   - text: The text to cut.
  ///   - maxBytes: The most UTF-8 bytes to keep.
  /// - Returns: The longest prefix of whole characters within `maxBytes` bytes; `text` itself
  ///   when it already fits.
  /// - Complexity: O(n) in the bytes kept, O(1) when nothing is cut.
  public static func truncate(_ text: String, toUTF8Bytes maxBytes: Int) -> String {
    truncate(text, toCharacters: .max, utf8Bytes: maxBytes)
  }

  /// Truncates a string to at most `maxCharacters` characters and `maxBytes` UTF-8 bytes,
  /// at a whole character.
  ///
  /// - Parameters:
  ///   - text: The text to cut.
  ///   - maxCharacters: The most characters to keep.
  ///   - maxBytes: The most UTF-8 bytes to keep.
  /// - Returns: The longest prefix of whole characters within both limits; `""` when the
  ///   first character alone is over `maxBytes`.
  /// - Complexity: O(n) in the bytes kept, O(1) when nothing is cut.
  public static func truncate(
    _ text: String, toCharacters maxCharacters: Int, utf8Bytes maxBytes: Int
  )
    -> String
  {
    let bytes = text.utf8.count
    // A character is at least one byte: few enough bytes means few enough characters.
    if bytes <= maxBytes, bytes <= maxCharacters { return text }
    var end = text.startIndex
    var kept = 0
    var used = 0
    while end < text.endIndex, kept < maxCharacters {
      let next = text.index(after: end)
      let size = text.utf8.distance(from: end, to: next)
      if used + size > maxBytes { break }
      used += size
      kept += 1
      end = next
    }
    return end == text.endIndex ? text : String(text[..<end])
  }

  /// A user name as a session keeps it: cut to ``maxUserNameLength`` characters and
  /// ``maxUserNameBytes`` bytes. `""` means there is no name left (refused).
  ///
  /// - Parameter name: The user name the client supplied.
  /// - Returns: The name as the session keeps it; `""` when nothing is left.
  public func userName(_ name: String) -> String {
    Self.truncate(name, toCharacters: maxUserNameLength, utf8Bytes: maxUserNameBytes)
  }

  /// A chat message's text as a session keeps it: cut to ``maxChatBytes`` bytes at a whole
  /// character. `""` means there is no text left (refused, as an empty message is).
  ///
  /// - Parameter content: The message text the client supplied.
  /// - Returns: The text as the session keeps it; `""` when nothing is left.
  public func chatContent(_ content: String) -> String {
    Self.truncate(content, toUTF8Bytes: maxChatBytes)
  }

  /// The command with its texts cut as the session keeps them (``userName(_:)``,
  /// ``chatContent(_:)``); other commands are returned as they are.
  ///
  /// The SDK and the service both apply it before ``SessionState/authorize(_:by:)``, so a
  /// text that cuts down to nothing is refused like an empty one on both sides.
  ///
  /// - Parameter command: The command as the client asked for it.
  /// - Returns: `command` with its user name or chat text cut, or `command` unchanged.
  public func normalized(_ command: SessionCommand) -> SessionCommand {
    switch command {
    case .changeName(let user, let name):
      .changeName(user: user, name: userName(name))
    case .sendChat(let receiver, let content):
      .sendChat(receiver: receiver, content: chatContent(content))
    default:
      command
    }
  }

  /// Checks a join context the way the SDK does before it sends anything and the service does
  /// when it arrives, in that order, so both sides name the same error for the same context.
  ///
  /// - Parameters:
  ///   - sessionName: The session name asked for.
  ///   - userName: The user name, before truncation.
  ///   - token: The session token.
  ///   - password: The password offered, if any (`nil` or empty: none).
  /// - Returns: The SDK error the join fails with, or `nil` when the context is well formed.
  public func validateJoin(
    sessionName: String, userName: String, token: String, password: String?
  ) -> VideoSDKError? {
    if sessionName.isEmpty { return .joinSessionNoSessionName }
    if token.isEmpty { return .joinSessionNoSessionToken }
    if self.userName(userName).isEmpty { return .joinSessionNoUserName }
    if sessionName.utf8.count > maxSessionNameBytes || sessionName.count > maxSessionNameLength {
      return .joinSessionSessionNameTooLong
    }
    if !Self.isValidSessionNameCharacterSet(sessionName) {
      return .joinSessionInvalidSessionName
    }
    if let password, !password.isEmpty, !isValidPassword(password) {
      return .joinSessionInvalidPassword
    }
    return nil
  }

  /// Whether a password has at most ``maxPasswordLength`` characters, each printable ASCII
  /// (32–126).
  ///
  /// - Parameter password: The session password to check.
  /// - Returns: `true` if it is short enough and printable ASCII; `false` otherwise.
  public func isValidPassword(_ password: String) -> Bool {
    password.utf8.count <= maxPasswordLength
      && password.utf8.allSatisfy { (32...126).contains($0) }
  }
}
