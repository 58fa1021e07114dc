import LoopbackTransport
import SessionTransport

/// One connection through a ``FaultProxy``: the peer's side (accepted on the peer's listener),
/// the server's side (connected upstream), and a ``ProxyLane`` with a timer each way.
///
/// Bytes flow as they are read, unframed. A way with a bandwidth cap whose queue is over its
/// limit stops reading from its sending side until the queue drains (back-pressure). A side
/// that ends (the peer or the server closed or
/// reset it) ends its way: what it sent and the proxy still holds goes on, then the other side
/// is closed after flushing. A side that fails (its write queue overflowed, an error, a server
/// that can't be reached), or a way that would hold more than the bound, resets both sides.
///
/// > Important: Loop-confined to the proxy's loop; kept alive by its peer's list until both
/// > sides closed.
final class ProxyConnection {
  /// The two sides.
  enum Side {
    /// The peer's connection, accepted by the proxy.
    case peer
    /// The connection to the server.
    case server
  }

  let peer: ProxyPeer
  let configuration: FaultProxyConfiguration
  private let loop: EventLoop
  /// The peer's side.
  private let downstream: TCPConnection
  /// The server's side.
  private let upstream: TCPConnection
  private var uplink: ProxyLane
  private var downlink: ProxyLane
  private let uplinkTimer: UVTimer
  private let downlinkTimer: UVTimer
  /// Set once the connection was killed, reset or shut down: bytes are no longer forwarded.
  private var isEnded = false
  private var isPeerSideClosed = false
  private var isServerSideClosed = false
  /// The ways whose sending side the proxy stopped reading from: their bandwidth cap's queue
  /// was over its limit (back-pressure).
  private var stalled: Set<LinkDirection> = []

  /// Connects upstream for a connection just accepted, and wires both sides.
  ///
  /// - Throws: `UVError` if the upstream connection or a timer can't be made (the loop is
  ///   shutting down); the accepted connection is then the caller's to reset.
  init(
    accepted downstream: TCPConnection, peer: ProxyPeer, upstreamPort: UInt16,
    configuration: FaultProxyConfiguration
  ) throws(UVError) {
    let loop = downstream.loop
    let uplinkTimer = try UVTimer(loop: loop)
    let downlinkTimer: UVTimer
    do throws(UVError) {
      downlinkTimer = try UVTimer(loop: loop)
    } catch {
      uplinkTimer.close()
      throw error
    }
    let upstream: TCPConnection
    do throws(UVError) {
      upstream = try TCPConnection.connect(
        loop: loop, port: upstreamPort, configuration: configuration.tcp)
    } catch {
      uplinkTimer.close()
      downlinkTimer.close()
      throw error
    }
    self.loop = loop
    self.peer = peer
    self.configuration = configuration
    self.downstream = downstream
    self.upstream = upstream
    self.uplink = ProxyLane(maxHeldBytes: configuration.maxHeldBytes)
    self.downlink = ProxyLane(maxHeldBytes: configuration.maxHeldBytes)
    self.uplinkTimer = uplinkTimer
    self.downlinkTimer = downlinkTimer
    // The connections drop these closures when they close, which ends the cycles.
    downstream.onBytes = { [self] bytes in received(bytes, .uplink) }
    upstream.onBytes = { [self] bytes in received(bytes, .downlink) }
    downstream.onClose = { [self] reason in closed(.peer, reason) }
    upstream.onClose = { [self] reason in closed(.server, reason) }
  }

  /// Bytes held back now, both ways.
  var heldBytes: Int { uplink.heldBytes + downlink.heldBytes }

  // MARK: Forwarding

  /// A side read `bytes`, going `way`.
  private func received(_ bytes: UnsafeRawBufferPointer, _ way: LinkDirection) {
    guard !isEnded else { return }
    let target = self.target(of: way)
    guard !target.isClosed else { return }  // the other side is gone; nobody to tell
    let faults = peer.faults[way]
    var hold = peer.drawDelay(way).addingSaturating(
      peer.drawPenalty(way, configuration: configuration))
    // Loop times are whole milliseconds: a millisecond more keeps the delay a lower bound.
    if hold > 0 { hold = hold.addingSaturating(1) }
    let now = loop.currentTime
    let arrival = withLane(way) {
      $0.arrive(
        bytes, now: now, hold: hold, isBlocked: faults.isPartitioned, cap: faults.bandwidth)
    }
    switch arrival {
    case .forward:
      if target.send(rawBytes: bytes) { peer.countForwarded(bytes.count, way) }
    case .held:
      peer.statistics.chunksDelayed += 1
      if let cap = faults.bandwidth,
        withLane(way, { $0.pacingBacklog(now: now, cap: cap) })
          > Double(max(0, cap.queueLimitBytes))
      {
        // The cap's queue is full: stop reading, and TCP's flow control pushes back on the
        // sender; reading resumes once the queue is back within its limit (``pump(_:)``).
        stalled.insert(way)
        source(of: way).pauseReading()
      }
      pump(way)
    case .overLimit:
      resetBoth()
    }
  }

  /// Writes on what is due going `way`, then waits for the next chunk (or for a heal).
  func pump(_ way: LinkDirection) {
    guard !isEnded else { return }
    let target = self.target(of: way)
    let timer = self.timer(of: way)
    // Back-pressure: reading stays stopped while the cap's queue is over its limit; the timer
    // wakes when it will be within it, if nothing is due sooner.
    var resumeAt: UInt64?
    if stalled.contains(way) {
      if let cap = peer.faults[way].bandwidth {
        let drained = withLane(way) { $0.pacingDrained(cap: cap) }
        if drained <= loop.currentTime {
          stalled.remove(way)
          source(of: way).resumeReading()
        } else {
          resumeAt = drained
        }
      } else {
        stalled.remove(way)
        source(of: way).resumeReading()
      }
    }
    while true {
      let step = withLane(way) {
        $0.next(now: loop.currentTime, isBlocked: peer.faults[way].isPartitioned)
      }
      switch step {
      case .send(let bytes):
        let sent = bytes.withUnsafeBytes { target.send(rawBytes: $0) }
        if sent { peer.countForwarded(bytes.count, way) }
      case .wait(let until):
        let wake = min(until, resumeAt ?? until)
        let now = loop.now
        timer.schedule(afterMilliseconds: wake > now ? wake - now : 0) { [self] in pump(way) }
        return
      case .idle:
        if let resumeAt {
          let now = loop.now
          timer.schedule(afterMilliseconds: resumeAt > now ? resumeAt - now : 0) { [self] in
            pump(way)
          }
        } else {
          timer.cancel()
        }
        return
      case .finished:
        timer.cancel()
        target.close(afterFlushing: true)
        return
      }
    }
  }

  // MARK: Ending

  /// A side closed.
  private func closed(_ side: Side, _ reason: CloseReason) {
    switch side {
    case .peer: isPeerSideClosed = true
    case .server: isServerSideClosed = true
    }
    defer { if isPeerSideClosed && isServerSideClosed { finish() } }
    guard !isEnded else { return }
    switch reason {
    case .peerClosed:
      // That side ended its way: what it sent goes on, then the other side closes. Nothing
      // more can reach it.
      let (from, to): (LinkDirection, LinkDirection) =
        side == .peer ? (.uplink, .downlink) : (.downlink, .uplink)
      withLane(to) { $0.discard() }
      timer(of: to).cancel()
      withLane(from) { $0.sourceClosed() }
      pump(from)
    case .local:
      // Closed by this side: after flushing its last bytes, or by the loop's shutdown.
      end { $0.reset() }
    case .error, .writeQueueOverflow, .frameTooLarge, .protocolError, .idleTimeout, .bufferLimit:
      peer.statistics.resets += 1
      end { $0.reset() }
    }
  }

  /// Ends the connection abruptly, both sides, as a crashed host would: RST, nothing held
  /// goes on.
  func kill() {
    guard !isEnded else { return }
    peer.statistics.kills += 1
    end { $0.reset() }
  }

  /// Ends the connection at once (FIN), dropping what is held: the proxy is shutting down.
  func close() {
    end { $0.close() }
  }

  /// A way held more than the bound: both sides are reset and counted.
  private func resetBoth() {
    peer.statistics.resets += 1
    end { $0.reset() }
  }

  /// Stops forwarding, drops what is held, and closes both sides with `closeSide`.
  private func end(_ closeSide: (TCPConnection) -> Void) {
    guard !isEnded else { return }
    isEnded = true
    uplink.discard()
    downlink.discard()
    uplinkTimer.cancel()
    downlinkTimer.cancel()
    closeSide(downstream)
    closeSide(upstream)
  }

  /// Both sides closed: lets go of the timers and leaves the peer's list.
  private func finish() {
    isEnded = true
    uplink.discard()
    downlink.discard()
    uplinkTimer.close()
    downlinkTimer.close()
    peer.remove(self)
  }

  // MARK: Plumbing

  /// The side the bytes going `way` are read from.
  private func source(of way: LinkDirection) -> TCPConnection {
    switch way {
    case .uplink: downstream
    case .downlink: upstream
    }
  }

  private func target(of way: LinkDirection) -> TCPConnection {
    switch way {
    case .uplink: upstream
    case .downlink: downstream
    }
  }

  private func timer(of way: LinkDirection) -> UVTimer {
    switch way {
    case .uplink: uplinkTimer
    case .downlink: downlinkTimer
    }
  }

  private func withLane<Result>(_ way: LinkDirection, _ body: (inout ProxyLane) -> Result) -> Result
  {
    switch way {
    case .uplink: body(&uplink)
    case .downlink: body(&downlink)
    }
  }
}

/// Loop-confined.
@available(*, unavailable)
extension ProxyConnection: Sendable {}
