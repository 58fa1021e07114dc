/// An SDK operation a scenario makes peers perform at a time.
///
/// `peer` selects who acts: a name, or a pattern with `*` (`"student-*"`, `"*"`). `target`
/// names the user an operation is about, by peer name. An action on a peer that is not in
/// the session (or is dead or paused) is skipped and counted in the report; one the SDK
/// refuses is recorded with its error: refusals are behaviour, not failures.
///
/// > Important: A value; `Sendable`.
public struct ActionSpec: Sendable, Hashable, Codable {
  /// Every operation a scenario can script: one per SDK call that talks to the service.
  public enum Operation: String, Sendable, Hashable, Codable, CaseIterable {
    /// `joinSession` with the peer's context.
    case join
    /// `leaveSession(false)`.
    case leave
    /// `leaveSession(true)`: the host ends the session for all.
    case endSession
    /// `VideoHelper.startVideo()`.
    case startVideo
    /// `VideoHelper.stopVideo()`.
    case stopVideo
    /// `AudioHelper.startAudio()`.
    case startAudio
    /// `AudioHelper.stopAudio()`.
    case stopAudio
    /// `AudioHelper.muteAudio(myself)`.
    case mute
    /// `AudioHelper.unmuteAudio(myself)`.
    case unmute
    /// `AudioHelper.muteAudio(target)`.
    case muteUser
    /// `AudioHelper.unmuteAudio(target)`: asks the target to unmute.
    case unmuteUser
    /// `AudioHelper.muteAllAudio(value ?? true)`.
    case muteAll
    /// `AudioHelper.unmuteAllAudio()`.
    case unmuteAll
    /// The synthetic microphone hears speech (`value` false: silence).
    case talk
    /// `ShareHelper.startShare(with:)`.
    case startShare
    /// `ShareHelper.stopShare()`.
    case stopShare
    /// `ShareHelper.pauseShare()`.
    case pauseShare
    /// `ShareHelper.resumeShare()`.
    case resumeShare
    /// `ShareHelper.lockShare(value ?? true)`.
    case lockShare
    /// `ShareHelper.enableMultiShare(value ?? true)`.
    case enableMultiShare
    /// `ShareHelper.disableViewerAnnotation(value ?? true)`.
    case disableViewerAnnotation
    /// An annotation helper on `target`'s share (default: the first share) and
    /// `startAnnotation()`.
    case startAnnotation
    /// `stopAnnotation()` on the peer's annotation helper.
    case stopAnnotation
    /// `clear(text ?? "all")`: `all`, `my` or `others`, on the peer's annotation helper.
    case clearAnnotation
    /// `ChatHelper.SendChatToAll(text)`.
    case chat
    /// `ChatHelper.SendChatToUser(target, text)`.
    case chatTo
    /// `ChatHelper.deleteChatMessage` of the peer's newest message.
    case deleteChat
    /// `CmdChannel.sendCommand`: the text to the target peer, or to everyone else when there
    /// is no target.
    case command
    /// `VideoHelper.spotLightVideo` of the target peer.
    case spotlight
    /// `VideoHelper.unSpotLightVideo` of the target peer, or `unSpotlightAllVideos` without one.
    case unspotlight
    /// `ChatHelper.changeChatPrivilege(text)`: `everyone`, `everyonePublicly`, `noOne`, or
    /// `hostOnly`.
    case changeChatPrivilege
    /// `UserHelper.makeHost(target)`.
    case makeHost
    /// `UserHelper.makeManager(target)`.
    case makeManager
    /// `UserHelper.revokeManager(target)`.
    case revokeManager
    /// `UserHelper.removeUser(target)`.
    case removeUser
    /// `UserHelper.changeName(text, target ?? myself)`.
    case rename
    /// `UserHelper.reclaimHost()`.
    case reclaimHost
    /// `SubSessionHelper.addSubSession(toPreList:)` and `commitSubSessionList()`: the names in
    /// `text`, separated by commas; without `text`, "Group 1" … for groups of five of the
    /// scenario's peers who are not the actor.
    case commitSubSessions
    /// `SubSessionHelper.withdrawSubSessionList()`.
    case withdrawSubSessions
    /// `SubSessionManager.startSubSession()`.
    case startSubSessions
    /// `SubSessionManager.stopSubSession()`: everyone returns to the main session.
    case stopSubSessions
    /// `SubSessionKit.joinSubSession()` of the subsession named `text`; without `text`, the
    /// peer's group of five by its place among the scenario's peers (the first five peers
    /// after the first in "Group 1", and so on).
    case joinSubSession
    /// `SubSessionParticipant.returnToMainSession()`.
    case returnToMainSession
    /// `SubSessionManager.broadcastMessage(text)`.
    case broadcastToSubSessions
    /// `SubSessionParticipant.requestForHelp()`.
    case requestHelp
    /// The newest help request the peer heard: `joinSubSessionByUserRequest()` (`value` true,
    /// the default) or `ignore()`.
    case answerHelp
    /// `RecordingHelper.startCloudRecording()`.
    case startRecording
    /// `RecordingHelper.pauseCloudRecording()`.
    case pauseRecording
    /// `RecordingHelper.resumeCloudRecording()`.
    case resumeRecording
    /// `RecordingHelper.stopCloudRecording()`.
    case stopRecording
    /// The newest recording consent prompt the peer got: `accept()` (`value` true, the
    /// default) or `decline()`, which leaves the session for good.
    case answerRecording
  }

  /// When, after the start.
  public var at: SimDuration
  /// Who acts: a name or a `*` pattern.
  public var peer: String
  /// What they do.
  public var operation: Operation
  /// The user the operation is about, by peer name.
  public var target: String?
  /// Text: chat content, a new name, a clear type, a chat privilege.
  public var text: String?
  /// A flag: lock or unlock, enable or disable, talking or silent.
  public var value: Bool?

  /// Makes an action.
  ///
  /// - Parameters:
  ///   - at: When, after the start.
  ///   - peer: Who acts: a name or a `*` pattern.
  ///   - operation: What they do (the file's `do`).
  ///   - target: The user the operation is about, by peer name; `nil` when it names none.
  ///   - text: Chat content, a new name, a clear type or a chat privilege; `nil` when it needs
  ///     none.
  ///   - value: A flag: lock or unlock, enable or disable, talking or silent; `nil` for the
  ///     operation's default.
  public init(
    at: SimDuration, peer: String, _ operation: Operation, target: String? = nil,
    text: String? = nil, value: Bool? = nil
  ) {
    self.at = at
    self.peer = peer
    self.operation = operation
    self.target = target
    self.text = text
    self.value = value
  }

  private enum CodingKeys: String, CodingKey {
    case at, peer
    case operation = "do"
    case target, text, value
  }
}

/// Random behaviour of a set of peers, by rates per minute of each peer, as Poisson
/// processes drawn from the scenario's seed (one stream per peer and kind, so adding a peer
/// changes nothing for the others).
///
/// > Important: A value; `Sendable`.
public struct BehaviourSpec: Sendable, Hashable, Codable {
  /// Who behaves so: a name or a `*` pattern.
  public var peers: String
  /// Leaving per minute; a peer that left rejoins after `rejoinAfter`.
  public var leavePerMinute: Double?
  /// How long a peer that left stays out (default 5 s).
  public var rejoinAfter: SimDurationRange?
  /// Camera on/off flips per minute.
  public var videoTogglePerMinute: Double?
  /// Audio connect/disconnect flips per minute.
  public var audioTogglePerMinute: Double?
  /// Mute/unmute flips per minute.
  public var mutePerMinute: Double?
  /// Chat messages to everyone per minute.
  public var chatPerMinute: Double?
  /// Raised hands per minute: `raise-hand` to the host over the command channel (nothing when
  /// the peer is the host or there is none).
  public var raiseHandPerMinute: Double?
  /// Share start/stop flips per minute.
  public var sharePerMinute: Double?
  /// Annotation start/stop flips per minute (on whatever is shared).
  public var annotatePerMinute: Double?
  /// Renames per minute.
  public var renamePerMinute: Double?
  /// Talking spurts per minute; each lasts `talkFor`.
  public var talkPerMinute: Double?
  /// How long a talking spurt lasts (default 2 s).
  public var talkFor: SimDurationRange?

  /// Makes a behaviour.
  ///
  /// - Parameters:
  ///   - peers: Who behaves so: a name or a `*` pattern.
  ///   - leavePerMinute: Leaving, each followed by a rejoin after `rejoinAfter`.
  ///   - rejoinAfter: How long a peer that left stays out; `nil` for 5 s.
  ///   - videoTogglePerMinute: Camera on/off flips.
  ///   - audioTogglePerMinute: Audio connect/disconnect flips.
  ///   - mutePerMinute: Mute/unmute flips.
  ///   - chatPerMinute: Chat messages to everyone.
  ///   - sharePerMinute: Share start/stop flips.
  ///   - annotatePerMinute: Annotation start/stop flips, on whatever is shared.
  ///   - renamePerMinute: Renames.
  ///   - talkPerMinute: Talking spurts, each `talkFor` long.
  ///   - talkFor: How long a talking spurt lasts; `nil` for 2 s.
  ///   - raiseHandPerMinute: Raised hands: `raise-hand` to the host on the command channel.
  public init(
    peers: String, leavePerMinute: Double? = nil, rejoinAfter: SimDurationRange? = nil,
    videoTogglePerMinute: Double? = nil, audioTogglePerMinute: Double? = nil,
    mutePerMinute: Double? = nil, chatPerMinute: Double? = nil, sharePerMinute: Double? = nil,
    annotatePerMinute: Double? = nil, renamePerMinute: Double? = nil,
    talkPerMinute: Double? = nil, talkFor: SimDurationRange? = nil,
    raiseHandPerMinute: Double? = nil
  ) {
    self.peers = peers
    self.leavePerMinute = leavePerMinute
    self.rejoinAfter = rejoinAfter
    self.videoTogglePerMinute = videoTogglePerMinute
    self.audioTogglePerMinute = audioTogglePerMinute
    self.mutePerMinute = mutePerMinute
    self.chatPerMinute = chatPerMinute
    self.sharePerMinute = sharePerMinute
    self.annotatePerMinute = annotatePerMinute
    self.renamePerMinute = renamePerMinute
    self.talkPerMinute = talkPerMinute
    self.talkFor = talkFor
    self.raiseHandPerMinute = raiseHandPerMinute
  }
}
