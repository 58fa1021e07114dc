import Synchronization

extension EventLoop {
  /// Runs `work` once on the loop thread after a delay; callable from any thread.
  ///
  /// The delay is measured from the loop turn that picks the request up. The timer behind it is
  /// closed once it fired or was cancelled; shutting the loop down cancels it.
  ///
  /// - Parameters:
  ///   - timeout: Milliseconds to wait.
  ///   - work: The work; runs on the loop thread.
  /// - Returns: A handle to cancel the work. If the loop is shutting down, the work is dropped
  ///   and the returned task is already cancelled.
  @discardableResult
  public func schedule(
    afterMilliseconds timeout: UInt64, _ work: @escaping @Sendable () -> Void
  ) -> ScheduledTask {
    let task = ScheduledTask(loop: self)
    let accepted = execute { task.arm(timeout: timeout, work: work) }
    if !accepted { _ = task.cancel() }
    return task
  }
}

/// Work scheduled with ``EventLoop/schedule(afterMilliseconds:_:)``; lets any thread cancel it.
///
/// `Sendable`: its state is behind a `Mutex`, and its timer is reached only on the loop thread.
public final class ScheduledTask: Sendable {
  private enum State {
    case pending
    case fired
    case cancelled
  }

  /// The loop the work runs on.
  public let loop: EventLoop
  private let state = Mutex(State.pending)
  private let timer: LoopBoundSlot<UVTimer>

  init(loop: EventLoop) {
    self.loop = loop
    self.timer = LoopBoundSlot(loop: loop)
  }

  /// Cancels the work if it hasn't started; callable from any thread.
  ///
  /// - Returns: `true` if the work will never run; `false` if it ran, is running, or was
  ///   cancelled before.
  @discardableResult
  public func cancel() -> Bool {
    let cancelled = state.withLock { state in
      guard case .pending = state else { return false }
      state = .cancelled
      return true
    }
    if cancelled {
      loop.execute { [timer] in
        timer.value?.close()
        timer.value = nil
      }
    }
    return cancelled
  }

  /// Loop thread: starts the timer unless the task was cancelled meanwhile.
  fileprivate func arm(timeout: UInt64, work: @escaping @Sendable () -> Void) {
    guard state.withLock({ $0 == .pending }) else { return }
    guard let uvTimer = try? UVTimer(loop: loop) else {
      state.withLock { $0 = .cancelled }
      return
    }
    timer.value = uvTimer
    uvTimer.schedule(afterMilliseconds: timeout) { [self] in
      timer.value?.close()
      timer.value = nil
      let shouldRun = state.withLock { state in
        guard case .pending = state else { return false }
        state = .fired
        return true
      }
      if shouldRun { work() }
    }
  }
}
