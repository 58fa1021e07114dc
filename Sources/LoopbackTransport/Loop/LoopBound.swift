/// A loop-confined value that may be passed between threads but only read on its loop's thread.
///
/// Use it to carry a `TCPConnection` or ``UVTimer`` through `@Sendable` closures, for example
/// back into ``EventLoop/execute(_:)``:
///
/// ```swift
/// let bound = LoopBound(connection, loop: loop)       // on the loop thread
/// loop.execute { bound.value.send(frame: bytes) }     // from any thread
/// ```
///
/// > Important: Create it and read ``value`` on the loop thread only; both trap elsewhere.
/// > Dropping the last copy on another thread releases the value there, so the value's `deinit`
/// > must not touch loop state (the types in this module don't: their handles keep them alive
/// > until the loop closed them).
public struct LoopBound<Value>: @unchecked Sendable {
  // `@unchecked Sendable` is safe because the wrapped value is only reachable through `value`,
  // whose getter checks that it runs on `loop`'s thread, and it was created there (checked in
  // `init`); other threads only copy the reference around.
  private let wrapped: Value
  /// The loop whose thread may read ``value``.
  public let loop: EventLoop

  /// Wraps a loop-confined value.
  ///
  /// - Parameters:
  ///   - value: The value; it must belong to `loop`.
  ///   - loop: The loop whose thread may read it.
  public init(_ value: Value, loop: EventLoop) {
    loop.preconditionInEventLoop()
    self.wrapped = value
    self.loop = loop
  }

  /// The wrapped value.
  ///
  /// > Important: Loop thread only; traps elsewhere.
  public var value: Value {
    loop.preconditionInEventLoop()
    return wrapped
  }
}

/// A mutable, optional loop-confined slot that can be created on any thread (empty) and shared
/// between threads, but read and written on its loop's thread only.
///
/// `@unchecked Sendable`: `storage` is only accessed through `value`, which checks the loop
/// thread; the initial `nil` carries no loop-confined state.
final class LoopBoundSlot<Value>: @unchecked Sendable {
  private var storage: Value?
  let loop: EventLoop

  /// An empty slot; any thread.
  init(loop: EventLoop) {
    self.loop = loop
  }

  /// The slot's content. Loop thread only.
  var value: Value? {
    get {
      loop.preconditionInEventLoop()
      return storage
    }
    set {
      loop.preconditionInEventLoop()
      storage = newValue
    }
  }
}
