import SessionCore
import SessionTransport

extension SessionService {
  // MARK: Join

  func join(_ request: JoinRequest, on connection: ConnectionID, now: Int64) {
    guard case .idle? = connections[connection]?.stage else {
      send(.joinRefused(.sessionAlreadyInProgress), to: connection)
      return
    }
    if let error = validate(request) {
      log(.info, "\(connection): join refused: \(error.sdkName)")
      send(.joinRefused(error), to: connection)
      return
    }
    let token: SessionToken
    switch verifier.verify(request.token, sessionName: request.sessionName, now: now / 1_000) {
    case .success(let verified):
      token = verified
    case .failure(let rejection):
      log(.notice, "\(connection): token refused: \(rejection)")
      send(.joinRefused(rejection.code), to: connection)
      return
    }
    admit(request, token: token, on: connection, now: now)
  }

  func answerPassword(_ password: String?, on connection: ConnectionID, now: Int64) {
    guard case .awaitingPassword(var request, let token)? = connections[connection]?.stage else {
      send(.joinRefused(.wrongUsage), to: connection)
      return
    }
    connections[connection]?.stage = .idle
    guard let password else {
      send(.joinRefused(.sessionNeedPassword), to: connection)
      return
    }
    if !configuration.limits.isValidPassword(password) {
      send(.joinRefused(.joinSessionInvalidPassword), to: connection)
      return
    }
    request.password = password
    admit(request, token: token, on: connection, now: now)
  }

  /// Checks the join context with the rules the SDK applies before it sends anything.
  func validate(_ request: JoinRequest) -> VideoSDKError? {
    configuration.limits.validateJoin(
      sessionName: request.sessionName, userName: request.userName, token: request.token,
      password: request.password)
  }

  /// A session's idle timeout in milliseconds from the joiner's minutes: the service default
  /// when absent, negative (never) when negative, and never, too, for a number of minutes
  /// whose milliseconds do not fit in 64 bits (over 292 million years).
  static func idleTimeout(minutes: Int?, default fallback: Int64) -> Int64 {
    guard let minutes else { return fallback }
    guard minutes >= 0 else { return -1 }
    let (milliseconds, overflow) = Int64(minutes).multipliedReportingOverflow(by: 60_000)
    return overflow ? -1 : milliseconds
  }

  private func admit(
    _ request: JoinRequest, token: SessionToken, on connection: ConnectionID, now: Int64
  ) {
    let key = request.sessionName.lowercased()
    let offered = request.password.flatMap { $0.isEmpty ? nil : $0 }
    let session: ServiceSession
    if let existing = sessions[key] {
      session = existing
      if existing.state.participants.count >= admissionLimit {
        log(
          .notice, "\(connection): join refused: session \(key) is full (\(admissionLimit) users)")
        send(.joinRefused(.sessionJoinFailed), to: connection)
        return
      }
      if existing.nextUserID == .max {
        // Ids are never reused in a session: after 2^32 − 1 joins it takes no one new.
        log(.warning, "\(connection): join refused: session \(key) has used every user id")
        send(.joinRefused(.sessionJoinFailed), to: connection)
        return
      }
      if let required = existing.password, required != offered {
        connections[connection]?.stage = .awaitingPassword(request, token)
        send(.passwordRequired(wrong: offered != nil), to: connection)
        return
      }
      if let key = token.sessionKey, let expected = existing.sessionKey, key != expected {
        send(.joinRefused(.joinSessionInvalidSessionToken), to: connection)
        return
      }
      let limit = configuration.maxMembersPerToken
      if limit > 0, existing.members(holding: Self.signature(of: request.token)) >= limit {
        // One leaked or shared token cannot fill a session (Docs/SessionService.md, "Members
        // per token").
        log(
          .notice,
          "\(connection): join refused: \(limit) members of session \(key) already hold this token"
        )
        send(.joinRefused(.sessionJoinFailed), to: connection)
        return
      }
    } else {
      nextSessionNumber += 1
      session = ServiceSession(
        key: key, name: request.sessionName,
        id: "S\(nextSessionNumber)-\(Self.hex8(secrets.next(for: .sessionID)))",
        number: nextSessionNumber,
        idleTimeout: Self.idleTimeout(
          minutes: request.idleTimeoutMinutes, default: configuration.defaultIdleTimeout),
        chatHistoryLimit: configuration.limits.maxChatHistory, media: configuration.media)
      session.password = offered
      session.sessionKey = token.sessionKey
      sessions[key] = session
      sessionsByID[session.state.sessionID ?? ""] = session
    }

    session.nextUserID += 1
    nextJoinOrder += 1
    let id = UserID(session.nextUserID)
    let role: Role =
      token.roleType == .host ? (session.state.hostID == nil ? .host : .manager) : .participant
    let muted = request.muteAudio || (!session.selfUnmuteAllowed && role == .participant)
    let participant = Participant(
      id: id,
      name: configuration.limits.userName(request.userName),
      role: role,
      isVideoOn: request.videoOn,
      audio: request.connectAudio ? AudioStatus(type: .voip, isMuted: muted) : .disconnected,
      joinOrder: nextJoinOrder,
      customUserKey: token.userKey)
    let resumeToken = secrets.next(for: .joinToken)
    // Existing members hear of the joiner first; the joiner's snapshot then includes them.
    emit([.usersJoined([participant])], in: session)
    let identity = makeMediaIdentity(for: id, in: session)
    session.add(
      id,
      ServiceSession.Member(
        roleType: token.roleType, resumeToken: resumeToken,
        tokenSignature: Self.signature(of: request.token), media: identity))
    mediaMemberJoined(participant, identity: identity, in: session)
    session.connect(id, on: connection)
    connections[connection]?.stage = .member(sessionKey: key, user: id)
    updateIdle(session, now: now)
    send(
      .joined(
        session.state.snapshot(for: id, sequence: session.sequence), resumeToken: resumeToken),
      to: connection)
    sendMediaCredential(identity, to: connection)
  }

  /// The part of a token that tells tokens apart: its signature (the text after the last
  /// dot), or the whole token if it has none.
  static func signature(of token: String) -> Substring {
    guard let dot = token.lastIndex(of: ".") else { return Substring(token) }
    return token[token.index(after: dot)...]
  }

  /// Eight lowercase hex digits of the low 32 bits.
  static func hex8(_ value: UInt64) -> String {
    let digits = String(value & 0xFFFF_FFFF, radix: 16)
    return String(repeating: "0", count: 8 - digits.count) + digits
  }

  // MARK: Resume

  func resume(_ request: ResumeRequest, on connection: ConnectionID, now: Int64) {
    guard case .idle? = connections[connection]?.stage else {
      // A member (or a joiner waiting for a password) has a session in progress here.
      send(.joinRefused(.sessionAlreadyInProgress), to: connection)
      return
    }
    guard let session = sessionsByID[request.sessionID],
      let member = session.members[request.user],
      secretsEqual(member.resumeToken, request.resumeToken)
    else {
      refuseResume(request, on: connection)
      return
    }
    if let old = member.connection {
      connections[old]?.stage = .idle
      output(.close(old, reason: .superseded(by: connection)))
    }
    session.connect(request.user, on: connection)
    connections[connection]?.stage = .member(sessionKey: session.key, user: request.user)
    // A token is good for one resume: the next one needs the new token.
    let token = secrets.next(for: .resumeToken)
    _ = session.rotateToken(of: request.user, to: token)
    send(
      .joined(
        session.state.snapshot(for: request.user, sequence: session.sequence),
        resumeToken: token),
      to: connection)
    if let identity = member.media { sendMediaCredential(identity, to: connection) }
  }

  /// A wrong resume: `left(networkError)`, and the connection closed once it has sent more
  /// than ``ServiceConfiguration/maxFailedResumes``; one log line for the first and the last.
  private func refuseResume(_ request: ResumeRequest, on connection: ConnectionID) {
    let failures = (connections[connection]?.failedResumes ?? 0) + 1
    connections[connection]?.failedResumes = failures
    send(.left(.networkError), to: connection)
    let limit = max(0, configuration.maxFailedResumes)
    if failures > limit {
      log(.notice, "\(connection): closed after \(failures) wrong resumes")
      output(.close(connection, reason: .requested))
      // Nothing more from it counts: the transport closes it.
      connections[connection]?.stage = .closing
    } else if failures == 1 {
      log(.notice, "\(connection): resume of \(request.user) refused")
    }
  }

  // MARK: Leave, remove, end

  /// Removes a member: the others hear `usersLeft` (and of a new host if the host left); the
  /// member, if still connected, hears `reason`.
  func removeMember(_ user: UserID, from session: ServiceSession, reason: LeaveReason?, now: Int64)
  {
    guard let member = session.remove(user) else { return }
    if session.pendingHelp?.requester == user { session.pendingHelp = nil }
    mediaMemberLeft(user, identity: member.media, in: session)
    if let connection = member.connection {
      connections[connection]?.stage = .idle
      if let reason { send(.left(reason), to: connection) }
    }
    if session.members.isEmpty {
      discard(session)
      log(.info, "session \(session.key) ended: last member left")
      return
    }
    let wasHost = session.state.hostID == user
    var events: [SessionEvent] = [.usersLeft([user])]
    if wasHost, let next = handoverTarget(in: session, excluding: user) {
      events.append(.hostChanged(newHost: next))
    }
    if session.state.spotlighted.contains(user) {
      // The leave drops the leaver from the spotlight; everyone hears the list that is left.
      events.append(.spotlightChanged(session.state.spotlighted.filter { $0 != user }))
    }
    emit(events, in: session)
    updateIdle(session, now: now)
  }

  /// The earliest-joined manager, else the earliest-joined user, other than `user`.
  func handoverTarget(in session: ServiceSession, excluding user: UserID) -> UserID? {
    if let manager = session.state.managers.first(where: { $0.id != user }) {
      return manager.id
    }
    return session.state.earliestJoined(where: { $0.id != user })?.id
  }

  /// Ends a session for everyone: `reason` for each member, `bySelf` for whoever ended it.
  func end(_ session: ServiceSession, reason: LeaveReason, endedBy: UserID?) {
    discard(session)
    for user in session.memberOrder {
      guard let connection = session.members[user]?.connection else { continue }
      connections[connection]?.stage = .idle
      send(.left(user == endedBy ? .bySelf : reason), to: connection)
    }
    session.removeAll()
  }

  /// Forgets a session: its name and id are free again.
  private func discard(_ session: ServiceSession) {
    mediaSessionEnded(session)
    if sessions[session.key] === session { sessions.removeValue(forKey: session.key) }
    sessionsByID.removeValue(forKey: session.state.sessionID ?? "")
  }

  func updateIdle(_ session: ServiceSession, now: Int64) {
    session.idleSince = session.members.count == 1 ? (session.idleSince ?? now) : nil
  }
}
