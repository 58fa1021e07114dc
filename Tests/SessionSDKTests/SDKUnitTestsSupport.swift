import InProcessTransport
import SessionCore
import SessionSDK
import SessionTransport

// Fakes for driving the SDK without the real service: a link whose replies the test scripts,
// and a tiny link-level service that answers joins and a few commands the way the real one
// will (synchronously, inside `send`, as InProcessNetwork does in immediate mode).

/// A link the test drives by hand.
final class FakeLink: LookaheadLink {
  private(set) var handler: ((LinkEvent) -> Void)?
  private(set) var lookahead: (any LinkLookahead)?
  private(set) var sent: [ClientMessage] = []
  private(set) var isStarted = false
  private(set) var isClosed = false
  /// Called after each send, while still inside `send` (a synchronous service).
  var onSend: ((ClientMessage, FakeLink) -> Void)?

  func start(_ handler: @escaping (LinkEvent) -> Void) {
    self.handler = handler
    isStarted = true
  }

  func send(_ message: ClientMessage) {
    guard !isClosed else { return }
    sent.append(message)
    onSend?(message, self)
  }

  func close() {
    isClosed = true
    handler = nil
    lookahead = nil
  }

  func setLookahead(_ lookahead: (any LinkLookahead)?) {
    self.lookahead = lookahead
  }

  /// Delivers a message from the "service".
  func deliver(_ message: ServerMessage) {
    handler?(.message(message))
  }

  /// Drops the connection from the far side.
  func fail(_ reason: LinkCloseReason = .failed("test")) {
    let handler = self.handler
    self.handler = nil
    isClosed = true
    handler?(.closed(reason))
  }

  /// The commands sent, in order.
  var commands: [SessionCommand] {
    sent.compactMap { message in
      if case .command(_, let command) = message { return command }
      return nil
    }
  }

  /// The id of the last command sent.
  var lastCommandID: CommandID? {
    for message in sent.reversed() {
      if case .command(let id, _) = message { return id }
    }
    return nil
  }

  /// The join request, if one was sent.
  var joinRequest: JoinRequest? {
    for message in sent {
      if case .join(let request) = message { return request }
    }
    return nil
  }
}

/// Makes ``FakeLink``s and remembers them.
final class FakeLinkFactory: SessionLinkFactory {
  private(set) var links: [FakeLink] = []
  var configure: ((FakeLink) -> Void)?

  func makeLink() -> any SessionLink {
    let link = FakeLink()
    configure?(link)
    links.append(link)
    return link
  }

  var last: FakeLink? { links.last }
}

/// Everything an SDK instance reported, as values, through `callbackObserver`.
final class CallbackLog {
  var callbacks: [VideoSDKCallback] = []

  func take() -> [VideoSDKCallback] {
    defer { callbacks.removeAll() }
    return callbacks
  }
}

/// A tiny service at the link level: one session, joins, and the commands the tests need.
///
/// Users get ids 1, 2, …; the first joiner is host. Accepted commands become numbered event
/// batches sent to every member; `refusals` makes named commands fail.
final class MiniService: SessionLinkFactory {
  private(set) var links: [FakeLink] = []
  private var members: [UserID: FakeLink] = [:]
  private(set) var participants: [UserID: Participant] = [:]
  private var shares: [UserID: ActiveShare] = [:]
  private var sessionName = ""
  private(set) var sequence: UInt64 = 0
  private var nextUser: UInt32 = 0
  private var nextMessage = 0
  /// The `reportTalking` and `reportNetworkQuality` commands each member sent.
  var talkingReports: [UserID: [Bool]] = [:]
  var qualityReports: [UserID: [NetworkQuality]] = [:]
  /// Commands (by name) to refuse, with the error.
  var refusals: [String: VideoSDKError] = [:]
  /// A password the session requires, if any.
  var password: String?

  func makeLink() -> any SessionLink {
    let link = FakeLink()
    link.onSend = { [unowned self] message, link in self.receive(message, from: link) }
    links.append(link)
    return link
  }

  private func user(of link: FakeLink) -> UserID? {
    members.first { $0.value === link }?.key
  }

  private func receive(_ message: ClientMessage, from link: FakeLink) {
    switch message {
    case .join(let request):
      if let password, request.password != password {
        link.deliver(.passwordRequired(wrong: request.password != nil))
        return
      }
      admit(request, on: link)
    case .password(let answer):
      guard let answer else {
        link.deliver(.joinRefused(.sessionNeedPassword))
        return
      }
      guard answer == password else {
        link.deliver(.passwordRequired(wrong: true))
        return
      }
      admit(
        JoinRequest(sessionName: "s", userName: "guest", token: "t", password: answer), on: link)
    case .command(let id, let command):
      guard let user = user(of: link) else {
        link.deliver(.commandFailed(id, .notInSession))
        return
      }
      if let error = refusals[command.name] {
        link.deliver(.commandFailed(id, error))
        return
      }
      run(command, by: user, on: link)
    case .media(let request):
      guard let user = user(of: link) else { return }
      mediaRequests[user, default: []].append(request)
    case .resume(let request):
      guard participants[request.user] != nil else {
        link.deliver(.joinRefused(.sessionJoinFailed))
        return
      }
      resumes += 1
      members[request.user] = link
      link.deliver(.joined(currentSnapshot(for: request.user), resumeToken: 100 + resumes))
      link.deliver(.media(.credential(Self.mediaCredential(of: request.user))))
    case .heartbeat:
      break
    }
  }

  /// The media requests each member sent, in order.
  var mediaRequests: [UserID: [MediaRequest]] = [:]
  /// Resumes accepted; the n-th gives resume token 100 + n.
  private(set) var resumes: UInt64 = 0

  /// Takes the media requests `user` sent so far.
  func takeMediaRequests(of user: UserID) -> [MediaRequest] {
    defer { mediaRequests[user] = [] }
    return mediaRequests[user] ?? []
  }

  /// The key every member's media credential has here (the SDK under test tags with it).
  static let mediaKey = [UInt8](repeating: 0x5A, count: MediaCredential.keySize)

  /// The media credential the service gives `user`: its id is the user's number.
  static func mediaCredential(of user: UserID) -> MediaCredential {
    MediaCredential(id: UInt64(user.rawValue), key: mediaKey)
  }

  /// Sends a media notice to one member.
  func notify(_ user: UserID, _ notice: MediaNotice) {
    members[user]?.deliver(.media(notice))
  }

  /// The current link of a member.
  func link(of user: UserID) -> FakeLink? { members[user] }

  private func currentSnapshot(for user: UserID) -> SessionSnapshot {
    SessionSnapshot(
      sessionName: sessionName, sessionID: "S1", myself: user,
      participants: Array(participants.values), shares: Array(shares.values),
      sequence: sequence)
  }

  private func admit(_ request: JoinRequest, on link: FakeLink) {
    nextUser += 1
    let id = UserID(nextUser)
    if sessionName.isEmpty { sessionName = request.sessionName }
    let participant = Participant(
      id: id,
      name: request.userName,
      role: participants.isEmpty ? .host : .participant,
      isVideoOn: request.videoOn,
      audio: request.connectAudio
        ? AudioStatus(type: .voip, isMuted: request.muteAudio) : .disconnected,
      joinOrder: UInt64(nextUser))
    emit([.usersJoined([participant])])
    members[id] = link
    link.deliver(.joined(currentSnapshot(for: id), resumeToken: 7))
    link.deliver(.media(.credential(Self.mediaCredential(of: id))))
  }

  private func run(_ command: SessionCommand, by user: UserID, on link: FakeLink) {
    guard let caller = participants[user] else { return }
    switch command {
    case .leave:
      members.removeValue(forKey: user)
      link.deliver(.left(.bySelf))
      emit([.usersLeft([user])])
    case .startVideo:
      emit([.videoStatusChanged(user: user, isOn: true)])
    case .stopVideo:
      emit([.videoStatusChanged(user: user, isOn: false)])
    case .startAudio:
      emit([.audioStatusChanged(user: user, type: .voip, isMuted: false)])
    case .stopAudio:
      emit([.audioStatusChanged(user: user, type: .none, isMuted: true)])
    case .muteAudio(let target):
      let type = participants[target]?.audio.type ?? .voip
      emit([.audioStatusChanged(user: target, type: type, isMuted: true)])
    case .unmuteAudio(let target) where target == user:
      emit([.audioStatusChanged(user: user, type: caller.audio.type, isMuted: false)])
    case .unmuteAudio(let target):
      members[target]?.deliver(.notice(.hostAskedUnmute(by: user)))
    case .startShare(let kind):
      emit([.shareStatusChanged(user: user, status: .started, kind: kind)])
    case .pauseShare:
      emit([.shareStatusChanged(user: user, status: .paused, kind: shares[user]?.kind ?? .view)])
    case .resumeShare:
      emit([.shareStatusChanged(user: user, status: .resumed, kind: shares[user]?.kind ?? .view)])
    case .reportTalking(let talking):
      talkingReports[user, default: []].append(talking)
    case .reportNetworkQuality(let quality):
      qualityReports[user, default: []].append(quality)
      emit([.networkStatusChanged(user: user, quality: quality)])
    case .stopShare:
      emit([.shareStatusChanged(user: user, status: .stopped, kind: shares[user]?.kind ?? .view)])
    case .startAnnotation(let owner):
      emit([.annotationStarted(user: user, shareOwner: owner)])
    case .stopAnnotation(let owner):
      emit([.annotationStopped(user: user, shareOwner: owner)])
    case .clearAnnotation(let owner, let type):
      emit([.annotationCleared(user: user, shareOwner: owner, type: type)])
    case .disableViewerAnnotation(let disable):
      emit([.annotationPrivilegeChanged(shareOwner: user, isViewerAnnotationDisabled: disable)])
    case .lockShare(let lock):
      emit([.shareSettingChanged(lock ? .locked : .single)])
    case .enableMultiShare(let enable):
      emit([.shareSettingChanged(enable ? .multi : .single)])
    case .makeManager(let target):
      emit([.managerChanged(user: target, isManager: true)])
    case .makeHost(let target):
      emit([.hostChanged(newHost: target)])
    case .changeName(let target, let name):
      emit([.nameChanged(user: target, name: name)])
    case .sendChat(let receiver, let content):
      nextMessage += 1
      let message = ChatMessage(
        id: "m\(nextMessage)", sender: user, receiver: receiver, content: content, timestamp: 0)
      emit([.chatMessageReceived(message)])
    case .removeUser(let target):
      members.removeValue(forKey: target)?.deliver(.left(.kickByHost))
      emit([.usersLeft([target])])
    default:
      break
    }
  }

  /// Numbers events, updates the roster, and sends them to every member in id order.
  func emit(_ events: [SessionEvent]) {
    for event in events { track(event) }
    let batch = EventBatch(firstSequence: sequence + 1, events: events)
    sequence += UInt64(events.count)
    for id in members.keys.sorted() {
      members[id]?.deliver(.events(batch))
    }
  }

  private func track(_ event: SessionEvent) {
    switch event {
    case .usersJoined(let users):
      for user in users { participants[user.id] = user }
    case .usersLeft(let ids):
      for id in ids {
        participants.removeValue(forKey: id)
        shares.removeValue(forKey: id)
      }
    case .videoStatusChanged(let user, let isOn):
      participants[user]?.isVideoOn = isOn
    case .audioStatusChanged(let user, let type, let isMuted):
      participants[user]?.audio = AudioStatus(type: type, isMuted: isMuted)
    case .shareStatusChanged(let user, let status, let kind):
      participants[user]?.shareStatus = status
      if status == .stopped {
        shares.removeValue(forKey: user)
      } else {
        shares[user] = ActiveShare(owner: user, status: status, kind: kind, startOrder: 1)
      }
    case .managerChanged(let user, let isManager):
      participants[user]?.role = isManager ? .manager : .participant
    case .hostChanged(let newHost):
      for id in participants.keys where participants[id]?.role == .host {
        participants[id]?.role = .participant
      }
      participants[newHost]?.role = .host
    case .nameChanged(let user, let name):
      participants[user]?.name = name
    default:
      break
    }
  }
}

/// A test instance: an initialized SDK with a callback log.
struct SDKTestRig {
  let sdk: VideoSDK
  let log: CallbackLog

  init(
    transport: any SessionLinkFactory, clock: @escaping () -> Int64 = { 0 },
    reconnectAttempts: Int = 3
  ) {
    sdk = VideoSDK()
    log = CallbackLog()
    let log = self.log
    sdk.callbackObserver = { log.callbacks.append($0) }
    let params = InitParams(domain: "zoom.us", transport: transport, clock: clock)
    params.reconnectAttempts = reconnectAttempts
    sdk.initialize(params)
  }

  /// Joins with a valid context; returns the session.
  @discardableResult
  func join(
    _ userName: String = "Ada", session: String = "Algebra101", password: String? = nil,
    videoOn: Bool = false, connectAudio: Bool = true, muted: Bool = false
  ) -> Session? {
    sdk.joinSession(
      SessionContext(
        token: "header.payload.signature", sessionName: session, userName: userName,
        sessionPassword: password, audioOption: AudioOptions(connect: connectAudio, mute: muted),
        videoOption: VideoOptions(localVideoOn: videoOn)))
  }
}

/// A participant for hand-built snapshots and events.
func person(
  _ id: UInt32, _ name: String, role: Role = .participant, videoOn: Bool = false,
  audio: AudioStatus = .disconnected
) -> Participant {
  Participant(
    id: UserID(id), name: name, role: role, isVideoOn: videoOn, audio: audio,
    joinOrder: UInt64(id))
}

/// A snapshot of users 1…n (1 is host), seen by `myself`.
func snapshot(
  myself: UInt32, users: [Participant], sequence: UInt64 = 0, shares: [ActiveShare] = []
) -> SessionSnapshot {
  SessionSnapshot(
    sessionName: "Algebra101", sessionID: "S1", myself: UserID(myself), participants: users,
    shares: shares, sequence: sequence)
}

/// The usual roster: host Grace (1), Ada (2), Alan (3).
let classroom = [person(1, "Grace", role: .host), person(2, "Ada"), person(3, "Alan")]
