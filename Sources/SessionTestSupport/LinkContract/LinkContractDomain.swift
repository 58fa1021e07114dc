import SessionCore
import SessionTransport
import Synchronization

/// Everything one link delivered, in order, readable from any thread.
///
/// `Sendable`: the events are behind a `Mutex`. The link's handler appends on the links'
/// domain; a test reads on its own.
public final class LinkEventLog: Sendable {
  private struct State {
    var events: [LinkEvent] = []
    var closedByOwner = false
  }

  private let state = Mutex(State())

  init() {}

  func append(_ event: LinkEvent) {
    state.withLock { $0.events.append(event) }
  }

  func markClosedByOwner() {
    state.withLock { $0.closedByOwner = true }
  }

  /// Every event delivered so far, in order.
  public var events: [LinkEvent] { state.withLock { $0.events } }

  /// How many events were delivered so far.
  public var count: Int { state.withLock { $0.events.count } }

  /// Whether the owner closed the link (through ``LinkContractDomain/close(_:)``).
  public var isClosedByOwner: Bool { state.withLock { $0.closedByOwner } }

  /// Whether the link is closed: by its owner, or with a delivered ``SessionTransport/LinkEvent/closed(_:)``.
  public var isClosed: Bool {
    state.withLock { state in
      state.closedByOwner
        || state.events.contains { if case .closed = $0 { true } else { false } }
    }
  }

  /// The messages delivered so far.
  public var messages: [ServerMessage] {
    events.compactMap { if case .message(let message) = $0 { message } else { nil } }
  }

  /// How many ``SessionTransport/ServerMessage/heartbeat`` answers were delivered so far.
  public var heartbeats: Int {
    state.withLock { state in
      state.events.count { $0 == .message(.heartbeat) }
    }
  }

  /// The events of every batch delivered so far, in order, each with its sequence number.
  public var numberedEvents: [(sequence: UInt64, event: SessionEvent)] {
    messages.flatMap { message -> [(sequence: UInt64, event: SessionEvent)] in
      guard case .events(let batch) = message else { return [] }
      return batch.events.enumerated().map {
        (sequence: batch.firstSequence + UInt64($0.offset), event: $0.element)
      }
    }
  }

  /// The first ``SessionTransport/ServerMessage/joined(_:resumeToken:)`` delivered: the
  /// snapshot and the resume token.
  public var joined: (snapshot: SessionSnapshot, resumeToken: UInt64)? {
    for message in messages {
      if case .joined(let snapshot, let resumeToken) = message {
        return (snapshot: snapshot, resumeToken: resumeToken)
      }
    }
    return nil
  }
}

/// What a ``LinkContractWorld`` keeps on its links' isolation domain: the factory, and every
/// link made so far with the log of what it delivered.
///
/// A world creates one on the links' domain and hands it to the bodies it runs there
/// (``LinkContractWorld/perform(_:)``); a check reaches links only through it, by
/// ``LinkID``.
///
/// > Important: Not `Sendable`. Confined to the links' isolation domain (a client loop's
/// > thread; the domain of an in-process network): create it, use it and let go of it there,
/// > as of the links themselves.
public final class LinkContractDomain {
  /// Names a link made by ``open(handler:)``. A value; `Sendable`.
  public struct LinkID: Hashable, Sendable, CustomStringConvertible {
    /// The link's place in the order links were made, from 0.
    public let index: Int

    /// A textual form for messages, for example `"link 0"`.
    public var description: String { "link \(index)" }
  }

  /// Receives a link's events after its log, and a way to close the link from inside.
  ///
  /// Called on the links' domain, one event at a time, as the link delivers them. The closure
  /// it is given closes the link as ``close(_:)`` does.
  public typealias Handler = @Sendable (_ event: LinkEvent, _ close: () -> Void) -> Void

  private struct Entry {
    let link: any SessionLink
    let log: LinkEventLog
  }

  private let factory: any SessionLinkFactory
  private var entries: [Entry] = []

  /// Creates a domain around a factory.
  ///
  /// - Parameter factory: Makes links to the world's host; confined to this domain too.
  public init(factory: any SessionLinkFactory) {
    self.factory = factory
  }

  /// Makes a link and starts it. Its events go to its log, then to `handler`.
  ///
  /// The link holds `handler`, and nothing else of the domain's keeps it: once the link lets go
  /// of its handler, whatever only `handler` captured is released.
  ///
  /// - Parameter handler: Also gets every event, after the log; `nil` for none.
  /// - Returns: The new link's id.
  public func open(handler: Handler? = nil) -> LinkID {
    let id = LinkID(index: entries.count)
    let link = factory.makeLink()
    let log = LinkEventLog()
    entries.append(Entry(link: link, log: log))
    if let handler {
      link.start { [weak self] event in
        log.append(event)
        handler(event) { self?.close(id) }
      }
    } else {
      link.start { log.append($0) }
    }
    return id
  }

  /// The link itself.
  ///
  /// - Parameter id: A link made here.
  /// - Returns: The link.
  public func link(_ id: LinkID) -> any SessionLink {
    entries[id.index].link
  }

  /// What a link delivered.
  ///
  /// - Parameter id: A link made here.
  /// - Returns: Its log, which any thread may read.
  public func log(_ id: LinkID) -> LinkEventLog {
    entries[id.index].log
  }

  /// Every link made here, in order.
  public var links: [LinkID] {
    entries.indices.map { LinkID(index: $0) }
  }

  /// The links that neither side has closed, as far as this domain knows: not closed through
  /// ``close(_:)`` and with no ``SessionTransport/LinkEvent/closed(_:)`` delivered.
  public var openLinks: [LinkID] {
    entries.indices.filter { !entries[$0].log.isClosed }.map { LinkID(index: $0) }
  }

  /// Sends a message on a link.
  ///
  /// - Parameters:
  ///   - message: The message.
  ///   - id: A link made here.
  public func send(_ message: ClientMessage, on id: LinkID) {
    entries[id.index].link.send(message)
  }

  /// Closes a link (again, if it was closed), noting in its log that its owner did.
  ///
  /// - Parameter id: A link made here.
  public func close(_ id: LinkID) {
    let entry = entries[id.index]
    entry.log.markClosedByOwner()
    entry.link.close()
  }
}
