import InProcessTransport
import SessionCore
import SessionSDK
import SessionService
import SessionTransport
import Testing

/// A real `SessionService` behind an ``InProcessTransport/InProcessNetwork``,
/// with a clock, a token minter and the SDK instances that joined through it: everything an
/// end-to-end test of SDK flows needs, in one process and deterministic.
///
/// ```swift
/// let testbed = SessionTestbed()
/// let grace = testbed.join("Grace", role: .host)
/// let ada = testbed.join("Ada") { $0.videoOption.localVideoOn = true }
/// #expect(ada.getVideoHelper().stopVideo() == .success)
/// testbed.assertConverged()
/// ```
///
/// The clock starts at ``startTime`` and moves only through ``advance(by:)``; tokens are minted
/// for it (issued 30 s earlier, as the Zoom samples do). Every instance made here reads the
/// same clock and is kept in ``members``.
///
/// > Important: Not `Sendable`. Confined to the isolation domain that created it (usually the
/// > main actor in a test), with the service, the network and every instance.
public final class SessionTestbed {
  /// The SDK key the service accepts: the one development key (``SessionFixture/appKey``).
  public static let appKey = SessionFixture.appKey
  /// The SDK secret for ``appKey``: the one development secret.
  public static let secret = SessionFixture.secret
  /// Where the clock starts, in milliseconds since 1970 (``SessionFixture/startTime``).
  public static let startTime = SessionFixture.startTime

  private final class Clock {
    var now: Int64 = SessionTestbed.startTime
  }

  /// The service.
  public let service: SessionService
  /// The network between the service and the instances.
  public let network: InProcessNetwork
  /// The service's credentials, tokens and join contexts.
  public let fixture: SessionFixture
  /// Mints tokens the service accepts.
  public var minter: TokenMinter { fixture.minter }
  /// The session members join unless told otherwise.
  public var sessionName: String { fixture.sessionName }
  /// Every instance made by `makeSDK(limits:)` or ``join(_:role:sessionName:configure:)``,
  /// in order.
  public private(set) var members: [VideoSDK] = []
  private let clock = Clock()

  /// Creates a service and a network.
  ///
  /// - Parameters:
  ///   - sessionName: The session members join by default.
  ///   - delivery: When the network moves messages: at once (the default) or on ``run()``.
  ///   - configure: Adjusts the service's configuration (credentials are set already).
  public init(
    sessionName: String = "Algebra101",
    delivery: InProcessNetwork.Delivery = .immediate,
    configure: (inout ServiceConfiguration) -> Void = { _ in }
  ) {
    fixture = SessionFixture(sessionName: sessionName)
    service = fixture.makeService(configure)
    let clock = clock
    network = InProcessNetwork(host: service, delivery: delivery, now: { clock.now })
  }

  /// The clock, in milliseconds.
  public var now: Int64 { clock.now }

  /// Moves the clock and lets the service's timers run.
  ///
  /// - Parameter milliseconds: How far to move the clock, in milliseconds.
  public func advance(by milliseconds: Int64) {
    clock.now += milliseconds
    network.tick()
    network.run()
  }

  /// Delivers every message in flight (needed only with manual delivery).
  public func run() {
    network.run()
  }

  /// The service's state of a session (the default one unless named).
  ///
  /// - Parameter name: The session name; `nil` (the default) for ``sessionName``.
  /// - Returns: The service's state of the session; `nil` when the session is not live.
  public func serviceState(ofSession name: String? = nil) -> SessionState? {
    service.state(ofSession: name ?? sessionName)
  }

  // MARK: Tokens and contexts

  /// A valid token for the session, issued 30 s before now with a two-hour lifetime.
  ///
  /// - Parameters:
  ///   - role: The role to grant (`role_type`); participant by default.
  ///   - sessionName: The session to admit to (`tpc`); `nil` (the default) for ``sessionName``.
  ///   - userKey: The app's user identifier (`user_key`); `nil` (the default) for none.
  ///   - sessionKey: The session key (`session_key`); `nil` (the default) for none.
  /// - Returns: The compact token `header.payload.signature`, with its own token id.
  public func token(
    role: TokenRole = .participant, sessionName: String? = nil, userKey: String? = nil,
    sessionKey: String? = nil
  ) -> String {
    // Each token its own (a `jti`), as an app server mints one per user: the service holds
    // at most 50 members per token.
    tokensMinted += 1
    return fixture.token(
      role: role, sessionName: sessionName, now: now, tokenID: "testbed-\(tokensMinted)",
      userKey: userKey, sessionKey: sessionKey)
  }

  /// Tokens minted by ``token(role:sessionName:userKey:sessionKey:)`` so far.
  private var tokensMinted = 0

  /// A join context with a valid token; audio connects unmuted and video is off, as the SDK
  /// defaults.
  ///
  /// - Parameters:
  ///   - userName: The display name.
  ///   - role: The token's role; participant by default.
  ///   - sessionName: The session; `nil` (the default) for ``sessionName``.
  /// - Returns: A context with a fresh token from ``token(role:sessionName:userKey:sessionKey:)``.
  public func context(
    _ userName: String, role: TokenRole = .participant, sessionName: String? = nil
  ) -> SessionContext {
    SessionContext(
      token: token(role: role, sessionName: sessionName),
      sessionName: sessionName ?? self.sessionName, userName: userName)
  }

  // MARK: Members

  /// Parameters that initialize an instance on this network and clock, for code that calls
  /// `SessionSDK/VideoSDK/initialize(_:)` itself (a ported app, say).
  ///
  /// - Parameters:
  ///   - domain: The SDK domain; `zoom.us` by default.
  ///   - limits: The limits the instance enforces; `SessionLimits()` by default.
  /// - Returns: Parameters with this testbed's network as the transport and its clock.
  public func initParams(
    domain: String = "zoom.us", limits: SessionLimits = SessionLimits()
  ) -> InitParams {
    let clock = clock
    return InitParams(domain: domain, transport: network, limits: limits, clock: { clock.now })
  }

  /// A new instance, initialized on this network and clock, added to ``members``.
  ///
  /// - Parameter limits: The limits the instance enforces; `SessionLimits()` by default.
  /// - Returns: The instance, initialized; a failed initialization is recorded as a test issue.
  public func makeSDK(limits: SessionLimits = SessionLimits()) -> VideoSDK {
    let sdk = VideoSDK()
    let result = sdk.initialize(initParams(limits: limits))
    if result != .success {
      Issue.record(Comment(rawValue: "SessionTestbed: initialize returned \(result.sdkName)"))
    }
    members.append(sdk)
    return sdk
  }

  /// A new instance that joined (or tried to join) with a valid token.
  ///
  /// The network runs after the call, so the join is complete even with manual delivery.
  ///
  /// - Parameters:
  ///   - userName: The display name.
  ///   - role: The token's `role_type`.
  ///   - sessionName: The session; the testbed's by default.
  ///   - configure: Adjusts the context before the join (options, password…).
  /// - Returns: The instance; check ``SessionSDK/VideoSDK/isInSession()`` when the join may fail.
  @discardableResult
  public func join(
    _ userName: String, role: TokenRole = .participant, sessionName: String? = nil,
    configure: (SessionContext) -> Void = { _ in }
  ) -> VideoSDK {
    let sdk = makeSDK()
    let context = context(userName, role: role, sessionName: sessionName)
    configure(context)
    sdk.joinSession(context)
    network.run()
    return sdk
  }

  /// Checks that every member in the session agrees with the service; see
  /// `assertConverged(_:with:session:requireEveryParticipant:sourceLocation:)`.
  ///
  /// - Parameters:
  ///   - name: The session's name; `nil` (the default) for ``sessionName``.
  ///   - sourceLocation: Where failures are reported.
  public func assertConverged(
    session name: String? = nil, sourceLocation: SourceLocation = #_sourceLocation
  ) {
    network.run()
    SessionTestSupport.assertConverged(
      members, with: service, session: name ?? sessionName, sourceLocation: sourceLocation)
  }
}
