import LoopbackTransport
import SessionTransport

/// One peer's process as loopback mode pauses it: every peer's SDK instance shares the client
/// loop, so a stopped process is a gate between the peer's links and its instance. While the
/// gate is closed (``pause()``), what the peer's links deliver waits in order (signalling
/// messages and closes, media datagrams), its media links' ticks wait (one tick per link
/// however long the pause), its signalling links send no heartbeats and judge no silence, and
/// what the instance sends waits (signalling) or is dropped (media, as a stopped sender's
/// datagrams are never sent). ``resume()`` delivers what waited, in order, then resumes the
/// heartbeats, then ticks each media link once, as the virtual network resumes a node.
///
/// A killed peer's gate (``kill()``) delivers nothing ever again: its old instance's links go
/// quiet, as a dead process's would.
///
/// > Important: Loop-confined to the client loop, with the links it gates and the SDK instance
/// > they belong to.
final class PeerGate {
  private(set) var isPaused = false
  private(set) var isDead = false
  /// What arrived or was sent while paused, in order.
  private var waiting: [() -> Void] = []
  /// Media links whose tick came due while paused, once each, in order.
  private var ticking: [GatedMediaLink] = []
  /// Bytes of media datagrams waiting: past ``maxWaitingDatagramBytes`` more are dropped, as
  /// a stopped process's full socket buffer would drop them.
  private var waitingDatagramBytes = 0
  /// The signalling factories whose heartbeats the gate suspends.
  private var factories: [LoopbackLinkFactory] = []

  /// The most media bytes that wait for a paused peer (its socket's receive buffer).
  static let maxWaitingDatagramBytes = 256 << 10

  /// Gates the heartbeats of `factory`'s links too.
  func watch(_ factory: LoopbackLinkFactory) {
    factories.append(factory)
    if isPaused { factory.suspendHeartbeats() }
  }

  /// Stops the process.
  func pause() {
    guard !isPaused, !isDead else { return }
    isPaused = true
    for factory in factories { factory.suspendHeartbeats() }
  }

  /// Continues it: what waited, in order; then the heartbeats; then one tick per media link.
  func resume() {
    guard isPaused, !isDead else { return }
    isPaused = false
    let work = waiting
    let ticks = ticking
    waiting = []
    ticking = []
    waitingDatagramBytes = 0
    for item in work where !isDead { item() }
    for factory in factories { factory.resumeHeartbeats() }
    let now = LoopbackMediaClock.now()
    for link in ticks where !isDead { link.deliverTick(now: now) }
  }

  /// The process died: nothing waiting is delivered, and nothing more will be.
  func kill() {
    isDead = true
    isPaused = false
    waiting = []
    ticking = []
    waitingDatagramBytes = 0
    for factory in factories { factory.resumeHeartbeats() }
    factories = []
  }

  /// Runs `work` now, or once the process resumes; never after a kill.
  func pass(_ work: @escaping () -> Void) {
    guard !isDead else { return }
    if isPaused { waiting.append(work) } else { work() }
  }

  /// A media datagram of `count` bytes arrived while paused: it waits, if the paused
  /// process's buffer has room, or is dropped.
  func passDatagram(count: Int, _ work: @escaping () -> Void) {
    guard isPaused, !isDead else { return }
    guard waitingDatagramBytes + count <= Self.maxWaitingDatagramBytes else { return }
    waitingDatagramBytes += count
    waiting.append(work)
  }

  /// A media link's tick came due while paused: noted, once, for the resume.
  func passTick(_ link: GatedMediaLink) {
    guard isPaused, !isDead else { return }
    if !ticking.contains(where: { $0 === link }) { ticking.append(link) }
  }
}

/// Loop-confined.
@available(*, unavailable)
extension PeerGate: Sendable {}

/// A peer's signalling links, each behind its gate.
///
/// > Important: Loop-confined to the client loop.
final class GatedLinkFactory: SessionLinkFactory {
  let inner: LoopbackLinkFactory
  let gate: PeerGate

  init(_ inner: LoopbackLinkFactory, gate: PeerGate) {
    self.inner = inner
    self.gate = gate
    gate.watch(inner)
  }

  func makeLink() -> any SessionLink {
    GatedLink(inner.makeLink(), gate: gate, loop: inner.loop)
  }
}

/// Loop-confined.
@available(*, unavailable)
extension GatedLinkFactory: Sendable {}

/// A signalling link behind its peer's gate: events and sends wait while the peer is paused.
///
/// > Important: Loop-confined to the client loop.
final class GatedLink: SessionLink {
  let inner: any SessionLink
  let gate: PeerGate
  let loop: EventLoop
  /// Set by ``close()``: events that waited for the resume are not delivered after it.
  private var isClosed = false

  init(_ inner: any SessionLink, gate: PeerGate, loop: EventLoop) {
    self.inner = inner
    self.gate = gate
    self.loop = loop
  }

  func start(_ handler: @escaping (LinkEvent) -> Void) {
    let gate = self.gate
    gate.pass { [weak self] in
      guard let self, !isClosed else { return }
      inner.start { [weak self] event in
        gate.pass {
          guard let self, !self.isClosed else { return }
          handler(event)
        }
      }
    }
  }

  func send(_ message: ClientMessage) {
    gate.pass { [weak self] in
      guard let self, !isClosed else { return }
      inner.send(message)
    }
  }

  /// Closes at once (only the instance's release, or a killed peer's, closes while paused);
  /// what waited for the resume is dropped with it.
  ///
  /// Off the loop (an instance released on another thread closes its links from its `deinit`),
  /// the close hops to the loop, as the loopback links' own do.
  func close() {
    guard loop.inEventLoop else {
      let hop = OffLoopClose(close)
      _ = loop.execute { hop.run() }
      return
    }
    isClosed = true
    inner.close()
  }
}

/// Loop-confined.
@available(*, unavailable)
extension GatedLink: Sendable {}

/// A peer's media links, each behind its gate.
///
/// > Important: Loop-confined to the client loop.
final class GatedMediaLinkFactory: MediaLinkFactory {
  let inner: LoopbackMediaLinkFactory
  let gate: PeerGate

  init(_ inner: LoopbackMediaLinkFactory, gate: PeerGate) {
    self.inner = inner
    self.gate = gate
  }

  func makeMediaLink() -> any MediaLink {
    GatedMediaLink(inner.makeMediaLink(), gate: gate, loop: inner.loop)
  }
}

/// Loop-confined.
@available(*, unavailable)
extension GatedMediaLinkFactory: Sendable {}

/// A media link behind its peer's gate: datagrams wait (stamped with the time they are
/// delivered, as the virtual network's do), ticks fold into one, sends are dropped while the
/// peer is paused.
///
/// > Important: Loop-confined to the client loop.
final class GatedMediaLink: MediaLink {
  let inner: any MediaLink
  let gate: PeerGate
  let loop: EventLoop
  private var handler: ((MediaLinkEvent) -> Void)?

  init(_ inner: any MediaLink, gate: PeerGate, loop: EventLoop) {
    self.inner = inner
    self.gate = gate
    self.loop = loop
  }

  var tickInterval: Int64 { inner.tickInterval }

  func start(_ handler: @escaping (MediaLinkEvent) -> Void) {
    self.handler = handler
    let gate = self.gate
    inner.start { [weak self] event in
      guard let self, !gate.isDead else { return }
      guard gate.isPaused else { return handler(event) }
      switch event {
      case .datagram(let bytes, _):
        gate.passDatagram(count: bytes.count) { [weak self] in
          self?.handler?(.datagram(bytes, at: LoopbackMediaClock.now()))
        }
      case .tick:
        gate.passTick(self)
      }
    }
  }

  func send(_ datagram: [UInt8]) {
    guard !gate.isPaused, !gate.isDead else { return }
    inner.send(datagram)
  }

  /// Stops the link; off the loop, the close hops to the loop.
  func close() {
    guard loop.inEventLoop else {
      let hop = OffLoopClose(close)
      _ = loop.execute { hop.run() }
      return
    }
    handler = nil
    inner.close()
  }

  /// The tick that came due while paused.
  func deliverTick(now: Int64) {
    handler?(.tick(now: now))
  }
}

/// Loop-confined.
@available(*, unavailable)
extension GatedMediaLink: Sendable {}

/// Carries a gated link's close to its loop.
///
/// `@unchecked Sendable`: the close it holds runs only in `run()`, which runs on the link's
/// loop thread (handed to ``LoopbackTransport/EventLoop/execute(_:)``); other threads only
/// move it.
private struct OffLoopClose: @unchecked Sendable {
  let close: () -> Void

  init(_ close: @escaping () -> Void) { self.close = close }

  func run() { close() }
}
