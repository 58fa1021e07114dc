import SessionCore
import SessionTransport

/// The subscribers of one publisher's video, or of its share, with the layer each one gets.
///
/// Each subscriber has a *target* layer (what the router's selection wants) and a *selected*
/// layer (what it is forwarded). The selected layer moves to the target only at a key frame of
/// the target layer; until then the old layer keeps flowing, and packets of the target that
/// are not key frames make the fan-out ask for a key frame, at most once per request interval
/// per layer. Subscribers sit in an array in the order they subscribed (a removal moves the
/// last one into the gap), so a packet walks memory in order and outputs come in a
/// deterministic order. Owned by the ``MediaRouter`` that holds it.
struct FanOut: Sendable {
  /// One subscription.
  struct Entry: Sendable {
    /// Who receives.
    var subscriber: UserID
    /// The resolution asked for.
    var resolution: MediaRouter.Resolution
    /// The layer forwarded now, if any.
    var selected: UInt8?
    /// The layer the selection wants, if the publisher announced any.
    var target: UInt8?
    /// Whether the stream allocator paused it: nothing is forwarded until it resumes.
    var paused = false
    /// Counters per layer.
    var counters = LayerCounters()
    /// Where the subscriber's media goes now, if anywhere (the router's copy).
    var endpoint: MediaEndpointID?
  }

  /// Counters for each of up to ``StreamID/maxLayers`` layers, stored inline: a forwarded copy
  /// changes one of them in place, with no array of its own to check for uniqueness (that
  /// check was 8% of the service's cost per packet).
  struct LayerCounters: Sendable {
    private var layer0 = StreamCounters()
    private var layer1 = StreamCounters()
    private var layer2 = StreamCounters()

    /// How many layers it counts.
    static let count = 3

    /// Counts a copy of `bytes` forwarded on `layer` (below ``count``), in place: no
    /// accessor coroutine per copy.
    @inline(__always)
    mutating func forwarded(layer: Int, bytes: UInt16) {
      switch layer {
      case 0: layer0.forwarded(bytes)
      case 1: layer1.forwarded(bytes)
      default: layer2.forwarded(bytes)
      }
    }

    /// Counts a packet of `layer` (below ``count``) not forwarded because another was selected.
    @inline(__always)
    mutating func droppedBySelection(layer: Int) {
      switch layer {
      case 0: layer0.droppedBySelection &+= 1
      case 1: layer1.droppedBySelection &+= 1
      default: layer2.droppedBySelection &+= 1
      }
    }

    /// The counters of `layer`, below ``count``.
    @inline(__always)
    subscript(layer: Int) -> StreamCounters {
      get {
        switch layer {
        case 0: layer0
        case 1: layer1
        default: layer2
        }
      }
      _modify {
        switch layer {
        case 0: yield &layer0
        case 1: yield &layer1
        default: yield &layer2
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
  private var lastKeyFrameRequest: [Int64?]

  /// An empty fan-out for a stream kind with `layerCount` layers.
  init(layerCount: Int) {
    precondition(layerCount <= LayerCounters.count, "more layers than the counters hold")
    self.layerCount = layerCount
    lastKeyFrameRequest = Array(repeating: nil, count: layerCount)
  }

  /// Whether nobody subscribes.
  var isEmpty: Bool { entries.isEmpty }

  /// The entry of `subscriber`, if subscribed.
  func entry(of subscriber: UserID) -> Entry? {
    index[subscriber].map { entries[$0] }
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
    entries.append(
      Entry(
        subscriber: subscriber, resolution: resolution, selected: nil, target: nil,
        endpoint: endpoint))
  }

  /// Sets the endpoint of `subscriber`'s entry, if subscribed.
  mutating func setEndpoint(_ endpoint: MediaEndpointID?, of subscriber: UserID) {
    guard let position = index[subscriber] else { return }
    entries[position].endpoint = endpoint
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
    return true
  }

  /// Sets the layer the selection wants for `subscriber`.
  mutating func setTarget(_ target: UInt8?, for subscriber: UserID) {
    guard let position = index[subscriber], !entries[position].paused else { return }
    entries[position].target = target
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
      entries[position].selected = nil
      entries[position].target = nil
    }
    return true
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
    let wantsKeyFrame = route(
      packet, now: now, requestInterval: requestInterval, totals: &totals
    ) { subscriber, _ in outputs.append(.forward(to: subscriber, packet: packet)) }
    if wantsKeyFrame { outputs.append(.requestKeyFrame(packet.stream)) }
  }

  /// Forwards one packet as ``route(_:now:requestInterval:into:totals:)`` does, listing the
  /// endpoint of each subscriber it goes to (those with none are counted as forwarded and
  /// listed nowhere): the service's per-packet path, with no output value or look-up per copy.
  ///
  /// - Returns: Whether a key frame of the packet's stream should be asked for.
  mutating func route(
    _ packet: MediaPacket, now: Int64, requestInterval: Int64,
    endpoints: inout [MediaEndpointID], totals: inout RouterTotals
  ) -> Bool {
    // Room for every entry made once, then written through a pointer: an append per copy
    // checked the array's uniqueness and capacity each time (7 instructions and a call a
    // copy). The slots not written are dropped after.
    let base = endpoints.count
    endpoints.append(contentsOf: repeatElement(MediaEndpointID(0), count: entries.count))
    var written = 0
    let wantsKeyFrame = endpoints.withUnsafeMutableBufferPointer { slots in
      route(packet, now: now, requestInterval: requestInterval, totals: &totals) { _, endpoint in
        guard let endpoint else { return }
        slots[base + written] = endpoint
        written += 1
      }
    }
    endpoints.removeLast(endpoints.count - base - written)
    return wantsKeyFrame
  }

  /// The one fan-out loop: switches those waiting for the packet's layer at a key frame,
  /// counts, and calls `forward` with the subscriber and endpoint of each entry the packet
  /// goes to (two words, not the entry: a copy of the entry per call cost a `memcpy` a copy).
  ///
  /// - Returns: Whether a key frame should be asked for (noted as asked).
  private mutating func route(
    _ packet: MediaPacket, now: Int64, requestInterval: Int64, totals: inout RouterTotals,
    forward: (_ subscriber: UserID, _ endpoint: MediaEndpointID?) -> Void
  ) -> Bool {
    let layer = packet.stream.layer
    let slot = Int(layer)
    var waiting = false
    var forwarded: UInt64 = 0
    // One uniqueness check for the packet, not one per subscriber and field.
    entries.withUnsafeMutableBufferPointer { entries in
      for position in entries.indices {
        if entries[position].target == layer, entries[position].selected != layer {
          if packet.isKeyFrame {
            entries[position].selected = layer
          } else {
            waiting = true
          }
        }
        if entries[position].selected == layer {
          entries[position].counters.forwarded(layer: slot, bytes: packet.payloadBytes)
          forward(entries[position].subscriber, entries[position].endpoint)
          forwarded &+= 1
        } else {
          entries[position].counters.droppedBySelection(layer: slot)
        }
      }
    }
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
