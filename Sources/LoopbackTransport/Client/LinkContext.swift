import SessionCore
import SessionTransport

/// What the links of one ``LoopbackLinkFactory`` share: the encoding scratch buffer, the
/// decoder, the heartbeat sweep and the log.
///
/// > Important: Loop-confined, with the factory and its links.
final class LinkContext {
  let loop: EventLoop
  let configuration: LoopbackLinkConfiguration
  let decoder: WireDecoder
  let log: LoopbackLogHandler
  /// The encoding of the message being sent; shared by every link (one thread, no
  /// re-entrancy: encoding calls nothing back).
  var scratch: [UInt8] = []
  /// The storage event batches decode into (see `WireDecoder.decodeServerFrame(_:reusing:)`):
  /// free again once the link's owner let go of the last message, so a fan-out allocates
  /// nothing per frame. Unchecked exclusivity: one thread, and decoding calls nothing back.
  @exclusivity(unchecked) var events: [SessionEvent] = []
  /// The open links, for the heartbeat sweep.
  private(set) var links: [LoopbackClientLink] = []
  private var sweeper: UVTimer?

  init(loop: EventLoop, configuration: LoopbackLinkConfiguration, log: @escaping LoopbackLogHandler)
  {
    self.loop = loop
    self.configuration = configuration
    self.decoder = WireDecoder(maxFrameSize: configuration.tcp.maxFrameSize)
    self.log = log
    scratch.reserveCapacity(1_024)
  }

  /// Starts watching a link's heartbeats until ``unregister(_:)``.
  func register(_ link: LoopbackClientLink) {
    precondition(link.registryIndex < 0, "a link registered twice")
    link.registryIndex = links.count
    links.append(link)
    guard sweeper == nil, let timer = try? UVTimer(loop: loop) else { return }
    let period = configuration.sweepPeriod
    timer.schedule(afterMilliseconds: period, repeatingEvery: period) { [self] in sweep() }
    sweeper = timer
  }

  /// Stops watching a link. O(1). Harmless for a link that isn't registered.
  func unregister(_ link: LoopbackClientLink) {
    let index = link.registryIndex
    guard index >= 0, index < links.count, links[index] === link else { return }
    let last = links.removeLast()
    if index < links.count {
      links[index] = last
      last.registryIndex = index
    }
    link.registryIndex = -1
    if links.isEmpty {
      // The timer's callback retains this context: closing it breaks the cycle.
      sweeper?.close()
      sweeper = nil
    }
  }

  private func sweep() {
    let now = loop.now
    // A check may close a link, which unregisters it later (in its close callback), never
    // during the sweep; iterating a copy keeps it simple anyway.
    for link in links { link.checkHeartbeat(now: now) }
  }
}

/// Loop-confined.
@available(*, unavailable)
extension LinkContext: Sendable {}
