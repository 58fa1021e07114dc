import Dispatch
import LoopbackTransport
import SessionCore
import SessionSDK

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// One steady fan-out run.
struct FanOutResult {
  /// Callbacks delivered at the instances.
  var deliveries: Int
  var seconds: Double
  /// Frames per `uv_write` the server achieved.
  var framesPerWrite: Double
  /// The mean payload bytes of the frames sent (a one-event `videoStatusChanged` batch).
  var payloadSize: Double
  /// CPU nanoseconds per delivery on the client loop thread (user + system).
  var clientNanosecondsPerDelivery: Double = .nan
  /// CPU nanoseconds per delivery on the server loop thread (user + system).
  var serverNanosecondsPerDelivery: Double = .nan

  /// Frames sent to all receivers together.
  var frames: Int = 0

  var deliveriesPerSecond: Double { Double(deliveries) / seconds }
  /// Events per frame: 1 unless the server coalesces batches.
  var eventsPerFrame: Double { Double(deliveries) / Double(max(1, frames)) }
}

extension TransportWorld {
  /// One instance pipelines `commands` video toggles, `burst` per loop turn with at most
  /// `window` in flight; returns deliveries per second counted at every instance's
  /// `onUserVideoStatusChanged`.
  func fanOut(commands: Int, burst: Int = 64, window: Int = 256) throws -> FanOutResult {
    let before = try server.statistics()
    let cpuBefore = try (threadCPUNanoseconds(of: client), threadCPUNanoseconds(of: server.loop))
    let done = DispatchSemaphore(value: 0)
    let peers = self.peers
    try client.runBlocking {
      let world = peers.value
      let driver = FanOutDriver(
        sdk: world.sdks[0], receivers: world.sdks.count, commands: commands, burst: burst,
        window: window, done: done)
      world.fanOut = driver
      driver.begin()
    }
    guard done.wait(timeout: .now() + .seconds(300 * patience)) == .success else {
      throw BenchmarkError("the fan-out did not complete in \(300 * patience) s")
    }
    let (start, end) = try client.runBlocking {
      let driver = peers.value.fanOut
      peers.value.fanOut = nil
      return (driver?.start ?? 0, driver?.end ?? 0)
    }
    let after = try server.statistics()
    let cpuAfter = try (threadCPUNanoseconds(of: client), threadCPUNanoseconds(of: server.loop))
    let frames = after.framesSent - before.framesSent
    let writes = max(1, after.writes - before.writes)
    let deliveries = Double(commands * count)
    return FanOutResult(
      deliveries: commands * count, seconds: Double(end - start) / 1e9,
      framesPerWrite: Double(frames) / Double(writes),
      payloadSize: Double(after.payloadBytesSent - before.payloadBytesSent)
        / Double(max(1, frames)),
      clientNanosecondsPerDelivery: Double(cpuAfter.0 - cpuBefore.0) / deliveries,
      serverNanosecondsPerDelivery: Double(cpuAfter.1 - cpuBefore.1) / deliveries,
      frames: frames)
  }

  /// `samples` times: the first instance toggles its video; the microseconds from the call to
  /// the last instance's `onUserVideoStatusChanged` (``sampleLatencies(of:on:samples:)``).
  func latencies(samples: Int) throws -> [Double] {
    try sampleLatencies(of: peers, on: client, samples: samples)
  }
}

/// The CPU time (user + system) the loop's thread has used so far, in nanoseconds.
func threadCPUNanoseconds(of loop: EventLoop) throws -> UInt64 {
  try loop.runBlocking {
    var time = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
    return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
  }
}

/// Monotonic nanoseconds (`CLOCK_MONOTONIC`), comparable across threads.
func monotonicNanoseconds() -> UInt64 {
  var time = timespec()
  clock_gettime(CLOCK_MONOTONIC, &time)
  return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
}

/// Raises the soft limit of open files to `needed` (at most the hard limit).
func raiseFileLimit(to needed: Int) {
  OpenFileLimit.raise(to: needed)
}

/// The `q`-quantile (0...1) of `values`, by the nearest-rank method.
func quantile(_ values: [Double], _ q: Double) -> Double {
  guard !values.isEmpty else { return .nan }
  let sorted = values.sorted()
  let rank = Int((q * Double(sorted.count)).rounded(.up)) - 1
  return sorted[min(max(rank, 0), sorted.count - 1)]
}
