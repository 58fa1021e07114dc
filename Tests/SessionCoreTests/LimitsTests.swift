import SessionCore
import Testing

@Suite("Limits: texts cut in characters and bytes, join contexts")
struct LimitsTests {
  static let accent = "\u{0301}"

  @Test func truncationKeepsWholeCharactersWithinBothLimits() {
    #expect(SessionLimits.truncate("héllo", toCharacters: 3, utf8Bytes: 100) == "hél")
    #expect(SessionLimits.truncate("héllo", toCharacters: 100, utf8Bytes: 2) == "h")
    #expect(SessionLimits.truncate("héllo", toCharacters: 100, utf8Bytes: 3) == "hé")
    #expect(SessionLimits.truncate("short", toCharacters: 5, utf8Bytes: 5) == "short")
    let heavy = "e" + String(repeating: Self.accent, count: 100)
    #expect(SessionLimits.truncate(heavy, toCharacters: 10, utf8Bytes: 50) == "")
    #expect(SessionLimits.truncate("ab" + heavy, toCharacters: 10, utf8Bytes: 50) == "ab")
  }

  @Test func userNamesAreCutToTwoHundredCharactersAndEightHundredBytes() {
    let limits = SessionLimits()
    #expect(limits.userName(String(repeating: "a", count: 250)).count == 200)
    let wide = String(repeating: "😀", count: 250)  // 4 bytes a character
    #expect(limits.userName(wide) == String(repeating: "😀", count: 200))
    let marked = String(repeating: "a" + Self.accent + Self.accent, count: 250)  // 5 bytes each
    #expect(limits.userName(marked).utf8.count == 800)
    #expect(limits.userName(marked).count == 160)
  }

  @Test func normalizedCommandsCutNamesAndChatOnly() {
    let limits = SessionLimits()
    let long = String(repeating: "x", count: 20_000)
    #expect(
      limits.normalized(.sendChat(receiver: nil, content: long))
        == .sendChat(receiver: nil, content: String(repeating: "x", count: 10_000)))
    #expect(
      limits.normalized(.changeName(user: 2, name: long))
        == .changeName(user: 2, name: String(repeating: "x", count: 200)))
    #expect(limits.normalized(.startVideo) == .startVideo)
  }

  @Test func joinContextsAreCheckedInTheSDKsOrder() {
    let limits = SessionLimits()
    func check(
      _ session: String, _ user: String = "Ada", _ token: String = "t", _ pw: String? = nil
    )
      -> VideoSDKError?
    {
      limits.validateJoin(sessionName: session, userName: user, token: token, password: pw)
    }
    #expect(check("Room") == nil)
    #expect(check("") == .joinSessionNoSessionName)
    #expect(check("Room", "Ada", "") == .joinSessionNoSessionToken)
    #expect(check("Room", "") == .joinSessionNoUserName)
    #expect(
      check("Room", "e" + String(repeating: Self.accent, count: 900)) == .joinSessionNoUserName)
    #expect(check(String(repeating: "r", count: 150)) == nil)
    #expect(check(String(repeating: "r", count: 151)) == .joinSessionSessionNameTooLong)
    #expect(
      check("R" + String(repeating: Self.accent, count: 400)) == .joinSessionSessionNameTooLong)
    #expect(check("Room\n") == .joinSessionInvalidSessionName)
    #expect(check("Room", "Ada", "t", "") == nil)
    #expect(check("Room", "Ada", "t", "0123456789") == nil)
    #expect(check("Room", "Ada", "t", "0123456789x") == .joinSessionInvalidPassword)
    #expect(check("Room", "Ada", "t", "pé") == .joinSessionInvalidPassword)
  }
}
