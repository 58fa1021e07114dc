import SessionCore
import SessionTransport

extension MediaRouter {
  /// Routes one media packet: the forwards to perform, and any key frame to ask for.
  ///
  /// A packet whose publisher is not a member, or whose stream was never announced (audio
  /// excepted) or has a layer out of range, is refused: it is counted in ``totals`` and
  /// reaches nobody.
  ///
  /// - Parameters:
  ///   - packet: The packet as its publisher sent it. The caller has checked that the sender
  ///     owns `packet.stream` (the router cannot know who sent it).
  ///   - now: The router's time, µs.
  /// - Returns: What to do, forwards in subscription order.
  /// - Complexity: O(subscribers of the stream); audio O(members).
  public mutating func route(_ packet: MediaPacket, now: Int64) -> [RouterOutput] {
    var outputs: [RouterOutput] = []
    route(packet, now: now, into: &outputs)
    return outputs
  }

  /// Routes one media packet, appending what to do to `outputs`, whose capacity a caller can
  /// keep from one packet to the next.
  ///
  /// - Parameters:
  ///   - packet: The packet, as for ``route(_:now:)``.
  ///   - now: The router's time, µs.
  ///   - outputs: Where the outputs go; what it held stays.
  public mutating func route(
    _ packet: MediaPacket, now: Int64, into outputs: inout [RouterOutput]
  ) {
    let stream = packet.stream
    guard let publisher = memberIndex[stream.user] else {
      totals.rejectedUnknownPublisher &+= 1
      return
    }
    switch stream.kind {
    case .audio:
      guard stream.layer == 0 else {
        totals.rejectedUnknownStream &+= 1
        return
      }
      routeAudio(packet, from: publisher, now: now, into: &outputs)
    case .video, .share:
      guard members[publisher].hasAnnounced(stream) else {
        totals.rejectedUnknownStream &+= 1
        return
      }
      fanOuts[FanOutKey(publisher: stream.user, kind: stream.kind)]?.route(
        packet, now: now, requestInterval: configuration.keyFrameRequestInterval,
        into: &outputs, totals: &totals)
    }
  }

  /// Routes one video or share packet as ``route(_:now:into:)`` does, returning the endpoint
  /// (``setEndpoint(_:of:)``) of each subscriber it goes to: the service's per-packet path,
  /// which costs the same whatever the number of subscribers (the fan-out keeps each layer's
  /// list). Audio is refused here (its copies are numbered per listener: use
  /// ``route(_:now:into:)``).
  ///
  /// - Parameters:
  ///   - packet: The packet, as for ``route(_:now:)``.
  ///   - now: The router's time, µs.
  ///   - keyFrames: Where a key frame to ask for goes; what it held stays.
  /// - Returns: The endpoints in subscription order, or `nil` when the router refused the
  ///   packet (and counted it).
  package mutating func route(
    _ packet: MediaPacket, now: Int64, keyFrames: inout [StreamID]
  ) -> [MediaEndpointID]? {
    let stream = packet.stream
    guard let publisher = memberIndex[stream.user] else {
      totals.rejectedUnknownPublisher &+= 1
      return nil
    }
    guard stream.kind != .audio, members[publisher].hasAnnounced(stream) else {
      totals.rejectedUnknownStream &+= 1
      return nil
    }
    guard
      let routed = fanOuts.routeToEndpoints(
        FanOutKey(publisher: stream.user, kind: stream.kind), packet, now: now,
        requestInterval: configuration.keyFrameRequestInterval, totals: &totals)
    else { return [] }
    if routed.wantsKeyFrame { keyFrames.append(stream) }
    return routed.endpoints
  }

  /// Forwards an audio packet to the members for whom its talker is among the loudest others.
  private mutating func routeAudio(
    _ packet: MediaPacket, from publisher: Int, now: Int64, into outputs: inout [RouterOutput]
  ) {
    let talker = packet.stream.user
    let loudest = configuration.loudestSpeakers
    members[publisher].audioRouted &+= 1
    let base = members[publisher].audioRouted &- 1
    audio.heard(
      talker, level: packet.audioLevel, now: now, talkingLevel: configuration.talkingLevel,
      keep: loudest + 1)
    let ranked = audio.ranked
    var reached: UInt64 = 0
    let routed = members[publisher].audioRouted
    func forward(to index: Int) {
      // Numbered per listener: the talker's packets this listener was not sent (selection
      // left it out) are taken off the publisher's number, so that a listener reads a gap
      // only where a packet was lost before it reached the service (Docs/WireProtocol.md
      // §13.1). The receipt's base is the talker's count before its first packet here.
      let skipped = members[index].audioReceived[talker, default: AudioReceipt(base: base)]
        .forwarded(packet.payloadBytes, routed: routed)
      var numbered = packet
      numbered.sequence = packet.sequence &- UInt32(truncatingIfNeeded: skipped)
      outputs.append(.forward(to: members[index].user, packet: numbered))
      reached &+= 1
    }
    if membersAway > 0 {
      // Subsessions are open: everyone in the talker's place hears it (places are small).
      let place = members[publisher].place
      for index in members.indices where index != publisher && members[index].place == place {
        forward(to: index)
      }
    } else if let rank = ranked.firstIndex(of: talker) {
      if rank < loudest {
        for index in members.indices where index != publisher { forward(to: index) }
      } else {
        // The next talker after the loudest reaches those among the loudest, who do not
        // hear themselves.
        for user in ranked.prefix(loudest) {
          if let index = memberIndex[user] { forward(to: index) }
        }
      }
    }
    totals.forwardedPackets &+= reached
    totals.forwardedBytes &+= reached &* UInt64(packet.payloadBytes)
    totals.droppedBySelection &+= UInt64(members.count - 1) &- reached
  }
}
