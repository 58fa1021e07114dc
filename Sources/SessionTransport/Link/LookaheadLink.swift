/// A link that can tell its owner of messages shortly before it delivers them: a refinement
/// of ``SessionLink`` that only the in-process network adopts (Decision 0009).
///
/// A hot-path hook, so `package`: the link contract every link implements is ``SessionLink``
/// alone. An owner asks `link as? any LookaheadLink` and does without when a link is not one.
///
/// > Important: Confined to its owner's isolation domain, like every link.
package protocol LookaheadLink: SessionLink {
  /// Tells `lookahead` of messages shortly before they arrive; `nil` stops it. The link holds
  /// `lookahead` strongly until it closes, as it holds its handler.
  func setLookahead(_ lookahead: (any LinkLookahead)?)
}

/// An owner that can prepare for a message shortly before its link delivers it.
///
/// A fan-out to many replicas in one process waits on memory more than on instructions: while
/// one replica applies an event, the next can start fetching what it will touch. The
/// in-process network tells each link's lookahead of a broadcast message just before it
/// delivers that message to the link before it.
///
/// > Important: Called on the link's domain, like its handler, and never from inside it.
package protocol LinkLookahead: AnyObject {
  /// `message` will most likely be this link's next message. A hint only: act on nothing, as
  /// the message may never come (the link can close first) and comes again through the handler.
  func linkWillDeliver(_ message: ServerMessage)

  /// Where the owner's own objects that ``linkWillDeliver(_:)`` reads begin (six cache lines
  /// from there), for a link to prefetch a few deliveries ahead without calling the owner;
  /// `nil`: nothing. Read once, when the owner is set, and valid while the link holds it.
  var lookaheadAddress: UnsafeRawPointer? { get }
}

extension LinkLookahead {
  /// Nothing to fetch ahead.
  package var lookaheadAddress: UnsafeRawPointer? { nil }
}
