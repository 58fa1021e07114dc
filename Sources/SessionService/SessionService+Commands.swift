import SessionCore
import SessionTransport

extension SessionService {
  /// Checks a command against the shared rules and the service's own, then turns it into
  /// events, or refuses it on the sender's connection alone.
  func run(
    _ command: SessionCommand, id: CommandID, by user: UserID, in session: ServiceSession,
    connection: ConnectionID, now: Int64
  ) {
    var verdict = session.state.authorize(command, by: user)
    if verdict == .success { verdict = serviceRules(command, by: user, in: session) }
    guard verdict == .success else {
      log("\(user): \(command.name) refused: \(verdict.sdkName)")
      send(.commandFailed(id, verdict), to: connection)
      return
    }
    perform(command, by: user, in: session, now: now)
  }

  /// Rules that need facts only the service holds.
  private func serviceRules(_ command: SessionCommand, by user: UserID, in session: ServiceSession)
    -> VideoSDKError
  {
    let isModerator = session.state.participants[user]?.role != .participant
    switch command {
    case .reclaimHost:
      return session.members[user]?.roleType == .host ? .success : .sessionNoRights
    case .unmuteAudio(let target) where target == user:
      return session.selfUnmuteAllowed || isModerator ? .success : .sessionNoRights
    case .startAudio:
      return .success
    default:
      return .success
    }
  }

  private func perform(
    _ command: SessionCommand, by user: UserID, in session: ServiceSession, now: Int64
  ) {
    let state = session.state
    guard let caller = state.participants[user] else { return }
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
      emit([.audioStatusChanged(user: user, type: .none, isMuted: true)], in: session)

    case .muteAudio(let target):
      if let audio = state.participants[target]?.audio, audio.type != .none, !audio.isMuted {
        emit([.audioStatusChanged(user: target, type: audio.type, isMuted: true)], in: session)
      }
    case .unmuteAudio(let target) where target == user:
      if caller.audio.type != .none, caller.audio.isMuted {
        emit([.audioStatusChanged(user: user, type: caller.audio.type, isMuted: false)], in: session)
      }
    case .unmuteAudio(let target):
      emitPrivately(.hostAskedUnmute(by: user), to: [target], in: session)
    case .muteAllAudio(let allowUnmute):
      session.selfUnmuteAllowed = allowUnmute
      let events = state.usersInJoinOrder.compactMap { other -> SessionEvent? in
        guard other.id != user, other.audio.type != .none, !other.audio.isMuted else { return nil }
        return .audioStatusChanged(user: other.id, type: other.audio.type, isMuted: true)
      }
      emit(events, in: session)
    case .unmuteAllAudio:
      let targets = state.usersInJoinOrder.lazy
        .filter { $0.id != user && $0.audio.type != .none && $0.audio.isMuted }.map(\.id)
      emitPrivately(.hostAskedUnmute(by: user), to: Array(targets), in: session)
    case .allowAudioUnmutedBySelf(let allow):
      session.selfUnmuteAllowed = allow

    case .startShare(let kind):
      var events: [SessionEvent] = []
      if state.shareSetting != .multi, let other = state.shares.keys.first {
        // authorize() let a moderator take over a participant's share.
        events.append(
          .shareStatusChanged(user: other, status: .stopped, kind: state.shares[other]?.kind ?? .view))
      }
      events.append(.shareStatusChanged(user: user, status: .started, kind: kind))
      emit(events, in: session)
    case .pauseShare:
      if let share = state.shares[user] {
        emit([.shareStatusChanged(user: user, status: .paused, kind: share.kind)], in: session)
      }
    case .resumeShare:
      if let share = state.shares[user] {
        emit([.shareStatusChanged(user: user, status: .resumed, kind: share.kind)], in: session)
      }
    case .stopShare:
      if let share = state.shares[user] {
        emit([.shareStatusChanged(user: user, status: .stopped, kind: share.kind)], in: session)
      }
    case .lockShare(let lock):
      if lock, state.shareSetting != .locked {
        emit(stopAllSharesButOne(state) + [.shareSettingChanged(.locked)], in: session)
      } else if !lock, state.shareSetting == .locked {
        emit([.shareSettingChanged(.single)], in: session)
      }
    case .enableMultiShare(let enable):
      if enable, state.shareSetting != .multi {
        emit([.shareSettingChanged(.multi)], in: session)
      } else if !enable, state.shareSetting == .multi {
        emit(stopAllSharesButOne(state) + [.shareSettingChanged(.single)], in: session)
      }
    case .disableViewerAnnotation(let disable):
      if let share = state.shares[user], share.isViewerAnnotationDisabled != disable {
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
      emit([.hostChanged(newHost: user)], in: session)
    case .changeName(let target, let name):
      let name = String(name.prefix(configuration.limits.maxUserNameLength))
      if state.participants[target]?.name != name {
        emit([.nameChanged(user: target, name: name)], in: session)
      }

    case .sendChat(let receiver, let content):
      session.nextMessage += 1
      let message = ChatMessage(
        id: "\(session.state.sessionID ?? "")-m\(session.nextMessage)", sender: user,
        receiver: receiver,
        content: SessionLimits.truncate(content, toUTF8Bytes: configuration.limits.maxChatBytes),
        timestamp: now)
      if let receiver {
        emitPrivately(.chatMessageReceived(message), to: [user, receiver], in: session)
      } else {
        emit([.chatMessageReceived(message)], in: session)
      }
    case .deleteChatMessage(let messageID):
      guard let message = state.chatMessages.last(where: { $0.id == messageID }) else { return }
      let event = SessionEvent.chatMessageDeleted(
        messageID: messageID, deletedBy: message.sender == user ? .selfSender : .host)
      if let receiver = message.receiver {
        emitPrivately(event, to: [message.sender, receiver], in: session)
      } else {
        emit([event], in: session)
      }
    case .changeChatPrivilege(let privilege) where privilege != state.chatPrivilege:
      emit([.chatPrivilegeChanged(privilege)], in: session)

    case .reportTalking(let talking):
      let speaking = state.activeSpeakers.contains(user)
      if talking, !speaking {
        emit([.activeSpeakersChanged(state.activeSpeakers + [user])], in: session)
      } else if !talking, speaking {
        emit([.activeSpeakersChanged(state.activeSpeakers.filter { $0 != user })], in: session)
      }
    case .reportNetworkQuality(let quality) where quality != caller.networkQuality:
      emit([.networkStatusChanged(user: user, quality: quality)], in: session)

    case .startVideo, .stopVideo, .startAudio, .stopAudio, .changeChatPrivilege,
      .reportNetworkQuality:
      break  // Already so: accepted, nothing changes.
    }
  }

  /// Stops every live share but one: the host's, else the oldest.
  private func stopAllSharesButOne(_ state: SessionState) -> [SessionEvent] {
    guard state.shares.count > 1 else { return [] }
    let ordered = state.sharesInStartOrder
    let keep = ordered.first { $0.owner == state.hostID } ?? ordered[0]
    return ordered.filter { $0.owner != keep.owner }.map {
      .shareStatusChanged(user: $0.owner, status: .stopped, kind: $0.kind)
    }
  }
}
