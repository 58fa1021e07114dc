import LoopbackTransport
import SessionCore

/// One way of one peer's media through a ``MediaFaultProxy``: the faults, the loss and jitter
/// draws, the bandwidth queue and the datagrams held back. A state machine: the peer feeds it
/// arrivals and asks it for the next step. Times are microseconds (``LoopbackMediaClock``).
///
/// A datagram is dropped by a partition, then by the loss draw, then at the tail of the
/// bandwidth queue; otherwise it goes once serialised (bandwidth) and delayed (delay, plus the
/// distribution's draw, ± jitter), never before the one ahead of it. Nothing held and nothing to wait for: it goes
/// at once, uncopied.
///
/// > Important: A value, owned by one peer of the proxy, on its loop.
struct MediaProxyLane {
  /// What to do with a datagram that arrived.
  enum Arrival: Equatable {
    /// Write it on now.
    case forward
    /// The lane keeps it; ask ``next(now:)``.
    case held
    /// Dropped.
    case dropped(Drop)
  }

  /// Why a datagram was dropped.
  enum Drop: Equatable {
    case partitioned
    case lost
    case queueFull
    case overLimit
  }

  /// What the lane needs next.
  enum Step: Equatable {
    /// Write these bytes on, then ask again.
    case send([UInt8])
    /// The first datagram held goes at this time (µs).
    case wait(until: Int64)
    /// Nothing is held.
    case idle
  }

  var faults = MediaLaneFaults()
  private var random: SimulationRandom
  let maxHeldBytes: Int
  /// The datagrams held back, each with the time (µs) it goes.
  private var held = HeldQueue<Int64>()
  /// The release time of the last datagram held: none goes before it.
  private var lastReleaseAt: Int64 = 0
  /// When the bandwidth queue is empty again (µs).
  private var busyUntil: Int64 = 0

  init(random: SimulationRandom, maxHeldBytes: Int) {
    self.random = random
    self.maxHeldBytes = maxHeldBytes
  }

  /// Datagrams held now.
  var heldCount: Int { held.count }

  /// Bytes held now.
  var heldBytes: Int { held.heldBytes }

  var isEmpty: Bool { held.isEmpty }

  /// A datagram arrived at `now`.
  mutating func arrive(_ bytes: UnsafeRawBufferPointer, now: Int64) -> Arrival {
    if faults.isPartitioned { return .dropped(.partitioned) }
    if faults.lossProbability > 0, Self.uniform(&random) < faults.lossProbability {
      return .dropped(.lost)
    }
    var release = now
    var finish: Int64?
    if let cap = faults.bandwidth {
      let backlog = busyUntil > now ? busyUntil - now : 0
      if backlog > 0,
        cap.bytes(inBacklog: backlog) + Double(bytes.count) > Double(max(0, cap.queueLimitBytes))
      {
        return .dropped(.queueFull)
      }
      let end = Self.add(max(now, busyUntil), cap.serialisation(bytes: bytes.count))
      finish = end
      release = end
    }
    var hold = faults.delay &* 1_000
    if faults.distribution != .constant {
      let extra = faults.distribution.extra(above: faults.delay, random: &random)
      hold = Self.add(hold, Int64((extra * 1_000).rounded()))
    }
    if faults.jitter > 0 {
      let spread = Double(faults.jitter) * 1_000
      hold += Int64(((Self.uniform(&random) * 2 - 1) * spread).rounded())
    }
    release = Self.add(release, max(0, hold))
    if isEmpty, release <= now { return .forward }
    guard bytes.count <= maxHeldBytes - heldBytes else { return .dropped(.overLimit) }
    if let finish { busyUntil = finish }
    release = max(release, lastReleaseAt)
    held.append(bytes, releaseAt: release)
    lastReleaseAt = release
    return .held
  }

  /// The next step at `now`.
  mutating func next(now: Int64) -> Step {
    guard let releaseAt = held.firstReleaseAt else { return .idle }
    guard releaseAt <= now else { return .wait(until: releaseAt) }
    return .send(held.removeFirst())
  }

  /// Drops everything held and empties the bandwidth queue; returns how many were held.
  mutating func discard() -> Int {
    let count = heldCount
    held.removeAll()
    busyUntil = 0
    lastReleaseAt = 0
    return count
  }

  /// A uniform draw in `0..<1` with 53 random bits.
  private static func uniform(_ random: inout SimulationRandom) -> Double {
    Double(random.next() >> 11) * 0x1p-53
  }

  private static func add(_ a: Int64, _ b: Int64) -> Int64 {
    let (sum, overflow) = a.addingReportingOverflow(b)
    return overflow ? .max : sum
  }
}
