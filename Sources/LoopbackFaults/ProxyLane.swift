import LoopbackTransport

/// One way of one proxied connection: the chunks held back, each with the time it may go, and
/// whether the side they come from has finished. A state machine: the connection feeds it
/// arrivals and asks it for the next step.
///
/// Order is kept: a chunk never goes before one that arrived earlier, whatever the delays
/// (a chunk's release time is at least the one before it), and while anything is held a new
/// chunk is held behind it. With a bandwidth cap, chunks are paced: each waits for the bytes
/// before it and its own to cross a link of the cap's rate, then its delay.
///
/// > Important: A value, owned by one `ProxyConnection` on its loop.
struct ProxyLane {
  /// What to do with a chunk that arrived.
  enum Arrival: Equatable {
    /// Nothing held and nothing to add: write it on now.
    case forward
    /// The lane keeps it; ask ``next(now:isBlocked:)`` what to do.
    case held
    /// Keeping it would hold more than the bound: reset the connection.
    case overLimit
  }

  /// What the lane needs next.
  enum Step: Equatable {
    /// Write these bytes on, then ask again.
    case send([UInt8])
    /// The first chunk held may go at this loop time (ms).
    case wait(until: UInt64)
    /// Nothing is due: the lane is empty, or blocked by a partition.
    case idle
    /// The source side closed and everything it sent has gone: close the other side once its
    /// writes are flushed.
    case finished
  }

  /// The bound on ``heldBytes``.
  let maxHeldBytes: Int
  /// The chunks held back: one read's bytes each, and the loop time (ms) it may be written.
  private var chunks = HeldQueue<UInt64>()
  /// The release time of the last chunk held: no later chunk goes before it.
  private var lastReleaseAt: UInt64 = 0
  /// Whether the side the bytes come from closed (nothing more arrives).
  private(set) var isSourceClosed = false
  /// Whether ``Step/finished`` was handed out (it is, once).
  private var didFinish = false
  /// When the bandwidth cap's pacing queue is empty again, in loop microseconds (0: never
  /// used). Chunks arriving before then wait behind it.
  private var busyUntil: Int64 = 0

  init(maxHeldBytes: Int) {
    self.maxHeldBytes = maxHeldBytes
  }

  /// Whether nothing is held.
  var isEmpty: Bool { chunks.isEmpty }

  /// Bytes held now.
  var heldBytes: Int { chunks.heldBytes }

  /// A chunk arrived from the source.
  ///
  /// - Parameters:
  ///   - bytes: The chunk; copied if held.
  ///   - now: The loop time (ms) it arrived.
  ///   - hold: How long it must be held (delay plus any retransmission penalty), in ms.
  ///   - isBlocked: Whether the lane is partitioned.
  ///   - cap: The bandwidth cap, if any: the chunk is paced behind the bytes before it, then
  ///     held `hold` more.
  /// - Returns: What to do with it.
  mutating func arrive(
    _ bytes: UnsafeRawBufferPointer, now: UInt64, hold: UInt64, isBlocked: Bool,
    cap: MediaBandwidthCap? = nil
  ) -> Arrival {
    if isEmpty && hold == 0 && !isBlocked && cap == nil { return .forward }
    guard bytes.count <= maxHeldBytes - heldBytes else { return .overLimit }
    var start = now
    if let cap {
      let nowMicros = Self.micros(now)
      let paced = Self.add(max(nowMicros, busyUntil), cap.serialisation(bytes: bytes.count))
      busyUntil = paced
      // Whole milliseconds, rounded up: the pacing stays a lower bound.
      start = UInt64(paced / 1_000) + (paced % 1_000 == 0 ? 0 : 1)
    }
    let releaseAt = max(start.addingSaturating(hold), lastReleaseAt)
    chunks.append(bytes, releaseAt: releaseAt)
    lastReleaseAt = releaseAt
    return .held
  }

  /// The bytes waiting in the bandwidth cap's pacing queue at `now` (ms): what the cap still
  /// has to pace.
  ///
  /// - Parameters:
  ///   - now: The loop time (ms).
  ///   - cap: The cap.
  /// - Returns: The bytes, 0 when the queue is empty.
  func pacingBacklog(now: UInt64, cap: MediaBandwidthCap) -> Double {
    cap.bytes(inBacklog: busyUntil - Self.micros(now))
  }

  /// When the pacing queue is back within the cap's queue limit, in loop ms.
  ///
  /// - Parameter cap: The cap.
  /// - Returns: The loop time (ms), rounded up.
  func pacingDrained(cap: MediaBandwidthCap) -> UInt64 {
    let within = Self.add(busyUntil, -cap.serialisation(bytes: max(0, cap.queueLimitBytes)))
    guard within > 0 else { return 0 }
    return UInt64(within / 1_000) + (within % 1_000 == 0 ? 0 : 1)
  }

  private static func micros(_ milliseconds: UInt64) -> Int64 {
    Int64(clamping: milliseconds.multipliedSaturating(by: 1_000))
  }

  private static func add(_ a: Int64, _ b: Int64) -> Int64 {
    let (sum, overflow) = a.addingReportingOverflow(b)
    guard overflow else { return sum }
    return b > 0 ? .max : .min
  }

  /// The source closed: once what it sent has gone, ``next(now:isBlocked:)`` says
  /// ``Step/finished``.
  mutating func sourceClosed() {
    isSourceClosed = true
  }

  /// Drops everything held (the connection ended).
  mutating func discard() {
    chunks.removeAll()
    busyUntil = 0
  }

  /// The next step: a chunk that is due, the time the next one is, or nothing.
  ///
  /// - Parameters:
  ///   - now: The loop time (ms).
  ///   - isBlocked: Whether the lane is partitioned (nothing goes).
  /// - Returns: The step.
  mutating func next(now: UInt64, isBlocked: Bool) -> Step {
    guard let releaseAt = chunks.firstReleaseAt else {
      guard isSourceClosed, !didFinish else { return .idle }
      didFinish = true
      return .finished
    }
    if isBlocked { return .idle }
    guard releaseAt <= now else { return .wait(until: releaseAt) }
    return .send(chunks.removeFirst())
  }
}
