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

  init(id: ConnectionID, tcp: TCPConnection, machine: ServerConnectionStateMachine) {
    self.id = id
    self.tcp = tcp
    self.machine = machine
  }
}

/// Loop-confined: reached only from the server core on its loop.
@available(*, unavailable)
extension ServerConnection: Sendable {}

/// Connection ids in the order their deadlines fall due.
///
/// Every connection in one queue gets the same timeout, so appending keeps the queue sorted and
/// expiring is O(1) amortised per connection.
///
/// > Important: A value owned by the server core; loop-confined with it.
struct DeadlineQueue {
  private var entries: [(id: ConnectionID, deadline: UInt64)] = []
  private var head = 0

  /// Adds a connection whose deadline is `deadline` (not earlier than any queued one).
  mutating func append(_ id: ConnectionID, deadline: UInt64) {
    entries.append((id, deadline))
  }

  /// Removes and returns the ids whose deadline is at or before `now`, oldest first.
  mutating func popDue(now: UInt64) -> [ConnectionID] {
    var due: [ConnectionID] = []
    while head < entries.count, entries[head].deadline <= now {
      due.append(entries[head].id)
      head += 1
    }
    if head == entries.count {
      entries.removeAll(keepingCapacity: entries.count <= 4_096)
      head = 0
    } else if head > 1_024, head * 2 > entries.count {
      entries.removeFirst(head)
      head = 0
    }
    return due
  }

  /// How many entries wait.
  var count: Int { entries.count - head }
}
