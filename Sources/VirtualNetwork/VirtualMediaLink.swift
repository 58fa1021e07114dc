import SessionTransport

/// A media link of a ``VirtualNetwork``: a peer node's datagrams to and from the service, on
/// the lossy channel, and a tick every ``tickInterval`` of virtual time.
///
/// Datagrams it sends cross the peer's uplink, those it receives the peer's downlink, with
/// their behaviour and the network's faults (``DatagramEndpoint``). Times are microseconds on
/// the link's clock, a monotonic one as a device's media runs on: the network's
/// ``VirtualNetwork/now`` plus the node's clock skew
/// (``VirtualNetwork/setClockSkew(peer:milliseconds:)``) as it was when the link started, the
/// same clock for ticks and arrivals. A skew set later moves the node's wall clock, not a
/// running media clock (a monotonic clock never steps; a node's links started after it read
/// it). The first tick comes one interval after ``start(_:)``.
///
/// A node's faults reach its media as they reach its signalling: while the node is paused, its
/// ticks and arrivals wait and come when it resumes (one tick however long the pause); a killed
/// node's links end without an event; a link made or started while its node is dead, or of an
/// incarnation before a restart, never delivers anything. Of several started links on one
/// node, the one started last gets the datagrams from the service (each keeps its ticks).
///
/// Every event reaches the handler from the network's loop (``VirtualNetwork/step()``), never
/// from inside ``start(_:)``, ``send(_:)`` or ``close()``.
///
/// > Important: Confined to its network's isolation domain. Not `Sendable`.
public final class VirtualMediaLink: MediaLink {
  typealias State = VirtualLinkState

  let peer: VirtualPeer
  let incarnation: UInt64
  var state = State.idle
  var handler: ((MediaLinkEvent) -> Void)?
  /// The longest gap between two ticks, in microseconds (the network's
  /// ``VirtualNetworkConfiguration/mediaTickInterval``).
  public let tickInterval: Int64
  /// The node's skew when the link started, in microseconds: the link's clock's offset from
  /// the network's.
  private var clockOffset: Int64 = 0

  init(peer: VirtualPeer, incarnation: UInt64, tickInterval: Int64) {
    self.peer = peer
    self.incarnation = incarnation
    self.tickInterval = tickInterval
  }

  /// The node this link belongs to.
  public var node: String { peer.name }

  /// Whether the link is started and not closed or ended by a fault.
  public var isOpen: Bool { state == .open }

  /// Starts ticking and delivering the datagrams the service sends to this node.
  ///
  /// - Parameter handler: Gets the link's events, one at a time, from the network's loop.
  public func start(_ handler: @escaping (MediaLinkEvent) -> Void) {
    let (next, network) = state.starting(on: peer, incarnation: incarnation)
    state = next
    guard let network else { return }
    self.handler = handler
    clockOffset = Micro.multiply(peer.skew, 1_000)
    network.mediaLinkStarted(self)
  }

  /// Sends a datagram to the service; it may be lost, late, doubled or reordered as the
  /// peer's uplink and the faults say. Dropped unless the link is open.
  ///
  /// - Parameter datagram: The bytes; their count is their size for capacity limits.
  public func send(_ datagram: [UInt8]) {
    guard state == .open, let network = peer.network else { return }
    network.sendDatagram(datagram, from: peer, to: nil)
  }

  /// Stops the link: no more events; sends are dropped. Harmless twice.
  public func close() {
    guard state == .open else { return }
    end()
  }

  /// Ends the link at its end: no handler, no ticks, off its node's list and endpoint.
  func end() {
    state = .ended
    handler = nil
    if peer.endpoint?.mediaLink === self { peer.endpoint?.mediaLink = nil }
    peer.mediaLinks.removeAll { $0 === self }
  }

  /// A datagram from the service arrived.
  func deliver(_ bytes: [UInt8]) {
    guard state == .open, let handler else { return }
    handler(.datagram(bytes, at: clock))
  }

  /// The link's clock in microseconds: the network's ``VirtualNetwork/now`` plus the node's
  /// skew when the link started; saturates rather than overflows.
  var clock: Int64 {
    guard let network = peer.network else { return 0 }
    return Micro.add(network.now, clockOffset)
  }
}

extension VirtualPeer: MediaLinkFactory {
  /// A new, unstarted media link from this node to the service (give the peer to the SDK
  /// instance on this node as `InitParams.media`).
  ///
  /// - Returns: A ``VirtualMediaLink``.
  public func makeMediaLink() -> any MediaLink {
    VirtualMediaLink(
      peer: self, incarnation: incarnation, tickInterval: network?.mediaTickInterval ?? 10_000)
  }

  /// The endpoint the service's media host knows this node by: its number, stable for its
  /// name.
  var mediaEndpoint: MediaEndpointID { MediaEndpointID(UInt64(index)) }
}

/// The media plane at the service: a ``SessionTransport/MediaHost`` on the service node.
extension VirtualNetwork {
  /// Attaches a media host to the service node: from now on every datagram a peer sends to
  /// `"service"` reaches it (rather than the service endpoint's `onReceive`), from the
  /// peer's ``mediaEndpoint(of:)``, with ``now`` as its time, and its outputs go to the
  /// peers' downlinks (`.forward` sends the same bytes to each endpoint in turn). An output
  /// naming an endpoint no peer has is dropped and counted
  /// (``mediaOutputsToUnknownEndpoints``).
  ///
  /// The attachment belongs to the host running now: ``killHost()`` and ``startHost(_:)``
  /// drop it (the old host's outputs go nowhere) until a media host is attached again.
  /// Attaching another replaces this one.
  ///
  /// - Parameter host: The media host, usually the same object as the session host.
  public func attachMediaHost(_ host: any MediaHost) {
    guard !isFinished else { return }
    mediaHost = host
    let incarnation = hostIncarnation
    host.attachMedia { [weak self, weak host] output in
      guard let self, let host, incarnation == self.hostIncarnation, self.mediaHost === host
      else { return }
      self.mediaOutput(output)
    }
    trace(
      .fault("attachMediaHost"), from: Self.serviceNode, to: Self.serviceNode, connection: nil,
      "media host attached")
  }

  /// Whether a media host is attached to the running host.
  public var isMediaHostAttached: Bool { mediaHost != nil }

  /// The endpoint a media host knows a peer by: the peer's number, the same for a name for
  /// the whole run (made on first use, as ``peer(_:)``).
  ///
  /// - Parameter node: A peer's name.
  /// - Returns: Its endpoint.
  public func mediaEndpoint(of node: String) -> MediaEndpointID {
    peer(node).mediaEndpoint
  }

  /// The peer a media endpoint stands for.
  ///
  /// - Parameter endpoint: An endpoint.
  /// - Returns: The peer's name, or `nil` if no peer has that endpoint.
  public func node(of endpoint: MediaEndpointID) -> String? {
    peer(of: endpoint)?.name
  }

  /// Outputs of the media host that named an endpoint no peer has, so far.
  public var mediaOutputsToUnknownEndpoints: Int { unknownMediaEndpoints }

  func peer(of endpoint: MediaEndpointID) -> VirtualPeer? {
    let index = endpoint.rawValue
    guard index >= 1, index <= UInt64(peerOrder.count) else { return nil }
    return peerOrder[Int(index) - 1]
  }

  private func mediaOutput(_ output: MediaHostOutput) {
    switch output {
    case .send(let bytes, let endpoint):
      guard let peer = peer(of: endpoint) else {
        unknownMediaEndpoints += 1
        return
      }
      sendDatagram(bytes, from: nil, to: peer)
    case .forward(let bytes, let endpoints):
      for endpoint in endpoints {
        guard let peer = peer(of: endpoint) else {
          unknownMediaEndpoints += 1
          continue
        }
        sendDatagram(bytes, from: nil, to: peer)
      }
    case .forwardNumbered(let bytes, let endpoints, let sequences):
      for (endpoint, sequence) in zip(endpoints, sequences) {
        guard let peer = peer(of: endpoint) else {
          unknownMediaEndpoints += 1
          continue
        }
        // Each copy its own bytes: a datagram in flight keeps what it was sent with.
        var copy = bytes
        copy.withUnsafeMutableBytes { MediaPacket.replacingSequence(in: $0, with: sequence) }
        sendDatagram(copy, from: nil, to: peer)
      }
    case .endpointBound, .endpointReleased:
      // One endpoint per peer, never evicted: nothing to keep.
      break
    }
  }

  // MARK: Media links

  func mediaLinkStarted(_ link: VirtualMediaLink) {
    let peer = link.peer
    peer.mediaLinks.append(link)
    let endpoint = datagramEndpoint(node: peer.name)
    endpoint.mediaLink = link
    schedule(.mediaTick(link), at: Micro.add(now, link.tickInterval))
  }

  func mediaTickFired(_ link: VirtualMediaLink) {
    guard link.state == .open else { return }
    let peer = link.peer
    if peer.paused {
      peer.waitingMediaTicks.append(link)
      return
    }
    // The next tick first, so that a handler that closes the link finds it to ignore.
    schedule(.mediaTick(link), at: Micro.add(now, link.tickInterval))
    link.handler?(.tick(now: link.clock))
  }
}
