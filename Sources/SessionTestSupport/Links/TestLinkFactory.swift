import SessionCore
import SessionTransport

/// A link factory for tests that wraps the one an instance would use, and so reaches what a
/// test needs of the links without any hook in the SDK: the real link in use (to sever it),
/// closes held back as if the instance had not noticed yet, later links pointed at another
/// service (a restart), and the media credential the service sent.
///
/// ```swift
/// let links = TestLinkFactory(wrapping: network)
/// initParams.transport = links
/// // … join …
/// links.holdCloses()
/// network.sever(try #require(links.currentLink))   // the instance hears nothing yet
/// links.releaseCloses()                             // now it does, and resumes
/// ```
///
/// > Important: Confined to the isolation domain of the instance that uses it, as its links
/// > are: call it where the instance's callbacks run (the loop thread for a loopback link).
public final class TestLinkFactory: SessionLinkFactory {
  /// Where new links come from; set it to point later links elsewhere, as after a service
  /// restart (the current link is not touched).
  public var target: any SessionLinkFactory
  /// The link of the newest ``makeLink()``, as the wrapped factory made it.
  public private(set) var currentLink: (any SessionLink)?
  /// The media credential the service sent on the newest link, if any.
  public private(set) var mediaCredential: MediaCredential?
  private var holds = false
  private var heldCloses: [(reason: LinkCloseReason, deliver: (LinkEvent) -> Void)] = []

  /// Wraps `target`.
  ///
  /// - Parameter target: The factory whose links the instance gets, passed through.
  public init(wrapping target: any SessionLinkFactory) {
    self.target = target
  }

  /// A new link of ``target``'s, wrapped.
  ///
  /// - Returns: A link that passes everything through, but for closes while they are held.
  public func makeLink() -> any SessionLink {
    let inner = target.makeLink()
    currentLink = inner
    mediaCredential = nil
    return Link(inner: inner, factory: self)
  }

  /// From now on, a link's close is kept from the instance until ``releaseCloses()``, as if it
  /// had not noticed the loss yet.
  public func holdCloses() { holds = true }

  /// Delivers the closes held back, in order, and stops holding them.
  public func releaseCloses() {
    holds = false
    let held = heldCloses
    heldCloses = []
    for (reason, deliver) in held { deliver(.closed(reason)) }
  }

  fileprivate func pass(_ event: LinkEvent, to handler: @escaping (LinkEvent) -> Void) {
    switch event {
    case .closed(let reason) where holds:
      heldCloses.append((reason, handler))
    case .message(.media(.credential(let credential))):
      mediaCredential = credential
      handler(event)
    default:
      handler(event)
    }
  }

  /// One wrapped link.
  private final class Link: SessionLink {
    let inner: any SessionLink
    weak var factory: TestLinkFactory?

    init(inner: any SessionLink, factory: TestLinkFactory) {
      self.inner = inner
      self.factory = factory
    }

    func start(_ handler: @escaping (LinkEvent) -> Void) {
      inner.start { [weak factory] event in
        guard let factory else { return handler(event) }
        factory.pass(event, to: handler)
      }
    }

    func send(_ message: ClientMessage) { inner.send(message) }

    func close() { inner.close() }
  }
}
