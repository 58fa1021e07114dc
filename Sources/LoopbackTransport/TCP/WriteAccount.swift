/// The bytes a group of ``TCPConnection``s hold for writing, added up: a server's write
/// budget across all its connections (``LoopbackServerConfiguration/maxQueuedWriteBytesTotal``).
///
/// Each connection whose ``TCPConnection/writeAccount`` is this account adds what it queues
/// and subtracts what libuv reports written, dropped or cancelled, so ``heldBytes`` is always
/// the sum of their ``TCPConnection/heldWriteBytes``.
///
/// > Important: Loop-confined: shared by connections of one loop, used on its thread only.
package final class WriteAccount {
  /// The sum of the member connections' ``TCPConnection/heldWriteBytes``.
  ///
  /// Unchecked exclusivity: loop-confined; every frame sent updates it with one add.
  @exclusivity(unchecked) package internal(set) var heldBytes = 0

  /// An empty account.
  package init() {}
}

/// Loop-confined.
@available(*, unavailable)
extension WriteAccount: Sendable {}
