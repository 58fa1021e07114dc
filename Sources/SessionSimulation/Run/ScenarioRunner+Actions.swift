import Foundation
import SessionCore
import SessionSDK
import SessionService

extension ScenarioRunner {
  // MARK: Joining

  /// The peer joins with its spec's token, media options and password.
  func join(_ peer: SimulatedPeer) {
    guard peer.canAct else {
      skippedCount += 1
      return
    }
    guard !peer.isInSession else { return }
    actionCount += 1
    let context = SessionContext(
      token: token(for: peer), sessionName: scenario.session.name, userName: peer.name,
      sessionPassword: peer.spec.password ?? scenario.session.password,
      audioOption: AudioOptions(connect: peer.spec.audio, mute: peer.spec.muted),
      videoOption: VideoOptions(localVideoOn: peer.spec.video))
    peer.wantsSession = peer.spec.token.isAccepted
    if peer.sdk.joinSession(context) == nil {
      refusedCount += 1
      refusedOperations["join", default: 0] += 1
    }
  }

  /// Whether an error is the service's (or the SDK's) answer to a join: the 15xx join errors
  /// and a failed join (a full session, one with every id used, too many members on a token).
  static func isJoinRefusal(_ error: VideoSDKError) -> Bool {
    (1_500..<1_600).contains(error.rawValue) || error == .sessionJoinFailed
  }

  /// A token for the peer's next join, as its spec says (valid, or broken one way).
  func token(for peer: SimulatedPeer) -> String {
    let issuedAt = world.clock(for: peer.name)() / 1_000 - 30
    let role: TokenRole = peer.spec.role == .host ? .host : .participant
    let session = scenario.session.name
    switch peer.spec.token {
    case .valid:
      // One token per peer, as an app server mints one per user: peers that join in the same
      // second do not share one (the service bounds the members per token).
      return minter.mint(
        sessionName: session, role: role, issuedAt: issuedAt, tokenID: peer.name)
    case .expired:
      return minter.mint(sessionName: session, role: role, issuedAt: issuedAt - 10_800)
    case .notYetValid:
      return minter.mint(sessionName: session, role: role, issuedAt: issuedAt + 3_600)
    case .badSignature:
      return TokenMinter(appKey: DevelopmentCredentials.key, secret: "another-secret")
        .mint(sessionName: session, role: role, issuedAt: issuedAt)
    case .wrongSession:
      return minter.mint(sessionName: session + "-elsewhere", role: role, issuedAt: issuedAt)
    case .malformed:
      return "not-a-jwt"
    }
  }

  /// What an app does after certain callbacks: a peer that wants its session back rejoins
  /// a second after a network error ends it (as the seeds' apps would on `NetworkError`), and
  /// tries again a second after a join that failed to reach the service.
  func afterCallback(_ callback: VideoSDKCallback, of peer: SimulatedPeer) {
    if case .onError(let error, _) = callback, !peer.isInSession, Self.isJoinRefusal(error) {
      refusedJoins[error.sdkName, default: 0] += 1
    }
    switch callback {
    case .onSessionLeave(let reason):
      guard reason == .networkError, peer.wantsSession else {
        if reason != .networkError { peer.wantsSession = false }
        return
      }
    case .onError(.sessionJoinFailed, _):
      guard peer.wantsSession else { return }
      peer.joinRetries += 1
      // A session that stays full (or a service that stays down) ends the retries.
      guard peer.joinRetries <= 30 else {
        peer.wantsSession = false
        return
      }
    case .onError:
      // Refused for a reason a retry would not change (a full session, a wrong password).
      if !peer.isInSession { peer.wantsSession = false }
      return
    default:
      return
    }
    rejoin(peer, after: .seconds(1), onlyIfWanted: true)
  }

  /// Joins `peer` after `delay`, as its app would; while the peer is paused the attempt waits
  /// (a stopped process runs no timers), and a restart in between cancels it.
  func rejoin(_ peer: SimulatedPeer, after delay: SimDuration, onlyIfWanted: Bool) {
    let incarnation = peer.incarnation
    schedule(after: delay) { runner in
      guard peer.incarnation == incarnation, !peer.isInSession else { return }
      guard !onlyIfWanted || peer.wantsSession else { return }
      switch peer.life {
      case .dead: return
      case .paused: runner.rejoin(peer, after: .seconds(1), onlyIfWanted: onlyIfWanted)
      case .alive: runner.join(peer)
      }
    }
  }

  // MARK: Scripted actions

  /// Performs an action on every live peer it selects.
  func perform(_ action: ActionSpec) {
    for peer in select(action.peer) {
      perform(
        action.operation, by: peer, target: action.target, text: action.text,
        value: action.value)
    }
  }

  /// The peers a name or `*` pattern selects, in run order.
  func select(_ pattern: String) -> [SimulatedPeer] {
    if let exact = peersByName[pattern] { return [exact] }
    return peers.filter { PeerPattern.matches(pattern, $0.name) }
  }

  /// The user a peer's replica knows by a peer name.
  func user(named name: String?, in sdk: VideoSDK) -> User? {
    guard let name, let session = sdk.getSession() else { return nil }
    if let id = peersByName[name]?.userID { return session.user(withID: id) }
    return session.getOrderedUsers().first { $0.getName() == name }
  }

  /// One SDK operation; counts it, and counts a refusal (an error code or false) as refused.
  func perform(
    _ operation: ActionSpec.Operation, by peer: SimulatedPeer, target: String? = nil,
    text: String? = nil, value: Bool? = nil
  ) {
    if operation == .join {
      join(peer)
      return
    }
    guard peer.canAct, peer.isInSession else {
      skippedCount += 1
      return
    }
    actionCount += 1
    let sdk = peer.sdk
    let me = sdk.getSession()?.getMySelf()
    let targetUser = user(named: target, in: sdk)
    let result: Bool
    switch operation {
    case .join:
      result = true
    case .leave:
      peer.wantsSession = false
      result = sdk.leaveSession(false) == .success
    case .endSession:
      peer.wantsSession = false
      result = sdk.leaveSession(true) == .success
    case .startVideo: result = sdk.getVideoHelper().startVideo() == .success
    case .stopVideo: result = sdk.getVideoHelper().stopVideo() == .success
    case .startAudio: result = sdk.getAudioHelper().startAudio() == .success
    case .stopAudio: result = sdk.getAudioHelper().stopAudio() == .success
    case .mute: result = sdk.getAudioHelper().muteAudio(me) == .success
    case .unmute: result = sdk.getAudioHelper().unmuteAudio(me) == .success
    case .muteUser: result = sdk.getAudioHelper().muteAudio(targetUser) == .success
    case .unmuteUser: result = sdk.getAudioHelper().unmuteAudio(targetUser) == .success
    case .muteAll: result = sdk.getAudioHelper().muteAllAudio(value ?? true) == .success
    case .unmuteAll: result = sdk.getAudioHelper().unmuteAllAudio() == .success
    case .talk:
      peer.isTalking = value ?? true
      result = sdk.getAudioHelper().simulateTalking(peer.isTalking) == .success
    case .startShare: result = sdk.getShareHelper().startShare(with: peer.screen) == .success
    case .stopShare: result = sdk.getShareHelper().stopShare() == .success
    case .pauseShare: result = sdk.getShareHelper().pauseShare() == .success
    case .resumeShare: result = sdk.getShareHelper().resumeShare() == .success
    case .lockShare: result = sdk.getShareHelper().lockShare(value ?? true) == .success
    case .enableMultiShare:
      result = sdk.getShareHelper().enableMultiShare(value ?? true) == .success
    case .disableViewerAnnotation:
      result = sdk.getShareHelper().disableViewerAnnotation(value ?? true) == .success
    case .startAnnotation:
      result = startAnnotation(peer, on: targetUser)
    case .stopAnnotation:
      result = peer.annotationHelper?.stopAnnotation() == .success
    case .clearAnnotation:
      let type: AnnotationClearType =
        switch text ?? "all" {
        case "my", "mine": .my
        case "others": .others
        default: .all
        }
      result = peer.annotationHelper?.clear(type) == .success
    case .chat:
      chatCounter += 1
      let content = text ?? "message \(chatCounter) from \(peer.name)"
      result = sdk.getChatHelper().SendChatToAll(content) == .success
    case .chatTo:
      chatCounter += 1
      let content = text ?? "private \(chatCounter) from \(peer.name)"
      result = sdk.getChatHelper().SendChatToUser(targetUser, Content: content) == .success
    case .command:
      chatCounter += 1
      let content = text ?? "command \(chatCounter) from \(peer.name)"
      // A target that is not in the session is refused, not turned into a broadcast.
      result =
        target != nil && targetUser == nil
        ? false : sdk.getCmdChannel().sendCommand(content, receiveUser: targetUser) == .success
    case .spotlight:
      result = sdk.getVideoHelper().spotLightVideo(targetUser) == .success
    case .unspotlight:
      result =
        target == nil
        ? sdk.getVideoHelper().unSpotlightAllVideos() == .success
        : sdk.getVideoHelper().unSpotLightVideo(targetUser) == .success
    case .deleteChat:
      let mine = sdk.store.current.chatMessages.last { $0.sender == me?.id }
      result = sdk.getChatHelper().deleteChatMessage(mine?.id) == .success
    case .changeChatPrivilege:
      let privilege: ChatPrivilege =
        switch text ?? "everyone" {
        case "noOne", "none": .noOne
        case "everyonePublicly", "public": .everyonePublicly
        default: .everyonePubliclyAndPrivately
        }
      result = sdk.getChatHelper().changeChatPrivilege(privilege) == .success
    case .makeHost: result = sdk.getUserHelper().makeHost(targetUser)
    case .makeManager: result = sdk.getUserHelper().makeManager(targetUser)
    case .revokeManager: result = sdk.getUserHelper().revokeManager(targetUser) == .success
    case .removeUser: result = sdk.getUserHelper().removeUser(targetUser)
    case .rename:
      result = sdk.getUserHelper().changeName(text ?? "\(peer.name)", withUser: targetUser ?? me)
    case .reclaimHost: result = sdk.getUserHelper().reclaimHost()
    case .commitSubSessions, .withdrawSubSessions, .startSubSessions, .stopSubSessions,
      .joinSubSession, .returnToMainSession, .broadcastToSubSessions, .requestHelp, .answerHelp:
      result = performSubSession(operation, by: peer, text: text, value: value) == .success
    case .startRecording: result = sdk.getRecordingHelper().startCloudRecording() == .success
    case .pauseRecording: result = sdk.getRecordingHelper().pauseCloudRecording() == .success
    case .resumeRecording: result = sdk.getRecordingHelper().resumeCloudRecording() == .success
    case .stopRecording: result = sdk.getRecordingHelper().stopCloudRecording() == .success
    case .answerRecording:
      guard peer.recordingPrompts > 0 else {
        result = false
        break
      }
      peer.recordingPrompts = 0
      let prompt = sdk.recordAgreementHandler
      if value ?? true {
        result = prompt.accept()
      } else {
        // Declining a traditional recording leaves the session, and the peer stays out.
        peer.wantsSession = false
        result = prompt.decline()
      }
    }
    if !result {
      refusedCount += 1
      refusedOperations[operation.rawValue, default: 0] += 1
    }
  }

  private func startAnnotation(_ peer: SimulatedPeer, on owner: User?) -> Bool {
    let sdk = peer.sdk
    let shareOwner =
      owner
      ?? sdk.getSession()?.getOrderedUsers().first { $0.participant?.shareStatus.isActive == true }
    guard let shareOwner else { return false }
    if let helper = peer.annotationHelper {
      _ = sdk.getShareHelper().destroyAnnotationHelper(helper)
    }
    guard let helper = sdk.getShareHelper().createAnnotationHelper(forShareOf: shareOwner) else {
      peer.annotationHelper = nil
      return false
    }
    peer.annotationHelper = helper
    return helper.startAnnotation() == .success
  }
}

/// Peer selection by name pattern: `*` matches any run of characters.
enum PeerPattern {
  /// Whether `name` matches `pattern`.
  static func matches(_ pattern: String, _ name: String) -> Bool {
    let parts = pattern.split(separator: "*", omittingEmptySubsequences: false)
    guard parts.count > 1 else { return pattern == name }
    var rest = Substring(name)
    guard rest.hasPrefix(parts[0]) else { return false }
    rest = rest.dropFirst(parts[0].count)
    for (index, part) in parts.enumerated().dropFirst() {
      if index == parts.count - 1 { return part.isEmpty || rest.hasSuffix(part) }
      guard let range = rest.range(of: part) else { return false }
      rest = rest[range.upperBound...]
    }
    return true
  }
}
