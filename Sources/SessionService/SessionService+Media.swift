import SessionCore
import SessionTransport

/// The member a media endpoint or a resume token belongs to.
struct MediaBinding {
  let session: ServiceSession
  let user: UserID
}

extension SessionService: MediaHost {
  // MARK: MediaHost

  /// Sets where media datagrams go.
  ///
  /// - Parameter output: Called with each datagram to send, from inside
  ///   ``receiveDatagram(_:from:now:)``.
  public func attachMedia(output: @escaping (MediaHostOutput) -> Void) {
    mediaOutput = output
  }

  /// Handles one datagram from a media endpoint.
  ///
  /// A bind carrying a member's current resume token binds the endpoint to that member (and
  /// is answered with ``MediaNotice/bound`` on the member's connection); a ping from a bound
  /// endpoint is answered at once with a pong; a report from the endpoint bound to its
  /// subscriber moves that member's downlink estimate; a packet from a bound endpoint, for a
  /// stream of its member that the member may send now, goes unchanged to the stream's
  /// subscribers in one ``MediaHostOutput/forward(_:to:)``. Anything else is dropped and
  /// counted in ``mediaStatistics`` (`Docs/SessionService.md`, "Media plane").
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

  /// Handles one datagram in memory the caller lends for the call (a receive buffer), as
  /// ``receiveDatagram(_:from:now:)`` does; the bytes are copied only if forwarded.
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
    mediaStatistics.datagramsReceived &+= 1
    mediaStatistics.bytesReceived &+= UInt64(buffer.count)
    let datagram: MediaDatagram
    do {
      datagram = try MediaDatagram.decode(buffer)
    } catch {
      mediaStatistics.dropped.malformed &+= 1
      mediaStatistics.malformedReasons[error.reason, default: 0] &+= 1
      return
    }
    switch datagram {
    case .packet(let packet):
      handlePacket(packet, buffer, bytes: bytes, from: endpoint, now: now)
    case .report(let report):
      handleReport(report, from: endpoint, now: now)
    case .bind(let bind):
      handleBind(bind, from: endpoint)
    case .ping(let sendTime):
      guard mediaEndpoints[endpoint] != nil else {
        mediaStatistics.dropped.unbound &+= 1
        return
      }
      mediaStatistics.pongsSent &+= 1
      mediaOutput(.send(MediaDatagram.pong(sendTime: sendTime).encode(), to: endpoint))
    case .pong:
      mediaStatistics.dropped.unexpected &+= 1
    }
  }

  /// The per-packet path: endpoint → member, ownership and sending checks, the router, one
  /// output.
  private func handlePacket(
    _ packet: MediaPacket, _ buffer: UnsafeRawBufferPointer, bytes: [UInt8]?,
    from endpoint: MediaEndpointID, now: Int64
  ) {
    guard let binding = mediaEndpoints[endpoint] else {
      mediaStatistics.dropped.unbound &+= 1
      return
    }
    let user = binding.user
    guard packet.stream.user == user else {
      mediaStatistics.dropped.spoofed &+= 1
      return
    }
    let session = binding.session
    guard session.media.member(user)?.isSending(packet.stream.kind) == true else {
      mediaStatistics.dropped.notSending &+= 1
      return
    }
    let routed = session.media.route(packet, now: now)
    if routed.refused {
      mediaStatistics.dropped.unknownStream &+= 1
      return
    }
    mediaStatistics.packetsRouted &+= 1
    if !routed.endpoints.isEmpty {
      let count = UInt64(routed.endpoints.count)
      mediaStatistics.packetsForwarded &+= count
      mediaStatistics.bytesForwarded &+= count &* UInt64(buffer.count)
      mediaOutput(.forward(bytes ?? [UInt8](buffer), to: routed.endpoints))
    }
    if routed.wantsKeyFrames {
      for stream in session.media.keyFrameRequests {
        guard let connection = session.members[stream.user]?.connection else { continue }
        mediaStatistics.keyFrameRequests &+= 1
        send(.media(.keyFrameRequested(stream)), to: connection)
      }
    }
  }

  private func handleReport(_ report: ReceiverReport, from endpoint: MediaEndpointID, now: Int64) {
    guard let binding = mediaEndpoints[endpoint] else {
      mediaStatistics.dropped.unbound &+= 1
      return
    }
    let user = binding.user
    guard report.subscriber == user else {
      mediaStatistics.dropped.spoofed &+= 1
      return
    }
    let session = binding.session
    do {
      try session.media.router.report(
        subscriber: user, lossFraction: report.lossFraction, now: now)
    } catch {
      mediaStatistics.dropped.badReport &+= 1
      return
    }
    mediaStatistics.reportsApplied &+= 1
    guard let estimate = session.media.router.estimate(of: user) else { return }
    if let sent = session.media.member(user)?.estimateSent,
      abs(estimate - sent) <= sent * Self.estimateNoticeChange
    {
      return
    }
    // A member waiting for a resume hears it after its next report.
    guard let connection = session.members[user]?.connection else { return }
    session.media.noteEstimateSent(estimate, to: user)
    mediaStatistics.estimateNotices &+= 1
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

  private func handleBind(_ bind: MediaBind, from endpoint: MediaEndpointID) {
    guard let binding = mediaTokens[bind.token], binding.user == bind.user else {
      mediaStatistics.dropped.badBind &+= 1
      return
    }
    let session = binding.session
    if let holder = mediaEndpoints[endpoint],
      holder.session !== session || holder.user != binding.user
    {
      // The endpoint belonged to someone else (an address reused): it is this member's now.
      holder.session.media.unbind(endpoint, from: holder.user)
    }
    if let previous = session.media.bind(endpoint, to: binding.user) {
      mediaEndpoints[previous] = nil
    }
    mediaEndpoints[endpoint] = binding
    mediaStatistics.bindsAccepted &+= 1
    if let connection = session.members[binding.user]?.connection {
      send(.media(.bound), to: connection)
    }
  }

  // MARK: Signalling requests

  func handleMediaRequest(_ request: MediaRequest, from connection: ConnectionID) {
    guard case .member(let key, let user)? = connections[connection]?.stage,
      let session = sessions[key]
    else {
      mediaStatistics.requestsIgnored &+= 1
      return
    }
    switch request {
    case .subscribe(let publisher, let kind, let maxLines):
      let result = session.media.router.subscribe(
        user, to: publisher, kind: kind, resolution: Self.resolution(maxLines: maxLines))
      guard case .failed(let refusal) = result else { return }
      mediaStatistics.subscribeRefusals &+= 1
      send(
        .media(.subscribeRefused(publisher: publisher, kind: kind, reason: Self.reason(refusal))),
        to: connection)
    case .unsubscribe(let publisher, let kind):
      session.media.router.unsubscribe(user, from: publisher, kind: kind)
    case .announce(let stream, let bitrate, let width, let height):
      guard stream.user == user, mayAnnounce(stream.kind, of: user, in: session) else {
        mediaStatistics.requestsIgnored &+= 1
        return
      }
      do {
        try session.media.router.announce(
          stream: stream, bitrate: Int(bitrate), width: width, height: height)
      } catch {
        mediaStatistics.requestsIgnored &+= 1
      }
    case .withdraw(let stream):
      guard stream.user == user else {
        mediaStatistics.requestsIgnored &+= 1
        return
      }
      do {
        try session.media.router.withdraw(stream: stream)
      } catch {
        mediaStatistics.requestsIgnored &+= 1
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

  /// A member joined: the router learns of it, and its token may bind an endpoint.
  func mediaMemberJoined(_ participant: Participant, token: UInt64, in session: ServiceSession) {
    session.media.add(participant)
    if mediaTokens[token] == nil {
      mediaTokens[token] = MediaBinding(session: session, user: participant.id)
    } else {
      log(.error, "internal: resume token of \(participant.id) collides; its binds will fail")
    }
  }

  /// A member resumed: binds need the new token; the bound endpoint and subscriptions stay.
  func mediaTokenRotated(
    from old: UInt64, to new: UInt64, of user: UserID, in session: ServiceSession
  ) {
    if let binding = mediaTokens[old], binding.session === session, binding.user == user {
      mediaTokens[old] = nil
    }
    if mediaTokens[new] == nil {
      mediaTokens[new] = MediaBinding(session: session, user: user)
    } else {
      log(.error, "internal: resume token of \(user) collides; its binds will fail")
    }
  }

  /// A member left (leave, kick, grace expiry): it leaves the router, its endpoint unbinds.
  func mediaMemberLeft(_ user: UserID, token: UInt64, in session: ServiceSession) {
    if let binding = mediaTokens[token], binding.session === session, binding.user == user {
      mediaTokens[token] = nil
    }
    if let endpoint = session.media.remove(user) {
      mediaEndpoints[endpoint] = nil
    }
  }

  /// A session ended: every token and endpoint of its members goes.
  func mediaSessionEnded(_ session: ServiceSession) {
    for (user, member) in session.members {
      if let binding = mediaTokens[member.resumeToken], binding.session === session,
        binding.user == user
      {
        mediaTokens[member.resumeToken] = nil
      }
    }
    for endpoint in session.media.boundEndpoints {
      if mediaEndpoints[endpoint]?.session === session { mediaEndpoints[endpoint] = nil }
    }
    session.media = SessionMedia(configuration: configuration.media)
  }

  /// A participant's video, audio or share status changed in the service's state.
  func mediaStatusChanged(of user: UserID, in session: ServiceSession) {
    guard let participant = session.state.participants[user] else { return }
    session.media.refresh(participant)
  }
}
