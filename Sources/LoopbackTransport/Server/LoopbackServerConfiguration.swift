import SessionTransport

/// Where a ``LoopbackServer`` listens and the limits and timers it applies to every connection.
///
/// A value; `Sendable`. All times are milliseconds.
public struct LoopbackServerConfiguration: Sendable, Hashable {
  /// The dotted IPv4 address to bind. Default `127.0.0.1`.
  public var host: String
  /// The port; 0 (the default) lets the kernel pick a free one, read from
  /// ``LoopbackServer/port``.
  public var port: UInt16
  /// The kernel's queue of connections not yet accepted. Default 1,024, enough for a storm of
  /// 1,000 peers connecting at once.
  public var backlog: Int32
  /// Frame and write-queue limits for every connection. The write-queue bound is the
  /// slow-consumer policy: a connection that would queue more than
  /// ``TCPConfiguration/maxQueuedWriteBytes`` unwritten bytes is disconnected.
  public var tcp: TCPConfiguration
  /// The most bytes of unfinished frames (a header arrived, not all of its payload yet) that
  /// all connections together may hold. A read that leaves more closes the connections
  /// holding the largest unfinished frames, each after `goodbye(tooLarge)`, until the total is
  /// within the bound again; connections sending small frames hold next to nothing and are
  /// not affected. Default 64 MiB; keep it a few times ``TCPConfiguration/maxFrameSize``.
  public var maxBufferedBytes: Int
  /// How long a new connection may take to send its hello before it is closed with
  /// `goodbye(idleTimeout)`. Default 5,000.
  public var helloTimeout: UInt64
  /// How long a connection closed on purpose may take to flush its last frames (a goodbye)
  /// before it is cut. Bounds a peer that stopped reading. Default 1,000.
  public var drainTimeout: UInt64
  /// How often the host's ``SessionHost/tick(now:)`` runs, and deadlines are checked.
  /// Default 50.
  public var tickInterval: UInt64
  /// The protocol versions accepted in a hello. Default ``WireProtocol/supportedVersions``.
  public var supportedVersions: ClosedRange<UInt16>
  /// Whether consecutive event broadcasts of one loop turn to the same receivers are merged
  /// into one batch (one frame) before they are written. Receivers get the same events in the
  /// same order, with fewer frames to decode and fewer messages to handle; the frames are
  /// written at the start of the next loop turn instead of the end of this one. Default
  /// `false`: every batch the host emits is its own frame (Decision 0007).
  public var coalescesEventBatches: Bool
  /// The UDP port of the media plane on ``host``'s loopback address, when the server has a
  /// media host; 0 (the default) lets the kernel pick, read from ``LoopbackServer/mediaPort``.
  public var mediaPort: UInt16
  /// The most media endpoints (source ports) the server tells apart at once; a new source
  /// when the table is full evicts one (``LoopbackMediaStatistics/endpointsEvicted``).
  /// Default 4,096; clamped to `1...65_536`.
  public var maxMediaEndpoints: Int
  /// The media socket's kernel buffers: 4 MiB each way by default (the kernel caps a request at
  /// its `rmem_max` / `wmem_max`), since one socket takes every member's media; the system
  /// default (about 200 KiB) overflowed at 50 members sending 30 fps. Its send queue bound is
  /// unused: the media plane never queues a datagram the kernel can't take at once, it drops
  /// it.
  public var mediaSocket: UDPConfiguration

  /// Creates a configuration.
  ///
  /// - Parameters:
  ///   - host: The IPv4 address to bind.
  ///   - port: The port; 0 for an ephemeral one.
  ///   - backlog: The accept queue length.
  ///   - tcp: Frame and write-queue limits.
  ///   - maxBufferedBytes: The bound on unfinished frames' bytes across connections; positive.
  ///   - helloTimeout: Milliseconds a new connection has to say hello.
  ///   - drainTimeout: Milliseconds a closing connection has to flush.
  ///   - tickInterval: Milliseconds between host ticks; at least 1.
  ///   - supportedVersions: Protocol versions accepted.
  ///   - coalescesEventBatches: Whether to merge a turn's event broadcasts per receiver list.
  ///   - mediaPort: The media plane's UDP port; 0 for an ephemeral one.
  ///   - maxMediaEndpoints: The bound on media endpoints told apart at once.
  ///   - mediaSocket: The media socket's kernel buffers.
  public init(
    host: String = "127.0.0.1",
    port: UInt16 = 0,
    backlog: Int32 = 1_024,
    tcp: TCPConfiguration = TCPConfiguration(),
    maxBufferedBytes: Int = 64 << 20,
    helloTimeout: UInt64 = 5_000,
    drainTimeout: UInt64 = 1_000,
    tickInterval: UInt64 = 50,
    supportedVersions: ClosedRange<UInt16> = WireProtocol.supportedVersions,
    coalescesEventBatches: Bool = false,
    mediaPort: UInt16 = 0,
    maxMediaEndpoints: Int = 4_096,
    mediaSocket: UDPConfiguration = UDPConfiguration(
      receiveBufferSize: 4 << 20, sendBufferSize: 4 << 20)
  ) {
    precondition(tickInterval > 0, "tickInterval must be positive")
    precondition(maxBufferedBytes > 0, "maxBufferedBytes must be positive")
    self.host = host
    self.port = port
    self.backlog = backlog
    self.tcp = tcp
    self.maxBufferedBytes = maxBufferedBytes
    self.helloTimeout = helloTimeout
    self.drainTimeout = drainTimeout
    self.tickInterval = tickInterval
    self.supportedVersions = supportedVersions
    self.coalescesEventBatches = coalescesEventBatches
    self.mediaPort = mediaPort
    self.maxMediaEndpoints = min(max(maxMediaEndpoints, 1), MediaEndpointTable.maximumCapacity)
    self.mediaSocket = mediaSocket
  }
}
