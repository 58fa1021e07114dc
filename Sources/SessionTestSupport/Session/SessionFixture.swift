import SessionCore
import SessionSDK
import SessionService
import SessionTransport

/// What every "a service and N members" setup needs, in one place: the service's
/// configuration (the one development key and secret), a valid token per member, join contexts
/// for SDK instances and join requests for raw links, and the members' names and roles.
///
/// ``SessionTestbed`` (a service and SDK instances in one process), the ``LinkContract``
/// worlds, the package's own harnesses over the virtual network and real sockets, and the
/// benchmarks' worlds all set up through it, so a change to how a member is admitted (a claim,
/// a limit, a name) is made once.
///
/// ```swift
/// let fixture = SessionFixture(sessionName: "Room")
/// let service = fixture.makeService { $0.heartbeatTimeout = 5_000 }
/// let host = fixture.context(forMember: 0, now: clock.now)    // "Peer 1", the host
/// let guest = fixture.context("Ada", now: clock.now)          // a participant
/// ```
///
/// Tokens are issued 30 s before the time given, as the Zoom samples mint them, live for two
/// hours, and each names its own token id (`jti`): the service admits at most 50 members on
/// one token.
///
/// > Important: A value; `Sendable`, and safe from any thread.
public struct SessionFixture: Sendable, Hashable {
  /// The SDK key the service accepts: the one development key.
  public static let appKey = DevelopmentCredentials.key
  /// The SDK secret for ``appKey``: the one development secret.
  public static let secret = DevelopmentCredentials.secret
  /// A time for clocks that start somewhere fixed: 2023-11-14, in milliseconds since 1970.
  public static let startTime: Int64 = 1_700_000_000_000

  /// The session members join unless told otherwise.
  public var sessionName: String

  /// A fixture whose members join `sessionName` by default.
  ///
  /// - Parameter sessionName: The default session.
  public init(sessionName: String = "Room") {
    self.sessionName = sessionName
  }

  /// Mints tokens the fixture's service accepts.
  public var minter: TokenMinter { DevelopmentCredentials.minter }

  // MARK: The service

  /// The service's configuration: the development credentials, then `configure`.
  ///
  /// - Parameter configure: Adjusts the configuration (limits, timeouts, secrets…).
  /// - Returns: The configuration.
  public func serviceConfiguration(
    _ configure: (inout ServiceConfiguration) -> Void = { _ in }
  ) -> ServiceConfiguration {
    var configuration = ServiceConfiguration(credentials: DevelopmentCredentials.table)
    configure(&configuration)
    return configuration
  }

  /// A service with ``serviceConfiguration(_:)``.
  ///
  /// - Parameter configure: Adjusts the configuration first.
  /// - Returns: A new service, with no session yet.
  public func makeService(
    _ configure: (inout ServiceConfiguration) -> Void = { _ in }
  ) -> SessionService {
    SessionService(configuration: serviceConfiguration(configure))
  }

  // MARK: Members

  /// The display name of member `index` (counted from 0): `Peer 1`, `Peer 2`, ….
  ///
  /// - Parameter index: The member's index.
  /// - Returns: Its name.
  public static func memberName(_ index: Int) -> String { "Peer \(index + 1)" }

  /// The role member `index` joins with: the first is the host, the others participants.
  ///
  /// - Parameter index: The member's index.
  /// - Returns: `.host` for 0, `.participant` otherwise.
  public static func role(ofMember index: Int) -> TokenRole {
    index == 0 ? .host : .participant
  }

  // MARK: Tokens

  /// A valid token, issued 30 s before `now`.
  ///
  /// - Parameters:
  ///   - role: The role to grant (`role_type`); participant by default.
  ///   - sessionName: The session (`tpc`); `nil` (the default) for ``sessionName``.
  ///   - now: The time, in milliseconds since 1970.
  ///   - tokenID: The token's own id (`jti`); `nil` (the default) for none.
  ///   - userKey: The app's user identifier (`user_key`); `nil` (the default) for none.
  ///   - sessionKey: The session key (`session_key`); `nil` (the default) for none.
  /// - Returns: The compact token `header.payload.signature`.
  public func token(
    role: TokenRole = .participant, sessionName: String? = nil, now: Int64,
    tokenID: String? = nil, userKey: String? = nil, sessionKey: String? = nil
  ) -> String {
    minter.mint(
      sessionName: sessionName ?? self.sessionName, role: role, issuedAt: now / 1_000 - 30,
      userKey: userKey, sessionKey: sessionKey, tokenID: tokenID)
  }

  /// Member `index`'s token: its role by ``role(ofMember:)``, its own token id.
  ///
  /// - Parameters:
  ///   - index: The member's index.
  ///   - sessionName: The session; `nil` (the default) for ``sessionName``.
  ///   - now: The time, in milliseconds since 1970.
  /// - Returns: The token.
  public func token(forMember index: Int, sessionName: String? = nil, now: Int64) -> String {
    token(
      role: Self.role(ofMember: index), sessionName: sessionName, now: now,
      tokenID: "member-\(index)")
  }

  // MARK: Joining

  /// A join context with a valid token; audio connects unmuted and video is off, as the SDK
  /// defaults.
  ///
  /// - Parameters:
  ///   - userName: The display name.
  ///   - role: The token's role; participant by default.
  ///   - sessionName: The session; `nil` (the default) for ``sessionName``.
  ///   - now: The time, in milliseconds since 1970.
  ///   - tokenID: The token's own id; `nil` (the default) for none.
  /// - Returns: A new context.
  public func context(
    _ userName: String, role: TokenRole = .participant, sessionName: String? = nil,
    now: Int64, tokenID: String? = nil
  ) -> SessionContext {
    SessionContext(
      token: token(role: role, sessionName: sessionName, now: now, tokenID: tokenID),
      sessionName: sessionName ?? self.sessionName, userName: userName)
  }

  /// Member `index`'s join context: its name, role and token.
  ///
  /// - Parameters:
  ///   - index: The member's index.
  ///   - sessionName: The session; `nil` (the default) for ``sessionName``.
  ///   - now: The time, in milliseconds since 1970.
  /// - Returns: A new context.
  public func context(forMember index: Int, sessionName: String? = nil, now: Int64)
    -> SessionContext
  {
    SessionContext(
      token: token(forMember: index, sessionName: sessionName, now: now),
      sessionName: sessionName ?? self.sessionName, userName: Self.memberName(index))
  }

  /// A join request with a valid token, for code that drives a link or the service directly.
  ///
  /// - Parameters:
  ///   - userName: The display name.
  ///   - role: The token's role; participant by default.
  ///   - sessionName: The session; `nil` (the default) for ``sessionName``.
  ///   - now: The time, in milliseconds since 1970.
  ///   - tokenID: The token's own id; `nil` (the default) for none.
  /// - Returns: The request: no password, audio connected and unmuted, video off.
  public func joinRequest(
    _ userName: String, role: TokenRole = .participant, sessionName: String? = nil,
    now: Int64, tokenID: String? = nil
  ) -> JoinRequest {
    JoinRequest(
      sessionName: sessionName ?? self.sessionName, userName: userName,
      token: token(role: role, sessionName: sessionName, now: now, tokenID: tokenID))
  }

  /// Member `index`'s join request: its name, role and token.
  ///
  /// - Parameters:
  ///   - index: The member's index.
  ///   - sessionName: The session; `nil` (the default) for ``sessionName``.
  ///   - now: The time, in milliseconds since 1970.
  /// - Returns: The request.
  public func joinRequest(forMember index: Int, sessionName: String? = nil, now: Int64)
    -> JoinRequest
  {
    JoinRequest(
      sessionName: sessionName ?? self.sessionName, userName: Self.memberName(index),
      token: token(forMember: index, sessionName: sessionName, now: now))
  }
}
