/// Counters of a ``LoopbackServer``, for benchmarks and diagnostics.
///
/// A value; `Sendable`. Read with ``LoopbackServer/statistics()``.
public struct LoopbackServerStatistics: Sendable, Hashable {
  /// Connections accepted since the server started.
  public var connectionsAccepted: Int
  /// Connections open now, handshake done or not.
  public var connectionsOpen: Int
  /// Frames queued on connections since the server started (a broadcast counts once per
  /// receiver).
  public var framesSent: Int
  /// Payload bytes of those frames (without their 4-byte length prefixes).
  public var payloadBytesSent: Int
  /// `uv_write` calls issued since the server started: one per connection per loop turn that
  /// had frames queued. `framesSent / writes` is the batching achieved.
  public var writes: Int
  /// Bytes of unfinished frames (a header arrived, not yet all of its payload) that all
  /// connections hold now; after every read at most
  /// ``LoopbackServerConfiguration/maxBufferedBytes``.
  public var bufferedFrameBytes: Int
  /// The media plane's counters, or `nil` when the server has no media host.
  public var media: LoopbackMediaStatistics?
  /// Connections open now and out of a session (not closing): at most
  /// ``LoopbackServerConfiguration/maxPendingConnections`` once a new connection was handled.
  public var connectionsPending: Int
  /// Connections open now that the server sent a `joined` (and no `left` since), not closing.
  public var connectionsInSessions: Int
  /// Bytes all connections not being cut hold for writing now; within
  /// ``LoopbackServerConfiguration/maxQueuedWriteBytesTotal`` after every send.
  public var queuedWriteBytes: Int
  /// What the resource limits did since the server started.
  public var limits: Limits

  /// Counts of what the resource limits did ("Resource limits" in LoopbackTransport.md).
  ///
  /// A value; `Sendable`.
  public struct Limits: Sendable, Hashable {
    /// Connections not in a session closed to make room for a new one.
    public var pendingEvicted = 0
    /// New connections told the server is full (every other connection in a session).
    public var refusedWhenFull = 0
    /// Connections closed for staying out of a session past the admission timeout.
    public var admissionTimeouts = 0
    /// Connections cut with `goodbye(slowConsumer)`: their own write queue overflowed, or
    /// they held the most when the total passed its bound.
    public var slowConsumersCut = 0
    /// Log lines about connections held back by the per-connection rate limit.
    public var logLinesSuppressed = 0

    /// No limit has acted yet.
    public init() {}
  }

  /// Creates statistics.
  ///
  /// - Parameters:
  ///   - connectionsAccepted: Connections accepted since the start.
  ///   - connectionsOpen: Connections open now.
  ///   - framesSent: Frames queued since the start.
  ///   - payloadBytesSent: Their payload bytes.
  ///   - writes: `uv_write` calls since the start.
  ///   - bufferedFrameBytes: Bytes of unfinished frames held now.
  ///   - media: The media plane's counters, if it has one.
  ///   - connectionsPending: Connections open now and out of a session.
  ///   - connectionsInSessions: Connections open now and in a session.
  ///   - queuedWriteBytes: Bytes held for writing now.
  ///   - limits: What the resource limits did.
  public init(
    connectionsAccepted: Int, connectionsOpen: Int, framesSent: Int, payloadBytesSent: Int,
    writes: Int, bufferedFrameBytes: Int = 0, media: LoopbackMediaStatistics? = nil,
    connectionsPending: Int = 0, connectionsInSessions: Int = 0, queuedWriteBytes: Int = 0,
    limits: Limits = Limits()
  ) {
    self.connectionsPending = connectionsPending
    self.connectionsInSessions = connectionsInSessions
    self.queuedWriteBytes = queuedWriteBytes
    self.limits = limits
    self.connectionsAccepted = connectionsAccepted
    self.connectionsOpen = connectionsOpen
    self.framesSent = framesSent
    self.payloadBytesSent = payloadBytesSent
    self.writes = writes
    self.bufferedFrameBytes = bufferedFrameBytes
    self.media = media
  }
}
