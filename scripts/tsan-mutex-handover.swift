// ThreadSanitizer cannot see a contended `Synchronization.Mutex` hand its value over
// (Docs/Reliability.md, scripts/tsan-suppressions.txt). Run:
//
//   swiftc -sanitize=thread -g scripts/tsan-mutex-handover.swift -o /tmp/handover && /tmp/handover
//
// It prints 1, the lock having ordered the append before the read, and ThreadSanitizer
// reports the append in closure #1 of `write` against the count in closure #1 of `read`
// ("Swift access race"), both inside `withLock` of the same `Mutex`: the waiter took the lock
// in `_lockSlow` (libswiftSynchronization.so, not instrumented), so ThreadSanitizer saw no
// acquire. Tests/SessionCoreTests/MutexHandOverTests.swift is the same inside the suite.
import Foundation
import Synchronization

final class Holder: Sendable {
  let values = Mutex<[Int]>([])

  /// Takes the lock, says so, waits for the reader to queue behind it, then appends.
  func write(_ number: Int, locked: DispatchSemaphore) {
    values.withLock { values in
      locked.signal()
      usleep(200_000)  // the reader is in the slow path by now, asleep in the kernel
      values.append(number)
    }
  }

  func read() -> Int { values.withLock { $0.count } }
}

let holder = Holder()
let locked = DispatchSemaphore(value: 0)
let finished = DispatchSemaphore(value: 0)
Thread.detachNewThread {
  holder.write(42, locked: locked)
  finished.signal()
}
// The semaphore orders nothing after its signal: only the lock orders the append before this.
locked.wait()
let read = holder.read()
finished.wait()
print(read)
