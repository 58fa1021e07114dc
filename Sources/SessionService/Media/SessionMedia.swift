import SessionCore
import SessionTransport

/// The media plane of one session: its ``MediaRouter``, and per member the endpoint bound to
/// it, what it may send now, and the downlink estimate it was last told.
///
/// The service keeps the members equal to the session's (added on join, removed on leave,
/// kick, grace expiry and session end) and the sending flags equal to the participant's state
/// (``refresh(_:from:)`` after each status event).
///
/// > Important: A value owned by its ``ServiceSession`` (the service's isolation domain).
struct SessionMedia {
  /// One member's media standing.
  struct Member: Sendable, Hashable {
    /// The endpoint bound to the member, if any.
    var endpoint: MediaEndpointID?
    /// Whether the member's camera is on.
    var videoOn = false
    /// Whether the member's audio is connected and unmuted.
    var audioOn = false
    /// Whether the member shares (started or resumed; a paused share sends nothing).
    var shareSending = false
    /// Whether the member has a live share, paused or not (it may announce the share).
    var shareActive = false
    /// The estimate last sent in ``SessionTransport/MediaNotice/downlinkEstimate(_:)``, bits per second.
    var estimateSent: Double?

    /// Whether the member may send a packet of `kind` now.
    @inline(__always)
    func isSending(_ kind: MediaKind) -> Bool {
      switch kind {
      case .video: videoOn
      case .audio: audioOn
      case .share: shareSending
      }
    }
  }

  /// What ``route(_:now:)`` asks the service to do.
  struct Routed {
    /// The endpoints the packet goes to, in the router's order.
    var endpoints: [MediaEndpointID]
    /// Each endpoint's sequence number, beside ``endpoints``, for audio (numbered per
    /// listener); empty for video and share, which go unchanged.
    var sequences: [UInt32] = []
    /// Whether the router refused the packet (a stream not announced).
    var refused: Bool
    /// Whether the router asked for key frames (in ``SessionMedia/keyFrameRequests``).
    var wantsKeyFrames = false
  }

  var router: MediaRouter
  private(set) var members: UserMap<Member> = [:]
  /// The router's outputs for one packet; its capacity is kept from packet to packet.
  private var scratch: [RouterOutput] = []
  /// The endpoints (and audio's sequences) of the last ``route(_:now:)``: its ``Routed``
  /// shares these buffers, which are unique again (and kept) by the next packet, since no
  /// caller holds a `Routed` past its packet. Before, each packet allocated its list.
  private var endpointScratch: [MediaEndpointID] = []
  private var sequenceScratch: [UInt32] = []
  /// Key frames the last ``route(_:now:)`` asked for; empty nearly always.
  private(set) var keyFrameRequests: [StreamID] = []

  init(configuration: MediaRouter.Configuration) {
    router = MediaRouter(configuration: configuration)
  }

  /// The member, if it is one.
  @inline(__always)
  func member(_ user: UserID) -> Member? { members[user] }

  /// Adds a member with the sending flags of `participant`.
  mutating func add(_ participant: Participant) {
    router.add(participant.id)
    var member = Member()
    member.apply(participant)
    members[participant.id] = member
  }

  /// Removes a member and returns the endpoint that was bound to it.
  mutating func remove(_ user: UserID) -> MediaEndpointID? {
    router.remove(user)
    return members.removeValue(forKey: user)?.endpoint
  }

  /// Every bound endpoint (for a session's end).
  var boundEndpoints: [MediaEndpointID] { members.values.compactMap(\.endpoint) }

  /// Binds `endpoint` to `user`; returns the endpoint bound before, if another.
  mutating func bind(_ endpoint: MediaEndpointID, to user: UserID) -> MediaEndpointID? {
    guard var member = members[user] else { return nil }
    let previous = member.endpoint
    member.endpoint = endpoint
    members[user] = member
    router.setEndpoint(endpoint, of: user)
    return previous == endpoint ? nil : previous
  }

  /// Forgets `user`'s endpoint if it is `endpoint` (another member claimed it).
  mutating func unbind(_ endpoint: MediaEndpointID, from user: UserID) {
    guard var member = members[user], member.endpoint == endpoint else { return }
    member.endpoint = nil
    members[user] = member
    router.setEndpoint(nil, of: user)
  }

  /// Records the estimate sent to `user`.
  mutating func noteEstimateSent(_ estimate: Double, to user: UserID) {
    guard var member = members[user] else { return }
    member.estimateSent = estimate
    members[user] = member
  }

  /// Brings `participant`'s sending flags up to date and withdraws what they stopped: every
  /// video layer when the camera goes off, the share when it ends.
  mutating func refresh(_ participant: Participant) {
    guard var member = members[participant.id] else { return }
    let before = member
    member.apply(participant)
    members[participant.id] = member
    if before.videoOn, !member.videoOn {
      for layer in 0..<StreamID.maxLayers {
        try? router.withdraw(stream: StreamID(user: participant.id, kind: .video, layer: layer))
      }
    }
    if before.shareActive, !member.shareActive {
      try? router.withdraw(stream: StreamID(user: participant.id, kind: .share))
    }
  }

  /// Routes an accepted packet: the endpoints it goes to, skipping subscribers with none; key
  /// frames to ask for are left in ``keyFrameRequests``. Video and share go through the
  /// router's endpoint lists (no output or look-up per copy); audio, numbered per listener,
  /// through its outputs.
  mutating func route(_ packet: MediaPacket, now: Int64) -> Routed {
    if !keyFrameRequests.isEmpty { keyFrameRequests.removeAll(keepingCapacity: true) }
    guard packet.stream.kind == .audio else {
      let endpoints = router.route(packet, now: now, keyFrames: &keyFrameRequests)
      return Routed(
        endpoints: endpoints ?? [], refused: endpoints == nil,
        wantsKeyFrames: !keyFrameRequests.isEmpty)
    }
    endpointScratch.removeAll(keepingCapacity: true)
    scratch.removeAll(keepingCapacity: true)
    let refusedBefore =
      router.totals.rejectedUnknownStream &+ router.totals.rejectedUnknownPublisher
    router.route(packet, now: now, into: &scratch)
    let refused =
      router.totals.rejectedUnknownStream &+ router.totals.rejectedUnknownPublisher
      != refusedBefore
    var routed = Routed(endpoints: [], refused: refused)
    guard !scratch.isEmpty else { return routed }
    sequenceScratch.removeAll(keepingCapacity: true)
    for output in scratch {
      switch output {
      case .forward(let subscriber, let forwarded):
        guard let endpoint = members[subscriber]?.endpoint else { continue }
        endpointScratch.append(endpoint)
        sequenceScratch.append(forwarded.sequence)
      case .requestKeyFrame(let stream):
        keyFrameRequests.append(stream)
        routed.wantsKeyFrames = true
      }
    }
    routed.endpoints = endpointScratch
    routed.sequences = sequenceScratch
    return routed
  }
}

extension SessionMedia.Member {
  /// Takes the sending flags from the participant's state.
  mutating func apply(_ participant: Participant) {
    videoOn = participant.isVideoOn
    audioOn = participant.audio.type != .none && !participant.audio.isMuted
    shareSending = participant.shareStatus == .started || participant.shareStatus == .resumed
    shareActive = participant.shareStatus.isActive
  }
}
