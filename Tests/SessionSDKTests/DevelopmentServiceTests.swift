import SessionCore
import SessionSDK
import SessionService
import SessionTestSupport
import Testing

/// `initialize` without a transport reaches the in-process development service of its domain.
@Suite struct DevelopmentServiceTests {
  /// A domain no other test uses, so that parallel tests never share a service.
  static func domain(_ name: String = #function) -> String { "dev-\(name).example" }

  @MainActor
  @Test func setupCodeWithoutATransportJoinsTheDomainsService() throws {
    let domain = Self.domain()
    let grace = VideoSDK()
    let ada = VideoSDK()
    for sdk in [grace, ada] {
      let initParams = InitParams()
      initParams.domain = domain
      #expect(sdk.initialize(initParams) == .success)
    }
    let graceLog = SessionTestSupport.RecordingDelegate()
    graceLog.observe(grace)
    let context = SessionContext(
      token: DevelopmentService.token(sessionName: "Lab", role: .host), sessionName: "Lab",
      userName: "Grace")
    #expect(grace.joinSession(context) != nil)
    #expect(grace.store.state.phase == .inSession)
    let adaContext = SessionContext(
      token: DevelopmentService.token(sessionName: "Lab"), sessionName: "Lab", userName: "Ada")
    #expect(ada.joinSession(adaContext) != nil)
    let adaID = try #require(ada.store.state.myselfID)
    #expect(graceLog.take().contains(VideoSDKCallback.onUserJoin([adaID])))
    #expect(DevelopmentService.liveSessionNames(domain: domain) == ["Lab"])
    #expect(
      DevelopmentService.state(ofSession: "lab", domain: domain)?.sharedFacts
        == ada.store.state.sharedFacts)
    #expect(grace.leaveSession(true) == .success)
    #expect(ada.store.state.phase == .left(.endByHost))
    #expect(DevelopmentService.liveSessionNames(domain: domain).isEmpty)
  }

  @MainActor
  @Test func instancesOfOtherDomainsDoNotMeet() throws {
    let first = VideoSDK()
    let second = VideoSDK()
    #expect(first.initialize(InitParams(domain: Self.domain() + ".one")) == .success)
    #expect(second.initialize(InitParams(domain: Self.domain() + ".two")) == .success)
    for (sdk, name) in [(first, "One"), (second, "Two")] {
      let context = SessionContext(
        token: DevelopmentService.token(sessionName: "Lab", role: .host), sessionName: "Lab",
        userName: name)
      #expect(sdk.joinSession(context) != nil)
      #expect(sdk.store.state.participants.count == 1)
      #expect(sdk.store.state.myself?.role == .host)
    }
  }

  @MainActor
  /// One development pair: the development service's is the one `sessionsim` and scenarios
  /// use, and its secret is long enough for HS256 (RFC 7518 asks 32 bytes or more).
  @Test func theDevelopmentServiceSharesTheOneDevelopmentPair() {
    #expect(DevelopmentService.sdkKey == DevelopmentCredentials.key)
    #expect(DevelopmentService.sdkSecret == DevelopmentCredentials.secret)
    #expect(DevelopmentCredentials.secret.utf8.count >= 32)
    #expect(
      DevelopmentCredentials.table == [DevelopmentCredentials.key: DevelopmentCredentials.secret])
  }

  @Test func aTokenSignedWithOtherCredentialsIsRefused() {
    let sdk = VideoSDK()
    #expect(sdk.initialize(InitParams(domain: Self.domain())) == .success)
    let foreign = TokenMinter(appKey: "someone-else", secret: "their-secret").mint(
      sessionName: "Lab", role: .host, issuedAt: 1_700_000_000)
    #expect(
      sdk.joinSession(SessionContext(token: foreign, sessionName: "Lab", userName: "Eve")) != nil)
    #expect(sdk.store.state.phase == .failed(.joinSessionInvalidSessionToken))
  }
}

/// The SDK logs in the engine's one record shape.
@Suite struct SDKLoggingTests {
  @MainActor
  @Test func theSDKLogsRecordsLabelledSDKAndKeepsRecentOnesWhenAsked() {
    let sdk = VideoSDK()
    let log = InMemoryLogHandler()
    sdk.logHandler = log.handler
    let initParams = InitParams(domain: "dev-logging.example", enableLog: true, clock: { 42 })
    #expect(sdk.initialize(initParams) == .success)
    #expect(sdk.joinSession(SessionContext(token: "", sessionName: "Lab", userName: "Ada")) == nil)
    let records = log.records
    #expect(records.contains { $0.message.contains("initialized") && $0.level == .info })
    #expect(records.allSatisfy { $0.label == "sdk" && $0.timestamp == 42 })
    #expect(records.contains { $0.message.contains("join refused locally") })
    #expect(sdk.recentLogs == records)
  }
}
