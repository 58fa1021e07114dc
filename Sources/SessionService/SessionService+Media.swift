import SessionCore
import SessionTransport

/// One member's media identity: its credential, the authenticator of its key, and the state
/// of its binding (the outstanding return-path check, when its endpoint was last heard).
///
/// > Important: Owned by the ``SessionService`` that made it, in its isolation domain.
final class MediaIdentity {
  let session: ServiceSession
  let user: UserID
  let credential: MediaCredential
  let authenticator: MediaAuthenticator
  /// The check outstanding: the address it went to, its nonce, when it went (µs).
  var pendingCheck: (endpoint: MediaEndpointID, nonce: UInt64, sentAt: Int64)?
  /// When something authentic last came from the bound endpoint, µs.
  // Unchecked exclusivity: set in one statement a datagram on the service's isolation domain.
  @exclusivity(unchecked) var lastHeard: Int64 = 0
  /// The return-path checks sent in the current second.
  var checkWindow = RateWindow()
  /// The pings and feedback received in the current second.
  var controlWindow = RateWindow()

  init(session: ServiceSession, user: UserID, credential: MediaCredential) {
    self.session = session
    self.user = user
    self.credential = credential
    self.authenticator = MediaAuthenticator(key: credential.key, sending: .toMember)
  }
}

extension SessionService: LendingMediaHost {
  // MARK: MediaHost

  /// Sets where media datagrams go.
  ///
  /// - Parameter output: Called with each datagram to send, from inside
  ///   ``receiveDatagram(_:from:now:)``.
  public func attachMedia(output: @escaping (MediaHostOutput) -> Void) {
    mediaOutput = output
    mediaAttached = true
  }

  /// Handles one datagram from a media endpoint.
  ///
  /// Every datagram must carry the right tag under a member's media key: a bind or a check
  /// reply under the key of the credential it names, anything else under the key of the
  /// member its endpoint is bound to. An authentic bind from a new address is answered with a
  /// return-path check (``SessionTransport/MediaDatagram/check(nonce:)``) sent there, and the address is bound
  /// only when the check's nonce comes back from it (then ``SessionTransport/MediaNotice/bound`` goes on the
  /// member's connection); a ping from a bound endpoint is answered at once with a pong; a
  /// report from the endpoint bound to its subscriber moves that member's downlink estimate;
  /// a packet from a bound endpoint, for a stream of its member that the member may send now,
  /// goes unchanged to the stream's subscribers in one ``SessionTransport/MediaHostOutput/forward(_:to:)``
  /// (audio, numbered per listener, in one ``SessionTransport/MediaHostOutput/forwardNumbered(_:to:sequences:)``).
  /// A bound endpoint from which nothing authentic came for
  /// ``ServiceConfiguration/mediaConsentTimeout`` is dropped, and its member told
  /// (``SessionTransport/MediaNotice/unbound(_:)``). Anything else is dropped and counted in
  /// ``mediaStatistics`` (`Docs/SessionService.md`, "Media plane").
  ///
  /// - Parameters:
  ///   - bytes: The datagram, as received.
  ///   - endpoint: Where it came from.
  ///   - now: The transport's time, µs.
  public func receiveDatagram(_ bytes: [UInt8], from endpoint: MediaEndpointID, now: Int64) {
    bytes.withUnsafeBytes { buffer in
      handleDatagram(buffer, bytes: bytes, from: endpoint, now: now)
    }
  }

  /// Sends the forwards of datagrams received in lent memory (``receiveDatagram(_:from:now:)``
  /// with a buffer) to `forward`, from that memory, instead of copying them into the media
  /// output.
  ///
  /// - Parameter forward: Takes the datagram (valid for the call only), its endpoints, and for
  ///   audio each copy's sequence number (empty: unchanged).
  package func attachLentForwards(
    _ forward: @escaping (UnsafeRawBufferPointer, [MediaEndpointID], [UInt32]) -> Void
  ) {
    lentForward = forward
  }

  /// Handles one datagram in memory the caller lends for the call (a receive buffer), as
  /// ``receiveDatagram(_:from:now:)`` does; a forward goes from that memory to the lent
  /// forwards (``attachLentForwards(_:)``), or is copied into the output if none is attached.
  ///
  /// - Parameters:
  ///   - buffer: The datagram; read only during the call.
  ///   - endpoint: Where it came from.
  ///   - now: The transport's time, µs.
  package func receiveDatagram(
    _ buffer: UnsafeRawBufferPointer, from endpoint: MediaEndpointID, now: Int64
  ) {
    handleDatagram(buffer, bytes: nil, from: endpoint, now: now)
  }

  // MARK: Inspection

  /// A copy of the media router of the session with this name (case-insensitive), if it is
  /// live: its members, subscriptions, layers and estimates, for tests and tools.
  ///
  /// - Parameter name: The session name.
  /// - Returns: The router, or `nil`.
  public func mediaRouter(ofSession name: String) -> MediaRouter? {
    sessions[name.lowercased()]?.media.router
  }

  /// The number of media endpoints bound to members now.
  public var boundMediaEndpointCount: Int { mediaEndpoints.count }

  // MARK: Datagrams

  private func handleDatagram(
    _ buffer: UnsafeRawBufferPointer, bytes: [UInt8]?, from endpoint: MediaEndpointID,
    now: Int64
  ) {
    mediaCounters.datagramsReceived &+= 1
    mediaCounters.bytesReceived &+= UInt64(buffer.count)
    if now >= nextConsentSweep { sweepConsent(now: now) }
    guard let body = MediaDatagram.body(ofSealed: buffer), body.count >= 2 else {
      refuseMalformed(.truncated(count: buffer.count, needed: 2 + MediaDatagram.trailerSize))
      return
    }
    let type = MediaDatagram.Kind(rawValue: body[1])
    if type == .bind || type == .checkReply {
      handleClaim(buffer, body: body, from: endpoint, now: now)
      return
    }
    // Everything else comes from a bound endpoint, under its member's key: a flood from
    // unbound addresses costs a lookup, never a MAC.
    guard let identity = mediaEndpoints[endpoint] else {
      if decodeOrRefuse(body) != nil { mediaCounters.dropped.unbound &+= 1 }
      return
    }
    guard identity.authenticator.isAuthentic(buffer) else {
      mediaCounters.dropped.unauthenticated &+= 1
      return
    }
    guard let datagram = decodeOrRefuse(body) else { return }
    identity.lastHeard = now
    switch datagram {
    case .packet(let packet):
      handlePacket(packet, buffer, bytes: bytes, from: identity, now: now)
    case .report(let report):
      handleReport(report, from: identity, now: now)
    case .feedback(let feedback):
      guard admitControl(from: identity, now: now) else { return }
      handleFeedback(feedback, from: identity, now: now)
    case .ping(let sendTime):
      guard admitControl(from: identity, now: now) else { return }
      mediaCounters.pongsSent &+= 1
      mediaOutput(
        .send(
          identity.authenticator.sealed(MediaDatagram.pong(sendTime: sendTime).encode()),
          to: endpoint))
    case .pong, .check, .bind, .checkReply:
      mediaCounters.dropped.unexpected &+= 1
    }
  }

  /// The most pings and feedback datagrams one member may send in a second, together: the SDK
  /// sends a ping and two or three feedbacks a second; a member that floods them is answered
  /// (and its estimate moved) no more often than this, and each one over is dropped as
  /// `throttled`.
  public static let maxControlPerSecond = 20

  /// Whether a ping or feedback from `identity` is within its rate; counts it if not.
  private func admitControl(from identity: MediaIdentity, now: Int64) -> Bool {
    guard
      identity.controlWindow.admit(at: now, length: 1_000_000, limit: Self.maxControlPerSecond)
    else {
      mediaCounters.dropped.throttled &+= 1
      return false
    }
    return true
  }

  private func refuseMalformed(_ error: MediaDecodingError) {
    mediaCounters.dropped.malformed &+= 1
    mediaCounters.malformedReasons[error.reason, default: 0] &+= 1
  }

  /// The body decoded, or `nil` after counting it malformed by its reason.
  private func decodeOrRefuse(_ body: UnsafeRawBufferPointer) -> MediaDatagram? {
    do {
      return try MediaDatagram.decode(body)
    } catch {
      refuseMalformed(error)
      return nil
    }
  }

  /// A bind or a check reply: authentic under the key of the credential it names, from any
  /// address.
  private func handleClaim(
    _ buffer: UnsafeRawBufferPointer, body: UnsafeRawBufferPointer,
    from endpoint: MediaEndpointID, now: Int64
  ) {
    guard let datagram = decodeOrRefuse(body) else { return }
    let credential: UInt64
    switch datagram {
    case .bind(let bind): credential = bind.credential
    case .checkReply(let id, _): credential = id
    default:
      mediaCounters.dropped.unexpected &+= 1
      return
    }
    guard let identity = mediaCredentials[credential] else {
      mediaCounters.dropped.badBind &+= 1
      return
    }
    guard identity.authenticator.isAuthentic(buffer) else {
      mediaCounters.dropped.unauthenticated &+= 1
      return
    }
    switch datagram {
    case .bind(let bind):
      guard bind.user == identity.user else {
        mediaCounters.dropped.badBind &+= 1
        return
      }
      handleBind(from: identity, endpoint: endpoint, now: now)
    case .checkReply(_, let nonce):
      handleCheckReply(nonce: nonce, from: identity, endpoint: endpoint, now: now)
    default:
      return
    }
  }

  /// The most return-path checks one member's binds cause in a second: a member that binds
  /// with forged source addresses can make the service send at most this many small
  /// datagrams a second to other addresses, and never a stream.
  public static let maxChecksPerSecond = 8

  /// How long a check's nonce stays good, µs.
  static let checkLifetime: Int64 = 5_000_000

  private func handleBind(from identity: MediaIdentity, endpoint: MediaEndpointID, now: Int64) {
    let session = identity.session
    if session.media.member(identity.user)?.endpoint == endpoint {
      // Already bound here (a repeated bind, or a rebind after a resume): no check needed.
      identity.lastHeard = now
      mediaCounters.bindsAccepted &+= 1
      if let connection = session.members[identity.user]?.connection {
        send(.media(.bound), to: connection)
      }
      return
    }
    guard identity.checkWindow.admit(at: now, length: 1_000_000, limit: Self.maxChecksPerSecond)
    else {
      mediaCounters.dropped.checksThrottled &+= 1
      return
    }
    let nonce: UInt64
    if let pending = identity.pendingCheck, pending.endpoint == endpoint,
      now >= pending.sentAt, now &- pending.sentAt < Self.checkLifetime
    {
      nonce = pending.nonce
    } else {
      nonce = secrets.next(for: .checkNonce)
      identity.pendingCheck = (endpoint, nonce, now)
    }
    mediaCounters.checksSent &+= 1
    mediaOutput(
      .send(identity.authenticator.sealed(MediaDatagram.check(nonce: nonce).encode()), to: endpoint)
    )
  }

  private func handleCheckReply(
    nonce: UInt64, from identity: MediaIdentity, endpoint: MediaEndpointID, now: Int64
  ) {
    guard let pending = identity.pendingCheck, pending.endpoint == endpoint,
      secretsEqual(pending.nonce, nonce), now >= pending.sentAt,
      now &- pending.sentAt < Self.checkLifetime
    else {
      mediaCounters.dropped.badCheck &+= 1
      return
    }
    identity.pendingCheck = nil
    let session = identity.session
    guard session.members[identity.user] != nil else {
      mediaCounters.dropped.badCheck &+= 1
      return
    }
    if let holder = mediaEndpoints[endpoint], holder !== identity {
      // The address belonged to someone else (a port reused), and this member proved it is
      // theirs now: the other member hears it lost it.
      holder.session.media.unbind(endpoint, from: holder.user)
      tellUnbound(holder, reason: .replaced)
    }
    if let previous = session.media.bind(endpoint, to: identity.user) {
      mediaEndpoints[previous] = nil
      mediaOutput(.endpointReleased(previous))
    }
    mediaEndpoints[endpoint] = identity
    identity.lastHeard = now
    mediaOutput(.endpointBound(endpoint))
    mediaCounters.bindsAccepted &+= 1
    if let connection = session.members[identity.user]?.connection {
      send(.media(.bound), to: connection)
    }
  }

  private func tellUnbound(_ identity: MediaIdentity, reason: MediaUnboundReason) {
    if let connection = identity.session.members[identity.user]?.connection {
      send(.media(.unbound(reason)), to: connection)
    }
  }

  /// Drops every bound endpoint nothing authentic came from for the consent timeout, in
  /// endpoint order, and tells its member; runs at most once a second of media time.
  private func sweepConsent(now: Int64) {
    nextConsentSweep = now &+ 1_000_000
    let timeout = configuration.mediaConsentTimeout
    guard timeout > 0 else { return }
    var lapsed: [(MediaEndpointID, MediaIdentity)] = []
    for (endpoint, identity) in mediaEndpoints.pairs
    where now > identity.lastHeard && now &- identity.lastHeard > timeout {
      lapsed.append((endpoint, identity))
    }
    guard !lapsed.isEmpty else { return }
    lapsed.sort { $0.0.rawValue < $1.0.rawValue }
    for (endpoint, identity) in lapsed {
      identity.session.media.unbind(endpoint, from: identity.user)
      mediaEndpoints[endpoint] = nil
      mediaOutput(.endpointReleased(endpoint))
      mediaCounters.consentsExpired &+= 1
      tellUnbound(identity, reason: .consentExpired)
    }
  }

  /// The per-packet path: endpoint → member, ownership and sending checks, the router, one
  /// output.
  private func handlePacket(
    _ packet: MediaPacket, _ buffer: UnsafeRawBufferPointer, bytes: [UInt8]?,
    from binding: MediaIdentity, now: Int64
  ) {
    let user = binding.user
    guard packet.stream.user == user else {
      mediaCounters.dropped.spoofed &+= 1
      return
    }
    let session = binding.session
    guard session.media.member(user)?.isSending(packet.stream.kind) == true else {
      mediaCounters.dropped.notSending &+= 1
      return
    }
    let routed = session.media.route(packet, now: now)
    if routed.refused {
      mediaCounters.dropped.unknownStream &+= 1
      return
    }
    mediaCounters.packetsRouted &+= 1
    if !routed.endpoints.isEmpty {
      let count = UInt64(routed.endpoints.count)
      mediaCounters.packetsForwarded &+= count
      mediaCounters.bytesForwarded &+= count &* UInt64(buffer.count)
      if bytes == nil, let lentForward {
        lentForward(buffer, routed.endpoints, routed.sequences)
        return wantKeyFrames(routed, in: session)
      }
      let datagram = bytes ?? [UInt8](buffer)
      if routed.sequences.isEmpty {
        mediaOutput(.forward(datagram, to: routed.endpoints))
      } else {
        mediaOutput(
          .forwardNumbered(datagram, to: routed.endpoints, sequences: routed.sequences))
      }
    }
    wantKeyFrames(routed, in: session)
  }

  /// Asks the publishers for the key frames a routed packet made the router want.
  @inline(__always)
  private func wantKeyFrames(_ routed: SessionMedia.Routed, in session: ServiceSession) {
    guard routed.wantsKeyFrames else { return }
    for stream in session.media.keyFrameRequests {
      guard let connection = session.members[stream.user]?.connection else { continue }
      mediaCounters.keyFrameRequests &+= 1
      send(.media(.keyFrameRequested(stream)), to: connection)
    }
  }

  /// A per-stream report: checked and counted. The estimate moves on the subscriber's
  /// ``SessionTransport/DownlinkFeedback``, which covers every stream at once; a report names
  /// one stream and is refused (`badReport`) when the member does not watch it.
  private func handleReport(_ report: ReceiverReport, from binding: MediaIdentity, now: Int64) {
    let user = binding.user
    guard report.subscriber == user else {
      mediaCounters.dropped.spoofed &+= 1
      return
    }
    guard
      binding.session.media.router.subscription(
        of: user, to: report.stream.user, kind: report.stream.kind) != nil
    else {
      mediaCounters.dropped.badReport &+= 1
      return
    }
    mediaCounters.reportsApplied &+= 1
  }

  /// A subscriber's feedback on its downlink: it moves the estimate and the stream
  /// allocator, and the member hears the estimate when it moved far enough.
  private func handleFeedback(
    _ feedback: DownlinkFeedback, from binding: MediaIdentity, now: Int64
  ) {
    let user = binding.user
    guard feedback.subscriber == user else {
      mediaCounters.dropped.spoofed &+= 1
      return
    }
    let session = binding.session
    do {
      try session.media.router.feedback(feedback, now: now)
    } catch {
      mediaCounters.dropped.badReport &+= 1
      return
    }
    mediaCounters.feedbackApplied &+= 1
    sendPauseChanges(in: session)
    guard let estimate = session.media.router.estimate(of: user) else { return }
    if let sent = session.media.member(user)?.estimateSent,
      abs(estimate - sent) <= sent * Self.estimateNoticeChange
    {
      return
    }
    // A member waiting for a resume hears it after its next feedback.
    guard let connection = session.members[user]?.connection else { return }
    session.media.noteEstimateSent(estimate, to: user)
    mediaCounters.estimateNotices &+= 1
    send(.media(.downlinkEstimate(Self.bitsPerSecond(estimate))), to: connection)
  }

  /// How far (a fraction) an estimate moves before the member is told again.
  static let estimateNoticeChange = 0.10

  /// An estimate as whole bits per second, saturating.
  static func bitsPerSecond(_ estimate: Double) -> UInt32 {
    guard estimate.isFinite, estimate > 0 else { return 0 }
    guard estimate < Double(UInt32.max) else { return .max }
    return UInt32(estimate.rounded())
  }

  // MARK: Signalling requests

  func handleMediaRequest(_ request: MediaRequest, from connection: ConnectionID) {
    guard case .member(let key, let user)? = connections[connection]?.stage,
      let session = sessions[key]
    else {
      mediaCounters.requestsIgnored &+= 1
      return
    }
    // A request can move the allocator (a new subscription may not fit).
    defer { sendPauseChanges(in: session) }
    switch request {
    case .subscribe(let publisher, let kind, let maxLines):
      let result = session.media.router.subscribe(
        user, to: publisher, kind: kind, resolution: Self.resolution(maxLines: maxLines))
      guard case .failed(let refusal) = result else { return }
      mediaCounters.subscribeRefusals &+= 1
      send(
        .media(.subscribeRefused(publisher: publisher, kind: kind, reason: Self.reason(refusal))),
        to: connection)
    case .unsubscribe(let publisher, let kind):
      session.media.router.unsubscribe(user, from: publisher, kind: kind)
    case .announce(let stream, let bitrate, let width, let height):
      guard stream.user == user, mayAnnounce(stream.kind, of: user, in: session) else {
        mediaCounters.requestsIgnored &+= 1
        return
      }
      do {
        try session.media.router.announce(
          stream: stream, bitrate: Int(bitrate), width: width, height: height)
      } catch {
        mediaCounters.requestsIgnored &+= 1
      }
    case .withdraw(let stream):
      guard stream.user == user else {
        mediaCounters.requestsIgnored &+= 1
        return
      }
      do {
        try session.media.router.withdraw(stream: stream)
      } catch {
        mediaCounters.requestsIgnored &+= 1
      }
    }
  }

  /// Whether a member may announce a stream of `kind`: video while its camera is on, a share
  /// while it has one (paused or not), audio always (the router needs no announcement).
  private func mayAnnounce(_ kind: MediaKind, of user: UserID, in session: ServiceSession)
    -> Bool
  {
    guard let member = session.media.member(user) else { return false }
    switch kind {
    case .video: return member.videoOn
    case .share: return member.shareActive
    case .audio: return true
    }
  }

  /// The resolution for a subscription's line limit: none for 0, else the largest whose lines
  /// fit in it, at least 90p.
  static func resolution(maxLines: UInt16) -> MediaRouter.Resolution {
    guard maxLines > 0 else { return .auto }
    var best = MediaRouter.Resolution.p90
    for resolution in MediaRouter.Resolution.allCases {
      if let lines = resolution.maxLines, lines <= Int(maxLines),
        lines > (best.maxLines ?? 0)
      {
        best = resolution
      }
    }
    return best
  }

  /// The wire's reason for a router's refusal.
  static func reason(_ refusal: SubscribeRefusal) -> MediaRefusalReason {
    switch refusal {
    case .exceededLimit: .exceededLimit
    case .oneShare: .oneShare
    case .ownStream, .unknownPublisher, .unknownSubscriber, .notSubscribable: .invalid
    }
  }

  // MARK: Membership hooks

  /// A new member's media identity: a credential from the secret source.
  func makeMediaIdentity(for user: UserID, in session: ServiceSession) -> MediaIdentity {
    var id = secrets.next(for: .mediaCredentialID)
    while id == 0 || mediaCredentials[id] != nil { id = secrets.next(for: .mediaCredentialID) }
    let key = Array(secrets.bytes(for: .mediaKey).prefix(MediaCredential.keySize))
    return MediaIdentity(
      session: session, user: user, credential: MediaCredential(id: id, key: key))
  }

  /// Sends a member its media credential, if a transport carries media.
  func sendMediaCredential(_ identity: MediaIdentity, to connection: ConnectionID) {
    guard mediaAttached else { return }
    send(.media(.credential(identity.credential)), to: connection)
    // A credential starts the member's media state afresh (the SDK forgets its pauses), so
    // the subscriptions paused now follow it: a pause or resume that happened while a
    // resuming member had no connection was never sent.
    for (publisher, kind) in identity.session.media.router.pausedSubscriptions(
      of: identity.user)
    {
      mediaCounters.pauseNotices &+= 1
      send(
        .media(.streamPaused(publisher: publisher, kind: kind, reason: .bandwidth)),
        to: connection)
    }
  }

  /// A member joined: the router learns of it, and its credential may bind an endpoint.
  func mediaMemberJoined(
    _ participant: Participant, identity: MediaIdentity, in session: ServiceSession
  ) {
    session.media.add(participant)
    mediaCredentials[identity.credential.id] = identity
    sendPauseChanges(in: session)
  }

  /// A member left (leave, kick, grace expiry): it leaves the router, its endpoint unbinds,
  /// its credential is void.
  func mediaMemberLeft(_ user: UserID, identity: MediaIdentity?, in session: ServiceSession) {
    if let identity, mediaCredentials[identity.credential.id] === identity {
      mediaCredentials[identity.credential.id] = nil
    }
    if let endpoint = session.media.remove(user) {
      mediaEndpoints[endpoint] = nil
      mediaOutput(.endpointReleased(endpoint))
    }
    sendPauseChanges(in: session)
  }

  /// A session ended: every credential and endpoint of its members goes.
  func mediaSessionEnded(_ session: ServiceSession) {
    for member in session.members.values {
      if let identity = member.media, mediaCredentials[identity.credential.id] === identity {
        mediaCredentials[identity.credential.id] = nil
      }
    }
    for endpoint in session.media.boundEndpoints.sorted(by: { $0.rawValue < $1.rawValue })
    where mediaEndpoints[endpoint]?.session === session {
      mediaEndpoints[endpoint] = nil
      mediaOutput(.endpointReleased(endpoint))
    }
    session.media = SessionMedia(configuration: configuration.media)
  }

  /// A participant's video, audio or share status changed in the service's state.
  func mediaStatusChanged(of user: UserID, in session: ServiceSession) {
    guard let participant = session.state.participants[user] else { return }
    session.media.refresh(participant)
    sendPauseChanges(in: session)
  }

  /// Tells each subscriber what the stream allocator paused or resumed of its subscriptions
  /// since the last call (to members with a connection; one waiting for a resume is sent its
  /// paused subscriptions after its credential, ``sendMediaCredential(_:to:)``).
  func sendPauseChanges(in session: ServiceSession) {
    for change in session.media.router.takePauseChanges() {
      guard let connection = session.members[change.subscriber]?.connection else { continue }
      mediaCounters.pauseNotices &+= 1
      send(
        .media(
          change.paused
            ? .streamPaused(publisher: change.publisher, kind: change.kind, reason: .bandwidth)
            : .streamResumed(publisher: change.publisher, kind: change.kind)),
        to: connection)
    }
  }
}
