@_spi(Package) import SessionCore
import SessionTransport
import Synchronization

/// The link: opening, closing, and letting go when the facade goes.
extension SDKEngine {
  /// Opens a fresh link for a join; messages from older links are ignored from now on.
  ///
  /// The link's handler holds the engine strongly, so a delivery loads no weak reference
  /// (Decision 0008). That makes a cycle while the link is open (engine → link factory → link
  /// → handler → engine); closing the link breaks it, and the facade closes the link when the
  /// app lets go of it (`ownerReleased()`).
  func openLink(_ factory: any SessionLinkFactory) -> any SessionLink {
    closeLink()
    let link = factory.makeLink()
    self.link = link
    linkForRelease.withLock { $0 = LinkBox(link: link) }
    let generation = linkGeneration
    (link as? any LookaheadLink)?.setLookahead(self)
    link.start { event in
      switch event {
      case .message(let message):
        self.receive(message, generation: generation)
      case .closed(let reason):
        self.submit(.linkClosed(reason, generation: generation))
      }
    }
    return link
  }

  /// Closes the current link, if any; harmless twice.
  func closeLink() {
    linkGeneration &+= 1
    guard let link else { return }
    self.link = nil
    linkForRelease.withLock { $0 = nil }
    link.close()
  }

  /// The facade is gone: close the link, which drops its handler and with it the engine.
  ///
  /// Runs where the app released its last reference to the facade, which may be off the
  /// engine's domain (a `LoopBound` dropped on another thread), so it touches nothing but the
  /// lock-guarded copy of the link; a link whose `close()` is confined to a loop hops there.
  /// The service sees the connection close, as when a peer's process dies (Decision 0004).
  func ownerReleased() {
    let box = linkForRelease.withLock { box in
      defer { box = nil }
      return box
    }
    box?.link.close()
    let mediaBox = mediaLinkForRelease.withLock { box in
      defer { box = nil }
      return box
    }
    mediaBox?.link.close()
  }
}

/// The engine's current media link, for the facade's `deinit` to close from whatever thread
/// it runs on.
///
/// `@unchecked Sendable`: as ``LinkBox``; the link is used there only through `close()`.
struct MediaLinkBox: @unchecked Sendable {
  let link: any MediaLink
}

/// The engine's current link, for the facade's `deinit` to close from whatever thread it runs
/// on.
///
/// `@unchecked Sendable`: the box only carries the link to `ownerReleased()` through the
/// engine's lock; the link is used there only through `close()`, which ``SessionLink``
/// allows from another thread when the instance that owns it is released there.
struct LinkBox: @unchecked Sendable {
  let link: any SessionLink
}
