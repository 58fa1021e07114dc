import Dispatch
import Synchronization

/// Collects values from loop callbacks; the test thread waits for a count with an upper bound.
///
/// `Sendable`: the values are behind a `Mutex`; the semaphore is thread-safe.
final class Recorder<Element: Sendable>: Sendable {
  private let items = Mutex<[Element]>([])
  private let arrived = DispatchSemaphore(value: 0)

  func append(_ element: Element) {
    items.withLock { $0.append(element) }
    arrived.signal()
  }

  var values: [Element] { items.withLock { $0 } }
  var count: Int { items.withLock { $0.count } }

  /// Waits until at least `count` values arrived. The timeout is only an upper bound for a
  /// broken build; passing tests never wait for it.
  @discardableResult
  func wait(forCount count: Int, timeoutSeconds: Int = 20) -> Bool {
    let deadline = DispatchTime.now() + .seconds(timeoutSeconds)
    while self.count < count {
      if arrived.wait(timeout: deadline) == .timedOut { return self.count >= count }
    }
    return true
  }
}

/// A one-shot signal for the test thread.
typealias Latch = Recorder<Void>

extension Recorder where Element == Void {
  func signal() { append(()) }
  @discardableResult
  func wait(timeoutSeconds: Int = 20) -> Bool { wait(forCount: 1, timeoutSeconds: timeoutSeconds) }
}
