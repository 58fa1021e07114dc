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
  /// Frames the links may deliver before the context looks at the clock again. Unchecked
  /// exclusivity: one thread, and one read-modify-write per frame that calls nothing.
  @exclusivity(unchecked) private var framesBeforeClockCheck = LinkContext.framesPerClockCheck
  /// Loop time of the last sweep, the timer's or one from inside a turn.
  private var lastSweep: UInt64 = 0
  /// Whether the links' heartbeats are suspended (``LoopbackLinkFactory/suspendHeartbeats()``):
  /// no heartbeat is sent and no silence judged.
  var isSuspended = false
  /// Loop time the heartbeats were resumed: silence before it does not count.
  private(set) var silenceFloor: UInt64 = 0
  /// How many frames are delivered between two looks at the clock inside a turn: a look costs
  /// a `clock_gettime`, a fan-out frame about 100 ns, so one per 32 frames is noise.
  static let framesPerClockCheck = 32

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

  /// Resumes the heartbeats: silence counts from now.
  func resumeHeartbeats() {
    isSuspended = false
    silenceFloor = loop.now
  }

  private func sweep() {
    guard !isSuspended else { return }
    let now = loop.now
    lastSweep = now
    // A check may close a link, which unregisters it later (in its close callback), never
    // during the sweep; iterating a copy keeps it simple anyway.
    for link in links { link.checkHeartbeat(now: now) }
  }

  /// Counts a frame a link is about to deliver; now and then, looks at the clock.
  ///
  /// The sweep timer fires only between loop turns, and a turn may last long: a backlog of
  /// frames, each slow to handle (a thousand SDK instances in a debug build), can keep one
  /// turn busy for longer than the server's heartbeat timeout. So every
  /// ``framesPerClockCheck`` frames the context reads the clock, and when a sweep period has
  /// passed since the last sweep it sends, from inside the turn, the heartbeats that are due
  /// (Decision 0011). A single handler call that blocks longer than the timeout still starves
  /// them: the loop's thread is the only one that writes.
  @inline(__always)
  func frameArrived() {
    framesBeforeClockCheck &-= 1
    if framesBeforeClockCheck <= 0 { checkClockWithinTurn() }
  }

  @inline(never)
  private func checkClockWithinTurn() {
    framesBeforeClockCheck = Self.framesPerClockCheck
    guard !isSuspended else { return }
    let now = loop.currentTime
    guard millisecondsElapsed(from: lastSweep, to: now) >= configuration.sweepPeriod else {
      return
    }
    lastSweep = now
    for link in links { link.sendHeartbeatWithinTurn(now: now) }
  }
}

/// Loop-confined.
@available(*, unavailable)
extension LinkContext: Sendable {}
