import Dispatch
import Synchronization

extension EventLoop {
  /// Runs `body` on the loop thread and blocks the calling thread until it returned.
  ///
  /// For callers that must be synchronous: starting a server, a command-line tool driving
  /// peers on a loop, a test.
  ///
  /// - Parameter body: The work; runs on the loop thread.
  /// - Returns: What `body` returned.
  /// - Throws: What `body` threw, or ``EventLoopError/shutDown`` if the loop no longer runs work.
  /// > Important: Never call it on the loop thread (it would wait for itself); that traps.
  public func runBlocking<Result: Sendable>(
    _ body: @escaping @Sendable () throws -> Result
  ) throws -> Result {
    precondition(!inEventLoop, "runBlocking called on the thread of EventLoop \(name)")
    let outcome = Mutex<Swift.Result<Result, any Error>?>(nil)
    let done = DispatchSemaphore(value: 0)
    let accepted = execute {
      let result = Swift.Result { try body() }
      outcome.withLock { $0 = result }
      done.signal()
    }
    guard accepted else { throw EventLoopError.shutDown }
    done.wait()
    guard let result = outcome.withLock({ $0 }) else { throw EventLoopError.shutDown }
    return try result.get()
  }
}
