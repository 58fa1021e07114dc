import CLibUV
import Dispatch
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A libuv event loop running on its own dedicated thread.
///
/// The loop owns a heap-allocated `uv_loop_t` and a thread that runs it. Everything attached to
/// the loop — `TCPListener`, `TCPConnection`, ``UVTimer`` — is loop-confined: create and use
/// it only on the loop thread, from work submitted with ``execute(_:)`` or from the callbacks
/// those objects fire. Hand a loop-confined object to other threads only inside a ``LoopBound``.
///
/// ```swift
/// let loop = try EventLoop(name: "signalling")
/// loop.execute {
///   let listener = try? TCPListener(loop: loop, port: 0) { connection in
///     connection.onFrame = { frame in connection.send(frame: frame) }  // echo
///   }
///   _ = listener
/// }
/// // …
/// let report = loop.shutdown()
/// ```
///
/// Writes are coalesced per loop turn: every frame a connection is asked to send during one turn
/// of the loop goes out in one `uv_write`, issued from the loop's prepare and check handles, just
/// before the loop would block for I/O and just after the I/O callbacks ran.
///
/// > Important: `EventLoop` itself is `Sendable`: ``execute(_:)``, ``submit(_:)``,
/// > ``schedule(afterMilliseconds:_:)``, ``inEventLoop`` and ``shutdown()`` may be called from
/// > any thread. The loop is alive until ``shutdown()`` is called; an `EventLoop` that is never
/// > shut down keeps its thread forever.
public final class EventLoop: @unchecked Sendable {
  // Why `@unchecked Sendable` is safe:
  // - `uvLoop`, `prepareHandle` and `checkHandle` are dereferenced only on the loop thread
  //   (loop-confined objects assert this); other threads only copy the pointer values.
  // - `wakeupHandle` is touched from other threads only through `uv_async_send`, which libuv
  //   documents as thread-safe, and only while holding `inbox`'s lock in the `.running` state,
  //   so it can't race with the handle being closed (that happens after the state left
  //   `.running`, see `shutdown()`).
  // - `local` is loop-thread-only state; only loop-confined code reaches it.
  // - `threadID`, `name` and `thread` are immutable; `inbox` is a `Mutex`.

  /// The libuv loop. Loop thread only.
  let uvLoop: UnsafeMutablePointer<uv_loop_t>
  /// State only the loop thread reads or writes.
  let local: LoopLocalState
  /// Work posted from any thread, and the loop's lifecycle.
  let inbox: Mutex<Inbox>
  /// The name given at creation, for diagnostics.
  public let name: String

  private let wakeupHandle: UnsafeMutablePointer<uv_async_t>
  private let prepareHandle: UnsafeMutablePointer<uv_prepare_t>
  private let checkHandle: UnsafeMutablePointer<uv_check_t>
  private let threadID: uv_thread_t
  private let thread: LoopThread
  /// Left once the loop thread has been joined; every `shutdown()` caller waits on it.
  private let stopped = DispatchGroup()

  /// Starts a loop on a new thread.
  ///
  /// - Parameters:
  ///   - name: A name for diagnostics.
  ///   - readBufferSize: The size of the loop's read buffer, which every connection on the loop
  ///     reads into (connections copy what they received out of it before the next read).
  /// - Throws: `UVError` if libuv can't create the loop, its handles or its thread.
  ///
  /// > Note: The first loop created sets `SIGPIPE` to ignored for the whole process: libuv writes
  /// > with `write(2)`, and a peer that reset its connection would otherwise kill the process
  /// > instead of failing the write with `EPIPE`.
  public init(name: String = "uv-loop", readBufferSize: Int = 64 * 1024) throws(UVError) {
    precondition(
      readBufferSize > 0 && UInt64(readBufferSize) <= UInt64(UInt32.max),
      "readBufferSize must be in 1...UInt32.max")
    _ = ignoreBrokenPipeSignal

    let loop = allocateZeroed(uv_loop_t.self)
    let status = uv_loop_init(loop)
    guard status == 0 else {
      loop.deallocate()
      throw UVError(code: status, operation: "uv_loop_init")
    }
    var handles: [UnsafeMutablePointer<uv_handle_t>] = []
    do throws(UVError) {
      let wakeup = allocateZeroed(uv_async_t.self)
      try Self.initHandle(wakeup, into: &handles, "uv_async_init") {
        uv_async_init(loop, wakeup, eventLoopWakeupCallback)
      }
      let prepare = allocateZeroed(uv_prepare_t.self)
      try Self.initHandle(prepare, into: &handles, "uv_prepare_init") {
        uv_prepare_init(loop, prepare)
      }
      let check = allocateZeroed(uv_check_t.self)
      try Self.initHandle(check, into: &handles, "uv_check_init") { uv_check_init(loop, check) }
      try UVError.check(uv_prepare_start(prepare, eventLoopPrepareCallback), "uv_prepare_start")
      try UVError.check(uv_check_start(check, eventLoopCheckCallback), "uv_check_start")

      let thread = LoopThread(loop: loop)
      var threadID = uv_thread_t()
      let context = Unmanaged.passRetained(thread)
      let created = uv_thread_create(&threadID, runLoopThread, context.toOpaque())
      guard created == 0 else {
        context.release()
        throw UVError(code: created, operation: "uv_thread_create")
      }

      self.uvLoop = loop
      self.local = LoopLocalState(readBufferSize: readBufferSize)
      self.inbox = Mutex(Inbox())
      self.name = name
      self.wakeupHandle = wakeup
      self.prepareHandle = prepare
      self.checkHandle = check
      self.threadID = threadID
      self.thread = thread
    } catch {
      Self.destroyUnstartedLoop(loop, handles: handles)
      throw error
    }
    stopped.enter()
    for handle in handles { retainOwner(self, in: handle) }
    // The loop thread waits for this signal before touching the loop, so everything above
    // happens-before the first callback.
    thread.start.signal()
  }

  deinit {
    // The loop's own handles retain it until their close callbacks ran, which happens only in
    // `shutdown()`; so a loop being deinitialized has been shut down.
    assert(isShutDown, "EventLoop \(name) deinitialized without shutdown()")
  }

  /// Whether the caller is running on this loop's thread.
  ///
  /// Thread-safe; cheap (compares thread identities).
  public var inEventLoop: Bool {
    var current = uv_thread_self()
    var loopThread = threadID
    return uv_thread_equal(&current, &loopThread) != 0
  }

  /// Traps in debug builds unless the caller is on the loop thread.
  ///
  /// Loop-confined types call this at their entry points.
  ///
  /// - Parameters:
  ///   - file: The file the trap reports; the caller's by default.
  ///   - line: The line the trap reports; the caller's by default.
  @inline(__always)
  public func assertInEventLoop(file: StaticString = #fileID, line: UInt = #line) {
    assert(inEventLoop, "not on the thread of EventLoop \(name)", file: file, line: line)
  }

  /// Traps unless the caller is on the loop thread, in every build configuration.
  ///
  /// - Parameters:
  ///   - file: The file the trap reports; the caller's by default.
  ///   - line: The line the trap reports; the caller's by default.
  public func preconditionInEventLoop(file: StaticString = #fileID, line: UInt = #line) {
    precondition(inEventLoop, "not on the thread of EventLoop \(name)", file: file, line: line)
  }

  /// The loop's cached time in milliseconds (`uv_now`), updated at the start of every loop turn.
  ///
  /// The epoch is arbitrary; use it for differences, such as comparing
  /// `TCPConnection/lastReadTime` with a heartbeat timeout (that time is read fresh, so it
  /// can be a millisecond or so ahead of a later turn's `now`: subtract without wrapping).
  ///
  /// > Important: Loop thread only.
  public var now: UInt64 {
    assertInEventLoop()
    return uv_now(uvLoop)
  }

  /// The loop time (``now``) at which the loop last polled for I/O: what its sockets had to say
  /// was seen then. Inside a long turn this stays at the turn's start; a timeout counted to it
  /// rather than to ``now`` never blames a peer for frames the loop hasn't had the chance to
  /// read.
  ///
  /// > Important: Loop thread only.
  var lastPollTime: UInt64 {
    assertInEventLoop()
    return local.lastPollTime
  }

  /// The time on the clock ``now`` follows, read at this moment rather than cached for the
  /// turn (one `clock_gettime`): for code that must notice that a turn has run long. Never
  /// behind ``now``.
  ///
  /// > Important: Loop thread only.
  package var currentTime: UInt64 {
    assertInEventLoop()
    return max(uv_now(uvLoop), uv_hrtime() / 1_000_000)
  }

  /// The handles registered with the loop now (timers, sockets, the loop's own wake-up and
  /// turn hooks; libuv's internal handles excluded), counted with `uv_walk`: what a soak
  /// watches for a leak.
  ///
  /// > Important: Loop thread only.
  package var handleCount: Int {
    assertInEventLoop()
    return countHandles(uvLoop)
  }

  /// Runs `work` on the loop thread during a coming loop turn.
  ///
  /// Thread-safe. Work items run in the order they were posted (per posting thread, and in the
  /// order the inbox lock was taken across threads). Posting wakes the loop through
  /// `uv_async_send`; libuv coalesces wake-ups, and each wake-up runs the whole inbox.
  /// Work posted from the loop thread itself runs in a later turn, never re-entrantly. Work that
  /// was accepted always runs, even if ``shutdown()`` is called right after.
  ///
  /// - Parameter work: The work. It runs on the loop thread, so it may create and use
  ///   loop-confined objects.
  /// - Returns: `false` if the loop is shutting down or shut down; `work` was dropped unrun.
  @discardableResult
  public func execute(_ work: @escaping @Sendable () -> Void) -> Bool {
    withInbox { inbox in
      guard case .running = inbox.lifecycle else { return false }
      let wasEmpty = inbox.work.isEmpty
      inbox.work.append(work)
      // A non-empty inbox means a wake-up is already pending: the loop swaps the inbox out under
      // this lock before running it. Sending under the lock keeps the handle alive (see above).
      if wasEmpty { uv_async_send(wakeupHandle) }
      return true
    }
  }

  /// Runs `work` on the loop thread and returns its result.
  ///
  /// - Parameter work: The work; it runs on the loop thread.
  /// - Returns: What `work` returned.
  /// - Throws: What `work` threw, or ``EventLoopError/shutDown`` if the loop no longer runs work.
  public func submit<Result: Sendable>(
    _ work: @escaping @Sendable () throws -> Result
  ) async throws -> Result {
    try await withCheckedThrowingContinuation { continuation in
      let accepted = execute {
        do {
          continuation.resume(returning: try work())
        } catch {
          continuation.resume(throwing: error)
        }
      }
      if !accepted { continuation.resume(throwing: EventLoopError.shutDown) }
    }
  }

  /// Runs `body` with the inbox under its lock, telling ThreadSanitizer of the lock too (a
  /// no-op without it): `Mutex` hands a contended lock over in uninstrumented code, so TSan
  /// saw neither the inbox's own accesses nor what a thread wrote before posting work as
  /// ordered with the loop thread's (Docs/Reliability.md, "Sanitizers").
  ///
  /// - Parameter body: Reads or changes the inbox.
  /// - Returns: What `body` returned.
  @inline(__always)
  private func withInbox<Result>(_ body: (inout Inbox) -> Result) -> Result {
    inbox.withLock { inbox in
      let address = Unmanaged.passUnretained(self).toOpaque()
      se_tsan_acquire(address)
      defer { se_tsan_release(address) }
      return body(&inbox)
    }
  }

  /// Runs the inbox: everything posted before the swap. Called by the async handle.
  fileprivate func drainInbox() {
    var batch = local.spareBatch
    local.spareBatch = []
    let shuttingDown = withInbox { inbox in
      swap(&inbox.work, &batch)
      if case .shuttingDown = inbox.lifecycle { return true }
      return false
    }
    for work in batch { work() }
    batch.removeAll(keepingCapacity: true)
    local.spareBatch = batch
    if shuttingDown { stopForShutdown() }
  }

  /// Allocated `handle` was initialized by `initialize`; records it, or frees it on failure.
  private static func initHandle<Handle>(
    _ handle: UnsafeMutablePointer<Handle>,
    into handles: inout [UnsafeMutablePointer<uv_handle_t>],
    _ operation: String,
    _ initialize: () -> Int32
  ) throws(UVError) {
    let status = initialize()
    guard status == 0 else {
      handle.deallocate()
      throw UVError(code: status, operation: operation)
    }
    handles.append(uvHandle(handle))
  }

  /// Undoes a partly constructed loop on the calling thread (the loop thread never started).
  private static func destroyUnstartedLoop(
    _ loop: UnsafeMutablePointer<uv_loop_t>, handles: [UnsafeMutablePointer<uv_handle_t>]
  ) {
    for handle in handles { closeOrphanHandle(handle) }
    uv_run(loop, UV_RUN_DEFAULT)
    let status = uv_loop_close(loop)
    assert(status == 0, "uv_loop_close of an unstarted loop failed: \(status)")
    if status == 0 { loop.deallocate() }
  }
}

// MARK: - Shutdown

extension EventLoop {
  /// Stops the loop, closes every handle still open on it, and waits for the loop thread to exit.
  ///
  /// Work already posted runs first. Then every handle is closed through `uv_close` (found with
  /// `uv_walk`): open connections see `onClose(.local)`, timers stop without firing, listeners
  /// stop accepting. The loop runs until every close callback fired, and finally
  /// `uv_loop_close` must return 0; debug builds assert that it does, the report says so in
  /// every build. While shutting down, ``execute(_:)`` drops new work and constructors of
  /// loop-confined objects throw.
  ///
  /// Calling `shutdown()` again, from any thread, waits for the first call and returns the same
  /// report.
  ///
  /// - Returns: What shutdown closed and whether the loop closed cleanly.
  /// > Important: Don't call it on the loop thread (it would wait for itself); that traps.
  @discardableResult
  public func shutdown() -> EventLoopShutdownReport {
    precondition(!inEventLoop, "EventLoop.shutdown() called on its own thread \(name)")
    let isFirst = withInbox { inbox in
      guard case .running = inbox.lifecycle else { return false }
      inbox.lifecycle = .shuttingDown
      uv_async_send(wakeupHandle)
      return true
    }
    guard isFirst else {
      stopped.wait()
      return withInbox { inbox in
        guard case .shutDown(let report) = inbox.lifecycle else {
          preconditionFailure("EventLoop stopped but not shut down")
        }
        return report
      }
    }
    var loopThread = threadID
    uv_thread_join(&loopThread)
    let report =
      thread.report.withLock { $0 }
      ?? EventLoopShutdownReport(handlesClosed: 0, handlesRemaining: -1, loopCloseError: nil)
    withInbox { $0.lifecycle = .shutDown(report) }
    stopped.leave()
    return report
  }

  /// Whether ``shutdown()`` has completed.
  public var isShutDown: Bool {
    withInbox { inbox in
      if case .shutDown = inbox.lifecycle { return true }
      return false
    }
  }

  /// Loop thread: the inbox saw `.shuttingDown`. Make `uv_run` return so that the thread closes
  /// every handle (see `runLoopThread`).
  fileprivate func stopForShutdown() {
    local.isShuttingDown = true
    local.pendingFlush.removeAll()
    // A media link still open closes now, as its socket would next: a link and its ticker hold
    // each other until it closes, the link holds its handler and the loop, and the loop holds
    // its tickers, so a loop shut down with links open leaked them all (LeakSanitizer).
    for ticker in local.mediaTickers.values { ticker.closeLinks() }
    local.mediaTickers.removeAll()
    uv_stop(uvLoop)
  }
}

extension EventLoop: LoopHandleOwner {
  /// Closes one of the loop's own handles (async, prepare, check) during shutdown.
  func closeForShutdown(_ handle: UnsafeMutablePointer<uv_handle_t>) {
    guard uv_is_closing(handle) == 0 else { return }
    uv_close(handle) { handle in
      guard let handle else { return }
      freeClosedHandle(handle)
    }
  }
}

// MARK: - Inbox and thread plumbing

extension EventLoop {
  /// The state behind the inbox lock.
  struct Inbox: Sendable {
    /// Posted work, in posting order.
    var work: [@Sendable () -> Void] = []
    /// Where the loop is in its life.
    var lifecycle: Lifecycle = .running
  }

  /// The loop's life: it runs, is asked to shut down, and is shut down with a report.
  enum Lifecycle: Sendable {
    case running
    case shuttingDown
    case shutDown(EventLoopShutdownReport)
  }
}

/// What the loop thread needs before an `EventLoop` exists, and what it hands back at the end.
///
/// `@unchecked Sendable`: `loop` is dereferenced only by the loop thread, after `start` was
/// signalled (the semaphore orders the creating thread's writes before it); `report` is a `Mutex`;
/// the other properties are immutable and `Sendable`.
private final class LoopThread: @unchecked Sendable {
  let loop: UnsafeMutablePointer<uv_loop_t>
  let start = DispatchSemaphore(value: 0)
  let report = Mutex<EventLoopShutdownReport?>(nil)

  init(loop: UnsafeMutablePointer<uv_loop_t>) {
    self.loop = loop
  }
}

/// The loop thread's body: run the loop until shutdown stops it, then close everything.
private func runLoopThread(_ argument: UnsafeMutableRawPointer?) {
  guard let argument else { return }
  let thread = Unmanaged<LoopThread>.fromOpaque(argument).takeRetainedValue()
  thread.start.wait()
  uv_run(thread.loop, UV_RUN_DEFAULT)
  let report = closeLoop(thread.loop)
  thread.report.withLock { $0 = report }
}

/// Loop thread, after `uv_run` returned for shutdown: closes every handle, runs the loop until
/// their close callbacks fired, and closes the loop.
private func closeLoop(_ loop: UnsafeMutablePointer<uv_loop_t>) -> EventLoopShutdownReport {
  var closed = closeAllHandles(loop)
  var rounds = 0
  // Close callbacks run user code (`onClose`); constructors refuse new handles while shutting
  // down, so this converges in one round. The bound only guards against a misbehaving owner.
  while countHandles(loop) > 0 && rounds < 16 {
    uv_run(loop, UV_RUN_DEFAULT)
    closed += closeAllHandles(loop)
    rounds += 1
  }
  let remaining = countHandles(loop)
  let status = uv_loop_close(loop)
  assert(status == 0, "uv_loop_close failed: \(UVError(code: status, operation: "uv_loop_close"))")
  if status == 0 { loop.deallocate() }
  return EventLoopShutdownReport(
    handlesClosed: closed,
    handlesRemaining: remaining,
    loopCloseError: status == 0 ? nil : UVError(code: status, operation: "uv_loop_close")
  )
}

/// Closes every handle on `loop` that isn't closing yet, through its owner.
///
/// - Returns: How many handles it closed, the loop's own handles not counted.
private func closeAllHandles(_ loop: UnsafeMutablePointer<uv_loop_t>) -> Int {
  var closed = 0
  withUnsafeMutablePointer(to: &closed) { counter in
    uv_walk(
      loop,
      { handle, argument in
        guard let handle, uv_is_closing(handle) == 0 else { return }
        let counter = argument?.assumingMemoryBound(to: Int.self)
        guard let data = uv_handle_get_data(handle) else {
          closeOrphanHandle(handle)
          counter?.pointee += 1
          return
        }
        let owner = Unmanaged<AnyObject>.fromOpaque(data).takeUnretainedValue()
        guard let owner = owner as? any LoopHandleOwner else {
          // Not ours: close it so the loop can close; its memory is its creator's business.
          uv_close(handle, nil)
          counter?.pointee += 1
          return
        }
        if !(owner is EventLoop) { counter?.pointee += 1 }
        owner.closeForShutdown(handle)
      },
      counter
    )
  }
  return closed
}

/// Ignores `SIGPIPE` once per process: libuv writes with `write(2)`, so writing to a connection
/// the peer reset would otherwise kill the process instead of failing with `EPIPE`.
private let ignoreBrokenPipeSignal: Void = {
  _ = signal(SIGPIPE, SIG_IGN)
}()

private func eventLoopWakeupCallback(_ handle: UnsafeMutablePointer<uv_async_t>?) {
  guard let loop = handleOwner(handle.map { uvHandle($0) }, as: EventLoop.self) else { return }
  loop.drainInbox()
}

private func eventLoopPrepareCallback(_ handle: UnsafeMutablePointer<uv_prepare_t>?) {
  guard let loop = handleOwner(handle.map { uvHandle($0) }, as: EventLoop.self) else { return }
  loop.flushPendingWrites()
}

private func eventLoopCheckCallback(_ handle: UnsafeMutablePointer<uv_check_t>?) {
  guard let loop = handleOwner(handle.map { uvHandle($0) }, as: EventLoop.self) else { return }
  loop.local.lastPollTime = uv_now(loop.uvLoop)
  loop.flushPendingWrites()
}
