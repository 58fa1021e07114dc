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
/// > Important: A link is confined to its owner's isolation domain. It calls the handler given
/// > to ``start(_:)`` on that domain only, one event at a time. A synchronous link (the
/// > ``InProcessNetwork`` in immediate mode) may call it from inside ``start(_:)`` or
/// > ``send(_:)``; owners must queue work that arrives while they are busy rather than recurse.
public protocol SessionLink: AnyObject {
  /// Starts delivering events to `handler`.
  func start(_ handler: @escaping (LinkEvent) -> Void)
  /// Sends a message; messages arrive in order or the link closes.
  func send(_ message: ClientMessage)
  /// Closes the link. The handler gets no more events. Closing twice is harmless.
  ///
  /// The one call that may come from another domain: an SDK instance released there closes
  /// its link from its `deinit`. A link bound to a thread (a loop) hops there to close; a link
  /// whose whole network is confined to one domain (``InProcessNetwork``) is only ever
  /// released, and closed, on that domain.
  func close()
  /// Tells `lookahead` of messages shortly before they arrive, when the link knows them early
  /// (Decision 0009); `nil` stops it. The default does nothing: a link need not look ahead.
  ///
  /// The link holds `lookahead` strongly until it closes, as it holds its handler.
  func setLookahead(_ lookahead: (any LinkLookahead)?)
}

extension SessionLink {
  /// Looks nothing ahead.
  public func setLookahead(_ lookahead: (any LinkLookahead)?) {}
}

/// An owner that can prepare for a message shortly before its link delivers it.
///
/// A fan-out to many replicas in one process waits on memory more than on instructions: while
/// one replica applies an event, the next can start fetching what it will touch. An
/// ``InProcessNetwork`` tells each link's lookahead of a broadcast message just before it
/// delivers that message to the link before it.
///
/// > Important: Called on the link's domain, like its handler, and never from inside it.
public protocol LinkLookahead: AnyObject {
  /// `message` will most likely be this link's next message. A hint only: act on nothing, as
  /// the message may never come (the link can close first) and comes again through the handler.
  func linkWillDeliver(_ message: ServerMessage)
}

/// Makes links to one service; an SDK instance asks for a fresh link for each join.
public protocol SessionLinkFactory: AnyObject {
  /// A new, unstarted link.
  func makeLink() -> any SessionLink
}
