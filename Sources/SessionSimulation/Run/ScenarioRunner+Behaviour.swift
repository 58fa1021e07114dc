import SessionCore
import SessionSDK
import VirtualNetwork

extension ScenarioRunner {
  /// The kinds of random behaviour, each a Poisson process per peer.
  enum BehaviourKind: String, CaseIterable {
    case leave, video, audio, mute, chat, share, annotate, rename, talk, raiseHand

    func rate(in spec: BehaviourSpec) -> Double? {
      switch self {
      case .leave: spec.leavePerMinute
      case .video: spec.videoTogglePerMinute
      case .audio: spec.audioTogglePerMinute
      case .mute: spec.mutePerMinute
      case .chat: spec.chatPerMinute
      case .share: spec.sharePerMinute
      case .annotate: spec.annotatePerMinute
      case .rename: spec.renamePerMinute
      case .talk: spec.talkPerMinute
      case .raiseHand: spec.raiseHandPerMinute
      }
    }
  }

  /// Draws every behaviour's times for every peer it selects, up to the end of the scripted
  /// part, each peer and kind from its own stream.
  func scheduleBehaviours(_ scenario: Scenario) {
    let end = Double(scenario.duration.milliseconds)
    for (number, spec) in scenario.behaviours.enumerated() {
      for peer in select(spec.peers) {
        for kind in BehaviourKind.allCases {
          guard let rate = kind.rate(in: spec), rate > 0, rate.isFinite else { continue }
          var random = streams.stream("behaviour/\(number)/\(peer.name)/\(kind.rawValue)")
          let mean = 60_000 / rate
          var time = random.exponential(mean: mean)
          while time < end {
            let spans = (
              rejoin: Self.draw(spec.rejoinAfter ?? .exactly(.seconds(5)), &random),
              talk: Self.draw(spec.talkFor ?? .exactly(.seconds(2)), &random)
            )
            schedule(at: Int64(time)) { runner in
              runner.behave(kind, peer, rejoinAfter: spans.rejoin, talkFor: spans.talk)
            }
            time += random.exponential(mean: mean)
          }
        }
      }
    }
  }

  /// One step of a behaviour: a toggle of what the peer's replica says it has now.
  func behave(
    _ kind: BehaviourKind, _ peer: SimulatedPeer, rejoinAfter: SimDuration, talkFor: SimDuration
  ) {
    guard peer.canAct, peer.isInSession else { return }
    let me = peer.sdk.getSession()?.getMySelf()?.participant
    switch kind {
    case .leave:
      perform(.leave, by: peer)
      peer.rejoinsByBehaviour = true
      let incarnation = peer.incarnation
      schedule(after: rejoinAfter) { runner in
        guard peer.incarnation == incarnation, peer.rejoinsByBehaviour else { return }
        peer.rejoinsByBehaviour = false
        runner.rejoin(peer, after: .zero, onlyIfWanted: false)
      }
    case .video:
      perform(me?.isVideoOn == true ? .stopVideo : .startVideo, by: peer)
    case .audio:
      perform(me?.audio.type == AudioType.none ? .startAudio : .stopAudio, by: peer)
    case .mute:
      perform(me?.audio.isMuted == true ? .unmute : .mute, by: peer)
    case .chat:
      perform(.chat, by: peer)
    case .share:
      perform(me?.shareStatus.isActive == true ? .stopShare : .startShare, by: peer)
    case .annotate:
      let state = peer.sdk.store.current
      let annotating =
        state.myselfID.map { id in state.shares.values.contains { $0.annotators.contains(id) } }
        ?? false
      if annotating {
        perform(.stopAnnotation, by: peer)
      } else {
        perform(.startAnnotation, by: peer)
      }
    case .raiseHand:
      let state = peer.sdk.store.current
      guard let host = state.hostID, host != state.myselfID,
        let hostPeer = peers.first(where: { $0.userID == host })
      else { return }
      perform(.command, by: peer, target: hostPeer.name, text: "raise-hand")
    case .rename:
      chatCounter += 1
      perform(.rename, by: peer, text: "\(peer.name) (\(chatCounter))")
    case .talk:
      guard !peer.isTalking else { return }
      perform(.talk, by: peer, value: true)
      let incarnation = peer.incarnation
      schedule(after: talkFor) { runner in
        guard peer.incarnation == incarnation, peer.isTalking, !runner.isHealed else { return }
        runner.perform(.talk, by: peer, value: false)
      }
    }
  }
}
