import LoopbackTransport
import SessionTransport

/// The faults of one way of a proxied peer, as a partition sets them: ``ProxyLaneFaults`` and
/// ``MediaLaneFaults``.
///
/// A protocol of values; `Sendable`.
protocol PartitionableLaneFaults: Hashable, Sendable, Codable {
  /// Whether this way is partitioned.
  var isPartitioned: Bool { get set }
}

extension ProxyLaneFaults: PartitionableLaneFaults {}
extension MediaLaneFaults: PartitionableLaneFaults {}

/// One named peer of a proxy, as its ``ProxyPeerTable`` keeps it: ``ProxyPeer`` and
/// ``MediaProxyPeer``.
///
/// > Important: Loop-confined to its proxy's loop.
protocol ProxyPeerRecord: AnyObject {
  /// The faults of one way.
  associatedtype LaneFaults: PartitionableLaneFaults
  /// The counters ``currentStatistics`` gives.
  associatedtype Statistics
  /// The port the peer reaches the proxy on.
  var port: UInt16 { get }
  /// The faults the peer's traffic gets now, each way.
  var faults: PerDirection<LaneFaults> { get set }
  /// The counters, with what is held now.
  var currentStatistics: Statistics { get }
}

/// The named peers of a proxy (``FaultProxy``, ``MediaFaultProxy``) and whether it shut down:
/// the look-ups, the bad-input checks and the fault changes both proxies make alike. What only
/// one proxy does (its sockets, its media half) stays with it.
///
/// Calls naming an unknown peer, and calls after ``markShutDown()``, change nothing and say so.
///
/// > Important: Loop-confined: a value held by its proxy, used on the proxy's loop only (every
/// > call but ``isShutDown`` asserts it).
struct ProxyPeerTable<Record: ProxyPeerRecord> {
  /// The proxy's loop.
  let loop: EventLoop
  private var recordsByName: [String: Record] = [:]
  /// Whether the proxy shut down (``markShutDown()``).
  private(set) var isShutDown = false

  /// Creates an empty table for a proxy being made, checking what the proxy is given.
  ///
  /// - Parameters:
  ///   - loop: The proxy's loop; the caller must be on its thread.
  ///   - upstreamPort: The port the proxy forwards to on 127.0.0.1.
  ///   - proxy: The proxy's type name, for the loop's error.
  /// - Throws: ``FaultProxyError/invalidUpstreamPort`` for port 0; `UVError` if the loop is
  ///   shutting down.
  init(loop: EventLoop, upstreamPort: UInt16, proxy: String) throws {
    try loop.checkAcceptsNewHandles(proxy)
    guard upstreamPort != 0 else { throw FaultProxyError.invalidUpstreamPort }
    self.loop = loop
  }

  /// The port of `peer`'s record: a record it has already, or the one `make` makes, kept
  /// from now on under the name.
  ///
  /// - Parameters:
  ///   - peer: The peer's name; not empty.
  ///   - make: Makes the peer's record; called only for a peer the table doesn't know.
  /// - Returns: The record's port.
  /// - Throws: ``FaultProxyError/shutDown``, ``FaultProxyError/emptyPeerName``, or what `make`
  ///   throws (the table is then unchanged).
  mutating func listen(peer: String, _ make: () throws -> Record) throws -> UInt16 {
    loop.assertInEventLoop()
    guard !isShutDown else { throw FaultProxyError.shutDown }
    guard !peer.isEmpty else { throw FaultProxyError.emptyPeerName }
    if let known = recordsByName[peer] { return known.port }
    let record = try make()
    recordsByName[peer] = record
    return record.port
  }

  /// The record of `peer`, or `nil` for a peer the table doesn't know.
  subscript(peer: String) -> Record? {
    loop.assertInEventLoop()
    return recordsByName[peer]
  }

  /// The record of `peer` for a call that changes something, or `nil` (change nothing) if the
  /// table doesn't know `peer` or the proxy shut down.
  func live(_ peer: String) -> Record? {
    loop.assertInEventLoop()
    guard !isShutDown else { return nil }
    return recordsByName[peer]
  }

  /// Every record, in no particular order.
  var records: Dictionary<String, Record>.Values {
    loop.assertInEventLoop()
    return recordsByName.values
  }

  /// The peers' names, sorted.
  var names: [String] {
    loop.assertInEventLoop()
    return recordsByName.keys.sorted()
  }

  /// Every peer's counters now, by name.
  var statistics: [String: Record.Statistics] {
    loop.assertInEventLoop()
    return recordsByName.mapValues(\.currentStatistics)
  }

  /// Applies `change` to every way `direction` includes of a peer's faults.
  ///
  /// - Returns: `false`, changing nothing, if the table doesn't know `peer` or the proxy shut
  ///   down.
  func update(
    _ peer: String, _ direction: LinkDirections, _ change: (inout Record.LaneFaults) -> Void
  ) -> Bool {
    guard let record = live(peer) else { return false }
    record.faults.update(direction, change)
    return true
  }

  /// Partitions the peers, `direction` (partitions add up).
  ///
  /// - Returns: `false`, changing nothing, if any name is unknown or the proxy shut down.
  func partition(_ peers: Set<String>, direction: LinkDirections) -> Bool {
    loop.assertInEventLoop()
    guard !isShutDown else { return false }
    let partitioned = peers.compactMap { recordsByName[$0] }
    guard partitioned.count == peers.count else { return false }
    for record in partitioned { record.faults.update(direction) { $0.isPartitioned = true } }
    return true
  }

  /// Ends every peer's partitions, then hands each record to `healed`.
  ///
  /// - Parameter healed: What the proxy does for a healed peer (sends on what is held).
  func heal(_ healed: (Record) -> Void = { _ in }) {
    loop.assertInEventLoop()
    guard !isShutDown else { return }
    for record in recordsByName.values {
      record.faults.update(.both) { $0.isPartitioned = false }
      healed(record)
    }
  }

  /// Ends the partitions of the named peers alone (unknown names are skipped), then hands each
  /// of their records to `healed`.
  ///
  /// - Parameters:
  ///   - peers: The peers' names.
  ///   - healed: What the proxy does for a healed peer (sends on what is held).
  func heal(only peers: Set<String>, _ healed: (Record) -> Void = { _ in }) {
    loop.assertInEventLoop()
    guard !isShutDown else { return }
    for name in peers.sorted() {
      guard let record = recordsByName[name] else { continue }
      record.faults.update(.both) { $0.isPartitioned = false }
      healed(record)
    }
  }

  /// Marks the proxy shut down; the records stay, for their statistics.
  ///
  /// - Returns: `false` if it was shut down already (nothing to do).
  mutating func markShutDown() -> Bool {
    loop.assertInEventLoop()
    guard !isShutDown else { return false }
    isShutDown = true
    return true
  }
}

/// Loop-confined, with its proxy.
@available(*, unavailable)
extension ProxyPeerTable: Sendable {}
