import SessionCore
import SessionTransport
import Synchronization

extension SDKEngine {
  // MARK: The media link

  /// Starts the media plane of a session just joined, if the instance has one: a fresh media
  /// link and a ``MediaSession`` that binds once the service sends the media credential.
  func startMedia(me: UserID) {
    stopMedia()
    guard let configuration, let factory = configuration.media else { return }
    mediaPlane.session = MediaSession(me: me, settings: configuration.mediaSettings)
    let link = factory.makeMediaLink()
    mediaPlane.link = link
    mediaLinkForRelease.withLock { $0 = MediaLinkBox(link: link) }
    let generation = mediaPlane.generation
    // As the signalling link's, the handler holds the engine strongly; closing the link
    // (`stopMedia`, or the facade's `deinit`) breaks the cycle.
    link.start { event in self.receiveMedia(event, generation: generation) }
    log(.info, "media plane started")
  }

  /// Ends the media plane: the sources stop, the link closes, the session's figures are kept.
  func stopMedia() {
    mediaPlane.generation &+= 1
    if let media = mediaPlane.session {
      mediaPlane.retiredDiagnostics = mediaPlane.retiredDiagnostics + media.diagnostics
      mediaPlane.retiredFigures = media.figures()
    }
    mediaPlane.session = nil
    mediaPlane.authenticator = nil
    guard let link = mediaPlane.link else { return }
    mediaPlane.link = nil
    mediaLinkForRelease.withLock { $0 = nil }
    link.close()
  }

  /// A resync (after a resume): forget the streams of users gone meanwhile, and send all
  /// signalling again on the new link (the credential that follows the `joined` binds again).
  /// Runs before the snapshot applies, so that subscriptions its callbacks make go out after
  /// it.
  func mediaResynced(snapshot: SessionSnapshot) {
    guard mediaPlane.session != nil else { return }
    mediaPlane.session?.resendSignalling()
    let present = Set(snapshot.participants.map(\.id))
    for user in mediaPlane.session?.subscribedUsers ?? [] where !present.contains(user) {
      mediaPlane.session?.forget(user)
      local.subscriptions.removeAll(of: user)
    }
    flushMediaSignalling()
  }

  /// Whether media requests and the media plane's commands can go out now: in the session on a
  /// link, not while resuming or leaving.
  var canSignalMedia: Bool {
    guard link != nil, case .inSession = lifecycle.state else { return false }
    return true
  }

  // MARK: Media events

  /// A tick or a datagram of the current media link.
  func handleMedia(_ event: MediaLinkEvent) {
    guard mediaPlane.session != nil else { return }
    switch event {
    case .tick(let now):
      var out = takeMediaOutput()
      let state = store.state
      let me = mediaPlane.session?.me
      let previews = LocalMedia(
        video: me.map { local.subscriptions.hasLiveViews(StreamKey(user: $0, kind: .video)) }
          ?? false,
        share: me.map { local.subscriptions.hasLiveViews(StreamKey(user: $0, kind: .share)) }
          ?? false)
      mediaPlane.session?.tick(
        now: now, local: localMedia(in: state), canSignal: canSignalMedia, previews: previews,
        isPublishing: { Self.isPublishing($0, $1, in: state) }, into: &out)
      performMedia(&out)
    case .datagram(let bytes, let time):
      receiveDatagram(bytes, at: time)
    }
  }

  /// Decodes a datagram and hands it to the media session; a frame it completes goes to the
  /// stream's views.
  private func receiveDatagram(_ bytes: [UInt8], at time: Int64) {
    // Every datagram ends with a tag: the publisher's on a forwarded packet (which the
    // instance cannot check), its own on a pong or a check (checked in `receiveControl`).
    let decoded = bytes.withUnsafeBytes { sealed in
      MediaDatagram.body(ofSealed: sealed).flatMap { try? MediaDatagram.decode($0) }
    }
    guard let datagram = decoded else {
      mediaPlane.session?.diagnostics.malformedDatagrams += 1
      return
    }
    switch datagram {
    case .packet(let packet):
      // Presence without reading `state`: no copy of the state, no observation, per packet.
      let store = self.store
      let received = mediaPlane.session?.receive(
        packet, at: time, isPresent: { store.participantAddress($0) != nil })
      if case .frame(let frame)? = received { deliver(frame) }
    default:
      receiveControl(datagram, sealed: bytes, at: time)
    }
  }

  /// Sends what the media session asked for, in order: datagrams, signalling, commands,
  /// callbacks, then the local preview frames.
  func performMedia(_ out: inout MediaOutput) {
    if let mediaLink = mediaPlane.link {
      for datagram in out.datagrams {
        if let bytes = encode(datagram) { mediaLink.send(bytes) }
      }
    }
    for request in out.requests { sendMediaRequest(request) }
    for command in out.commands {
      let result = perform(command)
      if result != .success { log(.info, "\(command.name) not sent: \(result.sdkName)") }
    }
    for change in out.levels {
      deliver(
        .onUserNetworkStatusChanged(change.type, change.level, user: change.user), view: nil)
    }
    for frame in out.previews { deliver(frame) }
    out.clear()
    mediaPlane.output = out
  }

  /// The reusable output buffer, taken so that a call into the SDK from a callback it causes
  /// gets its own.
  func takeMediaOutput() -> MediaOutput {
    var out = MediaOutput()
    swap(&out, &mediaPlane.output)
    return out
  }

  /// Sends the subscriptions and announcements that changed, at once (not at the next tick).
  func flushMediaSignalling() {
    guard mediaPlane.session != nil, canSignalMedia else { return }
    var out = takeMediaOutput()
    mediaPlane.session?.signal(into: &out)
    performMedia(&out)
  }

  /// What the replica says the local user sends.
  func localMedia(in state: SessionState) -> LocalMedia {
    guard state.phase == .inSession, let me = state.myselfID,
      let participant = state.participants[me]
    else { return LocalMedia() }
    return LocalMedia(
      video: participant.isVideoOn,
      audio: participant.audio.type != .none && !participant.audio.isMuted,
      share: Self.isSharing(state.shares[me]))
  }

  /// Whether a user's replica says they send a kind.
  static func isPublishing(_ user: UserID, _ kind: MediaKind, in state: SessionState) -> Bool {
    guard let participant = state.participants[user] else { return false }
    switch kind {
    case .video: return participant.isVideoOn
    case .audio: return participant.audio.type != .none && !participant.audio.isMuted
    case .share: return isSharing(state.shares[user])
    }
  }

  private static func isSharing(_ share: ActiveShare?) -> Bool {
    share?.status == .started || share?.status == .resumed
  }

  // MARK: Frames

  /// Hands a frame to every view of its stream that is a sink; views found gone are forgotten,
  /// and the subscription follows.
  func deliver(_ frame: VideoFrame) {
    let key = StreamKey(user: frame.user, kind: frame.kind == .share ? .share : .video)
    guard let viewers = local.subscriptions.viewers[key] else { return }
    var sawGone = false
    // By index: copying a viewer would copy its two weak references per frame.
    for index in viewers.indices {
      if let sink = viewers[index].sink {
        sink.onFrameReceived(frame)
      } else if !viewers[index].isLive {
        sawGone = true
      }
    }
    if sawGone, local.subscriptions.pruneDeadViews(of: key) { syncMediaSubscription(key) }
  }

  // MARK: Subscriptions

  /// Tells the media session what the views of `key` want now, and sends what changed.
  func syncMediaSubscription(_ key: StreamKey) {
    guard let me = mediaPlane.session?.me, key.user != me else { return }
    let lines = local.subscriptions.maxLines(for: key)
    if let change = mediaPlane.session?.setSubscription(key, maxLines: lines) {
      deliver(
        .onUserNetworkStatusChanged(change.type, change.level, user: change.user), view: nil)
    }
    flushMediaSignalling()
  }

  /// The service refused a subscription: the views concerned hear why, and are forgotten.
  func mediaSubscriptionRefused(
    publisher: UserID, kind: MediaKind, reason: MediaRefusalReason
  ) {
    let key = StreamKey(user: publisher, kind: kind)
    guard mediaPlane.session?.subscriptionRefused(key) == true else { return }
    let views = local.subscriptions.removeAll(of: key)
    log(.info, "subscription to \(publisher)'s \(kind) refused: \(reason)")
    let failure: SubscribeFailReason =
      switch reason {
      case .exceededLimit: .hasSubscribeExceededLimit
      case .oneShare: .hasSubscribeOneShare
      case .invalid: .none
      }
    for view in views {
      deliver(.onVideoCanvasSubscribeFail(failure, user: publisher), view: view)
    }
  }

  // MARK: Statistics

  /// What a user's stream of `kind` does: the local user's send figures, a remote user's
  /// receive figures; zero with no media plane.
  func statistics(of user: UserID, kind: MediaKind) -> QOSStatistics {
    guard let media = mediaPlane.session else {
      let me = store.state.myselfID
      return QOSStatistics(
        direction: user == me ? .send : .receive, statisticsType: DataType(kind))
    }
    if user == media.me { return media.sendStatistics(kind) }
    return media.receiveStatistics(StreamKey(user: user, kind: kind))
  }

  /// The session's figures for `kind`; zero with no media plane.
  func sessionStatistics(_ kind: MediaKind) -> SessionStatisticInfo {
    mediaPlane.session?.sessionStatistics(kind) ?? SessionStatisticInfo()
  }

  /// The media diagnostics of every session so far.
  var mediaDiagnostics: MediaDiagnostics {
    mediaPlane.retiredDiagnostics + (mediaPlane.session?.diagnostics ?? MediaDiagnostics())
  }

  /// The current session's media figures, or the last session's.
  var mediaFigures: MediaFigures {
    mediaPlane.session?.figures() ?? mediaPlane.retiredFigures
  }

  // MARK: Talking

  /// `simulateTalking`: with a media plane it sets the talking model's state, which reports
  /// itself; without, it reports at once.
  func simulateTalking(_ talking: Bool) -> VideoSDKError {
    guard mediaPlane.session != nil else { return perform(.reportTalking(talking)) }
    guard configuration != nil else { return .uninitialize }
    guard link != nil, store.state.myselfID != nil else { return .notInSession }
    mediaPlane.session?.setTalking(talking)
    return .success
  }
}
