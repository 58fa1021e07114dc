internal import CPrefetch
import SessionTransport

/// The reliable channel: opens, messages and closes of links, FIFO per connection direction.
extension VirtualNetwork {
  /// The most lost attempts of one message that each add a timeout: a message lost this many
  /// times in a row arrives after the last timeout anyway (its connection will have timed out
  /// long before, as TCP gives up).
  static let maximumRetransmissions = 16
  /// The most times the retransmission timeout doubles for one message.
  static let maximumBackoffDoublings = 6

  // MARK: Links

  func linkStarted(_ link: VirtualLink) {
    let connection = Connection(id: nextConnectionID(), peer: link.peer, link: link)
    link.connectionState = connection
    link.peer.links[link.serial] = link
    link.lastHeard = now
    link.lastSent = now
    sendReliable(.open, on: connection)
    scheduleTimer(for: link)
  }

  /// Schedules a link's next heartbeat check: when a heartbeat is due, or its silence would
  /// reach the timeout, whichever is first.
  func scheduleTimer(for link: VirtualLink) {
    var due = Int64.max
    if heartbeatInterval > 0 { due = min(due, Micro.add(link.lastSent, heartbeatInterval)) }
    if heartbeatTimeout > 0 { due = min(due, Micro.add(link.lastHeard, heartbeatTimeout)) }
    guard due != .max else { return }
    schedule(.linkTimer(link), at: due)
  }

  func linkTimerFired(_ link: VirtualLink) {
    guard let connection = link.connectionState else { return }
    if heartbeatTimeout > 0, now - link.lastHeard >= heartbeatTimeout {
      let handler = link.handler
      link.end()
      trace(
        .closed, from: link.peer.name, to: Self.serviceNode, connection: connection.id,
        "heartbeat timeout")
      closeFromClient(connection)
      handler?(.closed(.failed("heartbeat timeout")))
      return
    }
    if heartbeatInterval > 0, now - link.lastSent >= heartbeatInterval {
      link.lastSent = now
      sendReliable(.client(.heartbeat), on: connection)
    }
    scheduleTimer(for: link)
  }

  /// The client closes a connection. One whose open has not reached a host is abandoned, as
  /// a TCP socket closed before its handshake completed: the service never hears of it, and
  /// its open and messages still in flight are dropped when they arrive. Otherwise a close
  /// goes after everything sent before it (as TCP's FIN follows the data).
  func closeFromClient(_ connection: Connection) {
    connection.closedByClient = true
    if connection.hostSide == .notOpen {
      connection.abandonedBeforeOpen = true
      return
    }
    sendReliable(.clientClose, on: connection)
  }

  // MARK: Sending

  /// Sends a packet on a connection: held behind a partition or hold (or what is held
  /// already), else on its way with its delay, losses and capacity.
  func sendReliable(_ packet: Packet, on connection: Connection) {
    guard !isFinished else { return }
    let direction = packet.direction
    let peer = connection.peer
    let lane = peer.lane(direction)
    let message = ReliableMessage(connection: connection, packet: packet, sentAt: now)
    lane.counters.sent += 1
    if observer != nil {
      let (from, to) = endpoints(of: connection, direction)
      trace(.sent, from: from, to: to, connection: connection.id, packet.summary)
    }
    if connection.hasHeld(direction) || isBlocked(peer, direction) {
      hold(message)
      return
    }
    transmit(message)
  }

  func endpoints(of connection: Connection, _ direction: LinkDirection) -> (String, String) {
    direction == .uplink
      ? (connection.peer.name, Self.serviceNode) : (Self.serviceNode, connection.peer.name)
  }

  /// Whether a partition or hold blocks this direction of a peer's link to the service.
  func isBlocked(_ peer: VirtualPeer, _ direction: LinkDirection) -> Bool {
    if peer.lane(direction).isHeld { return true }
    return direction == .uplink ? peer.isCutFromService : peer.isCutToService
  }

  /// Works out again, for every peer, whether the partitions cut it from the service (each
  /// way), so that a send checks two flags rather than sets of names.
  func refreshPartitionFlags() {
    for peer in peerOrder { refreshPartitionFlags(of: peer) }
  }

  func refreshPartitionFlags(of peer: VirtualPeer) {
    guard !partitions.isEmpty else {
      peer.isCutFromService = false
      peer.isCutToService = false
      return
    }
    peer.isCutFromService = isPartitioned(from: peer.name, to: Self.serviceNode)
    peer.isCutToService = isPartitioned(from: Self.serviceNode, to: peer.name)
  }

  func isPartitioned(from: String, to: String) -> Bool {
    for partition in partitions {
      if partition.a.contains(from) && partition.b.contains(to) { return true }
      if !partition.oneWay && partition.b.contains(from) && partition.a.contains(to) {
        return true
      }
    }
    return false
  }

  private func hold(_ message: ReliableMessage) {
    let connection = message.connection
    let direction = message.packet.direction
    connection.peer.lane(direction).counters.held += 1
    if direction == .uplink {
      connection.held.uplink.append(message)
    } else {
      connection.held.downlink.append(message)
    }
    if !connection.isListedAsHolding {
      connection.isListedAsHolding = true
      holdingConnections.append(connection)
    }
    if observer != nil {
      let (from, to) = endpoints(of: connection, direction)
      trace(.held, from: from, to: to, connection: connection.id, message.packet.summary)
    }
  }

  /// Sends on every held message whose direction is no longer blocked, in order.
  func releaseHeld() {
    guard !holdingConnections.isEmpty else { return }
    let holding = holdingConnections
    holdingConnections.removeAll()
    for connection in holding {
      connection.isListedAsHolding = false
      for direction in LinkDirection.allCases {
        guard connection.hasHeld(direction), !isBlocked(connection.peer, direction) else {
          continue
        }
        let messages = direction == .uplink ? connection.held.uplink : connection.held.downlink
        if direction == .uplink {
          connection.held.uplink.removeAll()
        } else {
          connection.held.downlink.removeAll()
        }
        for message in messages {
          if observer != nil {
            let (from, to) = endpoints(of: connection, direction)
            trace(
              .released, from: from, to: to, connection: connection.id,
              message.packet.summary)
          }
          transmit(message)
        }
      }
      if connection.hasHeld(.uplink) || connection.hasHeld(.downlink) {
        connection.isListedAsHolding = true
        holdingConnections.append(connection)
      }
    }
  }

  /// Puts a message on its way: delay, lost attempts and capacity decide when it arrives,
  /// never before the message ahead of it on its connection direction.
  private func transmit(_ message: ReliableMessage) {
    let connection = message.connection
    let direction = message.packet.direction
    let lane = connection.peer.lane(direction)
    let behavior = lane.behavior
    let delay = behavior.sampleDelay(&lane.random)
    var size = 0
    if behavior.bandwidth != nil || configuration.countsMessageBytes {
      size = message.packet.wireSize
      lane.counters.bytes += size
    }
    var attempt = now
    var losses = 0
    var arrival: Int64
    while true {
      var finish = attempt
      var lost = false
      if let bandwidth = behavior.bandwidth {
        if losses == 0 {
          // The first attempt waits in the capacity queue; over its limit it is lost.
          if let end = lane.enqueue(bytes: size, at: attempt, bandwidth: bandwidth) {
            finish = end
          } else {
            lost = true
          }
        } else {
          // A retransmission is charged its serialisation, outside the queue.
          finish = Micro.add(attempt, bandwidth.serialisation(bytes: size))
        }
      }
      if !lost {
        lost = Lane.lose(behavior.loss, bad: &lane.reliableBad, random: &lane.random)
      }
      guard lost, losses < Self.maximumRetransmissions else {
        arrival = Micro.add(finish, delay)
        break
      }
      losses += 1
      let base = max(retransmissionTimeout, Micro.multiply(delay, 2))
      let timeout = Micro.multiply(
        base, Int64(1) << Int64(min(losses - 1, Self.maximumBackoffDoublings)))
      attempt = Micro.add(attempt, timeout)
    }
    if losses > 0 {
      lane.counters.retransmitted += losses
      if observer != nil {
        let (from, to) = endpoints(of: connection, direction)
        trace(
          .retransmitted(losses), from: from, to: to, connection: connection.id,
          message.packet.summary)
      }
    }
    arrival = max(arrival, connection.lastArrival(direction))
    connection.setLastArrival(arrival, direction)
    schedule(.reliable(message), at: arrival)
  }

  // MARK: Arriving

  func arriveAtService(_ message: ReliableMessage) {
    let connection = message.connection
    let lane = connection.peer.uplink
    let id = connection.id
    let name = connection.peer.name
    if connection.abandonedBeforeOpen, connection.hostSide == .notOpen {
      discard(message, lane: lane, "closed before it opened")
      return
    }
    switch message.packet {
    case .open:
      guard let host else {
        lane.counters.delivered += 1
        trace(
          .dropped, from: name, to: Self.serviceNode, connection: id,
          "open (connection refused)")
        sendReliable(.reset("connection refused"), on: connection)
        return
      }
      lane.counters.delivered += 1
      connection.hostSide = .open(hostIncarnation)
      hostConnections[id] = connection
      trace(.opened, from: name, to: Self.serviceNode, connection: id, "open")
      host.connectionOpened(id, now: nowMilliseconds)
    case .client(let clientMessage):
      guard let host, connection.hostSide == .open(hostIncarnation) else {
        discard(message, lane: lane, "connection ended")
        return
      }
      lane.counters.delivered += 1
      trace(
        .delivered, from: name, to: Self.serviceNode, connection: id,
        clientMessage.traceSummary)
      host.receive(clientMessage, from: id, now: nowMilliseconds)
    case .clientClose:
      guard let host, connection.hostSide == .open(hostIncarnation) else {
        discard(message, lane: lane, "connection ended")
        return
      }
      lane.counters.delivered += 1
      connection.hostSide = .closed
      hostConnections[id] = nil
      trace(.closed, from: name, to: Self.serviceNode, connection: id, "close")
      host.connectionClosed(id, now: nowMilliseconds)
    case .server, .hostClose, .reset:
      break
    }
  }

  func arriveAtPeer(_ message: ReliableMessage, event: PendingEvent) {
    let connection = message.connection
    let peer = connection.peer
    let lane = peer.downlink
    guard let link = connection.link, link.state == .open, peer.alive else {
      discard(message, lane: lane, peer.alive ? "connection ended" : "node dead")
      return
    }
    if peer.paused {
      peer.waitingDeliveries.append(event)
      return
    }
    lane.counters.delivered += 1
    link.lastHeard = now
    switch message.packet {
    case .server(let serverMessage):
      trace(
        .delivered, from: Self.serviceNode, to: peer.name, connection: connection.id,
        serverMessage.traceSummary)
      lookAhead()
      link.handler?(.message(serverMessage))
    case .hostClose:
      let handler = link.handler
      link.end()
      trace(
        .closed, from: Self.serviceNode, to: peer.name, connection: connection.id,
        message.packet.summary)
      handler?(.closed(.closedByPeer))
    case .reset(let text):
      let handler = link.handler
      link.end()
      trace(
        .closed, from: Self.serviceNode, to: peer.name, connection: connection.id,
        message.packet.summary)
      handler?(.closed(.failed(text)))
    case .open, .client, .clientClose:
      break
    }
  }

  /// A fan-out arrives: each connection in order gets the message as its own `reliable`
  /// event would give it (a paused peer's waits as one), the next one's lookahead told just
  /// before.
  func arrive(_ fanOut: FanOut) {
    let message = fanOut.message
    fanOut.connections.withUnsafeBufferPointer { connections in
      for index in connections.indices {
        Self.prefetch(connections, ahead: index)
        // Borrowed, not retained: the fan-out holds every connection until it is done, and a
        // retain and release of each receiver's connection, peer, link and lane was a fifth
        // of a thousand-peer run (each object on its own cache line, each count atomic).
        Unmanaged.passUnretained(connections[index])._withUnsafeGuaranteedRef { connection in
          arrive(message, in: fanOut, at: index, on: connection, next: connections)
        }
      }
    }
  }

  /// One receiver of a fan-out: ``arriveAtPeer(_:event:)`` for a zero-delay delivery, with
  /// the objects on the way borrowed (the link is read last, after the counters, so that the
  /// handler's call is its last use).
  @inline(__always)
  private func arrive(
    _ message: ServerMessage, in fanOut: FanOut, at index: Int, on connection: Connection,
    next connections: UnsafeBufferPointer<Connection>
  ) {
    let peer = Unmanaged.passUnretained(connection.peer)
    let link = connection.link.map(Unmanaged.passUnretained)
    let delivers = peer._withUnsafeGuaranteedRef { peer in
      peer.alive && !peer.paused && link?._withUnsafeGuaranteedRef { $0.state == .open } == true
    }
    guard let link, delivers else {
      // Not a plain delivery: the connection's own event's path says what happens.
      let reliable = fanOut.reliable(index)
      arriveAtPeer(reliable, event: .reliable(reliable))
      return
    }
    peer._withUnsafeGuaranteedRef { $0.downlink.counters.delivered += 1 }
    link._withUnsafeGuaranteedRef { $0.lastHeard = now }
    if index + 1 < connections.count {
      connections[index + 1].link?.lookahead?.linkWillDeliver(message)
    } else {
      lookAhead()
    }
    link._withUnsafeGuaranteedRef { $0.handler?(.message(message)) }
  }

  /// Starts fetching what the deliveries after `index` will touch, a stage per delivery: a
  /// fan-out to thousands of replicas waits on memory (each receiver's objects sit in a
  /// different place), and each object is found through the one before it. Five deliveries
  /// ahead the connection, four ahead its peer and link, three ahead the lane and the link's
  /// owner, two ahead the owner's own objects (``LinkLookahead/lookaheadAddress``); one
  /// ahead, the owner's lookahead runs (in ``arrive(_:)``).
  @inline(__always)
  private static func prefetch(_ connections: UnsafeBufferPointer<Connection>, ahead index: Int) {
    // Every object is borrowed and only its address taken before the prefetches: a retain
    // would touch the object at once, the very miss the prefetch is for.
    let count = connections.count
    if index + 5 < count { session_prefetch(address(of: connections[index + 5])) }
    if index + 4 < count {
      let (peer, link) = Unmanaged.passUnretained(connections[index + 4])
        ._withUnsafeGuaranteedRef { (address(of: $0.peer), $0.link.map(address(of:))) }
      session_prefetch(peer)
      if let link { session_prefetch(link) }
    }
    if index + 3 < count {
      let (lane, owner) = Unmanaged.passUnretained(connections[index + 3])
        ._withUnsafeGuaranteedRef { connection in
          (address(of: connection.peer.downlink), connection.link?.lookahead.map(address(of:)))
        }
      session_prefetch(lane)
      if let owner { session_prefetch(owner) }
    }
    if index + 2 < count {
      let owner = Unmanaged.passUnretained(connections[index + 2])._withUnsafeGuaranteedRef {
        $0.link?.lookaheadAddress
      }
      if let owner { for line in 0..<6 { session_prefetch(owner + line * 64) } }
    }
  }

  /// Whether a message sent now on this connection's downlink would arrive now, in order,
  /// with nothing drawn: an ideal lane (no delay, loss or capacity limit), nothing held or
  /// blocked, nothing ahead of it still on its way, no trace to write, no bytes to count.
  /// Borrows the peer and lane (a broadcast asks it of every receiver).
  @inline(__always)
  private func deliversAtOnce(_ connection: Connection) -> Bool {
    guard !connection.hasHeld(.downlink), connection.lastArrival(.downlink) <= now else {
      return false
    }
    return Unmanaged.passUnretained(connection.peer)._withUnsafeGuaranteedRef { peer in
      guard !isBlocked(peer, .downlink) else { return false }
      let behavior = peer.downlink.behavior
      return behavior.isInstant && behavior.loss.kind == .none && behavior.bandwidth == nil
    }
  }

  /// Tells the link of the next zero-delay delivery, if it looks ahead, of its message before
  /// this one is delivered, so that its owner's memory loads overlap this delivery (a
  /// broadcast reaches its receivers one event after the other; Decision 0009). A hint only:
  /// the message may still be held, dropped or come later.
  @inline(__always)
  private func lookAhead() {
    guard let (connection, message) = queue.nextDeliveryInFIFO,
      let lookahead = connection.link?.lookahead
    else { return }
    lookahead.linkWillDeliver(message)
  }

  private func discard(_ message: ReliableMessage, lane: Lane, _ why: String) {
    lane.counters.dropped += 1
    if observer != nil {
      let (from, to) = endpoints(of: message.connection, message.packet.direction)
      trace(
        .dropped, from: from, to: to, connection: message.connection.id,
        "\(message.packet.summary) (\(why))")
    }
  }

  // MARK: The host's outputs

  func hostOutput(_ output: HostOutput, incarnation: UInt64) {
    guard incarnation == hostIncarnation, !isFinished else { return }
    switch output {
    case .send(let message, let id):
      guard let connection = hostConnections[id] else { return }
      sendReliable(.server(message), on: connection)
    case .broadcast(let message, let group):
      guard observer == nil, !configuration.countsMessageBytes else {
        for id in group.connections {
          guard let connection = hostConnections[id] else { continue }
          sendReliable(.server(message), on: connection)
        }
        return
      }
      broadcast(message, to: receivers(of: group))
    case .close(let id, let reason):
      guard let connection = hostConnections.removeValue(forKey: id) else { return }
      connection.hostSide = .closed
      sendReliable(.hostClose(reason), on: connection)
      schedule(.hostClosed(connection, incarnation: incarnation), at: now)
    }
  }
}

extension VirtualNetwork {
  /// The open connections of `group`, in order: the list resolved last when it still holds
  /// (the same named group and version, no connection added or removed since).
  fileprivate func receivers(of group: FanOutGroup) -> [Connection] {
    if let resolved = resolvedBroadcast, resolved.group.isCachedAs(group),
      resolved.generation == hostConnections.generation
    {
      return resolved.connections
    }
    var connections: [Connection] = []
    connections.reserveCapacity(group.connections.count)
    for id in group.connections {
      if let connection = hostConnections[id] { connections.append(connection) }
    }
    if group.id != 0 {
      resolvedBroadcast = ResolvedBroadcast(
        group: group, generation: hostConnections.generation, connections: connections)
    }
    return connections
  }

  /// Sends a broadcast to `receivers`. Runs of receivers whose downlinks deliver at once
  /// travel as one fan-out event: the same order and times as one event each, without a
  /// queue entry per receiver. Any other receiver ends the run and goes its own way, so the
  /// order stays the same. When every receiver delivers at once (the usual case), the
  /// fan-out shares the resolved list: no receiver is retained or copied.
  fileprivate func broadcast(_ message: ServerMessage, to receivers: [Connection]) {
    receivers.withUnsafeBufferPointer { connections in
      let count = connections.count
      var runStart = 0
      var everyoneAtOnce = true
      func flush(upTo end: Int) {
        switch end - runStart {
        case ...0:
          break
        case 1:
          let connection = connections[runStart]
          let reliable = ReliableMessage(
            connection: connection, packet: .server(message), sentAt: now)
          schedule(.reliable(reliable), at: now)
        default:
          let run = Array(connections[runStart..<end])
          schedule(.fanOut(FanOut(message: message, connections: run, sentAt: now)), at: now)
        }
      }
      for index in 0..<count {
        // What `deliversAtOnce` reads of the receivers ahead: their connection three ahead,
        // its peer and downlink lane one ahead (addresses only: a retain would touch them).
        if index + 3 < count { prefetchObject(connections[index + 3]) }
        if index + 1 < count {
          let (peer, lane) = Unmanaged.passUnretained(connections[index + 1])
            ._withUnsafeGuaranteedRef { connection in
              Unmanaged.passUnretained(connection.peer)._withUnsafeGuaranteedRef {
                (address(of: $0), address(of: $0.downlink))
              }
            }
          session_prefetch(peer)
          session_prefetch(lane)
        }
        let atOnce = Unmanaged.passUnretained(connections[index])._withUnsafeGuaranteedRef {
          connection in
          guard deliversAtOnce(connection) else { return false }
          Unmanaged.passUnretained(connection.peer)._withUnsafeGuaranteedRef {
            $0.downlink.counters.sent += 1
          }
          connection.setLastArrival(now, .downlink)
          return true
        }
        guard !atOnce else { continue }
        everyoneAtOnce = false
        flush(upTo: index)
        sendReliable(.server(message), on: connections[index])
        runStart = index + 1
      }
      if everyoneAtOnce, count > 1 {
        schedule(.fanOut(FanOut(message: message, connections: receivers, sentAt: now)), at: now)
      } else {
        flush(upTo: count)
      }
    }
  }
}

/// Starts bringing an object's first cache line closer (its header and first fields). A hint:
/// it reads nothing, never faults and changes nothing.
@inline(__always)
private func prefetchObject(_ object: AnyObject) {
  session_prefetch(address(of: object))
}

/// Where an object is, for a prefetch: nothing is retained or read.
@inline(__always)
private func address(of object: AnyObject) -> UnsafeRawPointer {
  UnsafeRawPointer(Unmanaged.passUnretained(object).toOpaque())
}
