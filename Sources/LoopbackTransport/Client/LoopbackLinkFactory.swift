import SessionTransport

/// Makes ``LoopbackClientLink``s to a ``LoopbackServer``: the transport an SDK instance is
/// initialized with to reach a service over loopback TCP.
///
/// ```swift
/// // On the client loop's thread:
/// let factory = LoopbackLinkFactory(loop: clientLoop, port: server.port)
/// let sdk = VideoSDK()
/// sdk.initialize(InitParams(domain: "zoom.us", transport: factory, clock: factory.clock.now))
/// sdk.joinSession(context)
/// ```
///
/// Each ``makeLink()`` returns a fresh, unconnected link, so an SDK that lost its connection
/// gets a new one (to resume) by asking again. Many links — a thousand simulated peers — share
/// one loop and one factory; they share the factory's encoding buffer and one heartbeat timer.
///
/// > Important: Loop-confined, like the links and the SDK instances that use them: create the
/// > factory, the SDK instances and everything they hand out on the loop's thread, and call them
/// > only there (from ``EventLoop/execute(_:)`` or loop callbacks). Carry them across threads in
/// > a ``LoopBound``.
public final class LoopbackLinkFactory: SessionLinkFactory {
  /// The loop the links run on.
  public let loop: EventLoop
  /// The server's address; links made after a change connect to the new one.
  public var host: String
  /// The server's port; links made after a change connect to the new one.
  public var port: UInt16
  /// Limits and heartbeat timers of every link.
  public var configuration: LoopbackLinkConfiguration { context.configuration }
  /// Unix-millisecond time following the loop, for `InitParams(clock:)`.
  public let clock: LoopWallClock

  let context: LinkContext

  /// Creates a factory.
  ///
  /// - Parameters:
  ///   - loop: The loop; the caller must be on its thread.
  ///   - host: The server's IPv4 address. Default `127.0.0.1`.
  ///   - port: The server's port.
  ///   - configuration: Limits and heartbeat timers.
  ///   - log: Receives a record for every link that closes, on the loop thread.
  public init(
    loop: EventLoop,
    host: String = "127.0.0.1",
    port: UInt16,
    configuration: LoopbackLinkConfiguration = LoopbackLinkConfiguration(),
    log: @escaping LoopbackLogHandler = { _ in }
  ) {
    loop.preconditionInEventLoop()
    self.loop = loop
    self.host = host
    self.port = port
    self.clock = LoopWallClock(loop: loop)
    self.context = LinkContext(loop: loop, configuration: configuration, log: log)
  }

  /// A new, unstarted link to the server; it connects when started.
  ///
  /// - Returns: A fresh ``LoopbackClientLink`` to the current ``host`` and ``port``.
  public func makeLink() -> any SessionLink {
    makeLoopbackLink()
  }

  /// A new, unstarted link to the server, as its concrete type.
  ///
  /// - Returns: A fresh link to the current ``host`` and ``port``, sharing the factory's
  ///   configuration, buffer and heartbeat timer.
  public func makeLoopbackLink() -> LoopbackClientLink {
    loop.assertInEventLoop()
    return LoopbackClientLink(context: context, host: host, port: port)
  }

  /// The links started and not yet closed.
  public var openLinkCount: Int {
    loop.assertInEventLoop()
    return context.links.count
  }

  /// Suspends the heartbeats of every link of this factory, as a stopped process's timers
  /// stop: no heartbeat is sent and no link times out until ``resumeHeartbeats()``. Frames
  /// still arrive and reach the links' handlers (a caller that stops its process holds them).
  ///
  /// > Important: Loop thread only, like the factory.
  package func suspendHeartbeats() {
    loop.assertInEventLoop()
    context.isSuspended = true
  }

  /// Resumes the heartbeats after ``suspendHeartbeats()``: a link's silence counts from now,
  /// so a link judges its silence only after what waited while suspended had a heartbeat
  /// timeout to arrive.
  ///
  /// > Important: Loop thread only, like the factory.
  package func resumeHeartbeats() {
    loop.assertInEventLoop()
    context.resumeHeartbeats()
  }

  /// Drops every open link's connection at once, as a failing network would (see
  /// ``LoopbackClientLink/sever()``).
  public func severAll() {
    loop.assertInEventLoop()
    for link in context.links { link.sever() }
  }
}

/// Loop-confined: use ``LoopBound`` to pass a factory between threads.
@available(*, unavailable)
extension LoopbackLinkFactory: Sendable {}
