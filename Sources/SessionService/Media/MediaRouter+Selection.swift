import SessionCore
import SessionTransport

extension MediaRouter {
  // MARK: Announcements

  /// Describes one of a publisher's streams: its bitrate and frame size, which the layer
  /// selection of every subscriber weighs. Announcing again replaces the description.
  ///
  /// Audio needs no announcement (every member's audio stream exists); announcing it is
  /// accepted and changes nothing.
  ///
  /// - Parameters:
  ///   - stream: The stream; its user must be a member, a video layer below
  ///     ``maxVideoLayers``, a share or audio layer 0.
  ///   - bitrate: The layer's bitrate, bits per second, at least 0.
  ///   - width: Its frame width.
  ///   - height: Its frame height.
  /// - Throws: ``MediaRouterError/unknownUser``, ``MediaRouterError/invalidLayer``,
  ///   ``MediaRouterError/invalidBitrate``; nothing changes then.
  /// - Complexity: O(subscribers of the stream × their subscriptions).
  public mutating func announce(
    stream: StreamID, bitrate: Int, width: UInt16, height: UInt16
  ) throws(MediaRouterError) {
    let position = try validate(stream)
    guard bitrate >= 0 else { throw .invalidBitrate }
    let layer = Layer(bitrate: bitrate, width: width, height: height)
    switch stream.kind {
    case .video: members[position].video[Int(stream.layer)] = layer
    case .share: members[position].share = layer
    case .audio: return
    }
    reselectSubscribers(of: FanOutKey(publisher: stream.user, kind: stream.kind))
  }

  /// Withdraws an announced stream (the publisher stopped sending it): its packets are refused
  /// from now on and its subscribers move to the layers that remain at their next key frame.
  ///
  /// - Parameter stream: The stream, as for ``announce(stream:bitrate:width:height:)``.
  /// - Throws: ``MediaRouterError/unknownUser``, ``MediaRouterError/invalidLayer``.
  /// - Complexity: O(subscribers of the stream × their subscriptions).
  public mutating func withdraw(stream: StreamID) throws(MediaRouterError) {
    let position = try validate(stream)
    switch stream.kind {
    case .video: members[position].video[Int(stream.layer)] = nil
    case .share: members[position].share = nil
    case .audio: return
    }
    reselectSubscribers(of: FanOutKey(publisher: stream.user, kind: stream.kind))
  }

  /// The member's place for a stream's publisher, after checking the layer.
  private func validate(_ stream: StreamID) throws(MediaRouterError) -> Int {
    guard let position = memberIndex[stream.user] else { throw .unknownUser }
    let layers = stream.kind == .video ? Self.maxVideoLayers : 1
    guard Int(stream.layer) < layers else { throw .invalidLayer }
    return position
  }

  private mutating func reselectSubscribers(of key: FanOutKey) {
    guard let fanOut = fanOuts[key] else { return }
    for entry in fanOut.entries { select(for: entry.subscriber) }
  }

  // MARK: Feedback

  /// Feeds a subscriber's loss fraction over an interval to its downlink estimate and
  /// reselects its layers, by the loss-based rules alone (see ``estimate(of:)``): under 2%
  /// loss the estimate grows, over 10% it is cut by half the loss fraction, at most once per
  /// 300 ms; between, it holds.
  ///
  /// - Parameters:
  ///   - subscriber: The member reporting.
  ///   - lossFraction: The fraction of its packets lost since its previous report, 0...1.
  ///   - now: The report's time, µs; not before the subscriber's previous report.
  /// - Throws: ``MediaRouterError/unknownUser``, ``MediaRouterError/invalidLossFraction`` (also
  ///   for NaN), ``MediaRouterError/timeWentBackwards``; nothing changes then.
  /// - Complexity: O(the subscriber's subscriptions).
  public mutating func report(
    subscriber: UserID, lossFraction: Double, now: Int64
  ) throws(MediaRouterError) {
    try apply(
      subscriber: subscriber, lossFraction: lossFraction, packets: nil, delay: nil, now: now)
  }

  /// Feeds a subscriber's packet counts over an interval to its downlink estimate and
  /// reselects its layers: as ``report(subscriber:lossFraction:now:)``, and heavy loss marks
  /// the downlink congested (the stream allocator may pause then) only when the last two
  /// seconds of counts together lost over half.
  ///
  /// - Parameters:
  ///   - subscriber: The member reporting.
  ///   - packetsReceived: Packets received since its previous report.
  ///   - packetsLost: Packets lost since then.
  ///   - now: The report's time, µs; not before the subscriber's previous report.
  /// - Throws: As ``report(subscriber:lossFraction:now:)``.
  /// - Complexity: O(the subscriber's subscriptions).
  public mutating func report(
    subscriber: UserID, packetsReceived: UInt32, packetsLost: UInt32, now: Int64
  ) throws(MediaRouterError) {
    try apply(
      subscriber: subscriber, lossFraction: Self.loss(packetsReceived, packetsLost),
      packets: (UInt64(packetsReceived), UInt64(packetsLost)), delay: nil, now: now)
  }

  /// Feeds a subscriber's ``SessionTransport/DownlinkFeedback`` to its downlink estimate and
  /// reselects its layers: overuse cuts the estimate to 85% of what arrived and marks the
  /// downlink congested; loss counts as congestion only with a queue behind it (or over 20%);
  /// growth waits after a cut and then probes (``estimate(of:)``, `Docs/SessionService.md`,
  /// "Downlink estimate").
  ///
  /// Every field is the subscriber's claim: a member that lies moves only its own estimate.
  ///
  /// - Parameters:
  ///   - feedback: The feedback; its `subscriber` is the member reporting.
  ///   - now: Its arrival time by the caller's clock, µs; not before the subscriber's
  ///     previous feedback.
  /// - Throws: ``MediaRouterError/unknownUser``, ``MediaRouterError/timeWentBackwards``;
  ///   nothing changes then.
  /// - Complexity: O(the subscriber's subscriptions).
  public mutating func feedback(_ feedback: DownlinkFeedback, now: Int64) throws(MediaRouterError) {
    try apply(
      subscriber: feedback.subscriber, lossFraction: feedback.lossFraction,
      packets: (UInt64(feedback.packetsReceived), UInt64(feedback.packetsLost)),
      delay: DownlinkEstimate.DelayFigures(
        signal: feedback.signal, queueDelay: feedback.queueDelay,
        receiveRate: Double(feedback.receiveRate)),
      now: now)
  }

  private static func loss(_ received: UInt32, _ lost: UInt32) -> Double {
    let expected = UInt64(received) + UInt64(lost)
    return expected == 0 ? 0 : Double(lost) / Double(expected)
  }

  private mutating func apply(
    subscriber: UserID, lossFraction: Double, packets: (received: UInt64, lost: UInt64)?,
    delay: DownlinkEstimate.DelayFigures?, now: Int64
  ) throws(MediaRouterError) {
    guard let position = memberIndex[subscriber] else { throw .unknownUser }
    guard lossFraction >= 0, lossFraction <= 1 else { throw .invalidLossFraction }
    if let last = members[position].estimate.lastReport, now < last {
      throw .timeWentBackwards
    }
    let ceiling = min(
      configuration.maximumEstimate,
      max(
        configuration.initialEstimate,
        configuration.estimateHeadroom * members[position].desiredBitrate))
    members[position].estimate.apply(
      loss: lossFraction, packets: packets, delay: delay, now: now, ceiling: ceiling,
      floor: configuration.minimumEstimate, flowing: flowingBitrate(of: position))
    select(for: subscriber)
  }

  /// The bitrate of the layers a member is forwarded now.
  private func flowingBitrate(of position: Int) -> Double {
    let member = members[position]
    var total = 0.0
    func add(_ publisher: UserID, _ kind: MediaKind) {
      guard let index = memberIndex[publisher],
        let entry = fanOuts[FanOutKey(publisher: publisher, kind: kind)]?.entry(of: member.user)
      else { return }
      total += Self.bitrate(of: entry.selected, in: members[index].layers(of: kind))
    }
    if let share = member.shareSubscription { add(share.publisher, .share) }
    for publisher in member.videoSubscriptions.keys { add(publisher, .video) }
    return total
  }

  // MARK: Layer selection and the stream allocator

  /// Sets the target layer of each of `subscriber`'s subscriptions, and pauses the video
  /// subscriptions the estimate cannot carry (the stream allocator, `Docs/SessionService.md`,
  /// "Stream allocator"):
  ///
  /// 1. The share first: never paused, it gets the highest layer that fits the whole estimate
  ///    (else its lowest).
  /// 2. Then each video subscription whose publisher announced layers, by priority: the
  ///    spotlighted first (in the host's order, ``setSpotlighted(_:)``), then active speakers
  ///    (loudest first), then larger canvases (the resolution asked for), then
  ///    roster order (join order). While the estimate is a measured limit (a cut found the
  ///    downlink congested: more than half lost, two seconds running when the reports carry
  ///    their counts), each keeps its lowest layer while what is left of
  ///    the estimate carries it, and the rest are paused: they stop at once, and their
  ///    subscriber is told (``takePauseChanges()``). Otherwise every one is kept.
  /// 3. The kept ones share what is left evenly, each the highest layer that fits its part.
  ///
  /// A paused subscription resumes when a later selection finds room for its lowest layer:
  /// the estimate grows after its probe wait while no queue grows (up to what the
  /// subscriptions could use), so the resumed track is the probe; if the downlink cannot
  /// carry it, the subscriber's detector reads overuse, the cut pauses it again, and a longer
  /// wait (2 s, then 3) spaces the next try.
  mutating func select(for subscriber: UserID) {
    guard let position = memberIndex[subscriber] else { return }
    let member = members[position]
    var budget = member.estimate.bitrate
    var desired = 0.0
    if let share = member.shareSubscription, let publisher = memberIndex[share.publisher] {
      let layers = members[publisher].layers(of: .share)
      let target = Self.layer(in: layers, fitting: share.resolution, budget: budget)
      let wanted = Self.layer(in: layers, fitting: share.resolution, budget: .infinity)
      fanOuts[FanOutKey(publisher: share.publisher, kind: .share)]?.setTarget(
        target, for: subscriber)
      budget = max(0, budget - Self.bitrate(of: target, in: layers))
      desired += Self.bitrate(of: wanted, in: layers)
    }
    // The video subscriptions in priority order.
    let ranked = audio.ranked
    var candidates: [VideoCandidate] = []
    candidates.reserveCapacity(member.videoSubscriptions.count)
    for (publisher, resolution) in member.videoSubscriptions {
      guard let index = memberIndex[publisher] else { continue }
      let layers = members[index].video
      guard let lowest = layers.firstIndex(where: { $0 != nil }) else {
        fanOuts[FanOutKey(publisher: publisher, kind: .video)]?.setTarget(nil, for: subscriber)
        continue
      }
      candidates.append(
        VideoCandidate(
          publisher: publisher, resolution: resolution, layers: layers,
          lowestBitrate: Self.bitrate(of: UInt8(lowest), in: layers),
          speakerRank: ranked.firstIndex(of: publisher) ?? .max,
          spotlightRank: spotlighted.firstIndex(of: publisher) ?? .max))
      desired += Self.bitrate(
        of: Self.layer(in: layers, fitting: resolution, budget: .infinity), in: layers)
    }
    candidates.sort(by: VideoCandidate.comesFirst)
    // Only a measured limit pauses anything: a new member's estimate was never tested, and
    // one moved by random loss alone is no cap (thinning to the lowest layers is enough).
    let allocates = member.estimate.congested
    var left = allocates ? budget : .infinity
    var kept: [VideoCandidate] = []
    kept.reserveCapacity(candidates.count)
    for candidate in candidates {
      let key = FanOutKey(publisher: candidate.publisher, kind: .video)
      if candidate.lowestBitrate <= left {
        left -= candidate.lowestBitrate
        kept.append(candidate)
        if fanOuts[key]?.setPaused(false, for: subscriber) == true {
          pauseChanges.append(
            PauseChange(
              subscriber: subscriber, publisher: candidate.publisher, kind: .video,
              paused: false))
        }
      } else if fanOuts[key]?.setPaused(true, for: subscriber) == true {
        pauseChanges.append(
          PauseChange(
            subscriber: subscriber, publisher: candidate.publisher, kind: .video, paused: true))
      }
    }
    let each = kept.isEmpty ? budget : budget / Double(kept.count)
    for candidate in kept {
      let target = Self.layer(in: candidate.layers, fitting: candidate.resolution, budget: each)
      fanOuts[FanOutKey(publisher: candidate.publisher, kind: .video)]?.setTarget(
        target, for: subscriber)
    }
    members[position].desiredBitrate = desired
  }

  /// One video subscription the allocator weighs.
  struct VideoCandidate {
    var publisher: UserID
    var resolution: MediaRouter.Resolution
    var layers: [Layer?]
    var lowestBitrate: Double
    /// The publisher's place among the loudest talkers; `Int.max` when not among them.
    var speakerRank: Int
    /// The publisher's place among the spotlighted; `Int.max` when not spotlighted.
    var spotlightRank: Int = .max

    /// The allocator's priority: the spotlighted (in order), active speakers (loudest first),
    /// larger canvases, roster order (ids grow with join order).
    static func comesFirst(_ a: VideoCandidate, _ b: VideoCandidate) -> Bool {
      if a.spotlightRank != b.spotlightRank { return a.spotlightRank < b.spotlightRank }
      if a.speakerRank != b.speakerRank { return a.speakerRank < b.speakerRank }
      let aLines = a.resolution.maxLines ?? .max
      let bLines = b.resolution.maxLines ?? .max
      if aLines != bLines { return aLines > bLines }
      return a.publisher < b.publisher
    }
  }

  /// The highest announced layer within `resolution` whose bitrate is at most `budget`, else
  /// the lowest announced layer, else `nil`.
  static func layer(
    in layers: [Layer?], fitting resolution: MediaRouter.Resolution, budget: Double
  ) -> UInt8? {
    var best: UInt8?
    var lowest: UInt8?
    let maxLines = resolution.maxLines ?? .max
    for (index, layer) in layers.enumerated() {
      guard let layer else { continue }
      if lowest == nil { lowest = UInt8(index) }
      if layer.lines <= maxLines, Double(layer.bitrate) <= budget { best = UInt8(index) }
    }
    return best ?? lowest
  }

  /// The bitrate of a layer, 0 for none.
  static func bitrate(of layer: UInt8?, in layers: [Layer?]) -> Double {
    guard let layer, Int(layer) < layers.count, let announced = layers[Int(layer)] else {
      return 0
    }
    return Double(announced.bitrate)
  }
}
