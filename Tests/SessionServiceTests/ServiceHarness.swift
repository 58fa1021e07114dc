import SessionCore
import SessionService
import SessionTestSupport
import SessionTransport
import Testing

/// Drives a ``SessionService`` directly through its ``SessionHost`` face, the way a transport
/// would, and keeps one replica per connection.
///
/// Outputs are recorded in order as `(connection, output)` pairs (a broadcast as one pair per
/// receiver) and delivered synchronously:
/// `.joined` builds the connection's replica from the snapshot, `.events` batches and `.notice`
/// events are applied with the shared reducer, `.left` ends the replica's session. Anything a
/// replica cannot apply, and any gap in a connection's event numbering, is recorded in
/// ``problems``. Closes the service asks for are queued and reported back to it after the call
/// that asked for them returns, never re-entrantly.
///
/// The clock starts at 1,700,000,000,000 ms; tokens are minted for `now / 1000` seconds.
///
/// > Important: Not `Sendable`; each test makes its own.
final class ServiceHarness {
  static let appKey = SessionFixture.appKey
  static let secret = SessionFixture.secret
  static let startTime = SessionFixture.startTime
  /// The credentials, tokens and join requests.
  static let fixture = SessionFixture()

  /// What one connection got: a message, or closed.
  enum Output: Hashable {
    case send(ServerMessage)
    case close
  }

  /// One output of the service for one connection; a broadcast is one record per receiver.
  struct Record: Hashable, CustomStringConvertible {
    var connection: ConnectionID
    var output: Output

    var description: String { "\(connection) ← \(output)" }
  }

  /// What the harness knows about one connection: the client end.
  typealias Client = ServedClient

  enum HarnessError: Error, CustomStringConvertible {
    case notJoined(ConnectionID, [ServerMessage])

    var description: String {
      switch self {
      case .notJoined(let connection, let messages): "\(connection) not joined: \(messages)"
      }
    }
  }

  let service: SessionService
  let minter: TokenMinter
  var now: Int64 = startTime
  private(set) var records: [Record] = []
  private(set) var clients: [ConnectionID: Client] = [:]
  /// Sequence gaps, rejected events, messages to non-members: anything a correct service never
  /// causes.
  private(set) var problems: [String] = []
  /// The service's log records.
  let log = InMemoryLogHandler()
  /// The messages of the service's log records, in order.
  var logLines: [String] { log.records.map(\.message) }
  /// Connections open from the client's point of view.
  private(set) var openConnections: Set<ConnectionID> = []
  /// The largest user id any snapshot has named.
  private(set) var largestUser: UInt32 = 0
  private var pendingCloses: [ConnectionID] = []
  private var nextConnection: UInt64 = 0

  /// Creates a service with the harness's credentials, adjusted by `configure`.
  init(configure: (inout ServiceConfiguration) -> Void = { _ in }) {
    service = Self.fixture.makeService(configure)
    minter = Self.fixture.minter
    service.attach { [unowned self] output in
      switch output {
      case .send(let message, let connection):
        self.deliver(.send(message), to: connection)
      case .broadcast(let message, let group):
        let connections = group.connections
        if Set(connections).count != connections.count {
          self.problems.append("broadcast names a connection twice: \(connections)")
        }
        for connection in connections { self.deliver(.send(message), to: connection) }
      case .close(let connection, _):
        self.deliver(.close, to: connection)
      }
    }
    service.logHandler = log.handler
  }

  // MARK: Time

  /// Moves the clock and lets the service's timers run.
  func advance(by milliseconds: Int64) {
    now += milliseconds
    tick()
  }

  /// Lets the service's timers run at the current time.
  func tick() {
    service.tick(now: now)
    flushCloses()
  }

  // MARK: Connections and messages

  /// Opens a new connection.
  func connect() -> ConnectionID {
    nextConnection += 1
    let connection = ConnectionID(nextConnection)
    clients[connection] = Client()
    openConnections.insert(connection)
    service.connectionOpened(connection, now: now)
    flushCloses()
    return connection
  }

  /// Sends a message on a connection (known or not).
  func send(_ message: ClientMessage, on connection: ConnectionID) {
    service.receive(message, from: connection, now: now)
    flushCloses()
  }

  /// Sends a command with the connection's next command id, and returns the id.
  @discardableResult
  func command(_ command: SessionCommand, on connection: ConnectionID) -> CommandID {
    clients[connection, default: Client()].nextCommand += 1
    let id = clients[connection, default: Client()].nextCommand
    send(.command(id, command), on: connection)
    return id
  }

  /// Closes a connection from the client's side, as a dropped network would.
  func close(_ connection: ConnectionID) {
    guard clients[connection]?.isOpen == true else { return }
    clients[connection]?.isOpen = false
    openConnections.remove(connection)
    service.connectionClosed(connection, now: now)
    flushCloses()
  }

  // MARK: Tokens and joining

  /// A valid token, issued 30 s ago, as the Zoom samples mint them.
  func token(
    session: String = "Room", role: TokenRole = .participant, userKey: String? = nil,
    sessionKey: String? = nil
  ) -> String {
    Self.fixture.token(
      role: role, sessionName: session, now: now, userKey: userKey, sessionKey: sessionKey)
  }

  /// A join request with a valid token for `session`.
  func joinRequest(
    _ userName: String, session: String = "Room", role: TokenRole = .participant,
    password: String? = nil, token: String? = nil, connectAudio: Bool = true,
    muteAudio: Bool = false, videoOn: Bool = false, idleTimeoutMinutes: Int? = nil
  ) -> JoinRequest {
    JoinRequest(
      sessionName: session, userName: userName,
      token: token ?? self.token(session: session, role: role), password: password,
      connectAudio: connectAudio, muteAudio: muteAudio, videoOn: videoOn,
      idleTimeoutMinutes: idleTimeoutMinutes)
  }

  /// Opens a connection (unless one is given), joins, and requires `.joined`.
  @discardableResult
  func join(
    _ userName: String, session: String = "Room", role: TokenRole = .participant,
    password: String? = nil, connectAudio: Bool = true, muteAudio: Bool = false,
    videoOn: Bool = false, idleTimeoutMinutes: Int? = nil, on connection: ConnectionID? = nil
  ) throws -> ConnectionID {
    let connection = connection ?? connect()
    let mark = self.mark
    send(
      .join(
        joinRequest(
          userName, session: session, role: role, password: password,
          connectAudio: connectAudio, muteAudio: muteAudio, videoOn: videoOn,
          idleTimeoutMinutes: idleTimeoutMinutes)),
      on: connection)
    let replies = messages(to: connection, since: mark)
    guard replies.contains(where: { if case .joined = $0 { true } else { false } }) else {
      throw HarnessError.notJoined(connection, replies)
    }
    return connection
  }

  /// Resumes `old`'s membership on a new connection with its resume token (or `resumeToken`).
  @discardableResult
  func resume(_ old: ConnectionID, resumeToken: UInt64? = nil) -> ConnectionID {
    let client = clients[old] ?? Client()
    let connection = connect()
    send(
      .resume(
        ResumeRequest(
          sessionID: client.sessionID ?? "", user: client.user ?? 0,
          resumeToken: resumeToken ?? client.resumeToken ?? 0,
          lastSequence: client.lastSequence)),
      on: connection)
    return connection
  }

  // MARK: Inspection

  /// The position after the last record, to look at what came after it.
  var mark: Int { records.count }

  /// Records since `mark`.
  func records(since mark: Int) -> [Record] { Array(records[mark...]) }

  /// Messages sent to `connection` since `mark`.
  func messages(to connection: ConnectionID, since mark: Int = 0) -> [ServerMessage] {
    records[mark...].compactMap {
      guard $0.connection == connection, case .send(let message) = $0.output else { return nil }
      return message
    }
  }

  /// Numbered events sent to `connection` since `mark`, flattened.
  func events(to connection: ConnectionID, since mark: Int = 0) -> [SessionEvent] {
    messages(to: connection, since: mark).flatMap { message -> [SessionEvent] in
      if case .events(let batch) = message { batch.events } else { [] }
    }
  }

  /// Notices sent to `connection` since `mark`.
  func notices(to connection: ConnectionID, since mark: Int = 0) -> [SessionEvent] {
    messages(to: connection, since: mark).compactMap { message in
      if case .notice(let event) = message { event } else { nil }
    }
  }

  /// The user a connection joined or resumed as.
  func user(_ connection: ConnectionID) -> UserID { clients[connection]?.user ?? 0 }

  /// The replica of a connection.
  func replica(_ connection: ConnectionID) -> SessionState? { clients[connection]?.state }

  /// The service's state of a session.
  func served(_ session: String = "Room") -> SessionState? { service.state(ofSession: session) }

  /// A participant as the service sees them.
  func participant(_ connection: ConnectionID, session: String = "Room") -> Participant? {
    served(session)?.participants[user(connection)]
  }

  // MARK: Checks

  /// Everything wrong now: recorded ``problems``, broken service invariants, and connected
  /// members whose replica's shared facts differ from the service's or break an invariant.
  func convergenceProblems() -> [String] {
    var result = problems
    for name in service.liveSessionNames.sorted() {
      guard let state = service.state(ofSession: name) else { continue }
      for violation in state.checkInvariants() {
        result.append("service session \(name): \(violation)")
      }
    }
    for connection in openConnections.sorted(by: { $0.rawValue < $1.rawValue }) {
      guard let replica = clients[connection]?.state, replica.phase == .inSession else {
        continue
      }
      for violation in replica.checkInvariants() {
        result.append("\(connection) replica: \(violation)")
      }
      guard let name = replica.sessionName, let served = service.state(ofSession: name),
        served.sessionID == replica.sessionID
      else {
        result.append("\(connection) is in \(replica.sessionName ?? "?"), which has ended")
        continue
      }
      let mine = replica.sharedFacts
      let theirs = served.sharedFacts
      if mine != theirs {
        result.append("\(connection) diverged: \(Self.difference(mine, theirs))")
      }
    }
    return result
  }

  /// Records an issue for each of ``convergenceProblems()``.
  func assertConverged(sourceLocation: SourceLocation = #_sourceLocation) {
    for problem in convergenceProblems() {
      Issue.record(Comment(rawValue: problem), sourceLocation: sourceLocation)
    }
  }

  /// Sends `command` on `connection` and expects it refused with `error`: one
  /// `.commandFailed(id, error)` to the sender, nothing to anyone else, and the service's
  /// state and numbering exactly as before.
  func expectRefused(
    _ command: SessionCommand, on connection: ConnectionID, _ error: VideoSDKError,
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    let name = clients[connection]?.state?.sessionName ?? "Room"
    let before = service.state(ofSession: name)
    let sequenceBefore = service.lastSequence(ofSession: name)
    let mark = self.mark
    let id = self.command(command, on: connection)
    #expect(
      records(since: mark) == [
        Record(connection: connection, output: .send(.commandFailed(id, error)))
      ],
      "\(command.name)", sourceLocation: sourceLocation)
    #expect(service.state(ofSession: name) == before, sourceLocation: sourceLocation)
    #expect(service.lastSequence(ofSession: name) == sequenceBefore, sourceLocation: sourceLocation)
  }

  /// Sends `command` on `connection`, expects no refusal, and returns what was sent since.
  @discardableResult
  func expectAccepted(
    _ command: SessionCommand, on connection: ConnectionID,
    sourceLocation: SourceLocation = #_sourceLocation
  ) -> [Record] {
    let mark = self.mark
    self.command(command, on: connection)
    let sent = records(since: mark)
    let refusals = sent.filter {
      if case .send(.commandFailed) = $0.output { true } else { false }
    }
    #expect(
      refusals.isEmpty, "\(command.name) refused: \(refusals)", sourceLocation: sourceLocation)
    return sent
  }

  // MARK: Delivery

  private func deliver(_ output: Output, to connection: ConnectionID) {
    records.append(Record(connection: connection, output: output))
    guard var client = clients[connection] else {
      problems.append("output to unknown \(connection): \(output)")
      return
    }
    defer { clients[connection] = client }
    guard client.isOpen else {
      problems.append("output to closed \(connection): \(output)")
      return
    }
    switch output {
    case .close:
      client.isOpen = false
      openConnections.remove(connection)
      pendingCloses.append(connection)
    case .send(let message):
      problems += client.receive(
        message, on: connection, maxMessageSize: service.configuration.maxMessageSize)
      if case .joined(let snapshot, _) = message {
        largestUser = max(largestUser, snapshot.participants.lazy.map(\.id.rawValue).max() ?? 0)
      }
    }
  }

  private func flushCloses() {
    while !pendingCloses.isEmpty {
      let connection = pendingCloses.removeFirst()
      service.connectionClosed(connection, now: now)
    }
  }

  private static func difference(_ mine: SharedSessionFacts, _ theirs: SharedSessionFacts)
    -> String
  {
    var parts: [String] = []
    if mine.sessionName != theirs.sessionName || mine.sessionID != theirs.sessionID {
      parts.append("session \(mine.sessionID ?? "-") vs \(theirs.sessionID ?? "-")")
    }
    if mine.hostID != theirs.hostID {
      parts.append(
        "host \(String(describing: mine.hostID)) vs \(String(describing: theirs.hostID))")
    }
    if mine.shareSetting != theirs.shareSetting {
      parts.append("share setting \(mine.shareSetting) vs \(theirs.shareSetting)")
    }
    if mine.chatPrivilege != theirs.chatPrivilege {
      parts.append("chat privilege \(mine.chatPrivilege) vs \(theirs.chatPrivilege)")
    }
    if mine.activeSpeakers != theirs.activeSpeakers {
      parts.append("speakers \(mine.activeSpeakers) vs \(theirs.activeSpeakers)")
    }
    for id in Set(mine.participants.keys).union(theirs.participants.keys).sorted()
    where mine.participants[id] != theirs.participants[id] {
      parts.append(
        "\(id): \(String(describing: mine.participants[id])) vs "
          + String(describing: theirs.participants[id]))
    }
    for id in Set(mine.shares.keys).union(theirs.shares.keys).sorted()
    where mine.shares[id] != theirs.shares[id] {
      parts.append(
        "share \(id): \(String(describing: mine.shares[id])) vs "
          + String(describing: theirs.shares[id]))
    }
    return parts.joined(separator: "; ")
  }
}
