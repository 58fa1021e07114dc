import SessionCore
import Testing

@Suite("The SDK's Swift spellings of errors and enums")
struct SDKSpellingTests {
  @Test func errorsAnswerToTheirSDKSpellings() {
    let spelled: [(VideoSDKError, String)] = [
      (.Errors_Success, "Errors_Success"), (.Errors_Wrong_Usage, "Errors_Wrong_Usage"),
      (.Errors_Uninitialize, "Errors_Uninitialize"),
      (.Errors_Invalid_Parameter, "Errors_Invalid_Parameter"),
      (.Errors_Session_No_Rights, "Errors_Session_No_Rights"),
      (.Errors_Not_In_Session, "Errors_Not_In_Session"),
      (.Errors_JoinSession_Invalid_SessionToken, "Errors_JoinSession_Invalid_SessionToken"),
      (
        .Errors_Session_Share_Camera_Video_Not_Start,
        "Errors_Session_Share_Camera_Video_Not_Start"
      ),
    ]
    for (error, name) in spelled { #expect(error.sdkName == name) }
    #expect(VideoSDKError.Errors_Session_No_Rights == .sessionNoRights)
  }

  @Test func aSeedsSwitchOverAnOptionalResultCompilesAndMatches() {
    // Seed 000's setupSDK, as written against the real SDK.
    func describe(_ status: VideoSDKError?) -> String {
      switch status {
      case .Errors_Success:
        return "SDK initialization succeeded"
      default:
        if let error = status { return "SDK initialization failed: \(error)" }
        return "no SDK"
      }
    }
    #expect(describe(.success) == "SDK initialization succeeded")
    #expect(describe(.wrongUsage) == "SDK initialization failed: wrongUsage")
    #expect(describe(nil) == "no SDK")
    let error: VideoSDKError = .sessionNoRights
    #expect(error == .Errors_Session_No_Rights)
  }

  @Test func eachSpellingNamesTheCaseWithThatName() {
    // The generated list covers every case: its names are exactly the cases' SDK names.
    let all = Set(VideoSDKError.allCases.map(\.sdkName))
    #expect(all.count == VideoSDKError.allCases.count)
    #expect(all.contains("Errors_Session_Join_Failed"))
  }

  @Test func annotationClearMyIsMine() {
    #expect(AnnotationClearType.my == .mine)
    let type: AnnotationClearType = .my
    #expect(type.rawValue == 2)
  }
}

@Suite("Logging: one record shape and an in-memory handler")
struct LoggingTests {
  @Test func recordsDescribeThemselvesLikeSwiftLog() {
    let record = LogRecord(
      level: .warning, message: "closed", label: "loopback.server",
      metadata: ["connection": "c3", "a": "1"])
    #expect(record.description == "warning loopback.server a=1 connection=c3: closed")
    #expect(LogLevel.notice > .info && LogLevel.trace < .debug)
    #expect(LogLevel.allCases.map(\.description).first == "trace")
  }

  @Test func theInMemoryHandlerKeepsAndHandsOverRecords() {
    let log = InMemoryLogHandler()
    let handler = log.handler
    handler(LogRecord(level: .info, message: "one", label: "test"))
    handler(LogRecord(level: .error, message: "two", label: "test"))
    #expect(log.records.map(\.message) == ["one", "two"])
    #expect(log.take().count == 2)
    #expect(log.records.isEmpty)
  }
}
