import LoopbackTransport
import SessionTransport

/// A UDP proxy on a libuv loop between SDK peers' media links and a ``LoopbackTransport/LoopbackServer``'s media
/// plane, applying network faults per peer and per direction: delay, jitter, random loss, a
/// bandwidth cap, partitions, and kills. The media half of a ``FaultProxy``, which drives it
/// with its own per-peer calls; it works alone too.
///
/// ```swift
/// // On the proxy loop's thread:
/// let media = try MediaFaultProxy(loop: loop, upstreamPort: server.mediaPort!, seed: 42)
/// let port = try media.listen(peer: "alice")   // alice's LoopbackMediaLinkFactory uses it
/// media.setLoss(0.1, peer: "alice", direction: .downlink)
/// media.setBandwidth(MediaBandwidthCap(bitsPerSecond: 500_000), peer: "alice", direction: .downlink)
/// media.partition(["alice"])
/// media.heal()
/// ```
///
/// **Peers.** Each named peer gets a UDP socket of its own on 127.0.0.1 (``listen(peer:)``):
/// the peer's media link sends to it, and the proxy sends on from it, so the server sees one
/// source port per peer. The server's datagrams to that port go back to the port the peer's
/// link last sent from.
///
/// **Faults.** They apply to datagrams that arrive after they are set. Each way, a datagram is
/// dropped while partitioned, then with the loss probability (Bernoulli draws from `seed`,
/// split per peer and way, so one peer's draws never depend on another's traffic), then at the
/// tail of the bandwidth queue; the rest go on after their serialisation (bandwidth) and
/// delay ± jitter, in arrival order. A datagram with nothing to wait for goes at once, from the
/// buffer it was read into. What the faults drop is counted by reason
/// (``MediaProxyLaneStatistics``); the proxy never queues what the kernel won't take.
/// - Partition: dropped, as a cut network drops packets (those already held still go);
///   ``heal()`` lets new ones through.
/// - Kill: what is held for the peer is dropped and its link's port forgotten (the server's
///   datagrams go nowhere until the link sends again). The socket stays.
///
/// **Bad input.** Calls naming an unknown peer change nothing and return `false`; delays and
/// jitter are clamped to `0...FaultProxy.maximumDelay`, probabilities to `0...1` (NaN is 0);
/// bandwidth values as ``MediaBandwidthCap`` says.
///
/// > Important: Loop-confined: create it and call it on its loop's thread only. The loop keeps
/// > its sockets alive until ``shutdown()`` (or the loop's own shutdown) closed them.
public final class MediaFaultProxy {
  /// The loop the proxy runs on.
  public let loop: EventLoop
  /// The server's media port on 127.0.0.1.
  public let upstreamPort: UInt16
  /// The seed every loss and jitter draw comes from.
  public let seed: UInt64
  /// The proxy's limits.
  public let configuration: MediaFaultProxyConfiguration

  private var peerTable: ProxyPeerTable<MediaProxyPeer>
  /// Whether ``shutdown()`` ran.
  public var isShutDown: Bool { peerTable.isShutDown }

  /// Creates a proxy to a server's media plane; it listens for nobody until ``listen(peer:)``.
  ///
  /// - Parameters:
  ///   - loop: The loop; the caller must be on its thread.
  ///   - upstreamPort: The server's media port (``LoopbackTransport/LoopbackServer/mediaPort``).
  ///   - seed: The only randomness.
  ///   - configuration: The proxy's limits.
  /// - Throws: ``FaultProxyError/invalidUpstreamPort`` for port 0; `UVError` if the loop is
  ///   shutting down.
  public init(
    loop: EventLoop, upstreamPort: UInt16, seed: UInt64,
    configuration: MediaFaultProxyConfiguration = MediaFaultProxyConfiguration()
  ) throws {
    peerTable = try ProxyPeerTable(
      loop: loop, upstreamPort: upstreamPort, proxy: "MediaFaultProxy")
    self.loop = loop
    self.upstreamPort = upstreamPort
    self.seed = seed
    self.configuration = configuration
  }

  // MARK: Peers

  /// Opens a UDP socket for one named peer on 127.0.0.1 (a port the kernel picks). Listening
  /// for a peer that listens already returns its port and changes nothing.
  ///
  /// - Parameter peer: The peer's name; not empty.
  /// - Returns: The socket's port (the peer's LoopbackMediaLinkFactory sends to it).
  /// - Throws: ``FaultProxyError/emptyPeerName``, ``FaultProxyError/shutDown``, or a
  ///   `UDPSocketError` if the socket can't be bound.
  public func listen(peer: String) throws -> UInt16 {
    try peerTable.listen(peer: peer) {
      try MediaProxyPeer(
        name: peer, seed: seed, loop: loop, upstreamPort: upstreamPort,
        configuration: configuration)
    }
  }

  /// The port of a peer's socket, or `nil` if the proxy doesn't know the peer.
  ///
  /// - Parameter peer: The peer's name.
  /// - Returns: The port, or `nil`.
  public func port(of peer: String) -> UInt16? {
    peerTable[peer]?.port
  }

  /// The peers the proxy listens for, sorted by name.
  public var peers: [String] {
    peerTable.names
  }

  /// The faults a peer's media gets now, or `nil` for a peer the proxy doesn't know.
  ///
  /// - Parameter peer: The peer's name.
  /// - Returns: Its faults, as clamped.
  public func faults(of peer: String) -> MediaProxyPeerFaults? {
    peerTable[peer]?.faults
  }

  // MARK: Faults

  /// Sets the added one-way delay of a peer's datagrams.
  ///
  /// - Parameters:
  ///   - milliseconds: The delay; clamped to `0...FaultProxy.maximumDelay`.
  ///   - peer: The peer's name.
  ///   - direction: Which way (`uplink` = peer to server).
  /// - Returns: `false`, changing nothing, if the proxy doesn't know `peer` or is shut down.
  @discardableResult
  public func setDelay(_ milliseconds: Int64, peer: String, direction: LinkDirections) -> Bool {
    let delay = Self.clampDelay(milliseconds)
    return peerTable.update(peer, direction) { $0.delay = delay }
  }

  /// Sets the ± jitter of a peer's datagrams: each one's delay moves by a uniform draw in
  /// `-jitter...jitter` (staying at least 0); order is kept.
  ///
  /// - Parameters:
  ///   - milliseconds: The jitter; clamped to `0...FaultProxy.maximumDelay`.
  ///   - peer: The peer's name.
  ///   - direction: Which way.
  /// - Returns: `false`, changing nothing, if the proxy doesn't know `peer` or is shut down.
  @discardableResult
  public func setJitter(_ milliseconds: Int64, peer: String, direction: LinkDirections) -> Bool {
    let jitter = Self.clampDelay(milliseconds)
    return peerTable.update(peer, direction) { $0.jitter = jitter }
  }

  /// Sets the random part of each of a peer's datagrams' delay, drawn on top of the fixed
  /// delay (order kept, as with jitter).
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
    peerTable.update(peer, direction) { $0.distribution = distribution }
  }

  /// Sets the probability that each of a peer's datagrams is dropped.
  ///
  /// - Parameters:
  ///   - probability: Clamped to `0...1` (NaN is 0); 0 turns loss off.
  ///   - peer: The peer's name.
  ///   - direction: Which way.
  /// - Returns: `false`, changing nothing, if the proxy doesn't know `peer` or is shut down.
  @discardableResult
  public func setLoss(_ probability: Double, peer: String, direction: LinkDirections) -> Bool {
    let probability = probability.isNaN ? 0 : min(max(probability, 0), 1)
    return peerTable.update(peer, direction) { $0.lossProbability = probability }
  }

  /// Caps a peer's bandwidth: datagrams are serialised at the rate behind a tail-drop queue.
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
    let cap = cap.map {
      MediaBandwidthCap(
        bitsPerSecond: $0.effectiveBitsPerSecond, queueLimitBytes: max(0, $0.queueLimitBytes))
    }
    return peerTable.update(peer, direction) { $0.bandwidth = cap }
  }

  /// Drops the peers' datagrams, one way or both, until ``heal()``. Partitions add up.
  ///
  /// - Parameters:
  ///   - peers: The peers' names.
  ///   - direction: Which way; both by default.
  /// - Returns: `false`, changing nothing, if any name is unknown or the proxy is shut down.
  @discardableResult
  public func partition(_ peers: Set<String>, direction: LinkDirections = .both) -> Bool {
    peerTable.partition(peers, direction: direction)
  }

  /// Ends every partition.
  public func heal() {
    peerTable.heal()
  }

  /// Ends the partitions of these peers alone; the others' stay.
  ///
  /// - Parameter peers: The peers' names; unknown names are skipped.
  package func heal(peers: Set<String>) {
    peerTable.heal(only: peers)
  }

  /// Drops what the proxy holds for the peer and forgets its link's port; the socket and the
  /// faults stay.
  ///
  /// - Parameter peer: The peer's name.
  /// - Returns: `false` if the proxy doesn't know `peer` or is shut down.
  @discardableResult
  public func kill(peer: String) -> Bool {
    guard let record = peerTable.live(peer) else { return false }
    record.kill()
    return true
  }

  // MARK: Statistics and shutdown

  /// Per peer: datagrams each way, by what became of them, and what is held now.
  public var statistics: [String: MediaProxyPeerStatistics] {
    peerTable.statistics
  }

  /// Closes every socket at once (what is held is dropped); idempotent. Afterwards
  /// ``listen(peer:)`` throws, the fault calls return `false`, and ``statistics`` still
  /// answers.
  public func shutdown() {
    guard peerTable.markShutDown() else { return }
    for record in peerTable.records { record.close() }
  }

  // MARK: Plumbing

  private static func clampDelay(_ milliseconds: Int64) -> Int64 {
    min(max(milliseconds, 0), FaultProxy.maximumDelay)
  }
}

/// Loop-confined: use ``LoopbackTransport/LoopBound`` to pass a proxy between threads.
@available(*, unavailable)
extension MediaFaultProxy: Sendable {}
