@_spi(Package) import SessionCore
import SessionTransport
import Synchronization

/// The pump: every piece of work that changes the replica runs here, one at a time.
extension SDKEngine {
  /// Runs `work` now, or after the work in progress when called from inside it (from a
  /// callback, a store observer or a link delivering synchronously). Everything that changes
  /// the replica goes through here, so each event's callbacks finish before the next applies.
  func submit(_ work: Work) {
    guard !isPumping else {
      inbox.append(work)
      return
    }
    isPumping = true
    defer { isPumping = false }
    // The inbox is empty whenever nothing is pumping, so this work goes first: run it without
    // the round trip through the inbox (a copy in, a copy out).
    process(work)
    drainInbox()
  }

  /// A message from the link: `submit(.message(message, generation:))` without wrapping the
  /// message in a `Work` value when nothing is pumping (every delivery of a fan-out).
  func receive(_ message: ServerMessage, generation: UInt64) {
    guard !isPumping else {
      inbox.append(.message(message, generation: generation))
      return
    }
    isPumping = true
    defer { isPumping = false }
    // The generation alone tells a current link: closing one moves the generation on, and
    // `link` is set for the generation a new link starts with.
    if generation == linkGeneration { handle(message) }
    drainInbox()
  }

  /// An event from the media link: `submit(.media(event, generation:))` without wrapping it in
  /// a `Work` value when nothing is pumping (every datagram and tick).
  func receiveMedia(_ event: MediaLinkEvent, generation: UInt64) {
    guard !isPumping else {
      inbox.append(.media(event, generation: generation))
      return
    }
    isPumping = true
    defer { isPumping = false }
    if generation == mediaPlane.generation { handleMedia(event) }
    drainInbox()
  }

  /// Runs the work queued while something was pumping, and what that queues, in order.
  ///
  /// The check comes first and alone: on the path of every delivery the inbox is empty, and an
  /// empty pop would make and drop an optional `Work` (about 50 instructions; callgrind).
  @inline(__always)
  private func drainInbox() {
    guard !inbox.isEmpty else { return }
    while let next = inbox.popFirst() { process(next) }
  }

  private func process(_ work: Work) {
    switch work {
    case .local(let event):
      apply(event)
    case .message(let message, let generation):
      guard generation == linkGeneration, link != nil else { return }
      handle(message)
    case .linkClosed(let reason, let generation):
      guard generation == linkGeneration, link != nil else { return }
      linkDidClose(reason)
    case .callback(let callback, let view):
      deliver(callback, view: view.view)
    case .replay(let event, let result):
      result.applied = startReplay(event)
    case .media(let event, let generation):
      guard generation == mediaPlane.generation else { return }
      handleMedia(event)
    }
  }
}
