import SessionTransport

/// Makes ``LoopbackMediaLink``s to one media address: the server's ``LoopbackServer/mediaPort``,
/// or a peer's port on a ``LoopbackFaults/MediaFaultProxy``. Give it to an SDK instance as `InitParams.media`,
/// beside the ``LoopbackLinkFactory`` of its signalling.
///
/// ```swift
/// // On the client loop's thread:
/// let signalling = LoopbackLinkFactory(loop: clientLoop, port: server.port)
/// let media = LoopbackMediaLinkFactory(loop: clientLoop, port: server.mediaPort!)
/// sdk.initialize(InitParams(domain: "zoom.us", transport: signalling, media: media, …))
/// ```
///
/// Every link of a loop with the same tick interval shares one repeating timer, however many
/// factories made them.
///
/// > Important: Loop-confined, like the links: create it and call it on the loop's thread
/// > only. Carry it across threads in a ``LoopBound``.
public final class LoopbackMediaLinkFactory: MediaLinkFactory {
  /// The loop the links run on.
  public let loop: EventLoop
  /// The media port on 127.0.0.1; links made after a change send to the new one.
  public var port: UInt16
  /// Milliseconds between ticks; links made after a change tick at the new pace. At least 1.
  public var tickInterval: UInt64 {
    didSet { tickInterval = max(1, tickInterval) }
  }

  /// Creates a factory.
  ///
  /// - Parameters:
  ///   - loop: The loop; the caller must be on its thread.
  ///   - port: The media port on 127.0.0.1 (``LoopbackServer/mediaPort``).
  ///   - tickInterval: Milliseconds between ticks, default 10; below 1 counts as 1.
  public init(loop: EventLoop, port: UInt16, tickInterval: UInt64 = 10) {
    loop.preconditionInEventLoop()
    self.loop = loop
    self.port = port
    self.tickInterval = max(1, tickInterval)
  }

  /// A new, unstarted media link to the port.
  ///
  /// - Returns: A fresh ``LoopbackMediaLink`` to the current ``port``, ticking every
  ///   ``tickInterval`` milliseconds.
  public func makeMediaLink() -> any MediaLink {
    makeLoopbackMediaLink()
  }

  /// A new, unstarted media link, as its concrete type.
  ///
  /// - Returns: A fresh link to the current ``port``, ticking every ``tickInterval`` milliseconds.
  public func makeLoopbackMediaLink() -> LoopbackMediaLink {
    loop.assertInEventLoop()
    return LoopbackMediaLink(loop: loop, serverPort: port, tickInterval: tickInterval)
  }
}

/// Loop-confined.
@available(*, unavailable)
extension LoopbackMediaLinkFactory: Sendable {}
