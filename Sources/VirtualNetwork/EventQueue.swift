import SessionTransport

/// The one queue of a ``VirtualNetwork``: events ordered by (time, sequence).
///
/// The sequence number counts every event ever pushed, so events due at the same time run in
/// the order they were scheduled, on every run.
///
/// Two structures keep that order cheaply. Events due later sit in a binary min-heap of plain
/// keys (time, sequence, slot), their payloads in a slot table, so sifting moves 24-byte values
/// only: push and pop are O(log n). Events due exactly at the current time (every zero-delay
/// delivery) go to a FIFO instead, O(1): they all share that time and arrive in sequence order,
/// and `pop` takes whichever of the two fronts comes first.
///
/// > Important: A value, owned by its network.
struct EventQueue {
  struct Entry {
    var time: Int64
    var sequence: UInt64
    var payload: PendingEvent
  }

  private struct Key {
    var time: Int64
    var sequence: UInt64
    var slot: Int
  }

  private var heap: [Key] = []
  private var slots: [PendingEvent?] = []
  private var freeSlots: [Int] = []
  /// Events due at `fifoTime`, in sequence order, from `fifoHead` on.
  private var fifo: [(sequence: UInt64, payload: PendingEvent)] = []
  private var fifoHead = 0
  private var fifoTime: Int64 = .min
  private var nextSequence: UInt64 = 0

  var isEmpty: Bool { heap.isEmpty && fifoHead == fifo.count }
  var count: Int { heap.count + fifo.count - fifoHead }

  /// The time of the earliest event.
  var nextTime: Int64? {
    let fifoFront: Int64? = fifoHead < fifo.count ? fifoTime : nil
    guard let top = heap.first else { return fifoFront }
    guard let fifoFront else { return top.time }
    return min(top.time, fifoFront)
  }

  /// Every event, in no particular order (for reports).
  var entries: [Entry] {
    var result: [Entry] = []
    for key in heap {
      if let payload = slots[key.slot] {
        result.append(Entry(time: key.time, sequence: key.sequence, payload: payload))
      }
    }
    for index in fifoHead..<fifo.count {
      result.append(
        Entry(time: fifoTime, sequence: fifo[index].sequence, payload: fifo[index].payload))
    }
    return result
  }

  /// The next delivery of a server message the FIFO holds (the event most likely to run after
  /// the one just popped), for a lookahead hint; `nil` when the FIFO's front is something else.
  var nextDeliveryInFIFO: (Connection, ServerMessage)? {
    guard fifoHead < fifo.count else { return nil }
    switch fifo[fifoHead].payload {
    case .reliable(let message):
      guard case .server(let server) = message.packet else { return nil }
      return (message.connection, server)
    case .fanOut(let fanOut):
      return fanOut.connections.first.map { ($0, fanOut.message) }
    default:
      return nil
    }
  }

  /// Adds an event due at `time`; `now` is the queue owner's current time (`time ≥ now`).
  mutating func push(_ payload: PendingEvent, at time: Int64, now: Int64) {
    let sequence = nextSequence
    nextSequence &+= 1
    if time == now, fifoHead == fifo.count || fifoTime == time {
      if fifoHead == fifo.count {
        fifo.removeAll(keepingCapacity: true)
        fifoHead = 0
        fifoTime = time
      }
      fifo.append((sequence, payload))
      return
    }
    let slot: Int
    if let free = freeSlots.popLast() {
      slot = free
      slots[slot] = payload
    } else {
      slot = slots.count
      slots.append(payload)
    }
    heap.append(Key(time: time, sequence: sequence, slot: slot))
    siftUp(heap.count - 1)
  }

  /// Removes and returns the earliest event.
  mutating func pop() -> Entry? {
    if fifoHead < fifo.count {
      if let top = heap.first,
        top.time < fifoTime || (top.time == fifoTime && top.sequence < fifo[fifoHead].sequence)
      {
        return popHeap()
      }
      let (sequence, payload) = fifo[fifoHead]
      fifoHead += 1
      if fifoHead == fifo.count {
        fifo.removeAll(keepingCapacity: true)
        fifoHead = 0
      }
      return Entry(time: fifoTime, sequence: sequence, payload: payload)
    }
    return popHeap()
  }

  private mutating func popHeap() -> Entry? {
    guard let top = heap.first else { return nil }
    let last = heap.removeLast()
    if !heap.isEmpty {
      heap[0] = last
      siftDown(0)
    }
    // Every key's slot holds its payload until the key is popped.
    guard let payload = slots[top.slot] else { return nil }
    slots[top.slot] = nil
    freeSlots.append(top.slot)
    return Entry(time: top.time, sequence: top.sequence, payload: payload)
  }

  /// Drops every event.
  mutating func removeAll() {
    heap.removeAll()
    slots.removeAll()
    freeSlots.removeAll()
    fifo.removeAll()
    fifoHead = 0
  }

  private static func precedes(_ a: Key, _ b: Key) -> Bool {
    a.time != b.time ? a.time < b.time : a.sequence < b.sequence
  }

  private mutating func siftUp(_ start: Int) {
    let moving = heap[start]
    var child = start
    while child > 0 {
      let parent = (child - 1) / 2
      guard Self.precedes(moving, heap[parent]) else { break }
      heap[child] = heap[parent]
      child = parent
    }
    heap[child] = moving
  }

  private mutating func siftDown(_ start: Int) {
    let moving = heap[start]
    var parent = start
    let count = heap.count
    while true {
      let left = 2 * parent + 1
      guard left < count else { break }
      var smallest = left
      let right = left + 1
      if right < count, Self.precedes(heap[right], heap[left]) { smallest = right }
      guard Self.precedes(heap[smallest], moving) else { break }
      heap[parent] = heap[smallest]
      parent = smallest
    }
    heap[parent] = moving
  }
}
