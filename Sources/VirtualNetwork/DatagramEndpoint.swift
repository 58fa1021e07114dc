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

  /// Gets each datagram that arrives, with its sender's name, from the network's loop.
  public var onReceive: ((_ from: String, _ bytes: [UInt8]) -> Void)?

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
    if let from, !from.alive || from.paused { return }
    let datagram = Datagram(
      from: from, to: to, fromName: fromName, toName: toName, bytes: bytes, sentAt: now)
    trace(.sent, from: fromName, to: toName, connection: nil, "datagram (\(bytes.count) bytes)")
    let hops = [from?.uplink, to?.downlink].compactMap { $0 }
    if isPartitioned(from: fromName, to: toName) || hops.contains(where: \.isHeld) {
      let lane = hops.first
      lane?.counters.datagramsSent += 1
      lane?.counters.datagramsDropped += 1
      trace(.dropped, from: fromName, to: toName, connection: nil, "datagram (blocked)")
      return
    }
    var time = now
    var copies = 1
    var keepsOrder = false
    for lane in hops {
      let behavior = lane.behavior
      lane.counters.datagramsSent += copies
      lane.counters.bytes += bytes.count * copies
      if Lane.lose(behavior.loss, bad: &lane.datagramBad, random: &lane.datagramRandom) {
        lane.counters.datagramsDropped += copies
        trace(.dropped, from: fromName, to: toName, connection: nil, "datagram (lost)")
        return
      }
      if let bandwidth = behavior.bandwidth {
        guard let end = lane.enqueue(bytes: bytes.count, at: time, bandwidth: bandwidth) else {
          lane.counters.datagramsDropped += copies
          trace(.dropped, from: fromName, to: toName, connection: nil, "datagram (queue full)")
          return
        }
        time = end
      }
      time = Micro.add(time, behavior.sampleDelay(&lane.datagramRandom))
      let probability = LossModel.probability(behavior.duplicateProbability)
      if probability > 0, lane.datagramRandom.chance(probability) {
        lane.counters.datagramsDuplicated += 1
        copies += 1
      }
      if !behavior.allowsReordering { keepsOrder = true }
    }
    let key = UInt64(from?.index ?? 0) << 32 | UInt64(to?.index ?? 0)
    for copy in 0..<copies {
      var arrival = time
      if copy > 0, let last = hops.last {
        // A copy follows the original by one more delay of the last hop.
        arrival = Micro.add(arrival, last.behavior.sampleDelay(&last.datagramRandom))
      }
      if keepsOrder {
        arrival = max(arrival, datagramLastArrival[key] ?? 0)
        datagramLastArrival[key] = arrival
      }
      schedule(.datagram(datagram), at: arrival)
    }
  }

  func arrive(_ datagram: Datagram, event: PendingEvent) {
    let lane = datagram.to?.downlink ?? datagram.from?.uplink
    if let to = datagram.to {
      guard to.alive else {
        lane?.counters.datagramsDropped += 1
        trace(
          .dropped, from: datagram.fromName, to: datagram.toName, connection: nil,
          "datagram (node dead)")
        return
      }
      if to.paused {
        to.waitingDeliveries.append(event)
        return
      }
    }
    lane?.counters.datagramsDelivered += 1
    trace(
      .delivered, from: datagram.fromName, to: datagram.toName, connection: nil,
      "datagram (\(datagram.bytes.count) bytes)")
    let endpoint = datagram.to?.endpoint ?? (datagram.to == nil ? serviceEndpoint : nil)
    endpoint?.onReceive?(datagram.fromName, datagram.bytes)
  }
}
