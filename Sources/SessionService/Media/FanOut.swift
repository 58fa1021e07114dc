import SessionCore
import SessionTransport

/// The subscribers of one publisher's video, or of its share, with the layer each one gets.
///
/// Each subscriber has a *target* layer (what the router's selection wants) and a *selected*
/// layer (what it is forwarded). The selected layer moves to the target only at a key frame of
/// the target layer; until then the old layer keeps flowing, and packets of the target that
/// are not key frames make the fan-out ask for a key frame, at most once per request interval
/// per layer. Subscribers sit in an array in the order they subscribed (a removal moves the
/// last one into the gap), so outputs come in a deterministic order.
///
/// A packet costs the same whatever the number of subscribers: the fan-out keeps, per layer,
/// the endpoints of the subscribers selected on it (rebuilt only after a subscription, a
/// switch, a pause or an endpoint changed) and the layer's running tally; each subscription's
/// counters are read from the tally against marks taken when its selection began
/// (`Docs/Performance.md`, "The media plane per packet"). Owned by the ``MediaRouter`` that
/// holds it.
struct FanOut: Sendable {
  /// One subscription.
  struct Entry: Sendable {
    /// Who receives.
    var subscriber: UserID
    /// The resolution asked for.
    var resolution: MediaRouter.Resolution
    /// The layer forwarded now, if any (changed only through ``FanOut/select(_:layer:)``).
    fileprivate(set) var selected: UInt8?
    /// The layer the selection wants, if the publisher announced any.
    fileprivate(set) var target: UInt8?
    /// Whether the stream allocator paused it: nothing is forwarded until it resumes.
    fileprivate(set) var paused = false
    /// Where the subscriber's media goes now, if anywhere (the router's copy).
    fileprivate(set) var endpoint: MediaEndpointID?
    /// What was forwarded on each layer in selections that ended.
    fileprivate var closed = Layered<Tally>()
    /// The selected layer's tally when the selection began.
    fileprivate var selectedSince = Tally()
    /// Each layer's packet count when the subscription began.
    fileprivate var subscribedAt = Layered<UInt64>()
  }

  /// Packets and their payload bytes, wrapping.
  struct Tally: Sendable {
    var packets: UInt64 = 0
    var bytes: UInt64 = 0

    /// What was added since `mark`.
    func since(_ mark: Tally) -> Tally {
      Tally(packets: packets &- mark.packets, bytes: bytes &- mark.bytes)
    }

    static func &+ (a: Tally, b: Tally) -> Tally {
      Tally(packets: a.packets &+ b.packets, bytes: a.bytes &+ b.bytes)
    }
  }

  /// One value for each of up to ``count`` layers, stored inline (no array to check for
  /// uniqueness on the packet path).
  struct Layered<Value: Sendable>: Sendable {
    private var layer0: Value
    private var layer1: Value
    private var layer2: Value

    /// How many layers it holds.
    static var count: Int { 3 }

    init(repeating value: Value) {
      (layer0, layer1, layer2) = (value, value, value)
    }

    /// The value of `layer`, below ``count``.
    @inline(__always)
    subscript(layer: Int) -> Value {
      get {
        switch layer {
        case 0: layer0
        case 1: layer1
        default: layer2
        }
      }
      set {
        switch layer {
        case 0: layer0 = newValue
        case 1: layer1 = newValue
        default: layer2 = newValue
        }
      }
    }
  }

  /// How many layers the stream kind has: video's simulcast layers, or share's one.
  let layerCount: Int
  /// The subscriptions.
  private(set) var entries: [Entry] = []
  /// Each subscriber's place in ``entries``.
  private var index: [UserID: Int] = [:]
  /// When a key frame of each layer was last asked for, µs.
  private var lastKeyFrameRequest = Layered<Int64?>(repeating: nil)
  /// Every packet routed on each layer.
  private var tallies = Layered<Tally>()
  /// Per layer, the endpoints of the subscribers selected on it that have one, in entry order.
  private var forwardLists = Layered<[MediaEndpointID]>(repeating: [])
  /// Per layer, how many subscribers are selected on it (with an endpoint or not).
  private var selectedCounts = Layered<Int>(repeating: 0)
  /// Per layer, how many subscribers wait for its key frame (target on it, selected elsewhere).
  private var waitingCounts = Layered<Int>(repeating: 0)
  /// Whether the lists and counts above are out of date.
  private var stale = false

  /// An empty fan-out for a stream kind with `layerCount` layers.
  init(layerCount: Int) {
    precondition(layerCount <= Layered<Int>.count, "more layers than the fan-out holds")
    self.layerCount = layerCount
  }

  /// Whether nobody subscribes.
  var isEmpty: Bool { entries.isEmpty }

  /// The entry of `subscriber`, if subscribed.
  func entry(of subscriber: UserID) -> Entry? {
    index[subscriber].map { entries[$0] }
  }

  /// What was forwarded to `subscriber` on `layer` (below ``layerCount``) while subscribed,
  /// and what it did not get because another layer was selected; `nil` when not subscribed.
  func counters(of subscriber: UserID, layer: Int) -> StreamCounters? {
    guard let position = index[subscriber] else { return nil }
    let entry = entries[position]
    var forwarded = entry.closed[layer]
    if let selected = entry.selected, Int(selected) == layer {
      forwarded = forwarded &+ tallies[layer].since(entry.selectedSince)
    }
    let arrived = tallies[layer].packets &- entry.subscribedAt[layer]
    return StreamCounters(
      forwardedPackets: forwarded.packets, forwardedBytes: forwarded.bytes,
      droppedBySelection: arrived &- forwarded.packets)
  }

  /// Adds a subscription, or changes its resolution if it exists.
  mutating func subscribe(
    _ subscriber: UserID, resolution: MediaRouter.Resolution, endpoint: MediaEndpointID?
  ) {
    if let position = index[subscriber] {
      entries[position].resolution = resolution
      return
    }
    index[subscriber] = entries.count
    var entry = Entry(subscriber: subscriber, resolution: resolution, endpoint: endpoint)
    for layer in 0..<layerCount { entry.subscribedAt[layer] = tallies[layer].packets }
    entries.append(entry)
    stale = true
  }

  /// Sets the endpoint of `subscriber`'s entry, if subscribed.
  mutating func setEndpoint(_ endpoint: MediaEndpointID?, of subscriber: UserID) {
    guard let position = index[subscriber], entries[position].endpoint != endpoint else { return }
    entries[position].endpoint = endpoint
    stale = true
  }

  /// Removes a subscription; returns whether there was one.
  @discardableResult
  mutating func unsubscribe(_ subscriber: UserID) -> Bool {
    guard let position = index.removeValue(forKey: subscriber) else { return false }
    let last = entries.count - 1
    if position != last {
      entries[position] = entries[last]
      index[entries[position].subscriber] = position
    }
    entries.removeLast()
    stale = true
    return true
  }

  /// Sets the layer the selection wants for `subscriber`.
  mutating func setTarget(_ target: UInt8?, for subscriber: UserID) {
    guard let position = index[subscriber], !entries[position].paused,
      entries[position].target != target
    else { return }
    entries[position].target = target
    stale = true
  }

  /// Pauses or resumes `subscriber`'s subscription: a pause stops it at once (nothing is
  /// forwarded, whatever the target); a resume waits, as any switch does, for a key frame of
  /// the target the selection sets next.
  ///
  /// - Returns: Whether it changed (a subscriber that is not here changes nothing).
  mutating func setPaused(_ paused: Bool, for subscriber: UserID) -> Bool {
    guard let position = index[subscriber], entries[position].paused != paused else {
      return false
    }
    entries[position].paused = paused
    if paused {
      select(position, layer: nil)
      entries[position].target = nil
    }
    stale = true
    return true
  }

  /// Moves the entry at `position` to `layer`: what its old selection forwarded is closed off,
  /// and the new one counts from the layer's tally now.
  private mutating func select(_ position: Int, layer: UInt8?) {
    if let old = entries[position].selected {
      let slot = Int(old)
      entries[position].closed[slot] =
        entries[position].closed[slot] &+ tallies[slot].since(entries[position].selectedSince)
    }
    entries[position].selected = layer
    if let layer { entries[position].selectedSince = tallies[Int(layer)] }
  }

  /// Brings the per-layer lists and counts up to date with the entries.
  private mutating func refresh() {
    stale = false
    for layer in 0..<layerCount {
      forwardLists[layer].removeAll(keepingCapacity: true)
      selectedCounts[layer] = 0
      waitingCounts[layer] = 0
    }
    for entry in entries {
      if let selected = entry.selected {
        let slot = Int(selected)
        selectedCounts[slot] += 1
        if let endpoint = entry.endpoint { forwardLists[slot].append(endpoint) }
      }
      if let target = entry.target, entry.selected != target {
        waitingCounts[Int(target)] += 1
      }
    }
  }

  /// Forwards one packet of layer `packet.stream.layer` (in range) to the subscribers whose
  /// selected layer it is, switching those waiting for it at a key frame.
  ///
  /// - Parameters:
  ///   - packet: A packet of this fan-out's stream.
  ///   - now: The router's time, µs.
  ///   - requestInterval: The least time between two key-frame requests for one layer, µs.
  ///   - outputs: Where forwards and key-frame requests go.
  ///   - totals: The router's totals.
  /// - Complexity: O(subscribers).
  mutating func route(
    _ packet: MediaPacket, now: Int64, requestInterval: Int64,
    into outputs: inout [RouterOutput], totals: inout RouterTotals
  ) {
    let layer = packet.stream.layer
    let wantsKeyFrame = route(packet, now: now, requestInterval: requestInterval, totals: &totals)
    for entry in entries where entry.selected == layer {
      outputs.append(.forward(to: entry.subscriber, packet: packet))
    }
    if wantsKeyFrame { outputs.append(.requestKeyFrame(packet.stream)) }
  }

  /// Forwards one packet as ``route(_:now:requestInterval:into:totals:)`` does, returning the
  /// endpoint of each subscriber it goes to (those with none are counted as forwarded and
  /// listed nowhere): the service's per-packet path, O(1) unless a switch is due.
  ///
  /// - Returns: The endpoints, in entry order (the fan-out's own list: no copy), and whether a
  ///   key frame of the packet's stream should be asked for (noted as asked).
  mutating func routeToEndpoints(
    _ packet: MediaPacket, now: Int64, requestInterval: Int64, totals: inout RouterTotals
  ) -> (endpoints: [MediaEndpointID], wantsKeyFrame: Bool) {
    let wantsKeyFrame = route(packet, now: now, requestInterval: requestInterval, totals: &totals)
    return (forwardLists[Int(packet.stream.layer)], wantsKeyFrame)
  }

  /// The one routing step: switches those waiting for the packet's layer at a key frame, and
  /// counts the packet on its layer.
  ///
  /// - Returns: Whether a key frame should be asked for (noted as asked).
  private mutating func route(
    _ packet: MediaPacket, now: Int64, requestInterval: Int64, totals: inout RouterTotals
  ) -> Bool {
    let layer = packet.stream.layer
    let slot = Int(layer)
    if stale { refresh() }
    var waiting = false
    if waitingCounts[slot] > 0 {
      if packet.isKeyFrame {
        for position in entries.indices
        where entries[position].target == layer && entries[position].selected != layer {
          select(position, layer: layer)
        }
        refresh()
      } else {
        waiting = true
      }
    }
    tallies[slot] = tallies[slot] &+ Tally(packets: 1, bytes: UInt64(packet.payloadBytes))
    let forwarded = UInt64(selectedCounts[slot])
    totals.forwardedPackets &+= forwarded
    totals.forwardedBytes &+= forwarded &* UInt64(packet.payloadBytes)
    totals.droppedBySelection &+= UInt64(entries.count) &- forwarded
    guard waiting else { return false }
    if let last = lastKeyFrameRequest[slot],
      microseconds(from: last, to: now) < requestInterval, now >= last
    {
      return false
    }
    lastKeyFrameRequest[slot] = now
    totals.keyFrameRequests &+= 1
    return true
  }
}

extension FanOut.Layered where Value == FanOut.Tally {
  init() { self.init(repeating: FanOut.Tally()) }
}

extension FanOut.Layered where Value == UInt64 {
  init() { self.init(repeating: 0) }
}
