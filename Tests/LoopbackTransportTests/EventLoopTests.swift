import Dispatch
import Synchronization
import Testing

@testable import LoopbackTransport

@Suite("EventLoop")
struct EventLoopTests {
  @Test func startsAndShutsDownWithLoopCloseZeroAndNoHandlesLeft() throws {
    let loop = try EventLoop(name: "start-stop")
    #expect(try loop.handleCount() == 3)  // the loop's own async, prepare and check handles
    let report = loop.shutdown()
    #expect(report.isClean)
    #expect(report.handlesClosed == 0)
    #expect(report.handlesRemaining == 0)
    #expect(report.loopCloseError == nil)
    #expect(loop.isShutDown)
  }

  @Test func shutdownTwiceReturnsTheSameReportAndLaterWorkIsRefused() throws {
    let loop = try EventLoop()
    let first = loop.shutdown()
    let second = loop.shutdown()
    #expect(first == second)
    #expect(loop.execute {} == false)
  }

  @Test func concurrentShutdownCallsAllWaitForTheLoopThread() throws {
    let loop = try EventLoop()
    let reports = Recorder<EventLoopShutdownReport>()
    DispatchQueue.concurrentPerform(iterations: 4) { _ in
      reports.append(loop.shutdown())
    }
    #expect(reports.values.count == 4)
    #expect(reports.values.allSatisfy { $0.isClean })
    #expect(Set(reports.values).count == 1)
  }

  @Test func executeFromManyThreadsRunsEveryItemInPerThreadOrder() throws {
    let loop = try EventLoop()
    let threads = 8
    let itemsPerThread = 2_000
    // Written only on the loop thread, read by the test after the latch.
    let lastSeen = Mutex([Int](repeating: -1, count: threads))
    let outOfOrder = Atomic<Int>(0)
    let ran = Atomic<Int>(0)
    let allRan = Latch()
    DispatchQueue.concurrentPerform(iterations: threads) { thread in
      for item in 0..<itemsPerThread {
        let accepted = loop.execute {
          #expect(loop.inEventLoop)
          lastSeen.withLock { seen in
            if seen[thread] != item - 1 { outOfOrder.add(1, ordering: .relaxed) }
            seen[thread] = item
          }
          if ran.add(1, ordering: .relaxed).newValue == threads * itemsPerThread {
            allRan.signal()
          }
        }
        #expect(accepted)
      }
    }
    #expect(allRan.wait())
    #expect(ran.load(ordering: .relaxed) == threads * itemsPerThread)
    #expect(outOfOrder.load(ordering: .relaxed) == 0)
    #expect(loop.shutdown().isClean)
  }

  @Test func workPostedBeforeShutdownRunsBeforeTheLoopStops() throws {
    let loop = try EventLoop()
    let ran = Atomic<Int>(0)
    for _ in 0..<500 {
      loop.execute { ran.add(1, ordering: .relaxed) }
    }
    let report = loop.shutdown()
    #expect(ran.load(ordering: .relaxed) == 500)
    #expect(report.isClean)
  }

  @Test func inEventLoopIsTrueOnlyOnTheLoopThread() throws {
    let loop = try EventLoop()
    let other = try EventLoop()
    #expect(!loop.inEventLoop)
    #expect(try loop.sync { loop.inEventLoop })
    #expect(try loop.sync { !other.inEventLoop })
    #expect(loop.shutdown().isClean)
    #expect(other.shutdown().isClean)
  }

  @Test func submitReturnsTheResultAndRethrows() async throws {
    let loop = try EventLoop()
    let value = try await loop.submit { loop.inEventLoop ? 42 : 0 }
    #expect(value == 42)
    struct Boom: Error {}
    await #expect(throws: Boom.self) { try await loop.submit { throw Boom() } }
    loop.shutdown()
    await #expect(throws: EventLoopError.shutDown) { try await loop.submit { 1 } }
  }

  @Test func shutdownClosesEveryOpenHandleAndReleasesItsOwner() throws {
    let loop = try EventLoop()
    let closes = Recorder<CloseReason>()
    let accepted = Latch()
    let boxes = try loop.sync { () -> [WeakBox] in
      var server: TCPConnection?
      let listener = try TCPListener(loop: loop) { connection in
        connection.onClose = { closes.append($0) }
        server = connection
        accepted.signal()
      }
      let client = try TCPConnection.connect(loop: loop, port: listener.localPort)
      client.onClose = { closes.append($0) }
      let timer = try UVTimer(loop: loop)
      timer.schedule(afterMilliseconds: 60_000) { Issue.record("timer fired during shutdown") }
      let idle = try UVTimer(loop: loop)  // never scheduled
      _ = server
      return [WeakBox(listener), WeakBox(client), WeakBox(timer), WeakBox(idle)]
    }
    _ = loop.schedule(afterMilliseconds: 60_000) { Issue.record("task fired during shutdown") }
    #expect(accepted.wait())
    // Listener, client, accepted connection, two timers, the scheduled task's timer, and the
    // loop's own three handles.
    #expect(try loop.handleCount() == 9)

    let report = loop.shutdown()
    #expect(report.handlesClosed == 6)
    #expect(report.handlesRemaining == 0)
    #expect(report.isClean)
    #expect(closes.values == [.local, .local])
    #expect(boxes.allSatisfy { $0.object == nil })
  }

  @Test func constructorsRefuseNewHandlesWhileShuttingDown() throws {
    let loop = try EventLoop()
    let refused = Recorder<Bool>()
    let accepted = Latch()
    try loop.sync {
      let listener = try TCPListener(loop: loop) { _ in accepted.signal() }
      let client = try TCPConnection.connect(loop: loop, port: listener.localPort)
      // Runs during shutdown, and tries to create another handle.
      client.onClose = { _ in
        do {
          _ = try UVTimer(loop: loop)
          refused.append(false)
        } catch {
          refused.append((error as? UVError)?.code == .cancelled)
        }
      }
    }
    #expect(accepted.wait())
    let report = loop.shutdown()
    #expect(report.isClean)
    #expect(report.handlesClosed == 3)
    #expect(refused.values == [true])
  }
}
