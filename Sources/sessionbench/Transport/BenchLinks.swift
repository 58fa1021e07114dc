import Dispatch
import LoopbackTransport
import SessionCore
import SessionService
import SessionTestSupport
import SessionTransport

/// The fan-out without SDK instances: bare loopback links whose handlers only count the
/// events they receive. Separates the transport's cost (links, framing, codec, server) from
/// the SDK's apply path in the benchmark's diagnostics.
///
/// > Important: Loop-confined: created and used on the client loop.
final class BenchLinks {
  let links: [LoopbackClientLink]
  private(set) var joined = 0
  private var delivered = 0
  private var sent = 0
  private var commands = 0
  private var burst = 64
  private var window = 256
  private var nextIsStart = true
  private var nextID: CommandID = 0
  private(set) var start: UInt64 = 0
  private(set) var end: UInt64 = 0
  private let joinedAll: DispatchSemaphore
  private var done: DispatchSemaphore?

  init(factory: LoopbackLinkFactory, count: Int, joinedAll: DispatchSemaphore) {
    self.joinedAll = joinedAll
    links = (0..<count).map { _ in factory.makeLoopbackLink() }
    for link in links {
      link.start { [unowned(unsafe) self] event in receive(event) }
    }
  }

  private func receive(_ event: LinkEvent) {
    guard case .message(let message) = event else { return }
    switch message {
    case .joined:
      joined += 1
      if joined == links.count { joinedAll.signal() }
    case .events(let batch):
      guard let done else { return }
      for event in batch.events {
        if case .videoStatusChanged = event { delivered += 1 }
      }
      if delivered == commands * links.count, end == 0 {
        end = monotonicNanoseconds()
        done.signal()
      } else {
        pump()
      }
    default:
      break
    }
  }

  /// Every link joins `session`, the first as host.
  func joinAll(_ fixture: SessionFixture, now: Int64) {
    for (index, link) in links.enumerated() {
      link.send(.join(fixture.joinRequest(forMember: index, now: now)))
    }
  }

  /// The first link pipelines `commands` video toggles as the SDK driver does.
  func fanOut(commands: Int, burst: Int, window: Int, done: DispatchSemaphore) {
    self.commands = commands
    self.burst = burst
    self.window = window
    self.done = done
    delivered = 0
    sent = 0
    start = monotonicNanoseconds()
    pump()
  }

  private func pump() {
    let receivers = links.count
    while sent < commands, sent * receivers - delivered <= (window - burst) * receivers {
      for _ in 0..<min(burst, commands - sent) {
        nextID &+= 1
        links[0].send(.command(nextID, nextIsStart ? .startVideo : .stopVideo))
        nextIsStart.toggle()
        sent += 1
      }
    }
  }
}

/// Loop-confined.
@available(*, unavailable)
extension BenchLinks: Sendable {}

extension TransportWorld {
  /// The fan-out with bare links instead of SDK instances, on a fresh session of `count`
  /// links; deliveries are events counted in the links' handlers.
  static func linkFanOut(peers count: Int, commands: Int, burst: Int, window: Int) throws
    -> FanOutResult
  {
    let fixture = SessionFixture(sessionName: "Links")
    let configuration = fixture.serviceConfiguration()
    let server = try LoopbackServer { SessionService(configuration: configuration) }
    let client = try EventLoop(name: "bench-links")
    // The links' handlers reach `BenchLinks` unowned: keep it until the loop has stopped.
    let keeper = LoopBoundKeeper()
    defer {
      _ = client.shutdown()
      _ = server.shutdown()
      keeper.release()
    }
    let port = server.port
    let joined = DispatchSemaphore(value: 0)
    let links = try client.runBlocking {
      let factory = LoopbackLinkFactory(loop: client, port: port)
      let links = BenchLinks(factory: factory, count: count, joinedAll: joined)
      links.joinAll(fixture, now: factory.clock.now())
      return LoopBound(links, loop: client)
    }
    keeper.keep(links)
    guard joined.wait(timeout: .now() + .seconds(120 * patience)) == .success else {
      throw BenchmarkError("the links did not all join in \(120 * patience) s")
    }
    // Joins finish with events still in flight to the earliest links; let them land.
    let before = try server.statistics()
    let cpuBefore = try (threadCPUNanoseconds(of: client), threadCPUNanoseconds(of: server.loop))
    let done = DispatchSemaphore(value: 0)
    try client.runBlocking {
      links.value.fanOut(commands: commands, burst: burst, window: window, done: done)
    }
    guard done.wait(timeout: .now() + .seconds(300 * patience)) == .success else {
      throw BenchmarkError("the link fan-out did not complete in \(300 * patience) s")
    }
    let (start, end) = try client.runBlocking { (links.value.start, links.value.end) }
    let after = try server.statistics()
    let cpuAfter = try (threadCPUNanoseconds(of: client), threadCPUNanoseconds(of: server.loop))
    let frames = after.framesSent - before.framesSent
    let deliveries = Double(commands * count)
    return FanOutResult(
      deliveries: commands * count, seconds: Double(end - start) / 1e9,
      framesPerWrite: Double(frames) / Double(max(1, after.writes - before.writes)),
      payloadSize: Double(after.payloadBytesSent - before.payloadBytesSent)
        / Double(max(1, frames)),
      clientNanosecondsPerDelivery: Double(cpuAfter.0 - cpuBefore.0) / deliveries,
      serverNanosecondsPerDelivery: Double(cpuAfter.1 - cpuBefore.1) / deliveries)
  }
}

/// Keeps a loop-bound object alive until told otherwise (after its loop stopped).
///
/// `@unchecked Sendable`: the slot is only written by the thread that owns the keeper.
final class LoopBoundKeeper: @unchecked Sendable {
  private var kept: Any?

  func keep(_ value: Any) { kept = value }

  func release() { kept = nil }
}
