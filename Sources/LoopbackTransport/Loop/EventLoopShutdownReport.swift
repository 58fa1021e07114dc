/// What ``EventLoop/shutdown()`` found and did.
///
/// A value; `Sendable`.
public struct EventLoopShutdownReport: Hashable, Sendable {
  /// Handles (listeners, connections, timers) still open when shutdown began, which shutdown
  /// closed. The loop's own internal handles are not counted.
  public var handlesClosed: Int
  /// Handles still registered with the loop just before `uv_loop_close` (counted with
  /// `uv_walk`); zero unless something leaked.
  public var handlesRemaining: Int
  /// What `uv_loop_close` returned, when it didn't return 0.
  public var loopCloseError: UVError?

  /// Creates a report.
  ///
  /// - Parameters:
  ///   - handlesClosed: Handles shutdown closed, the loop's own not counted.
  ///   - handlesRemaining: Handles registered just before `uv_loop_close`.
  ///   - loopCloseError: The failure of `uv_loop_close`, if any.
  public init(handlesClosed: Int, handlesRemaining: Int, loopCloseError: UVError?) {
    self.handlesClosed = handlesClosed
    self.handlesRemaining = handlesRemaining
    self.loopCloseError = loopCloseError
  }

  /// Whether the loop closed with no handle left and `uv_loop_close` returned 0.
  public var isClean: Bool { handlesRemaining == 0 && loopCloseError == nil }
}
