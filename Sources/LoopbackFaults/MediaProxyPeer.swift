import LoopbackTransport
import SessionCore
import SessionTransport

/// One named peer of a ``MediaFaultProxy``: its UDP socket, the port of the peer's media link
/// it learnt, a ``MediaProxyLane`` and a timer each way, and its counters.
///
/// One socket serves both ways: the peer's link sends to it, and the proxy sends on from it to
/// the server, so the server sees one source port per peer; what comes from the server's port
/// goes back to the peer's link, and anything else is the peer's (its latest source port is
/// the one the downlink goes to, so a new link of the same peer takes over).
///
/// > Important: Loop-confined to the proxy's loop.
final class MediaProxyPeer {
  let name: String
  let loop: EventLoop
  let socket: UDPSocket
  let upstreamPort: UInt16
  /// The port of the peer's media link, once it sent something.
  private(set) var clientPort: UInt16?
  var faults = MediaProxyPeerFaults() {
    didSet {
      uplink.faults = faults.uplink
      downlink.faults = faults.downlink
    }
  }
  private(set) var statistics = MediaProxyPeerStatistics()
  private var uplink: MediaProxyLane
  private var downlink: MediaProxyLane
  private let uplinkTimer: UVTimer
  private let downlinkTimer: UVTimer
  private var isClosed = false

  /// Binds the peer's socket and makes its timers.
  ///
  /// - Throws: What ``UDPSocket/init(loop:port:configuration:)`` throws, or
  ///   ``UDPSocketError/system(_:)`` if a timer can't be made.
  init(
    name: String, seed: UInt64, loop: EventLoop, upstreamPort: UInt16,
    configuration: MediaFaultProxyConfiguration
  ) throws(UDPSocketError) {
    let uplinkTimer: UVTimer
    let downlinkTimer: UVTimer
    do throws(UVError) {
      uplinkTimer = try UVTimer(loop: loop)
      do throws(UVError) {
        downlinkTimer = try UVTimer(loop: loop)
      } catch {
        uplinkTimer.close()
        throw error
      }
    } catch {
      throw .system(error)
    }
    do throws(UDPSocketError) {
      socket = try UDPSocket(loop: loop, configuration: configuration.socket)
    } catch {
      uplinkTimer.close()
      downlinkTimer.close()
      throw error
    }
    self.name = name
    self.loop = loop
    self.upstreamPort = upstreamPort
    self.uplinkTimer = uplinkTimer
    self.downlinkTimer = downlinkTimer
    // Its own streams, apart from the TCP proxy's: the name's hash mixed with "media".
    var split = SimulationRandom(seed: seed ^ ProxyPeer.nameHash(name) ^ 0x6D65_6469_61)
    uplink = MediaProxyLane(
      random: SimulationRandom(seed: split.next()), maxHeldBytes: configuration.maxHeldBytes)
    downlink = MediaProxyLane(
      random: SimulationRandom(seed: split.next()), maxHeldBytes: configuration.maxHeldBytes)
    // Strong: the socket drops its handler when it closes, which ends the cycle.
    socket.onDatagram = { [self] port, bytes in received(bytes, from: port) }
  }

  /// The socket's port: where the peer's media link sends.
  var port: UInt16 { socket.localPort }

  /// The counters, with what is held now.
  var currentStatistics: MediaProxyPeerStatistics {
    var current = statistics
    current.datagramsHeld = uplink.heldCount + downlink.heldCount
    return current
  }

  // MARK: Forwarding

  private func received(_ bytes: UnsafeRawBufferPointer, from port: UInt16) {
    let way: LinkDirection
    if port == upstreamPort {
      way = .downlink
    } else {
      way = .uplink
      clientPort = port
    }
    statistics[way].arrived += 1
    let now = LoopbackMediaClock.now()
    let arrival = withLane(way) { $0.arrive(bytes, now: now) }
    switch arrival {
    case .forward:
      send(bytes, way)
    case .held:
      statistics[way].delayed += 1
      pump(way)
    case .dropped(let drop):
      switch drop {
      case .partitioned: statistics[way].partitionDropped += 1
      case .lost: statistics[way].lost += 1
      case .queueFull: statistics[way].queueDropped += 1
      case .overLimit: statistics[way].overflowDropped += 1
      }
    }
  }

  private func send(_ bytes: UnsafeRawBufferPointer, _ way: LinkDirection) {
    let target = way == .uplink ? upstreamPort : clientPort
    guard let target, socket.trySend(lent: bytes, to: target) else {
      statistics[way].sendDropped += 1
      return
    }
    statistics[way].forwarded += 1
    statistics[way].bytes += bytes.count
  }

  /// Writes on what is due going `way`, then waits for the next datagram held.
  private func pump(_ way: LinkDirection) {
    guard !isClosed else { return }
    let timer = way == .uplink ? uplinkTimer : downlinkTimer
    while true {
      let now = LoopbackMediaClock.now()
      switch withLane(way, { $0.next(now: now) }) {
      case .send(let bytes):
        bytes.withUnsafeBytes { send($0, way) }
      case .wait(let until):
        // Timers count whole milliseconds from the loop's cached time: round up, and look
        // again when it fires (a little early at worst).
        let milliseconds = UInt64(max(1, (until - now + 999) / 1_000))
        timer.schedule(afterMilliseconds: milliseconds) { [self] in pump(way) }
        return
      case .idle:
        timer.cancel()
        return
      }
    }
  }

  // MARK: Faults and ending

  /// Drops what is held both ways and forgets the peer's port: its link must send again
  /// before the server's datagrams reach it.
  func kill() {
    statistics.kills += 1
    statistics.uplink.killDropped += uplink.discard()
    statistics.downlink.killDropped += downlink.discard()
    uplinkTimer.cancel()
    downlinkTimer.cancel()
    clientPort = nil
  }

  /// Closes the socket and the timers; what is held is dropped.
  func close() {
    guard !isClosed else { return }
    isClosed = true
    _ = uplink.discard()
    _ = downlink.discard()
    uplinkTimer.close()
    downlinkTimer.close()
    socket.close()
  }

  private func withLane<Result>(_ way: LinkDirection, _ body: (inout MediaProxyLane) -> Result)
    -> Result
  {
    switch way {
    case .uplink: body(&uplink)
    case .downlink: body(&downlink)
    }
  }
}

/// Loop-confined.
@available(*, unavailable)
extension MediaProxyPeer: Sendable {}

extension MediaProxyPeer: ProxyPeerRecord {}
