/// What a media link delivers to its owner.
///
/// Times are microseconds on the link's clock, which never goes back (the node's own
/// monotonic clock: virtual in deterministic mode, the process's in loopback mode; a node's
/// clock skew is an offset fixed when the link starts); a sender stamps ``MediaPacket/sendTime`` from the same
/// clock, so a receiver in the same process measures one-way delay with it.
public enum MediaLinkEvent: Sendable, Hashable {
  /// A datagram arrived at time `at`. It may be malformed: the owner decodes it.
  case datagram([UInt8], at: Int64)
  /// Time passed: the owner runs its periodic work (its sources, reports, probes) due by
  /// `now`. A started link ticks at least every ``MediaLink/tickInterval`` µs.
  case tick(now: Int64)
}

/// The SDK's end of the media plane: unreliable datagrams to and from the service, and the
/// clock that paces the synthetic sources.
///
/// The whole contract is ``start(_:)``, ``send(_:)``, ``close()`` and ``tickInterval``. Media
/// never shares a queue with signalling (the ``SessionLink``): a link may drop a datagram it
/// cannot send at once, and nothing it does delays a signalling message.
///
/// > Important: Confined to its owner's isolation domain, like a ``SessionLink``. It calls the
/// > handler on that domain only, one event at a time, never from inside ``send(_:)``.
public protocol MediaLink: AnyObject {
  /// The longest gap between two ``MediaLinkEvent/tick(now:)`` events, in microseconds.
  var tickInterval: Int64 { get }
  /// Starts delivering datagrams and ticks to `handler`.
  ///
  /// - Parameter handler: Called with each datagram and tick on the owner's isolation domain,
  ///   one at a time.
  func start(_ handler: @escaping (MediaLinkEvent) -> Void)
  /// Sends one datagram to the service, at most ``MediaDatagram/maxSize`` bytes; it may be
  /// lost, late, doubled or reordered.
  ///
  /// - Parameter datagram: The encoded datagram, at most ``MediaDatagram/maxSize`` bytes.
  func send(_ datagram: [UInt8])
  /// Stops the link: no more events, sends are dropped. Closing twice is harmless.
  func close()
}

/// Makes media links to one service; an SDK instance asks for one per joined session.
public protocol MediaLinkFactory: AnyObject {
  /// A new, unstarted media link.
  ///
  /// - Returns: A media link that starts when ``MediaLink/start(_:)`` is called.
  func makeMediaLink() -> any MediaLink
}
