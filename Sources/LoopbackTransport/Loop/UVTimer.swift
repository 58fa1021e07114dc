import CLibUV

/// A libuv timer (`uv_timer_t`): runs a callback on the loop thread after a delay, once or
/// repeatedly.
///
/// ```swift
/// let heartbeat = try UVTimer(loop: loop)
/// heartbeat.schedule(afterMilliseconds: 1_000, repeatingEvery: 1_000) { sendPing() }
/// // …
/// heartbeat.close()
/// ```
///
/// A timer can be rescheduled and cancelled any number of times; it holds its libuv handle until
/// ``close()``, which frees it (the loop's shutdown closes timers left open). To run one piece of
/// work once from any thread, use ``EventLoop/schedule(afterMilliseconds:_:)`` instead.
///
/// > Important: Loop-confined: create and use it on its loop's thread only. Not `Sendable`; wrap
/// > it in a ``LoopBound`` to carry it through other threads.
public final class UVTimer {
  /// The loop the timer runs on.
  public let loop: EventLoop
  private let handle: UnsafeMutablePointer<uv_timer_t>
  private var callback: (() -> Void)?
  private var isClosed = false

  /// Creates a stopped timer.
  ///
  /// - Parameter loop: The loop; the caller must be on its thread.
  /// - Throws: `UVError` if libuv refuses, or if the loop is shutting down.
  public init(loop: EventLoop) throws(UVError) {
    try loop.checkAcceptsNewHandles("UVTimer")
    let handle = allocateZeroed(uv_timer_t.self)
    let status = uv_timer_init(loop.uvLoop, handle)
    guard status == 0 else {
      handle.deallocate()
      throw UVError(code: status, operation: "uv_timer_init")
    }
    self.loop = loop
    self.handle = handle
    retainOwner(self, in: uvHandle(handle))
  }

  deinit {
    // The handle's `data` retains the timer until its close callback ran.
    assert(isClosed, "UVTimer deinitialized while its handle is open")
  }

  /// Starts (or restarts) the timer; replaces any callback scheduled before.
  ///
  /// Does nothing once the timer is closed.
  ///
  /// - Parameters:
  ///   - timeout: Milliseconds from the loop's current time (``EventLoop/now``) to the first run.
  ///   - interval: Milliseconds between later runs; 0 runs the callback once.
  ///   - callback: Runs on the loop thread. It may reschedule, cancel or close the timer.
  public func schedule(
    afterMilliseconds timeout: UInt64,
    repeatingEvery interval: UInt64 = 0,
    _ callback: @escaping () -> Void
  ) {
    loop.assertInEventLoop()
    guard !isClosed else { return }
    self.callback = callback
    // Fails only for a closing handle, which `isClosed` rules out.
    let status = uv_timer_start(handle, uvTimerCallback, timeout, interval)
    assert(status == 0, "uv_timer_start: \(status)")
  }

  /// Stops the timer without closing it; the callback won't run until scheduled again.
  public func cancel() {
    loop.assertInEventLoop()
    guard !isClosed else { return }
    uv_timer_stop(handle)
    callback = nil
  }

  /// Whether the timer is scheduled to run.
  public var isScheduled: Bool {
    loop.assertInEventLoop()
    return !isClosed && uv_is_active(uvHandle(handle)) != 0
  }

  /// Stops the timer and releases its libuv handle. Calling it again is harmless.
  public func close() {
    loop.assertInEventLoop()
    guard !isClosed else { return }
    isClosed = true
    callback = nil
    uv_close(uvHandle(handle)) { handle in
      guard let handle else { return }
      freeClosedHandle(handle)
    }
  }

  /// Called by libuv when the timer is due.
  fileprivate func fire() {
    let callback = self.callback
    // A one-shot timer is inactive once it fired: drop the callback so captures are released
    // even if the timer stays open (the callback may schedule a new one).
    if uv_is_active(uvHandle(handle)) == 0 { self.callback = nil }
    callback?()
  }
}

/// Loop-confined: use ``LoopBound`` to pass a timer between threads.
@available(*, unavailable)
extension UVTimer: Sendable {}

extension UVTimer: LoopHandleOwner {
  func closeForShutdown(_ handle: UnsafeMutablePointer<uv_handle_t>) {
    close()
  }
}

private func uvTimerCallback(_ handle: UnsafeMutablePointer<uv_timer_t>?) {
  guard let timer = handleOwner(handle.map { uvHandle($0) }, as: UVTimer.self) else { return }
  timer.fire()
}
