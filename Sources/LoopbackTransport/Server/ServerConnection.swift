import SessionTransport

/// One accepted connection of a ``LoopbackServer``: its TCP connection, its id as the host
/// knows it, and its state machine.
///
/// > Important: Loop-confined, owned by the server's core.
final class ServerConnection {
  /// The id the host knows the connection by.
  let id: ConnectionID
  /// The TCP connection.
  let tcp: TCPConnection
  /// Where the connection is in its life.
  var machine: ServerConnectionStateMachine
  /// The name the client gave in its hello, escaped for logs (``LogText/escaped(_:limit:)``).
  var clientName: String?
  /// Why the server closed the connection on purpose, for the log line of its close.
  var closeDetail: String?
  /// The connection's share of the core's ``ServerCore/bufferedBytes``: its unfinished frame's
  /// bytes as of its last read.
  var bufferedBytes = 0
  /// Whether the connection is out of a session (not yet sent a `joined`, or sent a `left`
  /// since) and not closing: counted against
  /// ``LoopbackServerConfiguration/maxPendingConnections``, and closed at its admission
  /// deadline.
  var isPending = false
  /// Bumped each time the connection becomes pending, so that its older entries in the
  /// server's ``PendingQueue`` are known to be stale.
  var pendingEpoch = 0
  /// Whether the server closes the connection (on purpose, a goodbye first, or cut): it no
  /// longer counts against the caps on open connections.
  var isClosing = false
  /// The connection's log lines' allowance.
  var logBucket: LogTokenBucket

  init(
    id: ConnectionID, tcp: TCPConnection, machine: ServerConnectionStateMachine,
    logBucket: LogTokenBucket
  ) {
    self.id = id
    self.tcp = tcp
    self.machine = machine
    self.logBucket = logBucket
  }
}

/// Loop-confined: reached only from the server core on its loop.
@available(*, unavailable)
extension ServerConnection: Sendable {}

/// A first-in, first-out array: items leave from a moving head, and the storage is compacted
/// when the head has passed half of it (or all of it), so each item costs O(1) amortised.
///
/// > Important: A value; owned by the queue that holds it, on the server's loop.
struct HeadQueue<Element> {
  private var entries: [Element] = []
  private var head = 0

  /// Adds an item at the back.
  mutating func append(_ element: Element) { entries.append(element) }

  /// The item at the front, if any.
  var first: Element? { head < entries.count ? entries[head] : nil }

  /// Removes the item at the front (nothing when empty).
  mutating func removeFirst() {
    guard head < entries.count else { return }
    head += 1
    if head == entries.count {
      entries.removeAll(keepingCapacity: entries.count <= 4_096)
      head = 0
    } else if head > 1_024, head * 2 > entries.count {
      entries.removeFirst(head)
      head = 0
    }
  }

  /// How many items wait.
  var count: Int { entries.count - head }
}

/// Connection ids in the order their deadlines fall due.
///
/// Every connection in one queue gets the same timeout, so appending keeps the queue sorted and
/// expiring is O(1) amortised per connection.
///
/// > Important: A value owned by the server core; loop-confined with it.
struct DeadlineQueue {
  private var entries = HeadQueue<(id: ConnectionID, deadline: UInt64)>()

  /// Adds a connection whose deadline is `deadline` (not earlier than any queued one).
  mutating func append(_ id: ConnectionID, deadline: UInt64) {
    entries.append((id, deadline))
  }

  /// Removes and returns the ids whose deadline is at or before `now`, oldest first.
  mutating func popDue(now: UInt64) -> [ConnectionID] {
    var due: [ConnectionID] = []
    while let entry = entries.first, entry.deadline <= now {
      due.append(entry.id)
      entries.removeFirst()
    }
    return due
  }

  /// How many entries wait.
  var count: Int { entries.count }
}

/// The connections out of a session, oldest first, with the deadline by which each must be in
/// one: the order in which ``LoopbackServerConfiguration/maxPendingConnections`` evicts them
/// and ``LoopbackServerConfiguration/admissionTimeout`` closes them.
///
/// Entries are appended in time order with one timeout, so the queue stays sorted by deadline;
/// an entry whose connection was admitted, closed or made pending again (a newer epoch) is
/// stale and skipped when it reaches the head. O(1) amortised per entry.
///
/// > Important: A value owned by the server core; loop-confined with it.
struct PendingQueue {
  struct Entry {
    var id: ConnectionID
    var epoch: Int
    var deadline: UInt64
  }

  private var entries = HeadQueue<Entry>()

  /// Adds a connection that became pending at `epoch`, due at `deadline`.
  mutating func append(_ id: ConnectionID, epoch: Int, deadline: UInt64) {
    entries.append(Entry(id: id, epoch: epoch, deadline: deadline))
  }

  /// Drops stale entries from the head, then returns the oldest live one without removing it.
  ///
  /// - Parameter isLive: Whether an entry still stands for a pending connection.
  mutating func oldest(where isLive: (Entry) -> Bool) -> Entry? {
    while let entry = entries.first {
      if isLive(entry) { return entry }
      entries.removeFirst()
    }
    return nil
  }

  /// Removes the head entry (after ``oldest(where:)`` returned it).
  mutating func removeOldest() { entries.removeFirst() }

  /// How many entries wait, stale ones included.
  var count: Int { entries.count }
}
