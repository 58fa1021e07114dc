/// A binary min-heap of events ordered by (time, sequence): the one queue of a
/// ``VirtualNetwork``.
///
/// The sequence number counts every event ever pushed, so events due at the same time run in
/// the order they were scheduled, on every run. Push and pop are O(log n).
///
/// > Important: A value, owned by its network.
struct EventQueue<Payload> {
  struct Entry {
    var time: Int64
    var sequence: UInt64
    var payload: Payload
  }

  private(set) var entries: [Entry] = []
  private var nextSequence: UInt64 = 0

  var isEmpty: Bool { entries.isEmpty }
  var count: Int { entries.count }

  /// The time of the earliest event.
  var nextTime: Int64? { entries.first?.time }

  /// Adds an event due at `time`.
  mutating func push(_ payload: Payload, at time: Int64) {
    entries.append(Entry(time: time, sequence: nextSequence, payload: payload))
    nextSequence &+= 1
    siftUp(entries.count - 1)
  }

  /// Removes and returns the earliest event.
  mutating func pop() -> Entry? {
    guard !entries.isEmpty else { return nil }
    if entries.count == 1 { return entries.removeLast() }
    entries.swapAt(0, entries.count - 1)
    let first = entries.removeLast()
    siftDown(0)
    return first
  }

  /// Drops every event.
  mutating func removeAll() {
    entries.removeAll()
  }

  private static func precedes(_ a: Entry, _ b: Entry) -> Bool {
    a.time != b.time ? a.time < b.time : a.sequence < b.sequence
  }

  private mutating func siftUp(_ start: Int) {
    var child = start
    while child > 0 {
      let parent = (child - 1) / 2
      guard Self.precedes(entries[child], entries[parent]) else { return }
      entries.swapAt(child, parent)
      child = parent
    }
  }

  private mutating func siftDown(_ start: Int) {
    var parent = start
    let count = entries.count
    while true {
      let left = 2 * parent + 1
      guard left < count else { return }
      var smallest = left
      let right = left + 1
      if right < count, Self.precedes(entries[right], entries[left]) { smallest = right }
      guard Self.precedes(entries[smallest], entries[parent]) else { return }
      entries.swapAt(smallest, parent)
      parent = smallest
    }
  }
}
