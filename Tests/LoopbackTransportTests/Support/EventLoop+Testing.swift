import Dispatch
import Synchronization

@testable import LoopbackTransport

struct LoopTimedOut: Error {}

extension EventLoop {
  /// Runs `body` on the loop and blocks the test thread until it returned (at most 20 s).
  func sync<Result: Sendable>(_ body: @escaping @Sendable () throws -> Result) throws -> Result {
    let outcome = Mutex<Swift.Result<Result, any Error>?>(nil)
    let done = DispatchSemaphore(value: 0)
    let accepted = execute {
      let result = Swift.Result { try body() }
      outcome.withLock { $0 = result }
      done.signal()
    }
    guard accepted else { throw EventLoopError.shutDown }
    guard done.wait(timeout: .now() + .seconds(20)) == .success,
      let result = outcome.withLock({ $0 })
    else { throw LoopTimedOut() }
    return try result.get()
  }

  /// Handles registered with the loop, its three internal ones included (loop thread).
  func handleCount() throws -> Int {
    try sync { [self] in countHandles(uvLoop) }
  }
}

/// Holds a weak reference the test thread checks after the loop thread exited.
///
/// `@unchecked Sendable`: the test reads `object` only after `shutdown()` joined the loop thread,
/// which orders every loop-side write before the read.
final class WeakBox: @unchecked Sendable {
  weak var object: AnyObject?
  init(_ object: AnyObject?) { self.object = object }
}
