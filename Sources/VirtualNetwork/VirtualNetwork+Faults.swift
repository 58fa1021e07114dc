import SessionTransport

/// Behaviour and faults: they take effect for messages sent from now on, and for held ones
/// when they are released.
extension VirtualNetwork {
  /// Sets one direction of a peer's behaviour.
  ///
  /// - Parameters:
  ///   - behavior: The behaviour; bad values are clamped when used (``LinkBehavior``).
  ///   - name: The peer's name (made on first use).
  ///   - direction: Which direction.
  public func setBehavior(_ behavior: LinkBehavior, peer name: String, direction: LinkDirection) {
    peer(name).lane(direction).behavior = behavior
  }

  /// One direction of a peer's behaviour.
  ///
  /// - Parameters:
  ///   - name: The peer's name (made on first use).
  ///   - direction: Which direction.
  /// - Returns: The behaviour.
  public func behavior(peer name: String, direction: LinkDirection) -> LinkBehavior {
    peer(name).lane(direction).behavior
  }

  /// Cuts the nodes of one group off from those of the other: reliable messages between them
  /// are held (as TCP retransmits) until ``heal()``, datagrams are dropped.
  ///
  /// - Parameters:
  ///   - groupA: Node names: peers, and `"service"`.
  ///   - groupB: Node names.
  ///   - oneWay: Whether only messages from A to B are blocked.
  public func partition(_ groupA: Set<String>, _ groupB: Set<String>, oneWay: Bool = false) {
    partitions.append(Partition(a: groupA, b: groupB, oneWay: oneWay))
    refreshPartitionFlags()
    trace(
      .fault("partition"), from: groupA.sorted().joined(separator: ","),
      to: groupB.sorted().joined(separator: ","), connection: nil,
      oneWay ? "one way" : "both ways")
  }

  /// Removes every partition and hold; held messages go on their way, in order.
  public func heal() {
    partitions.removeAll()
    refreshPartitionFlags()
    for (peer, direction) in heldLanes { peer.lane(direction).isHeld = false }
    heldLanes.removeAll()
    trace(.fault("heal"), from: Self.serviceNode, to: Self.serviceNode, connection: nil, "heal")
    releaseHeld()
  }

  /// Holds one direction of a peer's link: reliable messages wait, datagrams are dropped,
  /// until ``release(peer:direction:)`` or ``heal()``.
  ///
  /// - Parameters:
  ///   - name: The peer's name.
  ///   - direction: Which direction.
  public func hold(peer name: String, direction: LinkDirection) {
    let peer = peer(name)
    let lane = peer.lane(direction)
    guard !lane.isHeld else { return }
    lane.isHeld = true
    heldLanes.append((peer, direction))
    trace(.fault("hold"), from: name, to: name, connection: nil, direction.rawValue)
  }

  /// Ends a hold; what it held goes on its way, in order (unless a partition still blocks it).
  ///
  /// - Parameters:
  ///   - name: The peer's name.
  ///   - direction: Which direction.
  public func release(peer name: String, direction: LinkDirection) {
    let peer = peer(name)
    let lane = peer.lane(direction)
    guard lane.isHeld else { return }
    lane.isHeld = false
    heldLanes.removeAll { $0.peer === peer && $0.direction == direction }
    trace(.fault("release"), from: name, to: name, connection: nil, direction.rawValue)
    releaseHeld()
  }

  /// Kills a peer's node: no goodbye; nothing more is sent or delivered on its links and media
  /// links, whose handlers are let go of without an event, and its timers and ticks stop.
  /// Messages already on the wire from it still arrive. The service finds out by its heartbeat timeout.
  /// ``VirtualPeer/restart()`` brings the node back.
  ///
  /// - Parameter name: The peer's name.
  public func kill(peer name: String) {
    let peer = peer(name)
    guard peer.alive else { return }
    peer.alive = false
    peer.paused = false
    trace(.fault("kill"), from: name, to: name, connection: nil, "kill")
    for serial in peer.links.keys.sorted() {
      peer.links[serial]?.end()
    }
    for link in peer.mediaLinks { link.end() }
    peer.waitingMediaTicks.removeAll()
    for event in peer.waitingDeliveries {
      if case .reliable = event { peer.downlink.counters.dropped += 1 }
    }
    peer.waitingDeliveries.removeAll()
    peer.waitingTimers.removeAll()
  }

  /// Pauses a peer's node (a stopped process): deliveries to it (datagrams too), its links'
  /// timers and its media links' ticks wait.
  ///
  /// - Parameter name: The peer's name.
  public func pause(peer name: String) {
    let peer = peer(name)
    guard peer.alive, !peer.paused else { return }
    peer.paused = true
    trace(.fault("pause"), from: name, to: name, connection: nil, "pause")
  }

  /// Resumes a paused node: what waited arrives now, in order, then the timers that came due
  /// meanwhile fire (so a link judges its silence after reading what waited), then the media
  /// links tick.
  ///
  /// - Parameter name: The peer's name.
  public func resume(peer name: String) {
    let peer = peer(name)
    guard peer.paused else { return }
    peer.paused = false
    trace(.fault("resume"), from: name, to: name, connection: nil, "resume")
    let deliveries = peer.waitingDeliveries
    let timers = peer.waitingTimers
    let ticks = peer.waitingMediaTicks
    peer.waitingDeliveries.removeAll()
    peer.waitingTimers.removeAll()
    peer.waitingMediaTicks.removeAll()
    for event in deliveries { schedule(event, at: now) }
    for link in timers { schedule(.linkTimer(link), at: now) }
    for link in ticks { schedule(.mediaTick(link), at: now) }
  }

  /// Sets how far a peer's clock (``VirtualPeer/clock``) is off the network's, in
  /// milliseconds (positive is ahead). Saturates rather than overflows.
  ///
  /// - Parameters:
  ///   - name: The peer's name.
  ///   - milliseconds: The skew.
  public func setClockSkew(peer name: String, milliseconds: Int64) {
    peer(name).skew = milliseconds
    trace(.fault("skew"), from: name, to: name, connection: nil, "\(milliseconds) ms")
  }
}
