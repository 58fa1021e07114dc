import SessionCore
import SessionTransport

/// The SFU of one session, sans-IO: who subscribes to whom, which layer each subscriber gets,
/// and where each media packet goes.
///
/// The service keeps one router per session and calls it: ``add(_:)`` and ``remove(_:)`` as
/// members come and go, ``announce(stream:bitrate:width:height:)`` as publishers describe their
/// streams, ``subscribe(_:to:kind:resolution:)`` and ``unsubscribe(_:from:kind:)`` for canvases,
/// ``report(subscriber:lossFraction:now:)`` for receiver reports, and
/// ``route(_:now:)`` for every media packet, performing the ``RouterOutput``s it returns. It
/// owns no socket, timer or clock: time comes in as µs.
///
/// - Video and share go only to subscribers, one layer each: the highest layer that fits the
///   requested resolution and the subscriber's share of its downlink estimate (the share first,
///   then the rest split evenly among video subscriptions whose publisher has announced
///   layers), else the lowest announced layer. Layers change only at a key frame. When the
///   estimate cannot carry every video's lowest layer, the stream allocator pauses the ones of
///   lowest priority (``takePauseChanges()``; `Docs/SessionService.md`, "Stream allocator").
/// - Audio needs no subscription: each member gets the loudest ``Configuration/loudestSpeakers``
///   talkers other than themself (`AudioRanking`).
/// - Bad input (a non-member, an unannounced stream, a layer out of range, a loss that is not a
///   fraction) is refused or counted in ``totals`` and changes nothing else.
///
/// > Important: A value type owned by the session's isolation domain (the service's); mutate it
/// > from there only.
public struct MediaRouter: Sendable {
  /// Video layers a publisher may announce: `0..<maxVideoLayers`, the wire's
  /// ``SessionTransport/StreamID/maxLayers`` (3). Share and audio have layer 0.
  public static let maxVideoLayers = Int(StreamID.maxLayers)

  /// A publisher's announced layer.
  struct Layer: Sendable, Hashable {
    var bitrate: Int
    var width: UInt16
    var height: UInt16
    /// The shorter side, which a resolution caps.
    var lines: Int { Int(min(width, height)) }
  }

  /// A member's share subscription.
  struct ShareSubscription: Sendable, Hashable {
    var publisher: UserID
    var resolution: MediaRouter.Resolution
  }

  /// Audio forwarded from one talker to one member, counted from the first packet forwarded.
  struct AudioReceipt: Sendable, Hashable {
    /// The talker's routed-packet count before that first packet.
    var base: UInt64
    var counters = StreamCounters()

    /// Counts one more packet forwarded to the listener, the talker's `routed`-th.
    ///
    /// - Returns: How many of the talker's routed packets the listener was not sent.
    mutating func forwarded(_ payloadBytes: UInt16, routed: UInt64) -> UInt64 {
      counters.forwarded(payloadBytes)
      return (routed &- base) &- counters.forwardedPackets
    }
  }

  /// One member: what it publishes, what it subscribes to, its downlink.
  struct Member: Sendable {
    var user: UserID
    /// Announced video layers, by layer.
    var video: [Layer?] = Array(repeating: nil, count: MediaRouter.maxVideoLayers)
    /// The announced share layer.
    var share: Layer?
    /// Publishers whose video this member subscribes to, with the resolution asked for.
    var videoSubscriptions: [UserID: MediaRouter.Resolution] = [:]
    var shareSubscription: ShareSubscription?
    var estimate: DownlinkEstimate
    /// What the subscriptions could use with no downlink limit, bits per second.
    var desiredBitrate: Double = 0
    /// Audio packets of this member's routed so far.
    var audioRouted: UInt64 = 0
    /// Audio received from each talker.
    var audioReceived: [UserID: AudioReceipt] = [:]
    /// Where the member's media goes, as its owner set it (``setEndpoint(_:of:)``); each of
    /// its subscriptions holds a copy, so that a packet's fan-out lists endpoints with no
    /// look-up per copy.
    var endpoint: MediaEndpointID?
    /// Where the member is: 0 in the main session, a subsession's number otherwise. Media
    /// crosses no border between places.
    var place = 0

    /// Whether `stream`, one of this member's, was announced; false for a layer out of range.
    func hasAnnounced(_ stream: StreamID) -> Bool {
      switch stream.kind {
      case .video: Int(stream.layer) < video.count && video[Int(stream.layer)] != nil
      case .share: stream.layer == 0 && share != nil
      case .audio: stream.layer == 0
      }
    }

    func layers(of kind: MediaKind) -> [Layer?] {
      switch kind {
      case .video: video
      case .share: [share]
      case .audio: []
      }
    }
  }

  /// A subscription the stream allocator paused (the subscriber's estimate cannot carry even
  /// its lowest layer beside those of higher priority) or resumed.
  public struct PauseChange: Sendable, Hashable {
    /// Who subscribes.
    public var subscriber: UserID
    /// Whose stream.
    public var publisher: UserID
    /// Which of the publisher's streams (video; a share is never paused).
    public var kind: MediaKind
    /// `true` for a pause, `false` for a resume.
    public var paused: Bool

    /// Creates a change.
    ///
    /// - Parameters:
    ///   - subscriber: Who subscribes.
    ///   - publisher: Whose stream.
    ///   - kind: Which of the publisher's streams.
    ///   - paused: `true` for a pause, `false` for a resume.
    public init(subscriber: UserID, publisher: UserID, kind: MediaKind, paused: Bool) {
      self.subscriber = subscriber
      self.publisher = publisher
      self.kind = kind
      self.paused = paused
    }
  }

  /// The pauses and resumes since the last call, in order, and forgets them: what the owner
  /// tells each subscriber (``SessionTransport/MediaNotice/streamPaused(publisher:kind:reason:)``).
  ///
  /// - Returns: The changes.
  public mutating func takePauseChanges() -> [PauseChange] {
    guard !pauseChanges.isEmpty else { return [] }
    defer { pauseChanges.removeAll(keepingCapacity: true) }
    return pauseChanges
  }

  /// The subscriptions of `subscriber`'s the stream allocator holds paused, by publisher and
  /// kind in order.
  ///
  /// - Parameter subscriber: Who subscribes.
  /// - Returns: The paused subscriptions; empty for a non-member.
  /// - Complexity: O(the session's fan-outs).
  public func pausedSubscriptions(of subscriber: UserID) -> [(publisher: UserID, kind: MediaKind)] {
    fanOuts.keys.compactMap { key in
      fanOuts[key]?.entry(of: subscriber)?.paused == true ? (key.publisher, key.kind) : nil
    }.sorted { ($0.publisher, $0.kind.rawValue) < ($1.publisher, $1.kind.rawValue) }
  }

  /// Whether the stream allocator has paused `subscriber`'s subscription to `publisher`'s
  /// `kind`.
  ///
  /// - Parameters:
  ///   - subscriber: Who subscribes.
  ///   - publisher: Whose stream.
  ///   - kind: Video or share.
  /// - Returns: `nil` when there is no such subscription.
  public func isPaused(_ subscriber: UserID, publisher: UserID, kind: MediaKind) -> Bool? {
    fanOuts[FanOutKey(publisher: publisher, kind: kind)]?.entry(of: subscriber)?.paused
  }

  /// The subscribers of one publisher's stream kind.
  struct FanOutKey: Sendable, Hashable {
    var publisher: UserID
    var kind: MediaKind
  }

  /// The configuration, brought into range.
  public let configuration: Configuration
  /// Members in a deterministic order (a removal moves the last one into the gap).
  var members: [Member] = []
  /// Each member's place in ``members``.
  var memberIndex = UserMap<Int>()
  /// Video and share subscribers per publisher.
  var fanOuts = FanOuts()
  /// The loudest talkers.
  var audio = AudioRanking()
  /// Whose video is spotlighted, in order: first in every subscriber's allocation.
  public internal(set) var spotlighted: [UserID] = []
  /// How many members are outside the main session (``setPlace(_:of:)``): while any is, audio
  /// goes to everyone in the talker's place instead of to the loudest speakers' listeners.
  public internal(set) var membersAway = 0
  /// Counts over the router's lifetime.
  public internal(set) var totals = RouterTotals()
  /// Subscriptions the stream allocator paused or resumed since ``takePauseChanges()``.
  var pauseChanges: [PauseChange] = []

  /// Creates an empty router.
  ///
  /// - Parameter configuration: Limits and controller bounds; values out of range are brought
  ///   into range.
  public init(configuration: Configuration = Configuration()) {
    self.configuration = configuration.sanitized
  }

  // MARK: Members

  /// Adds a member: from now on it receives audio, may publish and subscribe.
  ///
  /// - Parameter user: The member.
  /// - Returns: Whether it was new (adding a member twice changes nothing).
  /// - Complexity: O(1).
  @discardableResult
  public mutating func add(_ user: UserID) -> Bool {
    guard memberIndex[user] == nil else { return false }
    memberIndex[user] = members.count
    members.append(
      Member(user: user, estimate: DownlinkEstimate(bitrate: configuration.initialEstimate)))
    return true
  }

  /// Removes a member as publisher and as subscriber: its subscriptions end, its subscribers
  /// lose it (and get their estimate shared among what remains), its audio stops.
  ///
  /// - Parameter user: The member who left.
  /// - Returns: Whether it was a member.
  /// - Complexity: O(members), for the audio others received from it.
  @discardableResult
  public mutating func remove(_ user: UserID) -> Bool {
    guard let position = memberIndex[user] else { return false }
    let member = members[position]
    for publisher in member.videoSubscriptions.keys {
      dropSubscription(of: user, to: FanOutKey(publisher: publisher, kind: .video))
    }
    if let share = member.shareSubscription {
      dropSubscription(of: user, to: FanOutKey(publisher: share.publisher, kind: .share))
    }
    var orphaned: [UserID] = []
    for kind in [MediaKind.video, .share] {
      guard let fanOut = fanOuts.removeValue(forKey: FanOutKey(publisher: user, kind: kind))
      else { continue }
      for entry in fanOut.entries {
        guard let subscriber = memberIndex[entry.subscriber] else { continue }
        if kind == .video {
          members[subscriber].videoSubscriptions[user] = nil
        } else {
          members[subscriber].shareSubscription = nil
        }
        orphaned.append(entry.subscriber)
      }
    }
    let last = members.count - 1
    if position != last {
      members[position] = members[last]
      memberIndex[members[position].user] = position
    }
    members.removeLast()
    memberIndex[user] = nil
    if member.place != 0 { membersAway -= 1 }
    for index in members.indices { members[index].audioReceived[user] = nil }
    audio.remove(user, keep: configuration.loudestSpeakers + 1)
    for subscriber in orphaned { select(for: subscriber) }
    return true
  }

  /// Sets whose video is spotlighted: the stream allocator keeps spotlighted videos first
  /// (after a share), in the order given.
  ///
  /// Only a congested subscriber's selection depends on priority (an untested estimate keeps
  /// every video), so only congested subscribers of a publisher whose place changed are
  /// selected again: a host who toggles the spotlight in a loop costs little per toggle.
  ///
  /// - Parameter users: The spotlighted users, in order; non-members are kept and matter only
  ///   once they publish.
  /// - Complexity: O(subscribers of the publishers whose place changed).
  public mutating func setSpotlighted(_ users: [UserID]) {
    guard users != spotlighted else { return }
    // In list order, so that reselection (and the pause notices it makes) is deterministic.
    var moved: [UserID] = []
    for (place, user) in users.enumerated() where spotlighted.firstIndex(of: user) != place {
      moved.append(user)
    }
    moved += spotlighted.filter { !users.contains($0) }
    spotlighted = users
    var reselected = Set<UserID>()
    for publisher in moved {
      guard let fanOut = fanOuts[FanOutKey(publisher: publisher, kind: .video)] else { continue }
      for entry in fanOut.entries {
        guard let index = memberIndex[entry.subscriber], members[index].estimate.congested,
          reselected.insert(entry.subscriber).inserted
        else { continue }
        select(for: entry.subscriber)
      }
    }
  }

  /// Moves a member to a place: 0 is the main session, any other number a subsession.
  ///
  /// Subscriptions that would cross the new border end, both ways (the subscribers left get
  /// their estimate shared among what remains); from now on the member hears and is heard only
  /// in its place.
  ///
  /// - Parameters:
  ///   - place: The place's number.
  ///   - user: The member; a non-member changes nothing.
  /// - Complexity: O(members), for the subscriptions to and from the member.
  public mutating func setPlace(_ place: Int, of user: UserID) {
    guard let position = memberIndex[user], members[position].place != place else { return }
    membersAway += (place != 0 ? 1 : 0) - (members[position].place != 0 ? 1 : 0)
    members[position].place = place
    var reselect: [UserID] = [user]
    for publisher in members[position].videoSubscriptions.keys.sorted() {
      guard let other = memberIndex[publisher], members[other].place != place else { continue }
      members[position].videoSubscriptions[publisher] = nil
      dropSubscription(of: user, to: FanOutKey(publisher: publisher, kind: .video))
    }
    if let share = members[position].shareSubscription,
      let other = memberIndex[share.publisher], members[other].place != place
    {
      members[position].shareSubscription = nil
      dropSubscription(of: user, to: FanOutKey(publisher: share.publisher, kind: .share))
    }
    for kind in [MediaKind.video, .share] {
      let key = FanOutKey(publisher: user, kind: kind)
      guard let fanOut = fanOuts[key] else { continue }
      for entry in fanOut.entries {
        guard let index = memberIndex[entry.subscriber], members[index].place != place
        else { continue }
        if kind == .video {
          members[index].videoSubscriptions[user] = nil
        } else {
          members[index].shareSubscription = nil
        }
        dropSubscription(of: entry.subscriber, to: key)
        reselect.append(entry.subscriber)
      }
    }
    for subscriber in reselect { select(for: subscriber) }
  }

  /// Moves every member back to the main session (the subsessions stopped).
  ///
  /// - Complexity: O(members).
  public mutating func returnEveryoneToMain() {
    guard membersAway > 0 else { return }
    // Everyone ends in one place, so no subscription crosses a border: each stays (moving
    // members one by one would end those between members of the same subsession).
    for index in members.indices { members[index].place = 0 }
    membersAway = 0
  }

  /// Where a member is (``setPlace(_:of:)``).
  ///
  /// - Parameter user: A member.
  /// - Returns: 0 for the main session, a subsession's number, or `nil` for a non-member.
  public func place(of user: UserID) -> Int? {
    memberIndex[user].map { members[$0].place }
  }

  /// Whether `user` is a member.
  ///
  /// - Parameter user: The user to look up.
  /// - Returns: `true` when ``add(_:)`` added `user` and ``remove(_:)`` has not removed them since.
  public func isMember(_ user: UserID) -> Bool { memberIndex[user] != nil }

  /// How many members there are.
  public var memberCount: Int { members.count }

  // MARK: Subscriptions

  /// Subscribes `subscriber` to `publisher`'s video or share; subscribing again changes only
  /// the resolution.
  ///
  /// Refused, changing nothing, when the subscriber or publisher is not a member, they are the
  /// same user, the kind is audio, a new video subscription would pass
  /// ``Configuration/maxVideoSubscriptions``, or the subscriber already has another share.
  /// The subscription starts at the next key frame of its layer (the router asks for one).
  ///
  /// - Parameters:
  ///   - subscriber: Who receives.
  ///   - publisher: Whose stream.
  ///   - kind: `.video` or `.share`.
  ///   - resolution: The most the subscriber wants to render.
  /// - Returns: `.subscribed`, or the reason for the refusal.
  /// - Complexity: O(the subscriber's subscriptions), for the new layer selection.
  public mutating func subscribe(
    _ subscriber: UserID, to publisher: UserID, kind: MediaKind, resolution: MediaRouter.Resolution
  ) -> SubscribeResult {
    guard let position = memberIndex[subscriber] else { return .failed(.unknownSubscriber) }
    guard kind != .audio else { return .failed(.notSubscribable) }
    guard subscriber != publisher else { return .failed(.ownStream) }
    // A publisher in another place (a subsession, or the main session) is not in the
    // subscriber's session.
    guard let publisherPosition = memberIndex[publisher],
      members[publisherPosition].place == members[position].place
    else { return .failed(.unknownPublisher) }
    let key = FanOutKey(publisher: publisher, kind: kind)
    if kind == .video {
      let member = members[position]
      if member.videoSubscriptions[publisher] == nil,
        member.videoSubscriptions.count >= configuration.maxVideoSubscriptions
      {
        return .failed(.exceededLimit)
      }
      members[position].videoSubscriptions[publisher] = resolution
    } else {
      if let existing = members[position].shareSubscription, existing.publisher != publisher {
        return .failed(.oneShare)
      }
      members[position].shareSubscription = ShareSubscription(
        publisher: publisher, resolution: resolution)
    }
    let layerCount = kind == .video ? Self.maxVideoLayers : 1
    fanOuts[key, default: FanOut(layerCount: layerCount)].subscribe(
      subscriber, resolution: resolution, endpoint: members[position].endpoint)
    select(for: subscriber)
    return .subscribed
  }

  /// Sets where `user`'s media goes (its bound endpoint, or `nil` when it has none):
  /// ``route(_:now:keyFrames:)`` lists it for each packet `user` is forwarded.
  ///
  /// - Parameters:
  ///   - endpoint: The endpoint, or `nil`.
  ///   - user: The member; a non-member changes nothing.
  /// - Complexity: O(the member's subscriptions).
  package mutating func setEndpoint(_ endpoint: MediaEndpointID?, of user: UserID) {
    guard let position = memberIndex[user] else { return }
    members[position].endpoint = endpoint
    for publisher in members[position].videoSubscriptions.keys {
      fanOuts[FanOutKey(publisher: publisher, kind: .video)]?.setEndpoint(endpoint, of: user)
    }
    if let share = members[position].shareSubscription {
      fanOuts[FanOutKey(publisher: share.publisher, kind: .share)]?.setEndpoint(
        endpoint, of: user)
    }
  }

  /// Ends a subscription: no packet of it is forwarded after this call.
  ///
  /// - Parameters:
  ///   - subscriber: Who received.
  ///   - publisher: Whose stream.
  ///   - kind: `.video` or `.share`.
  /// - Returns: Whether there was such a subscription.
  /// - Complexity: O(the subscriber's subscriptions).
  @discardableResult
  public mutating func unsubscribe(
    _ subscriber: UserID, from publisher: UserID, kind: MediaKind
  ) -> Bool {
    guard let position = memberIndex[subscriber] else { return false }
    switch kind {
    case .video:
      guard members[position].videoSubscriptions.removeValue(forKey: publisher) != nil else {
        return false
      }
    case .share:
      guard members[position].shareSubscription?.publisher == publisher else { return false }
      members[position].shareSubscription = nil
    case .audio:
      return false
    }
    dropSubscription(of: subscriber, to: FanOutKey(publisher: publisher, kind: kind))
    select(for: subscriber)
    return true
  }

  /// Removes `subscriber` from a fan-out, and the fan-out once it is empty.
  private mutating func dropSubscription(of subscriber: UserID, to key: FanOutKey) {
    fanOuts[key]?.unsubscribe(subscriber)
    if fanOuts[key]?.isEmpty == true { fanOuts[key] = nil }
  }
}
