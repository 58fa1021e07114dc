import SessionCore
import SessionTransport

/// One subscription as the router holds it.
public struct SubscriptionState: Sendable, Hashable {
  /// The resolution asked for.
  public var resolution: MediaRouter.Resolution
  /// The layer forwarded now; `nil` until the first key frame of the target layer.
  public var selectedLayer: UInt8?
  /// The layer the selection wants; `nil` while the publisher has announced none. It differs
  /// from ``selectedLayer`` while a switch waits for a key frame.
  public var targetLayer: UInt8?

  /// Creates a subscription state.
  ///
  /// - Parameters:
  ///   - resolution: The resolution asked for.
  ///   - selectedLayer: The layer forwarded now; `nil` until the first key frame of the target
  ///     layer.
  ///   - targetLayer: The layer the selection wants; `nil` while the publisher has announced
  ///     none.
  public init(resolution: MediaRouter.Resolution, selectedLayer: UInt8?, targetLayer: UInt8?) {
    self.resolution = resolution
    self.selectedLayer = selectedLayer
    self.targetLayer = targetLayer
  }
}

extension MediaRouter {
  /// A subscription, if it exists.
  ///
  /// - Parameters:
  ///   - subscriber: Who receives.
  ///   - publisher: Whose stream.
  ///   - kind: `.video` or `.share`.
  /// - Returns: Its resolution and layers, or `nil`.
  public func subscription(
    of subscriber: UserID, to publisher: UserID, kind: MediaKind
  ) -> SubscriptionState? {
    guard let entry = fanOuts[FanOutKey(publisher: publisher, kind: kind)]?.entry(of: subscriber)
    else { return nil }
    return SubscriptionState(
      resolution: entry.resolution, selectedLayer: entry.selected, targetLayer: entry.target)
  }

  /// How many video subscriptions `subscriber` holds (0 for a non-member).
  ///
  /// - Parameter subscriber: The member who receives.
  /// - Returns: The number of publishers whose video `subscriber` subscribes to; 0 for a
  ///   non-member.
  public func videoSubscriptionCount(of subscriber: UserID) -> Int {
    memberIndex[subscriber].map { members[$0].videoSubscriptions.count } ?? 0
  }

  /// The publisher whose share `subscriber` subscribes to, if any.
  ///
  /// - Parameter subscriber: The member who receives.
  /// - Returns: The share's publisher; `nil` when `subscriber` subscribes to no share or is not a
  ///   member.
  public func shareSubscription(of subscriber: UserID) -> UserID? {
    memberIndex[subscriber].flatMap { members[$0].shareSubscription?.publisher }
  }

  /// A member's downlink estimate, bits per second; `nil` for a non-member.
  ///
  /// - Parameter subscriber: The member whose downlink it is.
  /// - Returns: The estimate in bits per second; `nil` when `subscriber` is not a member.
  public func estimate(of subscriber: UserID) -> Double? {
    memberIndex[subscriber].map { members[$0].estimate.bitrate }
  }

  /// What the router did with `stream` for `subscriber`.
  ///
  /// Video and share count while the subscription lasts (a new subscription starts from
  /// zero); audio counts from the first packet of that talker the member received, while
  /// both are members.
  ///
  /// - Parameters:
  ///   - subscriber: Who receives.
  ///   - stream: The stream.
  /// - Returns: The counters, or `nil` when there is no such subscription or receipt.
  public func counters(of subscriber: UserID, for stream: StreamID) -> StreamCounters? {
    switch stream.kind {
    case .video, .share:
      guard
        let fanOut = fanOuts[FanOutKey(publisher: stream.user, kind: stream.kind)],
        Int(stream.layer) < fanOut.layerCount
      else { return nil }
      return fanOut.counters(of: subscriber, layer: Int(stream.layer))
    case .audio:
      guard stream.layer == 0, let receiver = memberIndex[subscriber],
        let talker = memberIndex[stream.user],
        let receipt = members[receiver].audioReceived[stream.user]
      else { return nil }
      var counters = receipt.counters
      counters.droppedBySelection =
        members[talker].audioRouted &- receipt.base &- counters.forwardedPackets
      return counters
    }
  }

  /// How many of `subscriber`'s video and share subscriptions are not at their top layer now:
  /// paused, or forwarded a lower layer than the highest the publisher announced within the
  /// resolution asked for (a subscription whose publisher announced nothing counts as at its
  /// top). A member whose downlink has recovered has none.
  ///
  /// - Parameter subscriber: The member who receives.
  /// - Returns: The count; 0 for a non-member.
  /// - Complexity: O(the subscriber's subscriptions).
  public func subscriptionsBelowTop(of subscriber: UserID) -> Int {
    guard let position = memberIndex[subscriber] else { return 0 }
    let member = members[position]
    var below = 0
    func check(_ publisher: UserID, _ kind: MediaKind, _ resolution: Resolution) {
      guard let index = memberIndex[publisher],
        let entry = fanOuts[FanOutKey(publisher: publisher, kind: kind)]?.entry(of: subscriber)
      else { return }
      let layers = members[index].layers(of: kind)
      guard layers.contains(where: { $0 != nil }) else { return }
      let top = Self.layer(in: layers, fitting: resolution, budget: .infinity)
      if entry.paused || entry.selected != top { below += 1 }
    }
    for (publisher, resolution) in member.videoSubscriptions {
      check(publisher, .video, resolution)
    }
    if let share = member.shareSubscription { check(share.publisher, .share, share.resolution) }
    return below
  }

  /// The talkers every member hears now (each member hears them minus themself, plus the
  /// next loudest), loudest first.
  public var loudestSpeakers: [UserID] {
    Array(audio.ranked.prefix(configuration.loudestSpeakers))
  }
}
