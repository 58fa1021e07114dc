import SessionCore
import SessionTransport

/// The authoritative session service: admission, rules, ordering, and the media plane (it is
/// also the ``SessionTransport/MediaHost`` of its sessions: `SessionService+Media.swift`). Sans-IO.
///
/// Messages come in through ``receive(_:from:now:)``, connections open and close through
/// ``connectionOpened(_:now:)`` and ``connectionClosed(_:now:)``, and time moves only through the
/// `now` arguments and ``tick(now:)``. Everything the service says goes out through the
/// `output` closure given to ``attach(output:)``. The same code runs on a libuv loop, in the
/// in-process network, and in the deterministic simulator.
///
/// Every accepted command becomes numbered events that every connected member of its session
/// receives in one total order; the service applies them to its own state with the same
/// reducer. Every refused command gets ``SessionTransport/ServerMessage/commandFailed(_:_:)`` on its sender's
/// connection alone and changes nothing.
///
/// > Important: Confined to one isolation domain (an event-loop thread, or the owner of an
/// > `InProcessNetwork`). Not `Sendable`.
public final class SessionService: SessionHost {
  enum ConnectionStage {
    /// Connected, not in a session.
    case idle
    /// Asked for a password; waiting for the answer.
    case awaitingPassword(JoinRequest, SessionToken)
    /// A member of a session.
    case member(sessionKey: String, user: UserID)
    /// Asked to be closed (too many wrong resumes): everything it sends is ignored.
    case closing
  }

  struct Connection {
    var stage: ConnectionStage = .idle
    var lastHeard: Int64
    /// Wrong resumes sent on it so far.
    var failedResumes = 0
  }

  /// The configuration.
  public let configuration: ServiceConfiguration
  let verifier: TokenVerifier
  var output: (HostOutput) -> Void = { _ in }
  var connections: [ConnectionID: Connection] = [:]
  var sessions: [String: ServiceSession] = [:]
  /// The live sessions by session id, for resumes.
  var sessionsByID: [String: ServiceSession] = [:]
  /// Draws session ids, tokens, media credentials and nonces (``ServiceConfiguration/secrets``).
  var secrets: SecretGenerator
  /// Where media datagrams go (``attachMedia(output:)``).
  var mediaOutput: (MediaHostOutput) -> Void = { _ in }
  /// Where forwards of lent datagrams go, if a transport asked
  /// (``attachLentForwards(_:)``); otherwise they are copied into ``mediaOutput``.
  var lentForward: ((UnsafeRawBufferPointer, [MediaEndpointID], [UInt32]) -> Void)?
  /// The member each bound media endpoint belongs to.
  // Unchecked exclusivity, as the counters below: only read or changed in one statement at a
  // time on the service's isolation domain, never across a call out.
  @exclusivity(unchecked) var mediaEndpoints = EndpointMap<MediaIdentity>()
  /// The media identity of each member, by its credential's public id, for binds.
  var mediaCredentials: [UInt64: MediaIdentity] = [:]
  /// Whether a transport attached the media plane (``attachMedia(output:)``): members get
  /// their media credential only then.
  var mediaAttached = false
  /// When the media plane next looks for endpoints whose consent lapsed, µs.
  @exclusivity(unchecked) var nextConsentSweep: Int64 = .min
  /// What the media plane did: datagrams received, packets forwarded, drops by reason (see
  /// ``MediaPlaneStatistics``).
  public var mediaStatistics: MediaPlaneStatistics { mediaCounters }
  /// The storage of ``mediaStatistics``, counted on the per-packet path.
  // Unchecked exclusivity: each update is one statement on the service's isolation domain
  // that calls nothing out, so accesses never overlap; the dynamic checks were a TLS look-up
  // per counter per packet.
  @exclusivity(unchecked) var mediaCounters = MediaPlaneStatistics()
  var nextJoinOrder: UInt64 = 0
  var nextSessionNumber: UInt64 = 0

  /// The most members a session admits: ``SessionCore/SessionLimits/maxUsers``, or fewer if a snapshot of
  /// that many members with the longest names could outgrow a frame.
  public let admissionLimit: Int

  /// Receives one record per noteworthy refusal or cleanup (label `"service"`), for logs and
  /// tests; ``SessionCore/InMemoryLogHandler`` keeps them.
  public var logHandler: LogHandler = { _ in }

  /// Creates a service.
  ///
  /// - Parameter configuration: Credentials, limits and timers.
  public init(configuration: ServiceConfiguration) {
    self.configuration = configuration
    self.verifier = TokenVerifier(
      credentials: configuration.credentials, limits: configuration.tokenLimits)
    self.secrets = SecretGenerator(configuration.secrets)
    let budget = SnapshotBudget(
      limits: configuration.limits, maxUserKeyBytes: configuration.tokenLimits.maxUserKeyBytes,
      maxSessionIDBytes: Self.maxSessionIDBytes)
    self.admissionLimit = min(
      max(0, configuration.limits.maxUsers), budget.usersFitting(in: configuration.maxMessageSize))
  }

  /// Frees the sessions still live. Each member's media identity names its session, and the
  /// session holds its members: without this, a service dropped with live sessions (the end of
  /// every simulation run and test) kept each of them, its members, states and routers forever.
  /// A session that ends while the service runs lets go of its members itself.
  deinit {
    for session in sessions.values { session.removeAll() }
    for session in sessionsByID.values { session.removeAll() }
  }

  /// The longest session id this service makes: `S`, a decimal `UInt64`, `-`, 8 hex digits.
  static let maxSessionIDBytes = 30

  // MARK: SessionHost

  /// Sets where outputs go.
  ///
  /// - Parameter output: Takes every message, broadcast and close the service asks for; it
  ///   replaces the closure attached before.
  public func attach(output: @escaping (HostOutput) -> Void) {
    self.output = output
  }

  /// Registers a new connection. An id still open is first treated as closed.
  ///
  /// - Parameters:
  ///   - connection: The transport's id for the connection; one still open is closed first.
  ///   - now: The current time, in milliseconds; the connection counts as heard from then.
  public func connectionOpened(_ connection: ConnectionID, now: Int64) {
    if connections[connection] != nil {
      log(.warning, "\(connection): opened again while open; closing the old one first")
      connectionClosed(connection, now: now)
    }
    connections[connection] = Connection(lastHeard: now)
  }

  /// Handles one message from a connection.
  ///
  /// - Parameters:
  ///   - message: The decoded message; dropped when the connection is unknown or being closed.
  ///   - connection: The connection it arrived on.
  ///   - now: The arrival time, in milliseconds; the connection counts as heard from then.
  public func receive(_ message: ClientMessage, from connection: ConnectionID, now: Int64) {
    guard connections[connection] != nil else {
      log(.warning, "\(connection): message on unknown connection dropped")
      return
    }
    if case .closing? = connections[connection]?.stage { return }
    connections[connection]?.lastHeard = now
    switch message {
    case .heartbeat:
      send(.heartbeat, to: connection)
    case .join(let request):
      join(request, on: connection, now: now)
    case .password(let password):
      answerPassword(password, on: connection, now: now)
    case .resume(let request):
      resume(request, on: connection, now: now)
    case .command(let id, let command):
      guard case .member(let key, let user)? = connections[connection]?.stage,
        let session = sessions[key]
      else {
        send(.commandFailed(id, .notInSession), to: connection)
        return
      }
      run(command, id: id, by: user, in: session, connection: connection, now: now)
    case .media(let request):
      handleMediaRequest(request, from: connection)
    }
  }

  /// Handles a closed connection: a member keeps their place for the reconnect grace period.
  ///
  /// - Parameters:
  ///   - connection: The connection that closed; an unknown one is ignored.
  ///   - now: The current time, in milliseconds; a member's reconnect grace starts then.
  public func connectionClosed(_ connection: ConnectionID, now: Int64) {
    guard let closed = connections.removeValue(forKey: connection) else { return }
    guard case .member(let key, let user) = closed.stage, let session = sessions[key] else {
      return
    }
    guard session.members[user]?.connection == connection else { return }
    if configuration.reconnectGrace <= 0 {
      removeMember(user, from: session, reason: nil, now: now)
    } else {
      session.disconnect(user, now: now)
      log(
        .info, "\(user) lost \(connection); waiting \(configuration.reconnectGrace) ms for a resume"
      )
    }
  }

  /// Closes silent connections, removes members whose grace ran out, ends idle sessions.
  ///
  /// Whatever is due is handled in a fixed order (connections by id, sessions by key, members
  /// by join order), so that equal inputs give equal outputs on every run.
  ///
  /// - Parameter now: The current time, in milliseconds: connections silent for
  ///   ``ServiceConfiguration/heartbeatTimeout`` by then are closed, members whose grace ran out
  ///   are removed, and idle sessions end.
  public func tick(now: Int64) {
    let silent = connections.filter { now - $0.value.lastHeard >= configuration.heartbeatTimeout }
    for connection in silent.keys.sorted(by: { $0.rawValue < $1.rawValue }) {
      log(
        .notice,
        "\(connection): silent for \(now - (silent[connection]?.lastHeard ?? now)) ms; closing")
      output(.close(connection, reason: .idleTimeout(milliseconds: configuration.heartbeatTimeout)))
      connectionClosed(connection, now: now)
    }
    let due = sessions.values.filter { session in
      session.disconnectedCount > 0 || isIdleTimedOut(session, now: now)
    }
    for session in due.sorted(by: { $0.key < $1.key }) {
      for user in session.expiredMembers(now: now, grace: configuration.reconnectGrace) {
        log(.info, "\(user) did not come back; removing")
        removeMember(user, from: session, reason: nil, now: now)
      }
      if sessions[session.key] === session, isIdleTimedOut(session, now: now) {
        log(.info, "session \(session.key) idle for \(now - (session.idleSince ?? now)) ms; ending")
        end(session, reason: .unknown, endedBy: nil)
      }
    }
  }

  private func isIdleTimedOut(_ session: ServiceSession, now: Int64) -> Bool {
    guard let since = session.idleSince, session.idleTimeout >= 0 else { return false }
    return now - since >= session.idleTimeout
  }

  // MARK: Inspection

  /// The authoritative state of the session with this name (case-insensitive), if it is live.
  ///
  /// - Parameter name: The session name, in any case.
  /// - Returns: The state the service applies the session's events to; `nil` when no live session
  ///   has that name.
  public func state(ofSession name: String) -> SessionState? {
    sessions[name.lowercased()]?.state
  }

  /// Each member of the named session with a connection, and that connection (a member
  /// waiting for a resume has none).
  ///
  /// - Parameter name: The session name.
  /// - Returns: Connections by member; empty when there is no such session.
  package func memberConnections(ofSession name: String) -> [UserID: ConnectionID] {
    guard let session = sessions[name.lowercased()] else { return [:] }
    return session.members.compactMapValues(\.connection)
  }

  /// The number of the last event of the named session.
  ///
  /// - Parameter name: The session name, in any case.
  /// - Returns: The sequence number of the session's last event; `nil` when no live session has
  ///   that name.
  public func lastSequence(ofSession name: String) -> UInt64? {
    sessions[name.lowercased()]?.sequence
  }

  /// Names of the live sessions, sorted.
  public var liveSessionNames: [String] {
    sessions.values.compactMap { $0.state.sessionName }.sorted()
  }

  /// The number of open connections.
  public var connectionCount: Int { connections.count }

  // MARK: Output

  /// Logs one record. Messages embed what clients sent (a token's claims, a refused name), so
  /// the whole line is escaped: no client can forge a record or swamp the log.
  func log(_ level: LogLevel, _ message: String) {
    logHandler(
      LogRecord(
        level: level, message: LogText.escaped(message, limit: 1_000), label: "service"))
  }

  func send(_ message: ServerMessage, to connection: ConnectionID) {
    output(.send(message, to: connection))
  }

  /// Applies events to the session and sends them, numbered, to every connected member.
  ///
  /// Should the reducer reject an event (a bug in the planning code), the events applied
  /// before it are still sent, so that members stay equal to the service.
  func emit(_ events: [SessionEvent], in session: ServiceSession) {
    let first = session.sequence + 1
    var applied = 0
    for event in events {
      if let rejection = session.state.apply(event) {
        assertionFailure("service planned an event its reducer rejects: \(rejection)")
        log(.error, "internal: \(rejection)")
        break
      }
      session.sequence += 1
      applied += 1
      switch event {
      case .videoStatusChanged(let user, _), .audioStatusChanged(let user, _, _),
        .shareStatusChanged(let user, _, _):
        mediaStatusChanged(of: user, in: session)
      case .spotlightChanged(let users):
        // Spotlighted videos come first in every subscriber's stream allocator.
        session.media.router.setSpotlighted(users)
        sendPauseChanges(in: session)
      case .subSession(.userMoved(let user, let destination)):
        // Media crosses no subsession border.
        let list = session.state.subSessions.list
        let place = destination.flatMap { id in list.firstIndex { $0.id == id } }.map { $0 + 1 }
        session.media.router.setPlace(place ?? 0, of: user)
        sendPauseChanges(in: session)
      case .subSession(.statusChanged(.stopped, _)):
        session.media.router.returnEveryoneToMain()
        sendPauseChanges(in: session)
      default:
        break
      }
    }
    guard applied > 0 else { return }
    let batch = applied == events.count ? events : Array(events.prefix(applied))
    let fanOut = session.fanOut
    guard !fanOut.connections.isEmpty else { return }
    output(.broadcast(.events(EventBatch(firstSequence: first, events: batch)), to: fanOut))
  }

  /// Applies a private event to the session's state and sends it to the named members only
  /// (those connected).
  func emitPrivately(_ event: SessionEvent, to users: [UserID], in session: ServiceSession) {
    if !event.isLocal, let rejection = session.state.apply(event) {
      assertionFailure("service planned an event its reducer rejects: \(rejection)")
      log(.error, "internal: \(rejection)")
      return
    }
    let connections = users.compactMap { session.members[$0]?.connection }
    switch connections.count {
    case 0: break
    case 1: send(.notice(event), to: connections[0])
    default: output(.broadcast(.notice(event), to: .adHoc(connections)))
    }
  }
}
