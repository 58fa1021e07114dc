import SessionCore
import SessionTransport

/// The fuzzers' values: drawn from the fuzzer's bytes, so that a mutation of a few bytes
/// changes a few values.
package typealias FuzzValues = ProtocolValues<FuzzInput>

/// Draws protocol values from a ``ValueSource``: every case of every event, command and
/// message, with integers at and around their boundaries and strings in several scripts.
///
/// The fuzzers draw from their bytes (``FuzzValues``, over ``FuzzInput``); the seeded property
/// tests from a seeded generator (``SeededSource``, `init(seed:)`). Either way the same source
/// gives the same values.
///
/// User ids come mostly from ``users``, so that events and commands name people who are
/// there; otherwise any 32-bit id, 0 or the largest.
///
/// > Important: A value, used by one harness call or one test on the calling thread.
package struct ProtocolValues<Source: ValueSource> {
  /// Where the values come from.
  package var input: Source
  /// The ids most user ids are drawn from; when empty every id is arbitrary.
  package var users: [UserID]

  /// Values from `input`.
  ///
  /// - Parameters:
  ///   - input: Where the values come from.
  ///   - users: The ids most user ids are drawn from.
  package init(_ input: Source, users: [UserID] = []) {
    self.input = input
    self.users = users
  }

  // MARK: Primitives (the source's)

  /// ``ValueSource/bool()``.
  package mutating func bool() -> Bool { input.bool() }
  /// ``ValueSource/int(in:)``.
  package mutating func int(in range: ClosedRange<Int>) -> Int { input.int(in: range) }
  /// ``ValueSource/uint64()``.
  package mutating func uint64() -> UInt64 { input.uint64() }
  /// ``ValueSource/uint32()``.
  package mutating func uint32() -> UInt32 { input.uint32() }
  /// ``ValueSource/uint16()``.
  package mutating func uint16() -> UInt16 { input.uint16() }
  /// ``ValueSource/int64()``.
  package mutating func int64() -> Int64 { input.int64() }
  /// ``ValueSource/int()``.
  package mutating func int() -> Int { input.int() }
  /// ``ValueSource/string()``.
  package mutating func string() -> String { input.string() }
  /// ``ValueSource/element(_:)``.
  package mutating func element<Value: CaseIterable>(_ type: Value.Type) -> Value {
    input.element(type)
  }

  /// A value made by `make`, or `nil`, as the next byte says.
  package mutating func optional<Value>(_ make: (inout Self) -> Value) -> Value? {
    input.bool() ? make(&self) : nil
  }

  /// A user id: usually one of ``users``, else 0, the largest, or any.
  package mutating func user() -> UserID {
    let selector = input.byte()
    if !users.isEmpty, selector < 224 { return users[Int(selector) % users.count] }
    switch selector % 4 {
    case 0: return 0
    case 1: return UserID(.max)
    default: return UserID(rawValue: input.uint32())
    }
  }

  /// Up to `max` user ids, repeats possible.
  package mutating func users(max: Int = 6) -> [UserID] {
    (0..<int(in: 0...max)).map { _ in user() }
  }

  // MARK: Values

  /// A participant with every field arbitrary.
  package mutating func participant() -> Participant {
    Participant(
      id: user(), name: string(), role: element(Role.self), isVideoOn: bool(),
      audio: AudioStatus(type: element(AudioType.self), isMuted: bool(), isTalking: bool()),
      shareStatus: element(ShareStatus.self), networkQuality: element(NetworkQuality.self),
      joinOrder: uint64(), customUserKey: optional { $0.string() })
  }

  /// A share with every field arbitrary.
  package mutating func share() -> ActiveShare {
    ActiveShare(
      owner: user(), status: element(ShareStatus.self), kind: element(ShareKind.self),
      isViewerAnnotationDisabled: bool(), annotators: Set(users()), clearCount: int(),
      startOrder: uint64())
  }

  /// A snapshot with every field arbitrary: many break the rules a state keeps.
  package mutating func snapshot() -> SessionSnapshot {
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
  package mutating func subSessionBoard() -> SubSessionBoard {
    let list = subSessionList()
    var rooms: [UserID: String] = [:]
    if !list.isEmpty {
      for _ in 0..<int(in: 0...4) { rooms[user()] = list[input.index(list.count)].id }
    }
    return SubSessionBoard(status: element(SubSessionStatus.self), list: list, rooms: rooms)
  }

  /// Up to three subsessions with distinct ids.
  package mutating func subSessionList() -> [SubSession] {
    (0..<int(in: 0...3)).map { SubSession(id: "\(string())#\($0)", name: string()) }
  }

  /// Any subsession event.
  package mutating func subSessionEvent() -> SubSessionEvent {
    switch int(in: 0...4) {
    case 0: .statusChanged(element(SubSessionStatus.self), subSessionList())
    case 1: .userMoved(user(), to: optional { $0.string() })
    case 2: .broadcast(from: user(), message: string())
    case 3: .helpRequested(by: user(), subSessionID: string())
    default: .helpResult(element(SubSessionHelpResult.self))
    }
  }

  /// Any subsession command.
  package mutating func subSessionCommand() -> SubSessionCommand {
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

  /// A chat message with every field arbitrary.
  package mutating func chat() -> ChatMessage {
    ChatMessage(
      id: string(), sender: user(), receiver: optional { $0.user() }, content: string(),
      timestamp: int64())
  }

  /// Any SDK error.
  package mutating func error() -> VideoSDKError { element(VideoSDKError.self) }

  // MARK: Events and commands

  /// The number of `SessionEvent` cases.
  package static var eventCaseCount: Int { 31 }

  /// Any event.
  package mutating func event() -> SessionEvent {
    event(case: int(in: 0...Self.eventCaseCount - 1))
  }

  /// An event of the given case, numbered in declaration order from 0.
  package mutating func event(case index: Int) -> SessionEvent {
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
  package static var commandCaseCount: Int { 37 }

  /// Any command.
  package mutating func command() -> SessionCommand {
    command(case: int(in: 0...Self.commandCaseCount - 1))
  }

  /// A command of the given case, numbered in declaration order from 0.
  package mutating func command(case index: Int) -> SessionCommand {
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
    default: .recording(input.pick([.start, .stop, .pause, .resume, .agree]))
    }
  }

  // MARK: Messages

  /// The number of `ClientMessage` cases.
  package static var clientMessageCaseCount: Int { 6 }

  /// Any message a client sends.
  package mutating func clientMessage() -> ClientMessage {
    clientMessage(case: int(in: 0...Self.clientMessageCaseCount - 1))
  }

  /// A client message of the case numbered `index` (0 to ``clientMessageCaseCount`` − 1; a
  /// larger number gives the last case), its fields arbitrary.
  package mutating func clientMessage(case index: Int) -> ClientMessage {
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
  package static var serverMessageCaseCount: Int { 9 }

  /// Any message the service sends.
  package mutating func serverMessage() -> ServerMessage {
    serverMessage(case: int(in: 0...Self.serverMessageCaseCount - 1))
  }

  /// A server message of the case numbered `index` (0 to ``serverMessageCaseCount`` − 1; a
  /// larger number gives the last case), its fields arbitrary.
  package mutating func serverMessage(case index: Int) -> ServerMessage {
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

  /// Video, audio or share.
  package mutating func mediaKind() -> MediaKind { input.pick([.video, .audio, .share]) }

  /// A stream whose layer its kind allows.
  package mutating func stream() -> StreamID {
    let kind = mediaKind()
    return StreamID(user: user(), kind: kind, layer: kind == .video ? UInt8(int(in: 0...2)) : 0)
  }

  /// The number of `MediaRequest` cases.
  package static var mediaRequestCaseCount: Int { 4 }

  /// Any media-plane request.
  package mutating func mediaRequest() -> MediaRequest {
    mediaRequest(case: int(in: 0...Self.mediaRequestCaseCount - 1))
  }

  /// A media-plane request of the case numbered `index` (0 to ``mediaRequestCaseCount`` − 1;
  /// a larger number gives the last case), its fields arbitrary.
  package mutating func mediaRequest(case index: Int) -> MediaRequest {
    switch index {
    case 0: .subscribe(publisher: user(), kind: mediaKind(), maxLines: uint16())
    case 1: .unsubscribe(publisher: user(), kind: mediaKind())
    case 2: .announce(stream(), bitrate: uint32(), width: uint16(), height: uint16())
    default: .withdraw(stream())
    }
  }

  /// The number of `MediaNotice` cases.
  package static var mediaNoticeCaseCount: Int { 8 }

  /// Any media-plane notice.
  package mutating func mediaNotice() -> MediaNotice {
    mediaNotice(case: int(in: 0...Self.mediaNoticeCaseCount - 1))
  }

  /// A media-plane notice of the case numbered `index` (0 to ``mediaNoticeCaseCount`` − 1; a
  /// larger number gives the last case), its fields arbitrary.
  package mutating func mediaNotice(case index: Int) -> MediaNotice {
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
          id: uint64(), key: (0..<MediaCredential.keySize).map { _ in input.byte() }))
    case 5: .unbound(element(MediaUnboundReason.self))
    case 6:
      .streamPaused(publisher: user(), kind: mediaKind(), reason: element(MediaPauseReason.self))
    default: .streamResumed(publisher: user(), kind: mediaKind())
    }
  }

  /// A batch of 1 to 8 events whose sequence numbers fit in 64 bits.
  package mutating func batch() -> EventBatch {
    let events = (0..<int(in: 1...8)).map { _ in event() }
    let first = min(uint64(), UInt64.max - UInt64(events.count - 1))
    return EventBatch(firstSequence: first, events: events)
  }

  /// A goodbye with any reason and text.
  package mutating func goodbye() -> WireGoodbye {
    WireGoodbye(reason: element(WireGoodbye.Reason.self), text: string())
  }

  /// Any frame a client may send (a hello of this protocol version).
  package mutating func clientFrame() -> WireClientFrame {
    switch int(in: 0...9) {
    case 0: .hello(WireHello(clientName: optional { $0.string() }))
    case 1: .goodbye(goodbye())
    default: .message(clientMessage())
    }
  }

  /// Any frame a server may send.
  package mutating func serverFrame() -> WireServerFrame {
    switch int(in: 0...9) {
    case 0: .helloAck(WireHelloAck(version: uint16()))
    case 1: .goodbye(goodbye())
    default: .message(serverMessage())
    }
  }
}
