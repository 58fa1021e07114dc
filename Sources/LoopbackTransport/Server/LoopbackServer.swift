import Dispatch
import SessionTransport
import Synchronization

/// A session host (usually a `SessionService`) served over TCP on 127.0.0.1, on its own event
/// loop.
///
/// ```swift
/// let server = try LoopbackServer(log: { print($0) }) {
///   SessionService(configuration: ServiceConfiguration(credentials: [key: secret]))
/// }
/// print("listening on 127.0.0.1:\(server.port)")
/// // … members connect with a LoopbackLinkFactory …
/// let report = server.shutdown()
/// ```
///
/// **Threading.** The server owns an ``EventLoop`` thread. The host is made by `makeHost` on
/// that thread and lives there: every `SessionHost` call (connections opening and closing,
/// messages, ``SessionTransport/SessionHost/tick(now:)``) happens on it, and so does every output. Reach the
/// host from elsewhere with ``withHost(_:)`` or ``executeWithHost(_:)``.
///
/// **Connections.** Each connection must start with a hello (within
/// ``LoopbackServerConfiguration/helloTimeout``); then the host learns of it
/// (``SessionTransport/SessionHost/connectionOpened(_:now:)``) and its messages flow. A connection that sends a
/// frame that doesn't decode, a wrong protocol version, a second hello, or nothing in time gets
/// a goodbye naming the reason and is closed; the close is logged; nothing else is affected.
/// Every close of a connection the host knows reaches it as
/// ``SessionTransport/SessionHost/connectionClosed(_:now:)``.
///
/// **Writes and slow consumers.** Outputs are encoded once per message (a broadcast too) and
/// appended to each receiving connection's buffer; the loop writes each connection's buffer
/// with one `uv_write` per loop turn, so the many small frames of a busy session coalesce. A
/// connection whose unwritten bytes would exceed ``TCPConfiguration/maxQueuedWriteBytes`` (a
/// client that stopped reading) is disconnected at once: it never blocks the loop or slows the
/// others. Its member keeps its place for the service's reconnect grace.
///
/// **Time.** The host's clock is a ``LoopWallClock`` (Unix milliseconds, advancing with the
/// loop); ``SessionTransport/SessionHost/tick(now:)`` runs every ``LoopbackServerConfiguration/tickInterval``.
///
/// **Media.** When the host is also a `MediaHost` (or one is given), the server opens a UDP
/// socket on 127.0.0.1 (``mediaPort``) beside the listener, on the same loop. Each source port
/// it hears from is an endpoint (at most ``LoopbackServerConfiguration/maxMediaEndpoints``;
/// the oldest never sent to goes first when full); every datagram, whatever it holds, reaches
/// the media host with `LoopbackMediaClock` time, and its outputs go to the kernel at once or
/// are dropped (counted in ``LoopbackServerStatistics/media``).
///
/// > Important: `Sendable`: ``port``, ``withHost(_:)``, ``executeWithHost(_:)`` and
/// > ``shutdown()`` may be used from any thread; ``host`` only on the server's loop thread.
/// > Call ``shutdown()`` before dropping the server, or its loop thread runs forever.
public final class LoopbackServer<Host: SessionHost & SendableMetatype>: Sendable {
  /// The loop the server and its host run on.
  public let loop: EventLoop
  /// The port the server listens on (the kernel's pick when configured with port 0).
  public let port: UInt16
  /// The UDP port of the media plane on 127.0.0.1 (the kernel's pick when configured with
  /// port 0), or `nil` when the server has no media host.
  public let mediaPort: UInt16?
  /// The configuration it was started with.
  public let configuration: LoopbackServerConfiguration

  private let core: LoopBound<ServerCore<Host>>
  private let finalReport = Mutex<LoopbackServerShutdownReport?>(nil)

  /// Starts a loop, makes the host on it, binds and listens; returns once listening.
  ///
  /// - Parameters:
  ///   - configuration: Address, limits and timers.
  ///   - log: Receives the server's log records (every close with its reason), on the loop
  ///     thread.
  ///   - makeHost: Makes the host; runs once, on the server's loop thread.
  ///   - mediaHost: The host's media side, if it has one: by default the host itself when it
  ///     is also a `MediaHost`. With one, the server opens its media plane, a UDP socket on
  ///     127.0.0.1 (``mediaPort``); runs once, on the loop thread, right after `makeHost`.
  /// - Throws: `UVError` if the loop can't start or an address can't be bound (for example
  ///   `EADDRINUSE`).
  /// > Important: Blocks until the server listens; don't call it on an event loop thread.
  public init(
    configuration: LoopbackServerConfiguration = LoopbackServerConfiguration(),
    log: @escaping LoopbackLogHandler = { _ in },
    makeHost: @escaping @Sendable () -> Host,
    mediaHost: @escaping @Sendable (Host) -> (any MediaHost)? = { $0 as? any MediaHost }
  ) throws {
    let loop = try EventLoop(name: "loopback-server")
    do {
      let (core, port, mediaPort) = try loop.runBlocking {
        let host = makeHost()
        let core = ServerCore(
          loop: loop, configuration: configuration, host: host, mediaHost: mediaHost(host),
          log: log)
        try core.start()
        return (LoopBound(core, loop: loop), core.port, core.media?.port)
      }
      self.core = core
      self.port = port
      self.mediaPort = mediaPort
    } catch {
      loop.shutdown()
      throw error
    }
    self.loop = loop
    self.configuration = configuration
  }

  /// The host.
  ///
  /// > Important: Loop thread only (from ``withHost(_:)``, ``executeWithHost(_:)`` or a
  /// > callback on the server's loop); traps elsewhere.
  public var host: Host { core.value.host }

  /// Runs `body` with the host on the server's loop and returns its result.
  ///
  /// - Parameter body: Runs on the loop thread.
  /// - Returns: What `body` returned.
  /// - Throws: What `body` threw, or ``EventLoopError/shutDown`` after ``shutdown()``.
  public func withHost<Result: Sendable>(
    _ body: @escaping @Sendable (Host) throws -> Result
  ) async throws -> Result {
    let core = self.core
    return try await loop.submit { try body(core.value.host) }
  }

  /// Runs `body` with the host on the server's loop, later; returns at once.
  ///
  /// - Parameter body: Runs on the loop thread.
  /// - Returns: `false` if the server is shut down and `body` was dropped.
  @discardableResult
  public func executeWithHost(_ body: @escaping @Sendable (Host) -> Void) -> Bool {
    let core = self.core
    return loop.execute { body(core.value.host) }
  }

  /// The source port the media plane knows an endpoint by, or `nil` (tests; loop thread).
  func mediaPlanePort(of endpoint: MediaEndpointID) -> UInt16? {
    core.value.media?.port(of: endpoint)
  }

  /// The server's counters: connections, frames, bytes and writes so far.
  ///
  /// - Returns: A copy of the counters as the loop held them when it answered.
  /// - Throws: ``EventLoopError/shutDown`` after ``shutdown()``.
  /// > Important: Blocks until the loop answered; don't call it on an event loop thread.
  public func statistics() throws -> LoopbackServerStatistics {
    let core = self.core
    return try loop.runBlocking { core.value.statistics }
  }

  /// Stops accepting, says goodbye (`shuttingDown`) to every connection, closes them once their
  /// last frames flushed (cutting any that don't within
  /// ``LoopbackServerConfiguration/drainTimeout``), then shuts the loop down.
  ///
  /// The host sees ``SessionTransport/SessionHost/connectionClosed(_:now:)`` for every connection it knew.
  /// Calling it again returns the first report.
  ///
  /// - Returns: What was closed, and whether the loop closed cleanly.
  /// > Important: Blocks until done; don't call it on an event loop thread.
  @discardableResult
  public func shutdown() -> LoopbackServerShutdownReport {
    if let report = finalReport.withLock({ $0 }) { return report }
    let done = DispatchSemaphore(value: 0)
    let open = Mutex(0)
    let core = self.core
    let accepted = loop.execute {
      open.withLock { $0 = core.value.connectionCount }
      core.value.beginShutdown { done.signal() }
    }
    if accepted {
      // The drain deadline bounds the wait; the margin covers ticks and slow machines.
      let bound = configuration.drainTimeout + 4 * configuration.tickInterval + 5_000
      _ = done.wait(timeout: .now() + .milliseconds(Int(bound)))
    }
    let loopReport = loop.shutdown()
    return finalReport.withLock { report in
      if let report { return report }
      let made = LoopbackServerShutdownReport(
        connectionsClosed: open.withLock { $0 }, loop: loopReport)
      report = made
      return made
    }
  }

  /// Kills the server as a crashed process dies: the listener and the media socket close,
  /// every connection is reset (RST, no goodbye, nothing flushed), the host hears of nothing
  /// more and its state goes with the loop, which shuts down. The ports are free again once
  /// this returns, so a fresh server may bind them (``LoopbackServerConfiguration/port`` and
  /// ``LoopbackServerConfiguration/mediaPort``; TCP listeners bind with `SO_REUSEADDR`).
  ///
  /// Calling it again, or ``shutdown()`` after it, returns the first report.
  ///
  /// - Returns: The connections reset, and the loop's shutdown report.
  /// > Important: Blocks until the loop stopped; call it from any thread but the server's
  /// > loop thread.
  @discardableResult
  package func kill() -> LoopbackServerShutdownReport {
    if let report = finalReport.withLock({ $0 }) { return report }
    let core = self.core
    let open = try? loop.runBlocking {
      let count = core.value.connectionCount
      core.value.kill()
      return count
    }
    let loopReport = loop.shutdown()
    return finalReport.withLock { report in
      if let report { return report }
      let made = LoopbackServerShutdownReport(connectionsClosed: open ?? 0, loop: loopReport)
      report = made
      return made
    }
  }
}

/// What ``LoopbackServer/shutdown()`` did.
///
/// A value; `Sendable`.
public struct LoopbackServerShutdownReport: Sendable, Hashable {
  /// Connections open when the shutdown began, each sent a goodbye and closed.
  public var connectionsClosed: Int
  /// The event loop's own report: handles closed and whether `uv_loop_close` succeeded.
  public var loop: EventLoopShutdownReport

  /// Creates a report.
  ///
  /// - Parameters:
  ///   - connectionsClosed: Connections open when shutdown began.
  ///   - loop: The loop's shutdown report.
  public init(connectionsClosed: Int, loop: EventLoopShutdownReport) {
    self.connectionsClosed = connectionsClosed
    self.loop = loop
  }

  /// Whether the loop closed with no handle left.
  public var isClean: Bool { loop.isClean }
}
