import SessionCore
import SessionTransport

extension SessionService {
  /// Checks a command against the shared rules and the service's own, then turns it into
  /// events, or refuses it on the sender's connection alone.
  func run(
    _ command: SessionCommand, id: CommandID, by user: UserID, in session: ServiceSession,
    connection: ConnectionID, now: Int64
  ) {
    // Names and chat are cut to the limits first: one that cuts down to nothing is refused.
    let command = configuration.limits.normalized(command)
    var verdict = session.state.authorize(command, by: user)
    if verdict == .success { verdict = serviceRules(command, by: user, in: session) }
    if verdict == .success, case .sendCommand = command {
      verdict = admitCommand(in: session, now: now)
    }
    guard verdict == .success else {
      log(.info, "\(user): \(command.name) refused: \(verdict.sdkName)")
      send(.commandFailed(id, verdict), to: connection)
      return
    }
    perform(command, by: user, in: session, now: now)
  }

  /// Rules that need facts only the service holds, and values no SDK call can mean.
  private func serviceRules(_ command: SessionCommand, by user: UserID, in session: ServiceSession)
    -> VideoSDKError
  {
    switch command {
    case .reclaimHost:
      return session.members[user]?.roleType == .host ? .success : .sessionNoRights
    case .subSession(let call):
      return subSessionRules(call, by: user, in: session)
    case .unmuteAudio(let target) where target == user:
      let isModerator = session.state.participants[user]?.role != .participant
      return session.selfUnmuteAllowed || isModerator ? .success : .sessionNoRights
    default:
      return .success
    }
  }

  /// The most command-channel commands a session carries in a second, from all its members
  /// together: the SDK's documented rate. One more in the same second is refused with
  /// `Errors_Call_Too_Frequently` on its sender's connection and reaches nobody.
  public static let maxCommandsPerSecond = 2

  /// Whether one more command fits the session's current second; counts it if so.
  private func admitCommand(in session: ServiceSession, now: Int64) -> VideoSDKError {
    session.commandWindow.admit(at: now, length: 1_000, limit: Self.maxCommandsPerSecond)
      ? .success : .callTooFrequently
  }

  // Reads go to `session.state` in place: a local copy held across `emit` would make the
  // reducer copy the whole state (copy-on-write) on every command.
  private func perform(
    _ command: SessionCommand, by user: UserID, in session: ServiceSession, now: Int64
  ) {
    guard let caller = session.state.participants[user] else { return }
    switch command {
    case .leave(let end):
      if end, caller.role == .host {
        self.end(session, reason: .endByHost, endedBy: user)
      } else {
        removeMember(user, from: session, reason: .bySelf, now: now)
      }

    case .startVideo where !caller.isVideoOn:
      emit([.videoStatusChanged(user: user, isOn: true)], in: session)
    case .stopVideo where caller.isVideoOn:
      emit([.videoStatusChanged(user: user, isOn: false)], in: session)

    case .startAudio where caller.audio.type == .none:
      let muted = !session.selfUnmuteAllowed && caller.role == .participant
      emit([.audioStatusChanged(user: user, type: .voip, isMuted: muted)], in: session)
    case .stopAudio where caller.audio.type != .none:
      emit(
        [.audioStatusChanged(user: user, type: .none, isMuted: true)]
          + silencing([user], in: session.state),
        in: session)

    case .muteAudio(let target):
      if let audio = session.state.participants[target]?.audio, audio.type != .none,
        !audio.isMuted
      {
        emit(
          [.audioStatusChanged(user: target, type: audio.type, isMuted: true)]
            + silencing([target], in: session.state),
          in: session)
      }
    case .unmuteAudio(let target) where target == user:
      if caller.audio.type != .none, caller.audio.isMuted {
        emit(
          [.audioStatusChanged(user: user, type: caller.audio.type, isMuted: false)], in: session)
      }
    case .unmuteAudio(let target):
      emitPrivately(.hostAskedUnmute(by: user), to: [target], in: session)
    case .muteAllAudio(let allowUnmute):
      session.selfUnmuteAllowed = allowUnmute
      let muted = session.state.usersInJoinOrder.filter {
        $0.id != user && $0.audio.type != .none && !$0.audio.isMuted
      }
      let events = muted.map {
        SessionEvent.audioStatusChanged(user: $0.id, type: $0.audio.type, isMuted: true)
      }
      emit(events + silencing(muted.map(\.id), in: session.state), in: session)
    case .unmuteAllAudio:
      let targets = session.state.usersInJoinOrder.lazy
        .filter { $0.id != user && $0.audio.type != .none && $0.audio.isMuted }.map(\.id)
      emitPrivately(.hostAskedUnmute(by: user), to: Array(targets), in: session)
    case .allowAudioUnmutedBySelf(let allow):
      session.selfUnmuteAllowed = allow

    case .startShare(let kind):
      var events: [SessionEvent] = []
      if session.state.shareSetting != .multi,
        let other = session.state.shares.values.first(where: {
          session.state.subSessions.together($0.owner, user)
        })
      {
        // authorize() let a moderator take over a participant's share.
        events.append(.shareStatusChanged(user: other.owner, status: .stopped, kind: other.kind))
      }
      events.append(.shareStatusChanged(user: user, status: .started, kind: kind))
      emit(events, in: session)
    case .pauseShare:
      if let share = session.state.shares[user] {
        emit([.shareStatusChanged(user: user, status: .paused, kind: share.kind)], in: session)
      }
    case .resumeShare:
      if let share = session.state.shares[user] {
        emit([.shareStatusChanged(user: user, status: .resumed, kind: share.kind)], in: session)
      }
    case .stopShare:
      if let share = session.state.shares[user] {
        emit([.shareStatusChanged(user: user, status: .stopped, kind: share.kind)], in: session)
      }
    case .lockShare(let lock):
      let setting = session.state.shareSetting
      if lock, setting != .locked {
        emit(stopAllSharesButOne(session.state) + [.shareSettingChanged(.locked)], in: session)
      } else if !lock, setting == .locked {
        emit([.shareSettingChanged(.single)], in: session)
      }
    case .enableMultiShare(let enable):
      let setting = session.state.shareSetting
      if enable, setting != .multi {
        emit([.shareSettingChanged(.multi)], in: session)
      } else if !enable, setting == .multi {
        emit(stopAllSharesButOne(session.state) + [.shareSettingChanged(.single)], in: session)
      }
    case .disableViewerAnnotation(let disable):
      if let share = session.state.shares[user], share.isViewerAnnotationDisabled != disable {
        emit(
          [.annotationPrivilegeChanged(shareOwner: user, isViewerAnnotationDisabled: disable)],
          in: session)
      }

    case .startAnnotation(let owner):
      emit([.annotationStarted(user: user, shareOwner: owner)], in: session)
    case .stopAnnotation(let owner):
      emit([.annotationStopped(user: user, shareOwner: owner)], in: session)
    case .clearAnnotation(let owner, let type):
      emit([.annotationCleared(user: user, shareOwner: owner, type: type)], in: session)

    case .makeHost(let target):
      emit([.hostChanged(newHost: target)], in: session)
    case .makeManager(let target):
      emit([.managerChanged(user: target, isManager: true)], in: session)
    case .revokeManager(let target):
      emit([.managerChanged(user: target, isManager: false)], in: session)
    case .removeUser(let target):
      removeMember(target, from: session, reason: .kickByHost, now: now)
    case .reclaimHost:
      // A co-host (role_type 1) who held host while the original host was away goes back to
      // being a manager, as they were before the handover.
      var events: [SessionEvent] = [.hostChanged(newHost: user)]
      if let previous = session.state.hostID, session.members[previous]?.roleType == .host {
        events.append(.managerChanged(user: previous, isManager: true))
      }
      emit(events, in: session)
    case .changeName(let target, let name):
      if session.state.participants[target]?.name != name {
        emit([.nameChanged(user: target, name: name)], in: session)
      }

    case .sendChat(let receiver, let content):
      session.nextMessage += 1
      let message = ChatMessage(
        id: "\(session.state.sessionID ?? "")-m\(session.nextMessage)", sender: user,
        receiver: receiver, content: content, timestamp: now)
      // The history is bounded: a new message pushes the oldest out (a limit of 0 keeps none).
      // Read in place: a copy of the list held across `emit` would be copied on append.
      let forgotten =
        session.state.chatHistoryCount < session.state.chatHistoryLimit
        ? nil : (session.state.oldestChatMessageID ?? message.id)
      session.stampMessage(message.id)
      if let receiver {
        emitPrivately(.chatMessageReceived(message), to: [user, receiver], in: session)
      } else if !session.state.subSessions.rooms.isEmpty {
        // Subsessions are open: a message to everyone reaches the sender's place alone.
        let rooms = session.state.subSessions
        let audience = session.memberOrder.filter { rooms.together($0, user) }
        session.chatAudiences[message.id] = audience
        emitPrivately(.chatMessageReceived(message), to: audience, in: session)
      } else {
        emit([.chatMessageReceived(message)], in: session)
      }
      if let forgotten {
        session.messageStamps.removeValue(forKey: forgotten)
        session.chatAudiences.removeValue(forKey: forgotten)
      }
    case .deleteChatMessage(let messageID):
      guard let message = session.state.chatMessage(withID: messageID) else {
        return
      }
      // Only members who hold the message hear of its deletion: those who joined or resumed
      // after it was sent never got it (snapshots carry no chat history).
      let sentAt = session.messageStamps.removeValue(forKey: messageID) ?? 0
      let audience =
        message.receiver.map { [message.sender, $0] }
        ?? session.chatAudiences.removeValue(forKey: messageID) ?? session.memberOrder
      let holders = audience.filter { (session.members[$0]?.snapshotStamp ?? .max) < sentAt }
      emitPrivately(
        .chatMessageDeleted(
          messageID: messageID, deletedBy: message.sender == user ? .selfSender : .host),
        to: holders, in: session)
    case .sendCommand(let receiver, let content):
      // Only its recipients hear of it: one user, or everyone but the sender.
      let rooms = session.state.subSessions
      let recipients =
        receiver.map { [$0] }
        ?? session.memberOrder.filter { $0 != user && rooms.together($0, user) }
      emitPrivately(.commandReceived(sender: user, content: content), to: recipients, in: session)
    case .changeChatPrivilege(let privilege) where privilege != session.state.chatPrivilege:
      emit([.chatPrivilegeChanged(privilege)], in: session)

    case .reportTalking(let talking):
      let speakers = session.state.activeSpeakers
      let speaking = speakers.contains(user)
      // A muted or disconnected microphone is not heard.
      let audible = caller.audio.type != .none && !caller.audio.isMuted
      if talking, audible, !speaking {
        emit([.activeSpeakersChanged(speakers + [user])], in: session)
      } else if !talking, speaking {
        emit([.activeSpeakersChanged(speakers.filter { $0 != user })], in: session)
      }
    case .reportNetworkQuality(let quality) where quality != caller.networkQuality:
      emit([.networkStatusChanged(user: user, quality: quality)], in: session)

    case .spotlightVideo(let target) where !session.state.spotlighted.contains(target):
      emit([.spotlightChanged(session.state.spotlighted + [target])], in: session)
    case .unspotlightVideo(let target):
      emit([.spotlightChanged(session.state.spotlighted.filter { $0 != target })], in: session)
    case .unspotlightAllVideos where !session.state.spotlighted.isEmpty:
      emit([.spotlightChanged([])], in: session)

    case .subSession(let call):
      perform(call, by: user, in: session)

    // The cloud recording: no recording is made; everyone hears the status and each
    // agreement. Resuming is a start after a pause.
    case .recording(.start), .recording(.resume):
      emit([.recording(.statusChanged(.start))], in: session)
    case .recording(.pause):
      emit([.recording(.statusChanged(.pause))], in: session)
    case .recording(.stop):
      emit([.recording(.statusChanged(.stop))], in: session)
    case .recording(.agree):
      emit([.recording(.agreed(user))], in: session)

    case .startVideo, .stopVideo, .startAudio, .stopAudio, .changeChatPrivilege,
      .reportNetworkQuality, .spotlightVideo, .unspotlightAllVideos:
      break  // Already so: accepted, nothing changes.
    }
  }

  /// The speaker change that drops `users` from the active speakers, if any of them is one:
  /// a user who is muted or disconnects audio stops talking.
  private func silencing(_ users: [UserID], in state: SessionState) -> [SessionEvent] {
    let speakers = state.activeSpeakers
    guard !speakers.isEmpty, users.contains(where: speakers.contains) else { return [] }
    let silenced = Set(users)
    return [.activeSpeakersChanged(speakers.filter { !silenced.contains($0) })]
  }

  /// Stops every live share but one in each place: the host's, else the oldest.
  private func stopAllSharesButOne(_ state: SessionState) -> [SessionEvent] {
    guard state.shares.count > 1 else { return [] }
    let ordered = state.sharesInStartOrder
    // One share is kept in each place (a subsession, or the main session): the host's there,
    // else the oldest.
    var kept: [String?: UserID] = [:]
    for share in ordered {
      let place = state.subSessions.rooms[share.owner]
      if kept[place] == nil || share.owner == state.hostID { kept[place] = share.owner }
    }
    let keep = Set(kept.values)
    return ordered.filter { !keep.contains($0.owner) }.map {
      .shareStatusChanged(user: $0.owner, status: .stopped, kind: $0.kind)
    }
  }
}
