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
  public init(
    connectionsAccepted: Int, connectionsOpen: Int, framesSent: Int, payloadBytesSent: Int,
    writes: Int, bufferedFrameBytes: Int = 0, media: LoopbackMediaStatistics? = nil
  ) {
    self.connectionsAccepted = connectionsAccepted
    self.connectionsOpen = connectionsOpen
    self.framesSent = framesSent
    self.payloadBytesSent = payloadBytesSent
    self.writes = writes
    self.bufferedFrameBytes = bufferedFrameBytes
    self.media = media
  }
}
