/// Why a link closed.
public enum LinkCloseReason: Sendable, Hashable, Codable {
  /// The owner closed it.
  case closedLocally
  /// The other side closed it.
  case closedByPeer
  /// The connection failed or timed out; the text says how.
  case failed(String)
}

/// What a link delivers to its owner.
public enum LinkEvent: Sendable, Hashable {
  /// A message from the service.
  case message(ServerMessage)
  /// The link closed; nothing more arrives.
  case closed(LinkCloseReason)
}

/// The SDK's end of a connection to a session service: in-process, virtual or a socket.
///
/// The whole link contract: ``start(_:)``, ``send(_:)`` and ``close()`` (the one call that may
/// come from another domain). `SessionTestSupport`'s link contract suite checks a link against
/// it.
///
/// > Important: A link is confined to its owner's isolation domain. It calls the handler given
/// > to ``start(_:)`` on that domain only, one event at a time. A synchronous link (the
/// > in-process network in immediate mode) may call it from inside ``start(_:)`` or
/// > ``send(_:)``; owners must queue work that arrives while they are busy rather than recurse.
public protocol SessionLink: AnyObject {
  /// Starts delivering events to `handler`.
  ///
  /// - Parameter handler: Called with each event on the owner's isolation domain, one at a time;
  ///   nothing more arrives after ``LinkEvent/closed(_:)``.
  func start(_ handler: @escaping (LinkEvent) -> Void)
  /// Sends a message; messages arrive in order or the link closes.
  ///
  /// - Parameter message: The message for the service.
  func send(_ message: ClientMessage)
  /// Closes the link. The handler gets no more events. Closing twice is harmless.
  ///
  /// The one call that may come from another domain: an SDK instance released there closes
  /// its link from its `deinit`. A link bound to a thread (a loop) hops there to close; a link
  /// whose whole network is confined to one domain (the in-process network) is only ever
  /// released, and closed, on that domain.
  func close()
}

/// Makes links to one service; an SDK instance asks for a fresh link for each join.
public protocol SessionLinkFactory: AnyObject {
  /// A new, unstarted link.
  ///
  /// - Returns: A link that connects when ``SessionLink/start(_:)`` is called.
  func makeLink() -> any SessionLink
}
