import SessionCore
import SessionTransport

/// A node's end of the lossy channel: datagrams to and from any other node.
///
/// A datagram from a peer crosses that peer's uplink, and one to a peer that peer's downlink
/// (the service's node has no access link of its own): each hop applies its behaviour's
/// loss, delay, jitter, capacity (tail drop), duplication and, unless every hop allows
/// reordering, FIFO order per sender and receiver. Partitions and holds drop datagrams.
///
/// > Important: Confined to its network's isolation domain. Not `Sendable`.
public final class DatagramEndpoint {
  /// The node's name.
  public let node: String
  weak var network: VirtualNetwork?

  /// Gets each datagram that arrives, with its sender's name, from the network's loop; except
  /// those a media plane takes: datagrams from the service while a media link of this node is
  /// started (``VirtualMediaLink``), and at the service every datagram from a peer while a
  /// media host is attached (``VirtualNetwork/attachMediaHost(_:)``).
  public var onReceive: ((_ from: String, _ bytes: [UInt8]) -> Void)?
  /// The media link that takes this node's datagrams from the service: the one started last.
  weak var mediaLink: VirtualMediaLink?

  init(node: String, network: VirtualNetwork) {
    self.node = node
    self.network = network
  }

  /// Sends a datagram; it may be lost, late, reordered or doubled.
  ///
  /// - Parameters:
  ///   - bytes: The payload; its count is its size for the capacity queues.
  ///   - node: The receiver's name (a peer, made on first use, or `"service"`).
  public func send(_ bytes: [UInt8], to node: String) {
    network?.sendDatagram(bytes, from: self.node, to: node)
  }
}

extension VirtualNetwork {
  /// The datagram endpoint of a node, made on first use.
  ///
  /// - Parameter node: A peer's name (made on first use) or `"service"`.
  /// - Returns: The endpoint; the same object every time for a node.
  public func datagramEndpoint(node: String) -> DatagramEndpoint {
    if node == Self.serviceNode {
      if let endpoint = serviceEndpoint { return endpoint }
      let endpoint = DatagramEndpoint(node: node, network: self)
      serviceEndpoint = endpoint
      return endpoint
    }
    let peer = peer(node)
    if let endpoint = peer.endpoint { return endpoint }
    let endpoint = DatagramEndpoint(node: node, network: self)
    peer.endpoint = endpoint
    return endpoint
  }

  func sendDatagram(_ bytes: [UInt8], from fromName: String, to toName: String) {
    guard !isFinished else { return }
    let from = fromName == Self.serviceNode ? nil : peer(fromName)
    let to = toName == Self.serviceNode ? nil : peer(toName)
    sendDatagram(bytes, from: from, to: to)
  }

  /// Sends a datagram between two nodes (`nil` is the service's): the hot path, with no name
  /// looked up or built unless an observer is set.
  func sendDatagram(_ bytes: [UInt8], from: VirtualPeer?, to: VirtualPeer?) {
    guard !isFinished else { return }
    if let from, !from.alive || from.paused { return }
    let datagram = Datagram(from: from, to: to, bytes: bytes, sentAt: now)
    let traced = observer != nil
    if traced {
      trace(
        .sent, from: datagram.fromName, to: datagram.toName, connection: nil,
        "datagram (\(bytes.count) bytes)")
    }
    // At most two hops: the sender's uplink, then the receiver's downlink.
    let first = from?.uplink ?? to?.downlink
    let second = from == nil ? nil : to?.downlink
    if isDatagramBlocked(from: from, to: to) || first?.isHeld == true
      || second?.isHeld == true
    {
      first?.counters.datagramsSent += 1
      first?.counters.datagramsDropped += 1
      if traced {
        trace(
          .dropped, from: datagram.fromName, to: datagram.toName, connection: nil,
          "datagram (blocked)")
      }
      return
    }
    var passage = Passage(time: now)
    if let first, !cross(first, datagram, &passage) { return }
    if let second, !cross(second, datagram, &passage) { return }
    for copy in 0..<passage.copies {
      var arrival = passage.time
      if copy > 0, let last = second ?? first {
        // A copy follows the original by one more delay of the last hop.
        arrival = Micro.add(arrival, last.behavior.sampleDelay(&last.datagramRandom))
      }
      if passage.keepsOrder { arrival = orderedArrival(arrival, from: from, to: to) }
      schedule(.datagram(datagram), at: arrival)
    }
  }

  /// A datagram on its way through its hops.
  private struct Passage {
    /// When it has crossed the hops so far.
    var time: Int64
    /// How many copies travel (duplication adds one).
    var copies = 1
    /// Whether a hop crossed keeps datagrams in order.
    var keepsOrder = false
  }

  /// Crosses one hop: loss, capacity, delay, duplication. Returns `false` when the datagram
  /// was dropped there.
  private func cross(_ lane: Lane, _ datagram: Datagram, _ passage: inout Passage) -> Bool {
    let behavior = lane.behavior
    let size = datagram.bytes.count
    lane.counters.datagramsSent += passage.copies
    lane.counters.bytes += size * passage.copies
    if Lane.lose(behavior.loss, bad: &lane.datagramBad, random: &lane.datagramRandom) {
      lane.counters.datagramsDropped += passage.copies
      if observer != nil {
        trace(
          .dropped, from: datagram.fromName, to: datagram.toName, connection: nil,
          "datagram (lost)")
      }
      return false
    }
    if let bandwidth = behavior.bandwidth {
      guard let end = lane.enqueue(bytes: size, at: passage.time, bandwidth: bandwidth) else {
        lane.counters.datagramsDropped += passage.copies
        if observer != nil {
          trace(
            .dropped, from: datagram.fromName, to: datagram.toName, connection: nil,
            "datagram (queue full)")
        }
        return false
      }
      passage.time = end
    }
    passage.time = Micro.add(passage.time, behavior.sampleDelay(&lane.datagramRandom))
    let probability = LossModel.probability(behavior.duplicateProbability)
    if probability > 0, lane.datagramRandom.chance(probability) {
      lane.counters.datagramsDuplicated += 1
      passage.copies += 1
    }
    if !behavior.allowsReordering { passage.keepsOrder = true }
    return true
  }

  /// Whether partitions drop datagrams from one node to another; between a peer and the
  /// service, two flags the partitions keep up to date.
  private func isDatagramBlocked(from: VirtualPeer?, to: VirtualPeer?) -> Bool {
    guard !partitions.isEmpty else { return false }
    switch (from, to) {
    case (let from?, nil): return from.isCutFromService
    case (nil, let to?): return to.isCutToService
    case (let from?, let to?): return isPartitioned(from: from.name, to: to.name)
    case (nil, nil): return isPartitioned(from: Self.serviceNode, to: Self.serviceNode)
    }
  }

  /// `arrival`, or later: never before the last datagram from the same sender to the same
  /// receiver (FIFO).
  private func orderedArrival(_ arrival: Int64, from: VirtualPeer?, to: VirtualPeer?) -> Int64 {
    switch (from, to) {
    case (let from?, nil):
      let time = max(arrival, from.lastDatagramArrival.toService)
      from.lastDatagramArrival.toService = time
      return time
    case (nil, let to?):
      let time = max(arrival, to.lastDatagramArrival.fromService)
      to.lastDatagramArrival.fromService = time
      return time
    default:
      let key = UInt64(from?.index ?? 0) << 32 | UInt64(to?.index ?? 0)
      let time = max(arrival, datagramLastArrival[key] ?? 0)
      datagramLastArrival[key] = time
      return time
    }
  }

  func arrive(_ datagram: Datagram, event: PendingEvent) {
    let lane = datagram.to?.downlink ?? datagram.from?.uplink
    if let to = datagram.to {
      guard to.alive else {
        lane?.counters.datagramsDropped += 1
        if observer != nil {
          trace(
            .dropped, from: datagram.fromName, to: datagram.toName, connection: nil,
            "datagram (node dead)")
        }
        return
      }
      if to.paused {
        to.waitingDeliveries.append(event)
        return
      }
    }
    lane?.counters.datagramsDelivered += 1
    if observer != nil {
      trace(
        .delivered, from: datagram.fromName, to: datagram.toName, connection: nil,
        "datagram (\(datagram.bytes.count) bytes)")
    }
    if let to = datagram.to {
      guard let endpoint = to.endpoint else { return }
      if datagram.from == nil, let link = endpoint.mediaLink {
        link.deliver(datagram.bytes)
      } else {
        endpoint.onReceive?(datagram.fromName, datagram.bytes)
      }
    } else if let from = datagram.from, let mediaHost {
      mediaHost.receiveDatagram(datagram.bytes, from: from.mediaEndpoint, now: now)
    } else {
      serviceEndpoint?.onReceive?(datagram.fromName, datagram.bytes)
    }
  }
}
