/// Errors of the ``EventLoop`` itself (as opposed to libuv's, which are ``UVError``).
///
/// A `Sendable` value, usable on any thread.
public enum EventLoopError: Error, Hashable, Sendable {
  /// The loop is shutting down or shut down, so it no longer runs submitted work.
  case shutDown
}
