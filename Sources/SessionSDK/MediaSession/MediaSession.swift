import SessionCore
import SessionTransport

/// The media plane of one joined session, sans-IO: the local user's synthetic sources, the
/// streams it receives, the probes and reports, and the network quality. Driven by the media
/// link's events (its ticks and datagrams, with their µs times) and by the engine's calls; it
/// answers with a ``MediaOutput`` and never calls anyone.
///
/// - *Binding.* Once the service sent the media credential, and until it says
///   ``SessionTransport/MediaNotice/bound``, every tick at least 250 ms after the last bind
///   sends another (`bind(user, credential id)`); the service's return-path check is answered
///   at once (``checkReply(nonce:)``). A credential (after every `joined`) or an `unbound`
///   notice starts binding again. Media, pings and reports go out only while bound.
/// - *Sources.* On each tick the sources follow the replica (``LocalMedia``): video on runs the
///   `VideoSource` (its simulcast layers up to the configured resolution), audio connected and
///   unmuted the `AudioSource`, a share started and not paused the `ShareSource`. A source is
///   made once and turned off and on, so its packets keep one sequence. Each source's streams
///   are announced when it starts and withdrawn when it stops. The audio source's talking
///   model drives talking: each change is sent as `reportTalking`.
/// - *Signalling* (announcements, subscriptions) is kept as state: what should be known and
///   what was sent. Whatever differs goes out when signalling is possible, and after a resume
///   everything goes out again.
/// - *Evaluation*, once a second: every received stream closes its interval (rates, loss
///   window, a ``SessionTransport/ReceiverReport`` for video and share), every stream's network
///   quality is evaluated, and the local user's overall level (the worst of what it sends) is
///   sent with `reportNetworkQuality` when it changes.
///
/// Streams are kept in arrays in the order they began, so that outputs come in the same order
/// in every run (dictionary order changes from process to process).
///
/// > Important: A value; owned by the engine of one SDK instance, on its isolation domain.
struct MediaSession: Sendable {
  /// Between two binds, µs.
  static let bindInterval: Int64 = 250_000
  /// Between two evaluations, µs.
  static let evaluationInterval: Int64 = 1_000_000
  /// The largest one-way delay counted, µs (an hour); a hostile send time cannot push more.
  static let maxDelay: Int64 = 3_600_000_000

  /// The local user.
  let me: UserID
  /// The sources' settings.
  let settings: MediaSettings
  /// The media credential the binds name, once the service sent it.
  var credential: MediaCredential?
  /// Whether the service accepted the endpoint.
  var isBound = false
  var nextBind: Int64?
  /// The latest time seen, µs; `nil` before the first event.
  var now: Int64?
  var nextEvaluation: Int64?
  /// When the last evaluation ran, µs.
  var lastEvaluation: Int64 = 0
  var nextPing: Int64?
  /// The round-trip probe.
  var probe = PingProbe()

  // MARK: Sending

  var video: VideoSource?
  var audio: AudioSource?
  var share: ShareSource?
  /// What the sources send now.
  var sending = LocalMedia() {
    didSet { needsSignal = true }
  }
  /// The talking state `simulateTalking` set, which overrides the model.
  var talkingOverride: Bool?
  /// The talking state last sent with `reportTalking`.
  var reportedTalking = false
  /// Per kind (``SessionTransport/MediaKind/index``).
  var sent = [SendCounters](repeating: SendCounters(), count: 3)
  /// The local user's network quality per kind sent.
  var sendQuality = [NetworkQualityTracker](repeating: NetworkQualityTracker(), count: 3)
  /// The overall level last sent with `reportNetworkQuality`.
  var reportedOverall = NetworkQuality.none

  // MARK: Signalling

  /// The announcements sent, by stream.
  var announced: [StreamID: MediaRequest] = [:]
  /// The subscriptions wanted: publisher and kind, and the most lines.
  var wanted: [StreamKey: UInt16] = [:] {
    didSet { needsSignal = true }
  }
  /// The subscriptions sent.
  var subscribed: [StreamKey: UInt16] = [:]
  /// The unsubscriptions sent on the current link (and not subscribed again since): requests
  /// that die with the link if it ends, while the service keeps a resuming member's
  /// subscriptions.
  var unsubscribed: Set<StreamKey> = []
  /// Subscriptions the service may still hold after a resume, to end at the next signal
  /// unless wanted again.
  var unsubscribeAgain: Set<StreamKey> = []
  /// Whether what should be signalled may differ from what was (so that a tick compares
  /// nothing while nothing changed).
  var needsSignal = false

  // MARK: Receiving

  /// The streams received, in the order they began.
  var receivers: [StreamReceiver] = []
  /// Each stream's place in ``receivers``.
  var receiverIndex: [StreamKey: Int] = [:]
  /// The service's estimate of the local downlink, bits per second.
  var downlinkEstimate: UInt32?
  /// Subscriptions the service paused, with why and since when (µs).
  var paused: [StreamKey: (reason: MediaPauseReason, since: Int64)] = [:]
  /// Each subscription's time paused before its current pause, µs.
  var pausedTime: [StreamKey: Int64] = [:]
  /// The delay-based detector and the receive rate.
  var delayTrend = DelayTrend()
  /// Video and share packets received and expected since the last ``DownlinkFeedback``.
  var feedbackReceived: Int64 = 0
  var feedbackExpected: Int64 = 0
  /// When the next feedback is due, µs.
  var nextFeedback: Int64?
  /// When the last feedback went, µs.
  var lastFeedback: Int64?
  /// One-way delays of every packet received, per kind.
  var delays = [DelayHistogram](repeating: DelayHistogram(), count: 3)
  /// What could not be used.
  var diagnostics = MediaDiagnostics()

  /// A session that has seen no event yet.
  ///
  /// - Parameters:
  ///   - me: The local user.
  ///   - settings: The sources' settings.
  init(me: UserID, settings: MediaSettings) {
    self.me = me
    self.settings = settings
  }

  // MARK: Inputs from the engine

  /// The service accepted the endpoint: media, pings and reports go out from the next tick.
  mutating func bound() {
    if !isBound { nextPing = nil }
    isBound = true
  }

  /// The service sent the media credential (after a join or a resume): bind (again) with it.
  ///
  /// - Parameter credential: The credential.
  mutating func setCredential(_ credential: MediaCredential) {
    // The service sends the subscriptions paused now right after it.
    for key in paused.keys.sorted() { streamResumed(key) }
    self.credential = credential
    isBound = false
    nextBind = nil
  }

  /// The service dropped the endpoint: bind again.
  mutating func unbound() {
    diagnostics.unbinds += 1
    isBound = false
    nextBind = nil
  }

  /// The answer to the service's return-path check, if the instance has a credential.
  ///
  /// - Parameter nonce: The check's nonce.
  /// - Returns: The reply to send at once.
  mutating func checkReply(nonce: UInt64) -> OutgoingDatagram? {
    guard let credential else { return nil }
    diagnostics.checksAnswered += 1
    return .checkReply(credential: credential.id, nonce: nonce)
  }

  /// Forgets what was signalled, so that everything goes out again (after a resume).
  ///
  /// The service kept the member's subscriptions through the resume: every one sent, and any
  /// whose unsubscription went out on the link that ended (and may have died with it). Those
  /// no longer wanted are unsubscribed again, or they would hold their place against the
  /// subscription limit and the downlink for the rest of the session.
  mutating func resendSignalling() {
    announced = [:]
    unsubscribeAgain.formUnion(subscribed.keys)
    unsubscribeAgain.formUnion(unsubscribed)
    unsubscribed = []
    subscribed = [:]
    needsSignal = true
  }

  /// The service's downlink estimate.
  mutating func setDownlinkEstimate(_ bitrate: UInt32) {
    downlinkEstimate = bitrate
  }

  /// The service paused the subscription `key` for `reason`: its silence from now on is
  /// neither loss nor a freeze. A repeated notice, or one for a stream no longer subscribed,
  /// changes nothing.
  mutating func streamPaused(_ key: StreamKey, reason: MediaPauseReason) {
    // A notice that crossed an unsubscribe is about nothing the instance still wants.
    guard paused[key] == nil, wanted[key] != nil else { return }
    paused[key] = (reason, now ?? 0)
    if let index = receiverIndex[key] { receivers[index].restartAfterPause(at: now) }
  }

  /// The service resumed the subscription `key`; one not paused changes nothing.
  mutating func streamResumed(_ key: StreamKey) {
    guard let pause = paused.removeValue(forKey: key) else { return }
    pausedTime[key, default: 0] &+= max(0, (now ?? pause.since) &- pause.since)
    if let index = receiverIndex[key] { receivers[index].restartAfterPause(at: now) }
  }

  /// How long the subscription `key` has been paused in all, µs, the current pause included.
  func pausedTime(of key: StreamKey) -> Int64 {
    let current = paused[key].map { max(0, (now ?? $0.since) &- $0.since) } ?? 0
    return pausedTime[key, default: 0] &+ current
  }

  /// Sets the talking state from now on, over the model's (`simulateTalking`).
  mutating func setTalking(_ talking: Bool) {
    talkingOverride = talking
    if let now { audio?.setTalking(talking, at: now) }
  }

  /// A subscriber wants a key frame of one of the local user's streams.
  ///
  /// - Returns: Whether the stream is the local user's and being sent.
  @discardableResult
  mutating func keyFrameRequested(_ stream: StreamID) -> Bool {
    guard stream.user == me else {
      diagnostics.ignoredNotices += 1
      return false
    }
    switch stream.kind {
    case .video where sending.video:
      video?.requestKeyFrame(layer: stream.layer)
    case .share where sending.share:
      share?.requestKeyFrame()
    default:
      diagnostics.ignoredNotices += 1
      return false
    }
    diagnostics.keyFramesRequested += 1
    return true
  }

  /// Wants `key` at most `maxLines` lines, or no longer (`nil`); a new subscription starts its
  /// receiver, an ended one drops it.
  ///
  /// - Parameters:
  ///   - key: The publisher and kind (video or share).
  ///   - maxLines: The most lines on the shorter side (0 for no limit), or `nil` to stop.
  /// - Returns: The stream's network quality going back to none, if it had one.
  mutating func setSubscription(_ key: StreamKey, maxLines: UInt16?) -> LevelChange? {
    if let maxLines {
      wanted[key] = maxLines
      if receiverIndex[key] == nil { addReceiver(key) }
      return nil
    }
    wanted[key] = nil
    // An ended subscription is paused no more (the service forgets it too, with no notice).
    streamResumed(key)
    return removeReceiver(key)
  }

  /// The service refused a subscription: it is no longer wanted, and was never made.
  ///
  /// - Returns: Whether it was wanted.
  mutating func subscriptionRefused(_ key: StreamKey) -> Bool {
    guard wanted.removeValue(forKey: key) != nil else {
      diagnostics.ignoredNotices += 1
      return false
    }
    subscribed[key] = nil
    streamResumed(key)
    _ = removeReceiver(key)
    return true
  }

  /// The publishers of the subscriptions wanted, in user order.
  var subscribedUsers: [UserID] {
    Array(Set(wanted.keys.map(\.user))).sorted()
  }

  /// The service withdrew the local user's streams of `kind`, as it does when the replica's
  /// camera goes off or share ends: they count as withdrawn, so the next signal announces
  /// them again if the source still sends, and the next frame is a key frame for subscribers
  /// who start afresh. A camera turned off and on between two ticks never stopped here (the
  /// sources follow the replica at each tick) while the service forgot its layers: without
  /// this its subscribers got nothing for the rest of the session.
  ///
  /// - Parameter kind: Video or share (the service withdraws no audio on its own).
  mutating func serviceWithdrew(_ kind: MediaKind) {
    let streams = announced.keys.filter { $0.user == me && $0.kind == kind }
    guard !streams.isEmpty else { return }
    // Recorded as withdrawn, not forgotten: a source that stopped still sends its withdrawal
    // (the protocol's order, harmless twice), and one still sending differs from this and
    // announces again.
    for stream in streams { announced[stream] = .withdraw(stream) }
    needsSignal = true
    switch kind {
    case .video: video?.requestKeyFrame()
    case .share: share?.requestKeyFrame()
    case .audio: break
    }
  }

  /// Forgets a user who left: their streams and subscriptions (the service drops those too).
  mutating func forget(_ user: UserID) {
    for kind in MediaKind.all {
      let key = StreamKey(user: user, kind: kind)
      wanted[key] = nil
      subscribed[key] = nil
      unsubscribed.remove(key)
      unsubscribeAgain.remove(key)
      streamResumed(key)
      _ = removeReceiver(key)
    }
  }

  // MARK: Receivers

  private mutating func addReceiver(_ key: StreamKey) {
    receiverIndex[key] = receivers.count
    receivers.append(StreamReceiver(publisher: key.user, kind: key.kind, start: now))
  }

  /// Drops a receiver, moving the last one into its place.
  private mutating func removeReceiver(_ key: StreamKey) -> LevelChange? {
    guard let position = receiverIndex.removeValue(forKey: key) else { return nil }
    let level = receivers[position].quality.level
    let last = receivers.count - 1
    if position != last {
      receivers[position] = receivers[last]
      receiverIndex[
        StreamKey(user: receivers[position].publisher, kind: receivers[position].kind)] =
        position
    }
    receivers.removeLast()
    guard level != .none else { return nil }
    return LevelChange(type: DataType(key.kind), level: .none, user: key.user)
  }

  /// The receiver of a stream, if it is received.
  func receiver(_ key: StreamKey) -> StreamReceiver? {
    receiverIndex[key].map { receivers[$0] }
  }

  // MARK: Time

  /// Moves the clock to `time` (never back), scheduling the first bind and evaluation.
  mutating func advance(to time: Int64) {
    guard let now else {
      self.now = time
      nextEvaluation = time &+ Self.evaluationInterval
      for index in receivers.indices { receivers[index].startIfNeeded(at: time) }
      return
    }
    if time > now { self.now = time }
  }
}

/// What the local user sent of one kind: totals and the last evaluation's rates.
///
/// > Important: A value; owned by the ``MediaSession`` that holds it.
struct SendCounters: Sendable, Hashable {
  var packets = 0
  var bytes = 0
  var frames = 0
  var intervalBytes = 0
  var intervalFrames = 0
  var fps = 0
  var bps = 0
  /// The frame size of the highest layer sent.
  var width = 0
  var height = 0
  /// The frame of the lowest layer last counted (each frame time sends one frame per layer).
  var lastFrameID: UInt32?
}
