import LoopbackTransport
import SessionTransport

/// A TCP proxy on a libuv loop between SDK peers and a ``LoopbackTransport/LoopbackServer``, applying network
/// faults per peer and per direction: added delay (fixed, drawn from a distribution, ±
/// jitter), bandwidth caps, loss (as TCP shows it: retransmission delay), partitions, and
/// kills.
///
/// ```swift
/// // On the proxy loop's thread:
/// let proxy = try FaultProxy(loop: proxyLoop, upstreamPort: server.port, seed: 42)
/// let port = try proxy.listen(peer: "alice")  // alice's LoopbackLinkFactory uses this port
/// proxy.setDelay(100, peer: "alice", direction: .downlink)
/// proxy.partition(["alice"])
/// proxy.heal()
/// proxy.kill(peer: "alice")
/// proxy.shutdown()
/// ```
///
/// **Peers.** Each named peer gets a listener of its own (``listen(peer:)``); every connection
/// accepted there is that peer's and is forwarded to the server on 127.0.0.1:`upstreamPort`. A
/// peer that reconnects (the SDK resumes on a fresh connection) comes through the same
/// listener and gets the peer's faults as they are then.
///
/// **Bytes.** The proxy forwards raw bytes as it reads them (a *chunk* is one read) and never
/// decodes frames, so the server and the peer see exactly the bytes the other side wrote, in
/// order. Faults hold chunks back; nothing is ever dropped or reordered.
///
/// **Faults.** They apply to chunks read after they are set; chunks already held keep the
/// release time they were given (and a later chunk never overtakes an earlier one).
/// - Delay: a chunk is written no sooner than the delay after it was read. The delay is the
///   fixed one, plus a draw of the distribution (``setDistribution(_:peer:direction:)``), ±
///   a uniform jitter (``setJitter(_:peer:direction:)``), drawn per chunk; a chunk's release
///   time is the later of the previous chunk's and its own, so TCP's order holds.
/// - Bandwidth: chunks are paced at the cap's rate (``setBandwidth(_:peer:direction:)``);
///   while more than the cap's queue limit waits, the proxy stops reading from the sending
///   side (back-pressure, not drops).
/// - Loss: each chunk is "lost" with the probability, and then held a retransmission delay
///   more; a chunk lost again in a row costs twice as much, up to
///   ``FaultProxyConfiguration/maxRetransmissionDelay``, at most
///   ``FaultProxyConfiguration/maxLossesPerChunk`` times. The draws come from `seed` alone,
///   split per peer and direction; which chunk gets which draw depends on how the kernel
///   splits the stream into reads, which real sockets don't fix.
/// - Partition: nothing goes until ``heal()``; bytes are held as a retransmitting TCP would,
///   up to ``FaultProxyConfiguration/maxHeldBytes`` per connection and direction. A
///   connection that would hold more is reset, both sides, and counted. A partition long
///   enough makes the link's and the service's heartbeat timeouts end the connection.
/// - Kill: the peer's connections are reset on both sides at once (RST, no goodbye), and what
///   they held is dropped. The listener stays, so the peer may reconnect.
///
/// **Slow sides.** A side that doesn't read what the proxy forwards fills its write queue; past
/// ``LoopbackTransport/TCPConfiguration/maxQueuedWriteBytes`` (of ``FaultProxyConfiguration/tcp``) the
/// connection is reset on both sides and counted in ``ProxyPeerStatistics/resets``.
///
/// **Bad input.** Calls naming a peer that has no listener change nothing and return `false`;
/// ``partition(_:direction:)`` changes nothing unless it knows every peer named. Delays are
/// clamped to `0...FaultProxy.maximumDelay`, probabilities to `0...1` (NaN counts as 0).
/// ``listen(peer:)`` for a peer that listens already returns the same port.
///
/// > Important: Loop-confined, like the other loop objects: create it and call it on its
/// > loop's thread only (from ``LoopbackTransport/EventLoop/execute(_:)`` or loop callbacks); carry it across
/// > threads in a ``LoopbackTransport/LoopBound``. The loop keeps its listeners and connections alive until
/// > ``shutdown()`` (or the loop's own shutdown) closed them.
public final class FaultProxy {
  /// The longest delay (and retransmission delay) the proxy applies: one day, in ms.
  public static let maximumDelay: Int64 = 86_400_000

  /// The loop the proxy runs on.
  public let loop: EventLoop
  /// The server's port on 127.0.0.1.
  public let upstreamPort: UInt16
  /// The seed every loss draw comes from.
  public let seed: UInt64
  /// The proxy's limits.
  public let configuration: FaultProxyConfiguration

  /// The media half, when the proxy was given the server's media port: every per-peer call
  /// here drives it too (``listen(peer:)``, delay, distribution, jitter, bandwidth, loss,
  /// partitions, heal, kill, shutdown).
  public let media: MediaFaultProxy?

  private var peerTable: ProxyPeerTable<ProxyPeer>
  /// Whether ``shutdown()`` ran.
  public var isShutDown: Bool { peerTable.isShutDown }

  /// Creates a proxy to a server; it listens for nobody until ``listen(peer:)``.
  ///
  /// - Parameters:
  ///   - loop: The loop; the caller must be on its thread.
  ///   - upstreamPort: The LoopbackServer's port on 127.0.0.1.
  ///   - seed: The only randomness (loss draws), split per peer and direction so that one
  ///     peer's draws do not depend on another's traffic.
  ///   - configuration: Limits: bytes held, retransmission caps, TCP limits.
  ///   - mediaUpstreamPort: The server's media port (``LoopbackTransport/LoopbackServer/mediaPort``), to proxy
  ///     each peer's media too (``media``); `nil` (the default) for signalling only.
  ///   - mediaConfiguration: The media half's limits.
  /// - Throws: ``FaultProxyError/invalidUpstreamPort`` for port 0 (either); `UVError` if the
  ///   loop is shutting down.
  public init(
    loop: EventLoop, upstreamPort: UInt16, seed: UInt64,
    configuration: FaultProxyConfiguration = FaultProxyConfiguration(),
    mediaUpstreamPort: UInt16? = nil,
    mediaConfiguration: MediaFaultProxyConfiguration = MediaFaultProxyConfiguration()
  ) throws {
    peerTable = try ProxyPeerTable(loop: loop, upstreamPort: upstreamPort, proxy: "FaultProxy")
    self.loop = loop
    self.upstreamPort = upstreamPort
    self.seed = seed
    self.configuration = configuration
    media = try mediaUpstreamPort.map {
      try MediaFaultProxy(
        loop: loop, upstreamPort: $0, seed: seed, configuration: mediaConfiguration)
    }
  }

  // MARK: Peers

  /// Opens a listener for one named peer on 127.0.0.1 (a port the kernel picks); every
  /// connection accepted there is that peer's and is forwarded to the upstream server. With a
  /// ``media`` half, the peer's media socket opens too (``mediaPort(of:)``).
  ///
  /// Listening for a peer that listens already returns its port and changes nothing.
  ///
  /// - Parameter peer: The peer's name, as later calls give it; not empty.
  /// - Returns: The listener's port (the peer's LoopbackLinkFactory uses it).
  /// - Throws: ``FaultProxyError/emptyPeerName``, ``FaultProxyError/shutDown``, `UVError` if
  ///   the listener can't be bound, or a `UDPSocketError` if the media socket can't.
  public func listen(peer: String) throws -> UInt16 {
    try peerTable.listen(peer: peer) {
      _ = try media?.listen(peer: peer)
      let record = ProxyPeer(name: peer, seed: seed)
      let (upstreamPort, configuration) = (self.upstreamPort, self.configuration)
      let listener = try TCPListener(loop: loop, configuration: configuration.tcp) { accepted in
        Self.accept(
          accepted, peer: record, upstreamPort: upstreamPort, configuration: configuration)
      }
      record.listener = listener
      record.port = listener.localPort
      return record
    }
  }

  /// The port of a peer's listener, or `nil` if the proxy doesn't listen for it.
  ///
  /// - Parameter peer: The peer's name.
  /// - Returns: The port, or `nil`.
  public func port(of peer: String) -> UInt16? {
    peerTable[peer]?.port
  }

  /// The port of a peer's media socket (its LoopbackMediaLinkFactory sends there), or `nil`
  /// if the proxy has no media half or doesn't listen for the peer.
  ///
  /// - Parameter peer: The peer's name.
  /// - Returns: The port, or `nil`.
  public func mediaPort(of peer: String) -> UInt16? {
    loop.assertInEventLoop()
    return media?.port(of: peer)
  }

  /// The peers the proxy listens for, sorted by name.
  public var peers: [String] {
    peerTable.names
  }

  /// The faults a peer's connections get now, or `nil` for a peer the proxy doesn't know.
  ///
  /// - Parameter peer: The peer's name.
  /// - Returns: Its faults, as clamped.
  public func faults(of peer: String) -> ProxyPeerFaults? {
    peerTable[peer]?.faults
  }

  // MARK: Faults

  /// Sets the added one-way delay of bytes the proxy forwards for `peer` (order kept: bytes
  /// are held, then written in arrival order). Applies to chunks read from now on, and to the
  /// peer's media datagrams alike.
  ///
  /// - Parameters:
  ///   - milliseconds: The delay; clamped to `0...FaultProxy.maximumDelay`.
  ///   - peer: The peer's name.
  ///   - direction: Which way (`uplink` = peer to server).
  /// - Returns: `false`, changing nothing, if the proxy doesn't know `peer` or is shut down.
  @discardableResult
  public func setDelay(_ milliseconds: Int64, peer: String, direction: LinkDirections) -> Bool {
    let done = peerTable.update(peer, direction) { $0.delay = Self.clampDelay(milliseconds) }
    if done { media?.setDelay(milliseconds, peer: peer, direction: direction) }
    return done
  }

  /// Sets loss as TCP shows it: each chunk forwarded is, with `probability`, held an extra
  /// `retransmissionDelay` ms (doubling per consecutive loss, capped), never dropped. The
  /// peer's media datagrams are dropped with the same probability.
  ///
  /// - Parameters:
  ///   - probability: Per try; clamped to `0...1` (NaN is 0). 0 turns loss off.
  ///   - retransmissionDelay: The cost of a chunk's first loss, in ms; clamped to
  ///     `0...FaultProxy.maximumDelay`.
  ///   - peer: The peer's name.
  ///   - direction: Which way.
  /// - Returns: `false`, changing nothing, if the proxy doesn't know `peer` or is shut down.
  @discardableResult
  public func setLoss(
    _ probability: Double, retransmissionDelay: Int64 = 200, peer: String,
    direction: LinkDirections
  ) -> Bool {
    let probability = probability.isNaN ? 0 : min(max(probability, 0), 1)
    let retransmission = Self.clampDelay(retransmissionDelay)
    let done = peerTable.update(peer, direction) { lane in
      lane.lossProbability = probability
      lane.retransmissionDelay = retransmission
    }
    if done { media?.setLoss(probability, peer: peer, direction: direction) }
    return done
  }

  /// Sets the ± jitter of each chunk the proxy forwards for `peer` (the delay stays at least
  /// 0, and a chunk never goes before the one ahead of it, so TCP's order holds), and of the
  /// peer's media datagrams alike (``MediaFaultProxy/setJitter(_:peer:direction:)``).
  ///
  /// - Parameters:
  ///   - milliseconds: The jitter; clamped to `0...FaultProxy.maximumDelay`.
  ///   - peer: The peer's name.
  ///   - direction: Which way.
  /// - Returns: `false`, changing nothing, if the proxy doesn't know `peer` or is shut down.
  @discardableResult
  public func setJitter(_ milliseconds: Int64, peer: String, direction: LinkDirections) -> Bool {
    let jitter = Self.clampDelay(milliseconds)
    let done = peerTable.update(peer, direction) { $0.jitter = jitter }
    if done { media?.setJitter(milliseconds, peer: peer, direction: direction) }
    return done
  }

  /// Sets the random part of the delay of each chunk the proxy forwards for `peer`, drawn
  /// per chunk on top of the fixed delay (order kept, as with jitter), and of the peer's
  /// media datagrams alike (``MediaFaultProxy/setDistribution(_:peer:direction:)``).
  ///
  /// - Parameters:
  ///   - distribution: The distribution; `.constant` for none.
  ///   - peer: The peer's name.
  ///   - direction: Which way.
  /// - Returns: `false`, changing nothing, if the proxy doesn't know `peer` or is shut down.
  @discardableResult
  public func setDistribution(
    _ distribution: ProxyDelayDistribution, peer: String, direction: LinkDirections
  ) -> Bool {
    let done = peerTable.update(peer, direction) { $0.distribution = distribution }
    if done { media?.setDistribution(distribution, peer: peer, direction: direction) }
    return done
  }

  /// Caps the bandwidth of what the proxy forwards for `peer`. On signalling, chunks are paced
  /// at the cap's rate (each goes once the bytes before it and itself would have crossed a
  /// link of that rate, then its delay), and while more than the cap's queue limit waits to
  /// be paced the proxy stops reading from the sending side, so TCP's own flow control pushes
  /// back: nothing is dropped. The peer's media datagrams get the cap as
  /// ``MediaFaultProxy/setBandwidth(_:peer:direction:)`` says (tail drop).
  ///
  /// - Parameters:
  ///   - cap: The cap, or `nil` to lift it.
  ///   - peer: The peer's name.
  ///   - direction: Which way.
  /// - Returns: `false`, changing nothing, if the proxy doesn't know `peer` or is shut down.
  @discardableResult
  public func setBandwidth(_ cap: MediaBandwidthCap?, peer: String, direction: LinkDirections)
    -> Bool
  {
    let done = peerTable.update(peer, direction) { $0.bandwidth = cap }
    guard done else { return false }
    media?.setBandwidth(cap, peer: peer, direction: direction)
    if let record = peerTable.live(peer) {
      // A lifted or wider cap may let a connection that stopped reading go on.
      for connection in record.connections {
        for way in LinkDirection.allCases where direction.includes(way) { connection.pump(way) }
      }
    }
    return true
  }

  /// Stops forwarding for the peers, one way or both: bytes are held, as a retransmitting TCP
  /// would, up to ``FaultProxyConfiguration/maxHeldBytes`` per connection and way; over the
  /// bound the connection is reset. New connections of the peers are held too; their media
  /// datagrams are dropped. Partitions add up (`uplink`, then `downlink`, is both) until
  /// ``heal()``.
  ///
  /// - Parameters:
  ///   - peers: The peers' names.
  ///   - direction: Which way; both by default.
  /// - Returns: `false`, changing nothing, if any name is unknown or the proxy is shut down.
  @discardableResult
  public func partition(_ peers: Set<String>, direction: LinkDirections = .both) -> Bool {
    guard peerTable.partition(peers, direction: direction) else { return false }
    media?.partition(peers, direction: direction)
    return true
  }

  /// Ends every partition; the bytes held go on, in order (those whose delay has not run out
  /// yet wait for it), and media flows again.
  public func heal() {
    loop.assertInEventLoop()
    guard !isShutDown else { return }
    media?.heal()
    peerTable.heal { record in
      for connection in record.connections {
        connection.pump(.uplink)
        connection.pump(.downlink)
      }
    }
  }

  /// Ends the partitions of these peers alone, both ways, signalling and media; the bytes
  /// they held go on, in order. Other peers' partitions stay.
  ///
  /// - Parameter peers: The peers' names; unknown names are skipped.
  /// > Important: The proxy's loop thread only, like every call here.
  package func heal(peers: Set<String>) {
    loop.assertInEventLoop()
    guard !isShutDown else { return }
    media?.heal(peers: peers)
    peerTable.heal(only: peers) { record in
      for connection in record.connections {
        connection.pump(.uplink)
        connection.pump(.downlink)
      }
    }
  }

  /// Kills the peer's connections abruptly, both sides, with no goodbye frame: each side is
  /// reset (RST), and the bytes held for them are dropped; so are its media datagrams held,
  /// and the media link's port is forgotten (``MediaFaultProxy/kill(peer:)``). The peer's
  /// listener and media socket stay open and its faults stay as they are.
  ///
  /// - Parameter peer: The peer's name.
  /// - Returns: `false` if the proxy doesn't know `peer` or is shut down (nothing happened).
  @discardableResult
  public func kill(peer: String) -> Bool {
    guard let record = peerTable.live(peer) else { return false }
    for connection in record.connections { connection.kill() }
    media?.kill(peer: peer)
    return true
  }

  // MARK: Statistics and shutdown

  /// Per peer: bytes each way, chunks delayed, losses, connections accepted and open, resets
  /// and kills, bytes held now. Every peer the proxy listens (or listened) for is there.
  public var statistics: [String: ProxyPeerStatistics] {
    peerTable.statistics
  }

  /// The media half's counters per peer (``MediaFaultProxy/statistics``); empty without one.
  public var mediaStatistics: [String: MediaProxyPeerStatistics] {
    loop.assertInEventLoop()
    return media?.statistics ?? [:]
  }

  /// Closes every listener, connection and media socket at once (what is held is dropped);
  /// idempotent.
  /// Afterwards ``listen(peer:)`` throws, the fault calls return `false`, and ``statistics``
  /// still answers.
  public func shutdown() {
    guard peerTable.markShutDown() else { return }
    media?.shutdown()
    for record in peerTable.records {
      record.listener?.close()
      record.listener = nil
      for connection in record.connections { connection.close() }
    }
  }

  // MARK: Plumbing

  private static func clampDelay(_ milliseconds: Int64) -> Int64 {
    min(max(milliseconds, 0), maximumDelay)
  }

  /// A connection arrived on a peer's listener: connect it upstream, or reset it.
  private static func accept(
    _ accepted: TCPConnection, peer: ProxyPeer, upstreamPort: UInt16,
    configuration: FaultProxyConfiguration
  ) {
    peer.statistics.connectionsAccepted += 1
    do {
      let connection = try ProxyConnection(
        accepted: accepted, peer: peer, upstreamPort: upstreamPort,
        configuration: configuration)
      peer.connections.append(connection)
      peer.statistics.connectionsOpen = peer.connections.count
    } catch {
      peer.statistics.resets += 1
      accepted.reset()
    }
  }
}

/// Loop-confined: use ``LoopbackTransport/LoopBound`` to pass a proxy between threads.
@available(*, unavailable)
extension FaultProxy: Sendable {}
