import SessionCore
import SessionTransport

/// Draws arbitrary protocol values from a seeded generator: every case of every message, event
/// and command, with integers at and around the varint boundaries and strings in several
/// scripts.
struct Arbitrary {
  var random: SimulationRandom

  init(seed: UInt64) { random = SimulationRandom(seed: seed) }

  // MARK: Primitives

  mutating func bool() -> Bool { Bool.random(using: &random) }

  mutating func int(in range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &random) }

  /// A UInt64 of random width, biased toward the boundaries where a varint grows a byte.
  mutating func uint64() -> UInt64 {
    switch int(in: 0...3) {
    case 0:
      let edges: [UInt64] = [0, 1, 127, 128, 255, 16_383, 16_384, 1 << 32 - 1, 1 << 63, .max]
      return edges[int(in: 0...edges.count - 1)]
    default:
      let bits = int(in: 0...64)
      let value = random.next()
      return bits == 64 ? value : value & (1 << UInt64(bits) - 1)
    }
  }

  mutating func uint32() -> UInt32 { UInt32(truncatingIfNeeded: uint64()) }

  mutating func int64() -> Int64 { Int64(bitPattern: uint64()) }

  mutating func int() -> Int { Int(truncatingIfNeeded: int64()) }

  mutating func user() -> UserID { UserID(rawValue: uint32()) }

  mutating func users(max: Int = 6) -> [UserID] { (0..<int(in: 0...max)).map { _ in user() } }

  mutating func element<Value: CaseIterable>(_: Value.Type) -> Value {
    let all = Array(Value.allCases)
    return all[int(in: 0...all.count - 1)]
  }

  mutating func optional<Value>(_ make: (inout Arbitrary) -> Value) -> Value? {
    bool() ? make(&self) : nil
  }

  /// A string of 0 to 24 characters from ASCII, Latin, CJK, emoji and combining marks.
  mutating func string() -> String {
    let alphabet: [Character] = [
      "a", "Z", "0", " ", "_", "\n", "é", "ß", "Ж", "漢", "字", "😀", "👩‍💻", "e\u{301}", "\u{0}",
    ]
    var text = ""
    for _ in 0..<int(in: 0...24) {
      text.append(alphabet[int(in: 0...alphabet.count - 1)])
    }
    return text
  }

  // MARK: Values

  mutating func participant() -> Participant {
    Participant(
      id: user(), name: string(), role: element(Role.self), isVideoOn: bool(),
      audio: AudioStatus(type: element(AudioType.self), isMuted: bool(), isTalking: bool()),
      shareStatus: element(ShareStatus.self), networkQuality: element(NetworkQuality.self),
      joinOrder: uint64(), customUserKey: optional { $0.string() })
  }

  mutating func share() -> ActiveShare {
    ActiveShare(
      owner: user(), status: element(ShareStatus.self), kind: element(ShareKind.self),
      isViewerAnnotationDisabled: bool(), annotators: Set(users()), clearCount: int(),
      startOrder: uint64())
  }

  mutating func snapshot() -> SessionSnapshot {
    SessionSnapshot(
      sessionName: string(), sessionID: string(), myself: user(),
      participants: (0..<int(in: 0...4)).map { _ in participant() },
      shareSetting: element(ShareSetting.self),
      shares: (0..<int(in: 0...3)).map { _ in share() },
      chatPrivilege: element(ChatPrivilege.self), activeSpeakers: users(), spotlighted: users(),
      subSessions: subSessionBoard(),
      recording: RecordingBoard(status: element(RecordingStatus.self), agreed: Set(users())),
      sequence: uint64())
  }

  /// A board whose members are in listed subsessions (the wire numbers them by position), with
  /// distinct ids.
  mutating func subSessionBoard() -> SubSessionBoard {
    let list = subSessionList()
    var rooms: [UserID: String] = [:]
    if !list.isEmpty {
      for _ in 0..<int(in: 0...4) { rooms[user()] = list[int(in: 0...list.count - 1)].id }
    }
    return SubSessionBoard(status: element(SubSessionStatus.self), list: list, rooms: rooms)
  }

  mutating func subSessionList() -> [SubSession] {
    (0..<int(in: 0...3)).map { SubSession(id: "\(string())#\($0)", name: string()) }
  }

  mutating func subSessionEvent() -> SubSessionEvent {
    switch int(in: 0...4) {
    case 0: .statusChanged(element(SubSessionStatus.self), subSessionList())
    case 1: .userMoved(user(), to: optional { $0.string() })
    case 2: .broadcast(from: user(), message: string())
    case 3: .helpRequested(by: user(), subSessionID: string())
    default: .helpResult(element(SubSessionHelpResult.self))
    }
  }

  mutating func subSessionCommand() -> SubSessionCommand {
    switch int(in: 0...8) {
    case 0: .commit((0..<int(in: 0...3)).map { _ in string() })
    case 1: .withdraw
    case 2: .start
    case 3: .stop
    case 4: .join(subSessionID: string())
    case 5: .returnToMain
    case 6: .broadcast(string())
    case 7: .requestHelp
    default: .answerHelp(requester: user(), join: bool())
    }
  }

  mutating func chat() -> ChatMessage {
    ChatMessage(
      id: string(), sender: user(), receiver: optional { $0.user() }, content: string(),
      timestamp: int64())
  }

  mutating func error() -> VideoSDKError { element(VideoSDKError.self) }

  // MARK: Events and commands

  /// The number of `SessionEvent` cases.
  static let eventCaseCount = 31

  mutating func event() -> SessionEvent { event(case: int(in: 0...Self.eventCaseCount - 1)) }

  /// An event of the given case, numbered in declaration order from 0.
  mutating func event(case index: Int) -> SessionEvent {
    switch index {
    case 0: .initialized
    case 1: .cleanedUp
    case 2: .joinRequested(sessionName: string(), userName: string())
    case 3: .sessionJoined(snapshot())
    case 4: .joinFailed(error: error())
    case 5: .leaveRequested
    case 6: .sessionLeft(reason: element(LeaveReason.self))
    case 7: .usersJoined((0..<int(in: 0...4)).map { _ in participant() })
    case 8: .usersLeft(users())
    case 9: .videoStatusChanged(user: user(), isOn: bool())
    case 10: .audioStatusChanged(user: user(), type: element(AudioType.self), isMuted: bool())
    case 11: .activeSpeakersChanged(users())
    case 12: .hostAskedUnmute(by: user())
    case 13:
      .shareStatusChanged(
        user: user(), status: element(ShareStatus.self), kind: element(ShareKind.self))
    case 14: .shareSettingChanged(element(ShareSetting.self))
    case 15: .hostChanged(newHost: user())
    case 16: .managerChanged(user: user(), isManager: bool())
    case 17: .nameChanged(user: user(), name: string())
    case 18: .annotationStarted(user: user(), shareOwner: user())
    case 19: .annotationStopped(user: user(), shareOwner: user())
    case 20:
      .annotationCleared(user: user(), shareOwner: user(), type: element(AnnotationClearType.self))
    case 21: .annotationPrivilegeChanged(shareOwner: user(), isViewerAnnotationDisabled: bool())
    case 22: .chatMessageReceived(chat())
    case 23: .chatMessageDeleted(messageID: string(), deletedBy: element(ChatDeleteBy.self))
    case 24: .chatPrivilegeChanged(element(ChatPrivilege.self))
    case 25: .networkStatusChanged(user: user(), quality: element(NetworkQuality.self))
    case 26: .errorOccurred(error: error(), detail: int())
    case 27: .commandReceived(sender: user(), content: string())
    case 28: .spotlightChanged(users())
    case 29: .subSession(subSessionEvent())
    default:
      bool()
        ? .recording(.statusChanged(element(RecordingStatus.self))) : .recording(.agreed(user()))
    }
  }

  /// The number of `SessionCommand` cases.
  static let commandCaseCount = 37

  mutating func command() -> SessionCommand {
    command(case: int(in: 0...Self.commandCaseCount - 1))
  }

  /// A command of the given case, numbered in declaration order from 0.
  mutating func command(case index: Int) -> SessionCommand {
    switch index {
    case 0: .leave(end: bool())
    case 1: .startVideo
    case 2: .stopVideo
    case 3: .startAudio
    case 4: .stopAudio
    case 5: .muteAudio(user: user())
    case 6: .unmuteAudio(user: user())
    case 7: .muteAllAudio(allowUnmute: bool())
    case 8: .unmuteAllAudio
    case 9: .allowAudioUnmutedBySelf(bool())
    case 10: .startShare(kind: element(ShareKind.self))
    case 11: .pauseShare
    case 12: .resumeShare
    case 13: .stopShare
    case 14: .lockShare(bool())
    case 15: .enableMultiShare(bool())
    case 16: .disableViewerAnnotation(bool())
    case 17: .startAnnotation(shareOwner: user())
    case 18: .stopAnnotation(shareOwner: user())
    case 19: .clearAnnotation(shareOwner: user(), type: element(AnnotationClearType.self))
    case 20: .makeHost(user())
    case 21: .makeManager(user())
    case 22: .revokeManager(user())
    case 23: .removeUser(user())
    case 24: .reclaimHost
    case 25: .changeName(user: user(), name: string())
    case 26: .sendChat(receiver: optional { $0.user() }, content: string())
    case 27: .deleteChatMessage(messageID: string())
    case 28: .changeChatPrivilege(element(ChatPrivilege.self))
    case 29: .reportTalking(bool())
    case 30: .reportNetworkQuality(element(NetworkQuality.self))
    case 31: .sendCommand(receiver: optional { $0.user() }, content: string())
    case 32: .spotlightVideo(user())
    case 33: .unspotlightVideo(user())
    case 34: .unspotlightAllVideos
    case 35: .subSession(subSessionCommand())
    default: .recording([.start, .stop, .pause, .resume, .agree][int(in: 0...4)])
    }
  }

  // MARK: Messages

  /// The number of `ClientMessage` cases.
  static let clientMessageCaseCount = 6

  mutating func clientMessage() -> ClientMessage {
    clientMessage(case: int(in: 0...Self.clientMessageCaseCount - 1))
  }

  mutating func clientMessage(case index: Int) -> ClientMessage {
    switch index {
    case 0:
      .join(
        JoinRequest(
          sessionName: string(), userName: string(), token: string(),
          password: optional { $0.string() }, connectAudio: bool(), muteAudio: bool(),
          videoOn: bool(), idleTimeoutMinutes: optional { $0.int() }))
    case 1: .password(optional { $0.string() })
    case 2: .command(uint32(), command())
    case 3:
      .resume(
        ResumeRequest(
          sessionID: string(), user: user(), resumeToken: uint64(), lastSequence: uint64()))
    case 4: .heartbeat
    default: .media(mediaRequest())
    }
  }

  /// The number of `ServerMessage` cases.
  static let serverMessageCaseCount = 9

  mutating func serverMessage() -> ServerMessage {
    serverMessage(case: int(in: 0...Self.serverMessageCaseCount - 1))
  }

  mutating func serverMessage(case index: Int) -> ServerMessage {
    switch index {
    case 0: .joined(snapshot(), resumeToken: uint64())
    case 1: .joinRefused(error())
    case 2: .passwordRequired(wrong: bool())
    case 3: .events(batch())
    case 4: .notice(event())
    case 5: .commandFailed(uint32(), error())
    case 6: .left(element(LeaveReason.self))
    case 7: .heartbeat
    default: .media(mediaNotice())
    }
  }

  // MARK: Media plane

  mutating func mediaKind() -> MediaKind { [MediaKind.video, .audio, .share][int(in: 0...2)] }

  /// A stream whose layer its kind allows.
  mutating func stream() -> StreamID {
    let kind = mediaKind()
    return StreamID(
      user: user(), kind: kind, layer: kind == .video ? UInt8(int(in: 0...2)) : 0)
  }

  mutating func uint16() -> UInt16 { UInt16(truncatingIfNeeded: uint64()) }

  /// The number of `MediaRequest` cases.
  static let mediaRequestCaseCount = 4

  mutating func mediaRequest() -> MediaRequest {
    mediaRequest(case: int(in: 0...Self.mediaRequestCaseCount - 1))
  }

  mutating func mediaRequest(case index: Int) -> MediaRequest {
    switch index {
    case 0: .subscribe(publisher: user(), kind: mediaKind(), maxLines: uint16())
    case 1: .unsubscribe(publisher: user(), kind: mediaKind())
    case 2: .announce(stream(), bitrate: uint32(), width: uint16(), height: uint16())
    default: .withdraw(stream())
    }
  }

  /// The number of `MediaNotice` cases.
  static let mediaNoticeCaseCount = 8

  mutating func mediaNotice() -> MediaNotice {
    mediaNotice(case: int(in: 0...Self.mediaNoticeCaseCount - 1))
  }

  mutating func mediaNotice(case index: Int) -> MediaNotice {
    switch index {
    case 0: .bound
    case 1:
      .subscribeRefused(
        publisher: user(), kind: mediaKind(), reason: element(MediaRefusalReason.self))
    case 2: .keyFrameRequested(stream())
    case 3: .downlinkEstimate(uint32())
    case 4:
      .credential(
        MediaCredential(
          id: uint64(),
          key: (0..<MediaCredential.keySize).map { _ in UInt8(truncatingIfNeeded: uint64()) }))
    case 5: .unbound(element(MediaUnboundReason.self))
    case 6:
      .streamPaused(
        publisher: user(), kind: mediaKind(), reason: element(MediaPauseReason.self))
    default: .streamResumed(publisher: user(), kind: mediaKind())
    }
  }

  /// A batch of 1 to 8 events whose sequence numbers fit in 64 bits.
  mutating func batch() -> EventBatch {
    let events = (0..<int(in: 1...8)).map { _ in event() }
    let first = min(uint64(), UInt64.max - UInt64(events.count - 1))
    return EventBatch(firstSequence: first, events: events)
  }

  mutating func goodbye() -> WireGoodbye {
    WireGoodbye(reason: element(WireGoodbye.Reason.self), text: string())
  }

  /// Any frame a client may send.
  mutating func clientFrame() -> WireClientFrame {
    switch int(in: 0...9) {
    case 0: .hello(WireHello(clientName: optional { $0.string() }))
    case 1: .goodbye(goodbye())
    default: .message(clientMessage())
    }
  }

  /// Any frame a server may send.
  mutating func serverFrame() -> WireServerFrame {
    switch int(in: 0...9) {
    case 0: .helloAck(WireHelloAck(version: UInt16(truncatingIfNeeded: uint64())))
    case 1: .goodbye(goodbye())
    default: .message(serverMessage())
    }
  }
}
