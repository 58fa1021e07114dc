import Foundation
import Synchronization
import Testing

/// ThreadSanitizer cannot see a contended `Synchronization.Mutex` hand its value over
/// (Docs/Reliability.md, "Sanitizers").
///
/// `Mutex.withLock` inlines only the lock's fast path, one compare-and-swap, into the caller,
/// where ThreadSanitizer instruments it. A thread that finds the lock taken calls `_lockSlow`
/// in the toolchain's `libswiftSynchronization.so`, which is built without ThreadSanitizer: it
/// spins, then sleeps in the kernel (`FUTEX_LOCK_PI`), which gives it the lock. Its acquire is
/// made there, and the holder's release too when a waiter is queued (`_unlockSlow`,
/// `FUTEX_UNLOCK_PI`), so ThreadSanitizer records no edge from the holder's writes to the
/// waiter's reads and calls them a race, though the lock orders them.
///
/// This test makes that hand-over happen every time: it passes (the lock works) and, under
/// `scripts/sanitize thread --no-suppressions --filter MutexHandOverTests`, ThreadSanitizer
/// reports the append in `Holder.write` against the read in `Holder.read` as a "Swift access
/// race" (the same report as the test suite's `Recorder` gave: an append against a count).
/// The entry for it in scripts/tsan-suppressions.txt names these two closures alone.
/// scripts/tsan-mutex-handover.swift is the same as a standalone program. (In a debug build a
/// plain copy of the guarded value out of the lock is not reported; an optimised build
/// reports it too.)
@Suite("Mutex: a contended hand-over, the one ThreadSanitizer misses")
struct MutexHandOverTests {
  final class Holder: Sendable {
    let values = Mutex<[Int]>([])

    /// Takes the lock, says so, waits for the reader to queue behind it, then appends.
    func write(_ number: Int, locked: DispatchSemaphore) {
      values.withLock { values in
        locked.signal()
        // Long enough for the reader to be in the slow path, asleep in the kernel.
        usleep(200_000)
        values.append(number)
      }
    }

    /// Counts once the writer has let go.
    func read() -> Int {
      values.withLock { $0.count }
    }
  }

  @Test func theWaiterReadsWhatTheHolderWrote() {
    let holder = Holder()
    let locked = DispatchSemaphore(value: 0)
    let finished = DispatchSemaphore(value: 0)
    Thread.detachNewThread {
      holder.write(42, locked: locked)
      finished.signal()
    }
    // The writer holds the lock from here until it has written; the semaphore orders nothing
    // after the signal, so nothing but the lock orders the write before the read.
    locked.wait()
    let read = holder.read()
    finished.wait()
    #expect(read == 1)
  }
}
