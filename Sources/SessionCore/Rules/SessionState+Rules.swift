extension SessionState {
  /// Whether `user` may run `command` now, judged on this state: the rules the SDK checks
  /// locally (to return its error code at once) and the service checks authoritatively.
  ///
  /// Rules that need facts only the service holds (the token's role for `reclaimHost`, whether
  /// self-unmute is allowed) are the service's to add.
  ///
  /// - Parameters:
  ///   - command: What the user asks for, already ``SessionLimits/normalized(_:)``.
  ///   - user: Who asks.
  /// - Returns: ``VideoSDKError/success``, or the SDK error the call returns.
  /// - Complexity: O(1) but for `deleteChatMessage` (O(messages)).
  public func authorize(_ command: SessionCommand, by user: UserID) -> VideoSDKError {
    // While leaving, the SDK reports the instance as out of the session (`isInSession()` is
    // false), so helper calls answer `Errors_Not_In_Session` as they do after the leave.
    guard phase == .inSession, let caller = participants[user] else {
      return .notInSession
    }
    let moderator = caller.role != .participant
    switch command {
    case .leave, .startVideo, .stopVideo, .startAudio, .stopAudio, .reportTalking,
      .reportNetworkQuality:
      return .success

    case .muteAudio(let target), .unmuteAudio(let target):
      guard participants[target] != nil else { return .invalidParameter }
      return target == user || moderator ? .success : .sessionNoRights

    case .sendCommand(let receiver, let content):
      // Anyone may send; the text must be 1 to 512 characters (the SDK's documented size),
      // counted only once its UTF-8 length is known to be small.
      guard !content.isEmpty, content.utf8.count <= Self.maxCommandBytes,
        content.count <= Self.maxCommandCharacters
      else { return .invalidParameter }
      if let receiver {
        guard receiver != user, participants[receiver] != nil,
          subSessions.together(user, receiver)
        else { return .invalidParameter }
      }
      return .success

    case .subSession(let call):
      return authorize(call, by: user, caller: caller)
    case .recording(let call):
      return authorize(call, by: user, caller: caller)

    case .spotlightVideo(let target):
      guard caller.role == .host else { return .sessionNoRights }
      guard let targetUser = participants[target] else { return .spotlightUserCannotBeSpotlighted }
      guard participants.count >= 2 else { return .spotlightNotEnoughUsers }
      guard !spotlighted.contains(target) else { return .success }
      guard spotlighted.count < Self.maxSpotlighted else { return .spotlightToMuchSpotlightedUsers }
      return targetUser.isVideoOn ? .success : .spotlightUserWithoutVideo

    case .unspotlightVideo(let target):
      guard caller.role == .host else { return .sessionNoRights }
      return spotlighted.contains(target) ? .success : .spotlightUserNotSpotlighted

    case .unspotlightAllVideos:
      return caller.role == .host ? .success : .sessionNoRights

    case .changeChatPrivilege(let privilege):
      guard privilege != .unknown else { return .invalidParameter }
      return moderator ? .success : .sessionNoRights

    case .muteAllAudio, .unmuteAllAudio, .allowAudioUnmutedBySelf, .lockShare, .enableMultiShare:
      return moderator ? .success : .sessionNoRights

    case .startShare(let kind):
      if kind == .camera, !caller.isVideoOn { return .sessionShareCameraVideoNotStart }
      if shares[user] != nil { return .sessionShareError }
      switch shareSetting {
      case .none:
        return .sessionNoRights
      case .locked where !moderator:
        return .sessionNoRights
      case .locked, .single:
        // One share at a time in each place (a subsession, or the main session).
        guard let other = shares.keys.first(where: { subSessions.together($0, user) }) else {
          return .success
        }
        // Host and managers take over a plain participant's share.
        return moderator && participants[other]?.role == .participant
          ? .success : .sessionShareError
      case .multi:
        return .success
      }

    case .pauseShare:
      guard let share = shares[user] else { return .sessionShareYouAreNotSharing }
      return share.status == .paused ? .wrongUsage : .success

    case .resumeShare:
      guard let share = shares[user] else { return .sessionShareYouAreNotSharing }
      return share.status == .paused ? .success : .wrongUsage

    case .stopShare, .disableViewerAnnotation:
      return shares[user] == nil ? .sessionShareYouAreNotSharing : .success

    case .startAnnotation(let owner):
      // A share in another subsession is not one the caller sees.
      guard let share = shares[owner], subSessions.together(user, owner) else {
        return .sessionShareError
      }
      if owner != user, share.isViewerAnnotationDisabled { return .sessionNoRights }
      // One share at a time: stop annotating on the other share first.
      return annotatedShare(of: user) == nil ? .success : .wrongUsage

    case .stopAnnotation(let owner):
      guard let share = shares[owner] else { return .sessionShareError }
      return share.annotators.contains(user) ? .success : .wrongUsage

    case .clearAnnotation(let owner, let type):
      guard shares[owner] != nil, subSessions.together(user, owner) else {
        return .sessionShareError
      }
      return canClearAnnotations(type, on: owner, by: user) ? .success : .sessionNoRights

    case .makeHost(let target), .makeManager(let target), .removeUser(let target):
      guard caller.role == .host else { return .sessionNoRights }
      guard target != user, participants[target] != nil else { return .invalidParameter }
      if case .makeManager = command, participants[target]?.role == .manager { return .wrongUsage }
      return .success

    case .revokeManager(let target):
      guard caller.role == .host else { return .sessionNoRights }
      guard target != user, let targetUser = participants[target] else { return .invalidParameter }
      return targetUser.role == .manager ? .success : .wrongUsage

    case .reclaimHost:
      return caller.role == .host ? .wrongUsage : .success

    case .changeName(let target, let name):
      guard participants[target] != nil, !name.isEmpty else { return .invalidParameter }
      return target == user || moderator ? .success : .sessionNoRights

    case .sendChat(let receiver, let content):
      guard !content.isEmpty else { return .invalidParameter }
      if let receiver {
        guard receiver != user, participants[receiver] != nil,
          subSessions.together(user, receiver)
        else { return .invalidParameter }
      }
      switch chatPrivilege {
      case .noOne where !moderator:
        return .sessionNoRights
      case .everyonePublicly where receiver != nil && !moderator:
        return .sessionNoRights
      default:
        return .success
      }

    case .deleteChatMessage(let messageID):
      guard chat.contains(messageID),
        let message = chatMessage(withID: messageID)
      else { return .invalidParameter }
      return message.sender == user || moderator ? .success : .sessionNoRights
    }
  }

  /// The most users whose video may be spotlighted at once (the SDK refuses a tenth with
  /// `Errors_Spotlight_ToMuchSpotlightedUsers`).
  public static let maxSpotlighted = 9

  /// The most characters a command-channel command may hold: the SDK's documented size.
  public static let maxCommandCharacters = 512

  /// The most UTF-8 bytes a command-channel command may hold (512 characters of up to four
  /// bytes each), checked before its characters are counted.
  public static let maxCommandBytes = 2_048
}

extension SessionState {
  /// Whether `caller` may make a subsession call now, and if not, the SDK's error for it.
  ///
  /// The list, start, stop and broadcast are the host's and managers' (`getsubSessionHelper`
  /// gives others no helper); a list commits only while the subsessions are not started, with
  /// 1 to ``maxSubSessions`` distinct names; members join a listed subsession while started,
  /// and return or ask for help from inside one; only the host answers help.
  func authorize(_ call: SubSessionCommand, by user: UserID, caller: Participant)
    -> VideoSDKError
  {
    let moderator = caller.role != .participant
    let board = subSessions
    switch call {
    case .commit(let names):
      guard moderator else { return .sessionNoRights }
      guard !board.isStarted else { return .wrongUsage }
      return Self.validSubSessionNames(names) ? .success : .invalidParameter
    case .withdraw:
      guard moderator else { return .sessionNoRights }
      return board.isStarted || board.list.isEmpty ? .wrongUsage : .success
    case .start:
      guard moderator else { return .sessionNoRights }
      return board.isStarted || board.list.isEmpty ? .wrongUsage : .success
    case .stop:
      guard moderator else { return .sessionNoRights }
      return board.isStarted ? .success : .wrongUsage
    case .join(let id):
      guard board.isStarted else { return .wrongUsage }
      return board.subSession(withID: id) == nil ? .invalidParameter : .success
    case .returnToMain:
      return board.rooms[user] == nil ? .wrongUsage : .success
    case .broadcast(let message):
      guard moderator else { return .sessionNoRights }
      guard board.isStarted else { return .wrongUsage }
      guard !message.isEmpty, message.utf8.count <= Self.maxCommandBytes,
        message.count <= Self.maxCommandCharacters
      else { return .invalidParameter }
      return .success
    case .requestHelp:
      return board.rooms[user] == nil || caller.role == .host ? .wrongUsage : .success
    case .answerHelp(let requester, _):
      guard caller.role == .host else { return .sessionNoRights }
      return board.rooms[requester] == nil ? .invalidParameter : .success
    }
  }
}

extension SessionState {
  /// Whether `caller` may make a cloud-recording call now, and if not, the SDK's error for it.
  ///
  /// Only the host starts, pauses, resumes and stops (`Errors_Session_No_Rights`); stopping or
  /// pausing with nothing recording is `Errors_No_Recording_In_Process`; starting a running
  /// recording or resuming one not paused is `Errors_Wrong_Usage`. Anyone else agrees once
  /// while a recording is in progress.
  func authorize(_ call: RecordingCommand, by user: UserID, caller: Participant)
    -> VideoSDKError
  {
    let status = recording.status
    switch call {
    case .start:
      guard caller.role == .host else { return .sessionNoRights }
      return recording.isRecording ? .wrongUsage : .success
    case .stop:
      guard caller.role == .host else { return .sessionNoRights }
      return recording.isRecording ? .success : .noRecordingInProcess
    case .pause:
      guard caller.role == .host else { return .sessionNoRights }
      return status == .start ? .success : .noRecordingInProcess
    case .resume:
      guard caller.role == .host else { return .sessionNoRights }
      return status == .pause ? .success : .wrongUsage
    case .agree:
      guard recording.isRecording else { return .noRecordingInProcess }
      return recording.agreed.contains(user) ? .wrongUsage : .success
    }
  }
}
