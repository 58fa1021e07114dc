/// The bytes a proxy lane holds back (``ProxyLane``'s chunks, ``MediaProxyLane``'s
/// datagrams), first in, first out, each with the time it may go, and their total size.
///
/// Taking the first is O(1): the taken slots are dropped in bulk, once the queue empties or
/// once they are most of it; a queue that grew large gives its storage back when it empties.
///
/// > Important: A value, owned by one lane on its proxy's loop.
struct HeldQueue<Time: Comparable> {
  private struct Held {
    var bytes: [UInt8]
    var releaseAt: Time
  }

  private var held: [Held] = []
  /// The first still held; those before it went.
  private var head = 0
  /// Bytes held now.
  private(set) var heldBytes = 0

  /// How many are held now.
  var count: Int { held.count - head }

  /// Whether nothing is held.
  var isEmpty: Bool { head == held.count }

  /// The release time of the first held, or `nil` when nothing is.
  var firstReleaseAt: Time? { isEmpty ? nil : held[head].releaseAt }

  /// Holds a copy of `bytes` behind the rest, to go at `releaseAt`.
  mutating func append(_ bytes: UnsafeRawBufferPointer, releaseAt: Time) {
    held.append(Held(bytes: Array(bytes), releaseAt: releaseAt))
    heldBytes += bytes.count
  }

  /// Takes the first held out; the queue must not be empty.
  ///
  /// - Returns: Its bytes.
  mutating func removeFirst() -> [UInt8] {
    let bytes = held[head].bytes
    held[head].bytes = []
    head += 1
    heldBytes -= bytes.count
    if head == held.count {
      held.removeAll(keepingCapacity: held.capacity <= 1_024)
      head = 0
    } else if head >= 64, head * 2 >= held.count {
      held.removeFirst(head)
      head = 0
    }
    return bytes
  }

  /// Drops everything held.
  mutating func removeAll() {
    held.removeAll()
    head = 0
    heldBytes = 0
  }
}
