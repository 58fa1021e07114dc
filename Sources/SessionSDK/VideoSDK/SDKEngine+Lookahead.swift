@_spi(Package) import SessionCore
import SessionTransport
import Synchronization

/// What a network reads to prefetch this engine's memory a few deliveries ahead (Decision
/// 0009).
extension SDKEngine {
  /// The store's first six cache lines hold the flags and the state's table headers, which
  /// ``linkWillDeliver(_:)`` reads to find what to fetch next: a network prefetches them a few
  /// deliveries ahead. The store is a constant of the engine, so the address holds as long as
  /// the link holds the engine.
  var lookaheadAddress: UnsafeRawPointer? {
    UnsafeRawPointer(Unmanaged.passUnretained(store).toOpaque())
  }

  /// A fan-out's next message for this instance: start fetching the participant and the
  /// handle list its callback will touch, while the instance before this one works
  /// (Decision 0009). Nothing is read that a view could observe, and nothing changes.
  func linkWillDeliver(_ message: ServerMessage) {
    guard case .events(let batch) = message, !batch.events.isEmpty else { return }
    if let user = batch.events[0].statusSubject {
      if let address = store.participantAddress(user) { prefetchMemory(at: address) }
      handles.prefetch(user)
      return
    }
    switch batch.events[0] {
    case .usersJoined(let joiners) where joiners.count == 1:
      // A join storm: every member appends the joiner to its tables and makes a handle.
      store.forEachJoinerAddress(joiners[0].id) { prefetchMemory(at: $0) }
      handles.prefetchSlot(joiners[0].id)
    case .chatMessageReceived(let message):
      // A chat to everyone: every member finds the sender, checks and keeps the id, and
      // appends the message.
      store.forEachChatAddress(message) { prefetchMemory(at: $0) }
    default:
      break
    }
  }
}
