import SessionCore
import SessionService
import SessionTestSupport
import SessionTransport

/// The service's harness: a ``SessionService`` with the development credentials, six
/// connection slots, and up to 48 steps drawn from the bytes (``ServiceFuzzWorld``).
///
/// > Important: Stateless; each call builds its own service and drops it, on the calling
/// > thread.
enum ServiceFuzz {
  static func run(_ bytes: UnsafeRawBufferPointer) throws(FuzzFailure) {
    let world = ServiceFuzzWorld(FuzzInput([UInt8](bytes)))
    try world.run()
  }
}

/// One service driven through its sans-IO face by structured traffic from six connection
/// slots, with a client model per connection that checks everything the service says.
///
/// Each step is drawn from the bytes: open a connection (or open an id again while it is
/// open); join (a valid development token for the session and role, or an empty, malformed,
/// huge, expired, foreign, unknown-key or hostile-claim one; names and passwords from the whole
/// range of text); answer a password; resume any membership seen so far (right or wrong token,
/// user, session, sequence); send a command (every ``SessionCore/SessionCommand`` and
/// subsession command, naming present users, huge ids and names); a heartbeat; a media
/// request; close; let time pass (up to 40 minutes) and tick; a client frame decoded from raw
/// bytes; a message on a closed connection; a media datagram (a bind, a check reply, a packet,
/// a report, feedback, a ping, sealed with the member's media key, or raw bytes).
///
/// Checked after every step:
/// - a join, password or resume gets exactly one answer; a heartbeat exactly one heartbeat; a
///   message on a closed or unknown connection nothing at all;
/// - a refused command gets exactly one `commandFailed` with its id and changes no session;
/// - every replica applies every numbered event and notice, without gaps in the numbering;
///   nothing goes to a closed connection; no broadcast names a connection twice;
/// - every live session's state keeps its invariants, and every connected member's replica
///   has the same shared facts as the service;
/// - chat history, members and names stay within the limits; the service holds exactly the
///   open connections;
/// - media is forwarded only to bound endpoints, and the service's count of bound endpoints
///   is the number bound minus the number released.
///
/// > Important: Confined to the harness call that made it, like the service it drives.
final class ServiceFuzzWorld {
  /// What the world knows about one connection: the client end.
  typealias Client = ServedClient

  /// What one connection got.
  enum Output: Hashable {
    case send(ServerMessage)
    case close
  }

  /// One output for one connection; a broadcast is one record per receiver.
  struct Record: Hashable {
    var connection: ConnectionID
    var output: Output
  }

  static let maxSteps = 48
  /// The idle timeouts joins ask for, in minutes: none, zero, never, and the extremes.
  static let idleMinutes: [Int?] = [nil, nil, nil, 0, 1, -1, .min, .max, 40, 153_722_867_280_913]
  static let startTime: Int64 = 1_700_000_000_000

  let service: SessionService
  var values: FuzzValues
  var now = startTime
  var clients: [ConnectionID: Client] = [:]
  var slots: [ConnectionID?] = Array(repeating: nil, count: 6)
  var records: [Record] = []
  var problems: [String] = []
  var pendingCloses: [ConnectionID] = []
  var nextConnection: UInt64 = 0
  /// The endpoints bound to members, as the media outputs said.
  var bound: Set<MediaEndpointID> = []
  /// The nonce of the last return-path check sent to each endpoint.
  var checks: [MediaEndpointID: UInt64] = [:]

  init(_ input: FuzzInput) {
    values = FuzzValues(input)
    var configuration = ServiceConfiguration(credentials: DevelopmentCredentials.table)
    configuration.limits.maxUsers = values.input.pick([3, 6])
    configuration.limits.maxChatHistory = 8
    configuration.reconnectGrace = values.input.pick([10_000, 0])
    configuration.defaultIdleTimeout = values.input.pick([40 * 60_000, 1_000, -1])
    configuration.secrets = .derived(seed: 7)
    service = SessionService(configuration: configuration)
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
    service.attachMedia { [unowned self] output in self.mediaOutput(output) }
  }

  var input: FuzzInput {
    get { values.input }
    set { values.input = newValue }
  }

  // MARK: Steps

  func run() throws(FuzzFailure) {
    for step in 0..<Self.maxSteps where !input.isExhausted {
      let done = self.step()
      try check(step, done)
    }
  }

  /// One step; returns what it did, for failure messages.
  func step() -> String {
    let slot = input.index(slots.count)
    let operation = input.byte() % 20
    if operation == 12 { return advance() }
    if operation == 13 { return datagram(slot) }
    guard let connection = slots[slot], clients[connection]?.isOpen == true else {
      slots[slot] = connect()
      return "connect into slot \(slot)"
    }
    switch operation {
    case 0: return reopen(connection)
    case 1, 2: return answered(.join(joinRequest(slot)), on: connection)
    case 3: return answered(.password(password()), on: connection)
    case 4: return answered(.resume(resumeRequest()), on: connection)
    case 5:
      let mark = records.count
      receive(.heartbeat, on: connection)
      let replies = Array(records[mark...])
      if replies != [Record(connection: connection, output: .send(.heartbeat))] {
        problems.append("a heartbeat got \(replies)")
      }
      return "heartbeat"
    case 6:
      values.users = users(of: connection)
      let request = values.mediaRequest()
      receive(.media(request), on: connection)
      return "media request on \(connection)"
    case 7:
      close(connection)
      return "close \(connection)"
    case 8: return rawFrame(on: connection)
    case 9: return unheard()
    default: return commanded(on: connection)
    }
  }

  private func connect() -> ConnectionID {
    nextConnection += 1
    let connection = ConnectionID(nextConnection)
    clients[connection] = Client()
    service.connectionOpened(connection, now: now)
    flushCloses()
    return connection
  }

  /// Opens an id again while it is open: the service closes the old connection first, and
  /// says nothing to the new one.
  private func reopen(_ connection: ConnectionID) -> String {
    clients[connection] = Client()
    let mark = records.count
    service.connectionOpened(connection, now: now)
    flushCloses()
    let told = records[mark...].filter { $0.connection == connection }
    if !told.isEmpty { problems.append("a reopened \(connection) was told \(told)") }
    return "reopen \(connection)"
  }

  private func close(_ connection: ConnectionID) {
    guard clients[connection]?.isOpen == true else { return }
    clients[connection]?.isOpen = false
    service.connectionClosed(connection, now: now)
    flushCloses()
  }

  private func advance() -> String {
    let jump: Int64 = input.pick([1, 999, 1_000, 5_000, 9_999, 10_000, 15_000, 60_000, 2_400_000])
    now += jump
    service.tick(now: now)
    flushCloses()
    return "advance \(jump) ms"
  }

  private func receive(_ message: ClientMessage, on connection: ConnectionID) {
    service.receive(message, from: connection, now: now)
    flushCloses()
  }

  /// Sends a join, password or resume and checks that it gets exactly one answer.
  private func answered(_ message: ClientMessage, on connection: ConnectionID) -> String {
    let mark = records.count
    receive(message, on: connection)
    let answers = records[mark...].filter { record in
      guard record.connection == connection, case .send(let reply) = record.output else {
        return false
      }
      switch reply {
      case .joined, .joinRefused, .passwordRequired, .left: return true
      default: return false
      }
    }
    if answers.count != 1 {
      problems.append("\(message) on \(connection) got \(answers.count) answers: \(answers)")
    }
    switch message {
    case .join: return "join on \(connection)"
    case .password: return "password on \(connection)"
    case .resume: return "resume on \(connection)"
    default: return "message on \(connection)"
    }
  }

  /// Sends a command and checks that a refusal is one `commandFailed` and changes nothing.
  private func commanded(on connection: ConnectionID) -> String {
    values.users = users(of: connection)
    var command = values.command()
    if case .deleteChatMessage = command, input.bool(),
      let name = clients[connection]?.state?.sessionName,
      let kept = service.state(ofSession: name)?.chatMessages.map(\.id), !kept.isEmpty
    {
      command = .deleteChatMessage(messageID: input.pick(kept))
    }
    if input.chance(12) {
      // Commands with text from the whole range of what a client can send.
      switch input.byte() % 4 {
      case 0: command = .changeName(user: values.user(), name: input.text())
      case 1: command = .sendChat(receiver: values.optional { $0.user() }, content: input.text())
      case 2: command = .sendCommand(receiver: values.optional { $0.user() }, content: input.text())
      default: command = .subSession(.commit((0..<input.int(in: 0...60)).map { _ in input.text() }))
      }
    }
    let id: CommandID
    if input.chance(10) {
      id = input.uint32()
    } else {
      clients[connection]?.nextCommand &+= 1
      id = clients[connection]?.nextCommand ?? 0
    }
    let names = service.liveSessionNames
    let before = names.map { (service.state(ofSession: $0), service.lastSequence(ofSession: $0)) }
    let mark = records.count
    receive(.command(id, command), on: connection)
    let sent = Array(records[mark...])
    let refused = sent.contains {
      if case .send(.commandFailed) = $0.output { true } else { false }
    }
    guard refused else { return "\(command.name) accepted" }
    let alone = sent.count == 1 && sent[0].connection == connection
    if !alone || sent[0].output != .send(.commandFailed(id, failure(of: sent[0]))) {
      problems.append("\(command) refused with \(sent)")
    }
    let after = names.map { (service.state(ofSession: $0), service.lastSequence(ofSession: $0)) }
    if service.liveSessionNames != names || !after.elementsEqual(before, by: { $0 == $1 }) {
      problems.append("\(command) was refused but a session changed")
    }
    return "\(command.name) refused"
  }

  private func failure(of record: Record) -> VideoSDKError {
    if case .send(.commandFailed(_, let error)) = record.output { error } else { .unknown }
  }

  /// A client frame decoded from raw bytes; a message is sent as it decoded.
  private func rawFrame(on connection: ConnectionID) -> String {
    let bytes = input.bytes(upTo: 96)
    guard case .message(let message)? = try? WireDecoder().decodeClientFrame(bytes) else {
      return "raw bytes that are no message"
    }
    switch message {
    case .join, .password, .resume: return answered(message, on: connection)
    default:
      receive(message, on: connection)
      return "a raw message on \(connection)"
    }
  }

  /// A message on a connection that is closed or was never opened gets no answer.
  private func unheard() -> String {
    let closed = clients.filter { !$0.value.isOpen }.keys.sorted { $0.rawValue < $1.rawValue }
    let connection = closed.isEmpty ? ConnectionID(9_999) : input.pick(closed)
    values.users = []
    let message = values.clientMessage()
    let mark = records.count
    service.receive(message, from: connection, now: now)
    flushCloses()
    if records.count != mark {
      problems.append("\(message) on closed \(connection) got \(records[mark...])")
    }
    return "unheard on \(connection)"
  }

  // MARK: Drawing requests

  /// The users commands name: the members of the connection's session and one stranger.
  private func users(of connection: ConnectionID) -> [UserID] {
    guard let name = clients[connection]?.state?.sessionName,
      let state = service.state(ofSession: name)
    else { return [1, 2] }
    return state.participants.keys.sorted() + [UserID(999)]
  }

  private func sessionName() -> String {
    input.chance(8) ? input.text() : input.pick(["Room", "Room", "Lab", "room", "ROOM"])
  }

  private func password() -> String? {
    switch input.byte() % 6 {
    case 0, 1: return nil
    case 2, 3: return "pw"
    case 4: return "other"
    default: return input.text()
    }
  }

  private func joinRequest(_ slot: Int) -> JoinRequest {
    let session = sessionName()
    let issuedAt = now / 1_000 - 30
    let minter = DevelopmentCredentials.minter
    let token: String
    switch input.byte() % 12 {
    case 0: token = ""
    case 1: token = "not.a.token"
    case 2: token = String(repeating: "A", count: 9_000)
    case 3: token = minter.mint(sessionName: session, role: .host, issuedAt: issuedAt - 864_000)
    case 4: token = minter.mint(sessionName: session + "x", role: .participant, issuedAt: issuedAt)
    case 5:
      token = minter.mint(
        sessionName: session, role: .participant, issuedAt: issuedAt, userKey: input.text(),
        sessionKey: input.optional { $0.text() })
    case 6:
      token = TokenMinter(appKey: "UnknownKey", secret: "x").mint(
        sessionName: session, role: .host, issuedAt: issuedAt)
    default:
      token = minter.mint(
        sessionName: session, role: input.chance(30) ? .host : .participant, issuedAt: issuedAt,
        userKey: input.optional { $0.pick(["alice", "bob"]) })
    }
    return JoinRequest(
      sessionName: session, userName: input.chance(85) ? "u\(slot)" : input.text(),
      token: token, password: password(), connectAudio: input.chance(80),
      muteAudio: input.bool(), videoOn: input.bool(),
      idleTimeoutMinutes: input.pick(Self.idleMinutes))
  }

  /// A resume of a membership seen so far, right or with a field wrong.
  private func resumeRequest() -> ResumeRequest {
    let known = clients.filter { $0.value.resumeToken != nil }.keys.sorted {
      $0.rawValue < $1.rawValue
    }
    let client = known.isEmpty ? Client() : clients[input.pick(known)] ?? Client()
    var request = ResumeRequest(
      sessionID: client.sessionID ?? "S", user: client.user ?? 1,
      resumeToken: client.resumeToken ?? 0, lastSequence: client.lastSequence)
    switch input.byte() % 8 {
    case 0: request.resumeToken = input.uint64()
    case 1: request.user = UserID(rawValue: input.uint32())
    case 2: request.sessionID = input.text()
    case 3: request.lastSequence = input.uint64()
    default: break
    }
    return request
  }

  // MARK: Media

  /// A datagram from the slot's endpoint (or another): sealed with the slot's media key when it
  /// has one.
  private func datagram(_ slot: Int) -> String {
    let endpoint = MediaEndpointID(
      input.chance(80) ? UInt64(slot + 1) : UInt64(input.int(in: 1...9)))
    let client = slots[slot].flatMap { clients[$0] }
    let user = client?.user ?? UserID(rawValue: input.uint32())
    values.users = [user]
    var body: [UInt8]
    switch input.byte() % 9 {
    case 0:
      body = MediaBind(
        user: input.chance(90) ? user : values.user(),
        credential: client?.credential?.id ?? input.uint64()
      ).encode()
    case 1:
      let nonce = checks[endpoint] ?? input.uint64()
      body = MediaDatagram.checkReply(
        credential: client?.credential?.id ?? input.uint64(), nonce: nonce
      ).encode()
    case 2, 3:
      let kind = values.mediaKind()
      let packet = MediaPacket(
        stream: StreamID(
          user: user, kind: kind, layer: kind == .video ? UInt8(input.int(in: 0...2)) : 0),
        sequence: input.uint32(), frameID: input.uint32(), isKeyFrame: input.bool(),
        sendTime: input.int64(), payloadBytes: UInt16(input.int(in: 0...48)),
        audioLevel: UInt8(input.int(in: 0...127)), width: input.uint16(), height: input.uint16(),
        framePackets: UInt16(input.int(in: 1...4)))
      body = packet.encode()
    case 4:
      body = ReceiverReport(
        subscriber: user, stream: values.stream(), highestSequence: input.uint32(),
        packetsReceived: input.uint32(), packetsLost: input.uint32(), jitter: input.uint32(),
        lastSendTime: input.int64()
      ).encode()
    case 5:
      body = DownlinkFeedback(
        subscriber: user, packetsReceived: input.uint32(), packetsLost: input.uint32(),
        receiveRate: input.uint32(), queueDelay: input.uint32(),
        signal: input.element(DownlinkFeedback.DelaySignal.self)
      ).encode()
    case 6: body = MediaDatagram.ping(sendTime: input.int64()).encode()
    case 7: body = input.bytes(upTo: 64)
    default:
      // Raw bytes, not sealed.
      service.receiveDatagram(input.bytes(upTo: 80), from: endpoint, now: now * 1_000)
      flushCloses()
      return "raw datagram from \(endpoint)"
    }
    if let authenticator = client?.authenticator, input.chance(90) {
      authenticator.seal(&body)
    } else {
      body += input.bytes(upTo: 24)
    }
    service.receiveDatagram(body, from: endpoint, now: now * 1_000)
    flushCloses()
    return "datagram from \(endpoint)"
  }

  private func mediaOutput(_ output: MediaHostOutput) {
    switch output {
    case .send(let bytes, let endpoint):
      let body = bytes.withUnsafeBytes { sealed in
        MediaDatagram.body(ofSealed: sealed).flatMap { try? MediaDatagram.decode($0) }
      }
      if case .check(let nonce)? = body { checks[endpoint] = nonce }
    case .forward(_, let endpoints), .forwardNumbered(_, let endpoints, _):
      for endpoint in endpoints where !bound.contains(endpoint) {
        problems.append("media forwarded to \(endpoint), which is not bound")
      }
    case .endpointBound(let endpoint):
      bound.insert(endpoint)
    case .endpointReleased(let endpoint):
      if bound.remove(endpoint) == nil {
        problems.append("\(endpoint) released, but it was not bound")
      }
    }
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
      pendingCloses.append(connection)
    case .send(let message):
      problems += client.receive(
        message, on: connection, maxMessageSize: service.configuration.maxMessageSize)
    }
  }

  private func flushCloses() {
    while !pendingCloses.isEmpty {
      let connection = pendingCloses.removeFirst()
      service.connectionClosed(connection, now: now)
    }
  }

  // MARK: Checks

  private func check(_ step: Int, _ done: String) throws(FuzzFailure) {
    var found = problems
    let limits = service.configuration.limits
    for name in service.liveSessionNames {
      guard let state = service.state(ofSession: name) else {
        found.append("live session \(name) has no state")
        continue
      }
      let violations = state.checkInvariants()
      if !violations.isEmpty { found.append("session \(name): \(violations)") }
      if state.chatMessages.count > limits.maxChatHistory {
        found.append("\(name): \(state.chatMessages.count) chat messages kept")
      }
      if state.participants.count > service.admissionLimit {
        found.append("\(name): \(state.participants.count) members")
      }
      for participant in state.participants.values
      where participant.name.isEmpty || participant.name.utf8.count > limits.maxUserNameBytes
        || participant.name.count > limits.maxUserNameLength
      {
        found.append("\(name): a name of \(participant.name.utf8.count) bytes")
      }
      for message in state.chatMessages
      where message.content.isEmpty || message.content.utf8.count > limits.maxChatBytes {
        found.append("\(name): a chat of \(message.content.utf8.count) bytes")
      }
    }
    let open = clients.filter(\.value.isOpen)
    for (connection, client) in open.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
      guard let replica = client.state, replica.phase == .inSession else { continue }
      let violations = replica.checkInvariants()
      if !violations.isEmpty { found.append("\(connection) replica: \(violations)") }
      guard let name = replica.sessionName, let served = service.state(ofSession: name),
        served.sessionID == replica.sessionID
      else {
        found.append("\(connection) is in \(replica.sessionName ?? "?"), which has ended")
        continue
      }
      if replica.sharedFacts != served.sharedFacts {
        found.append(
          "\(connection) diverged:\nreplica \(replica.sharedFacts)\nservice \(served.sharedFacts)")
      }
    }
    if service.connectionCount != open.count {
      found.append("the service holds \(service.connectionCount) connections, \(open.count) open")
    }
    if service.boundMediaEndpointCount != bound.count {
      found.append(
        "the service has \(service.boundMediaEndpointCount) bound endpoints, \(bound.count) told")
    }
    guard found.isEmpty else {
      throw FuzzFailure(
        "service, step \(step) (\(done)):\n" + found.prefix(5).joined(separator: "\n"))
    }
  }
}
