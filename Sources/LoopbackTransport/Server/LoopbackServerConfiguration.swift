import SessionTransport

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

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
  /// The most connections open at once, in a session or not ("Resource limits" in
  /// LoopbackTransport.md). A connection beyond it closes the oldest connection not in a
  /// session, if there is one; otherwise it hears `goodbye(shuttingDown)` saying the server is
  /// full, and is closed. Default, and the most it can be: the process's open-file limit
  /// (`RLIMIT_NOFILE`, as `getrlimit` reads it when the configuration is made) less
  /// ``descriptorReserve`` for the listener, the media socket, the loop and logs
  /// (``maximumConnections``).
  public var maxConnections: Int
  /// The most connections open at once that are not members of a session: not yet joined
  /// (or left, or refused), handshake done or not. A new connection beyond it closes the
  /// oldest of them after `goodbye(idleTimeout)` saying why, so that an honest peer always
  /// gets in. Default a quarter of ``maxConnections``, but at least 1,024 or half of
  /// ``maxConnections``, whichever is less, so that a storm of 1,000 peers joining at once
  /// fits whenever there are descriptors for it; at least 1, at most ``maxConnections``.
  public var maxPendingConnections: Int
  /// How long a connection may stay out of a session — from its accept, or from the `left`
  /// that took it out — before it is closed with `goodbye(idleTimeout)` saying why, even if it
  /// sends heartbeats. A connection is in a session from the `joined` the server sends it.
  /// Default 30,000.
  public var admissionTimeout: UInt64
  /// The most bytes all connections together may hold for writing: the memory of their
  /// buffers of frames not yet written to the kernel (`TCPConnection/heldWriteBytes`). When a send passes it, the
  /// connections holding the most — the slowest readers — are cut, largest first, until the
  /// total is within it again: each drops its frames not yet begun, finishes the one the peer
  /// is reading, and ends with `goodbye(slowConsumer)`. Default 64 MiB.
  public var maxQueuedWriteBytesTotal: Int
  /// The most log lines about one connection at once; beyond it, lines are counted and held
  /// back, and a summary says how many once lines flow again (or at the close). Default 10.
  public var logBurstPerConnection: Int
  /// The log lines a second about one connection after the burst. Default 1.
  public var logLinesPerSecondPerConnection: Int
  /// How long a new connection may take to send its hello before it is closed with
  /// `goodbye(idleTimeout)`. Default 5,000.
  public var helloTimeout: UInt64
  /// How long a connection closed on purpose may take to flush its last frames (a goodbye)
  /// before it is cut. Bounds a peer that stopped reading. Default 1,000.
  public var drainTimeout: UInt64
  /// How often the host's ``SessionTransport/SessionHost/tick(now:)`` runs, and deadlines are checked.
  /// Default 50.
  public var tickInterval: UInt64
  /// The protocol versions accepted in a hello. Default ``SessionTransport/WireProtocol/supportedVersions``.
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
  ///   - maxConnections: The most connections at once; `nil` for ``maximumConnections``,
  ///     which also bounds any other value.
  ///   - maxPendingConnections: The most connections at once not in a session; `nil` for
  ///     ``defaultMaxPendingConnections(maxConnections:)``.
  ///   - admissionTimeout: Milliseconds a connection may stay out of a session.
  ///   - maxQueuedWriteBytesTotal: The bound on bytes held for writing across connections;
  ///     positive.
  ///   - logBurstPerConnection: Log lines about one connection at once.
  ///   - logLinesPerSecondPerConnection: Log lines a second about one connection after that.
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
    maxConnections: Int? = nil,
    maxPendingConnections: Int? = nil,
    admissionTimeout: UInt64 = 30_000,
    maxQueuedWriteBytesTotal: Int = 64 << 20,
    logBurstPerConnection: Int = 10,
    logLinesPerSecondPerConnection: Int = 1,
    helloTimeout: UInt64 = 5_000,
    drainTimeout: UInt64 = 1_000,
    tickInterval: UInt64 = 50,
    supportedVersions: ClosedRange<UInt16> = WireProtocol.supportedVersions,
    coalescesEventBatches: Bool = false,
    mediaPort: UInt16 = 0,
    maxMediaEndpoints: Int = 4_096,
    mediaSocket: UDPConfiguration = UDPConfiguration(
      receiveBufferSize: 4 << 20, sendBufferSize: 4 << 20, receiveBatch: 16)
  ) {
    precondition(tickInterval > 0, "tickInterval must be positive")
    precondition(maxBufferedBytes > 0, "maxBufferedBytes must be positive")
    self.host = host
    self.port = port
    self.backlog = backlog
    self.tcp = tcp
    precondition(maxQueuedWriteBytesTotal > 0, "maxQueuedWriteBytesTotal must be positive")
    self.maxBufferedBytes = maxBufferedBytes
    let ceiling = Self.maximumConnections
    let total = min(max(maxConnections ?? ceiling, 1), ceiling)
    self.maxConnections = total
    self.maxPendingConnections = min(
      max(maxPendingConnections ?? Self.defaultMaxPendingConnections(maxConnections: total), 1),
      total)
    self.admissionTimeout = admissionTimeout
    self.maxQueuedWriteBytesTotal = maxQueuedWriteBytesTotal
    self.logBurstPerConnection = max(logBurstPerConnection, 1)
    self.logLinesPerSecondPerConnection = max(logLinesPerSecondPerConnection, 1)
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

extension LoopbackServerConfiguration {
  /// File descriptors kept back from connections: the listener, the media socket, the loop's
  /// own (epoll, its wake-up and signal descriptors), the standard streams and log files,
  /// and room to accept one connection more than the cap so as to tell it the server is full.
  public static let descriptorReserve = 32

  /// The default ``maxPendingConnections`` for a cap of `maxConnections`: a quarter of it, but
  /// at least 1,024 or half of it, whichever is less.
  ///
  /// - Parameter maxConnections: The cap on all connections.
  /// - Returns: The cap on connections not in a session.
  public static func defaultMaxPendingConnections(maxConnections: Int) -> Int {
    max(maxConnections / 4, min(maxConnections / 2, 1_024), 1)
  }

  /// The most connections a server of this process can keep open: the open-file limit
  /// (`RLIMIT_NOFILE`'s soft limit, now; at most 1,048,576 counted) less
  /// ``descriptorReserve``, or half the limit when it is below twice the reserve. At least 1.
  public static var maximumConnections: Int {
    let files = OpenFileLimit.current().map { Int(min(UInt64($0.rlim_cur), 1 << 20)) } ?? 1_024
    guard files >= 2 * descriptorReserve else { return max(files / 2, 1) }
    return files - descriptorReserve
  }
}
