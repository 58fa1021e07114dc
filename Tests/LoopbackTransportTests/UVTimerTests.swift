import Synchronization
import Testing

@testable import LoopbackTransport

@Suite("UVTimer")
struct UVTimerTests {
  @Test func oneShotTimerFiresOnceOnTheLoopThread() throws {
    let loop = try EventLoop()
    let fired = Recorder<Bool>()
    try loop.sync {
      let timer = try UVTimer(loop: loop)
      timer.schedule(afterMilliseconds: 5) {
        fired.append(loop.inEventLoop)
        timer.close()
      }
    }
    #expect(fired.wait(forCount: 1))
    #expect(fired.values == [true])
    #expect(loop.shutdown().handlesClosed == 0)
  }

  @Test func repeatingTimerFiresUntilCancelled() throws {
    let loop = try EventLoop()
    let ticks = Recorder<Int>()
    let done = Latch()
    try loop.sync {
      let timer = try UVTimer(loop: loop)
      var count = 0
      timer.schedule(afterMilliseconds: 1, repeatingEvery: 1) {
        count += 1
        ticks.append(count)
        if count == 3 {
          timer.cancel()
          #expect(!timer.isScheduled)
          // A later timer proves no fourth tick came in between.
          let later = try? UVTimer(loop: loop)
          later?.schedule(afterMilliseconds: 20) {
            later?.close()
            timer.close()
            done.signal()
          }
        }
      }
    }
    #expect(done.wait())
    #expect(ticks.values == [1, 2, 3])
    #expect(loop.shutdown().isClean)
  }

  @Test func cancelledTimerNeverFires() throws {
    let loop = try EventLoop()
    let fired = Recorder<String>()
    try loop.sync {
      let early = try UVTimer(loop: loop)
      let late = try UVTimer(loop: loop)
      early.schedule(afterMilliseconds: 10) { fired.append("early") }
      late.schedule(afterMilliseconds: 30) {
        fired.append("late")
        early.close()
        late.close()
      }
      // Both were started in this turn, so `late` is due after `early` would have been.
      early.cancel()
    }
    #expect(fired.wait(forCount: 1))
    #expect(fired.values == ["late"])
    #expect(loop.shutdown().handlesClosed == 0)
  }

  @Test func scheduleFromAnyThreadRunsOnTheLoop() throws {
    let loop = try EventLoop()
    let ran = Recorder<Bool>()
    let task = loop.schedule(afterMilliseconds: 5) { ran.append(loop.inEventLoop) }
    #expect(ran.wait(forCount: 1))
    #expect(ran.values == [true])
    #expect(task.cancel() == false)  // already ran
    #expect(loop.shutdown().handlesClosed == 0)  // the one-shot timer closed itself
  }

  @Test func cancellingAScheduledTaskFromAnotherThreadClosesItsTimer() throws {
    let loop = try EventLoop()
    let task = loop.schedule(afterMilliseconds: 60_000) { Issue.record("cancelled task ran") }
    #expect(task.cancel())
    #expect(task.cancel() == false)
    let report = loop.shutdown()
    #expect(report.handlesClosed == 0)
    #expect(report.isClean)
  }

  @Test func scheduleAfterShutdownReturnsACancelledTask() throws {
    let loop = try EventLoop()
    loop.shutdown()
    let task = loop.schedule(afterMilliseconds: 1) { Issue.record("ran after shutdown") }
    #expect(task.cancel() == false)
  }
}
