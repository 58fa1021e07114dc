import SessionCore
import SessionService
import SessionTransport
import Synchronization

/// Stands between the world and the service and writes down, per connection, whose it is
/// and which chat messages the service sent on it: the oracle for "no chat message lost".
///
/// > Important: Called on the service's domain (the world's thread, or the server loop in
/// > loopback mode) and read on the runner's; the record sits behind a mutex, and the
/// > service is touched only on its own domain (hence `@unchecked Sendable`, which lets a
/// > loopback server's host factory hand it over).
package final class HostTap: SessionHost, @unchecked Sendable {
  /// What the service did with one connection.
  struct ConnectionRecord: Sendable {
    /// The peer it belongs to, once a join or resume named one.
    var peer: String?
    /// Whether the service admitted it (sent `.joined`).
    var admitted = false
    /// Whether it closed, either side.
    var closed = false
    /// How many chat messages the log held when it was admitted: broadcasts before that
    /// place owe it nothing.
    var admittedAt: Int32 = 0
    /// Chat messages sent on it after the admission, in order, as runs of places in
    /// ``Record/chatLog``: sent to it alone, or folded in from ``Record/broadcasts``.
    var chats: [Range<Int32>] = []

    /// Adds the places `places` after those already noted.
    mutating func noteChats(_ places: Range<Int32>) {
      if let last = chats.last, last.upperBound == places.lowerBound {
        chats[chats.count - 1] = last.lowerBound..<places.upperBound
      } else {
        chats.append(places)
      }
    }
  }

  /// Chat messages broadcast to one version of a group, at consecutive places: noted once,
  /// not once per receiver (a thousand receivers' records, each on its own cache lines, were
  /// two misses each per broadcast), and folded into the receivers' records only when asked
  /// for or when the runs hold too many receivers.
  private struct BroadcastRun: Sendable {
    var group: FanOutGroup
    var places: Range<Int32>
  }

  private struct Record: Sendable {
    var connections: [ConnectionID: ConnectionRecord] = [:]
    var pendingNames: [ConnectionID: String] = [:]
    var peerOfUser: [UserID: String] = [:]
    /// Each peer's newest admitted connection.
    var current: [String: ConnectionID] = [:]
    /// Every chat message id the service sent, once each, in order.
    var chatLog: [String] = []
    /// Broadcasts not yet folded into ``connections``, in order.
    var broadcasts: [BroadcastRun] = []
    /// How many receivers ``broadcasts`` lists in all.
    var broadcastReceivers = 0

    /// Adds each run's places to the records of its receivers that were admitted before it
    /// and are still open, and forgets the runs.
    mutating func foldBroadcasts() {
      for run in broadcasts {
        for connection in run.group.connections {
          guard let index = connections.index(forKey: connection) else { continue }
          let entry = connections.values[index]
          // Only what came after the admission (a run may have started before it).
          let owed = max(run.places.lowerBound, entry.admittedAt)..<run.places.upperBound
          guard entry.admitted, !entry.closed, !owed.isEmpty else { continue }
          connections.values[index].noteChats(owed)
        }
      }
      broadcasts = []
      broadcastReceivers = 0
    }
  }

  /// The most receivers the unfolded broadcasts may list (about 32 MB of ids).
  private static let foldLimit = 4 << 20

  package let service: SessionService
  private let record = Mutex(Record())
  /// When the service first sent each event, by sequence number (index 0 for sequence 1), in
  /// the clock's milliseconds, once ``noteSendTimes(clock:)`` ran: what a run's report measures
  /// callback latency from.
  private let sendTimes = Mutex(SendTimes())
  /// Whether ``sendTimes`` is on: read without the lock for every message the service sends.
  private let notesSendTimes = Atomic<Bool>(false)

  private struct SendTimes: Sendable {
    var clock: (@Sendable () -> Int64)?
    var times: [Int64] = []
  }

  package init(_ service: SessionService) { self.service = service }

  package func attach(output: @escaping (HostOutput) -> Void) {
    // Unowned(unsafe): the tap owns the service, which holds this closure.
    service.attach { [unowned(unsafe) self] item in
      self.record.withLock { record in HostTap.note(item, in: &record) }
      self.noteSendTime(of: item)
      output(item)
    }
  }

  /// Starts noting when the service first sends each event: ``sentAt(sequence:)`` answers
  /// from then on.
  ///
  /// - Parameter clock: Milliseconds since the run started, read on the service's domain.
  package func noteSendTimes(clock: @escaping @Sendable () -> Int64) {
    sendTimes.withLock { $0.clock = clock }
    notesSendTimes.store(true, ordering: .releasing)
  }

  /// When the service first sent the event with this sequence number, if noted.
  ///
  /// - Parameter sequence: The event's sequence number.
  /// - Returns: Milliseconds since the run started; `nil` when not noted.
  package func sentAt(sequence: UInt64) -> Int64? {
    sendTimes.withLock { noted in
      guard sequence > 0, sequence <= UInt64(noted.times.count) else { return nil }
      return noted.times[Int(sequence - 1)]
    }
  }

  private func noteSendTime(of item: HostOutput) {
    guard notesSendTimes.load(ordering: .acquiring) else { return }
    let message: ServerMessage
    switch item {
    case .send(let sent, _), .broadcast(let sent, _): message = sent
    default: return
    }
    guard case .events(let batch) = message else { return }
    sendTimes.withLock { noted in
      guard let clock = noted.clock else { return }
      let last = batch.firstSequence &+ UInt64(batch.events.count) &- 1
      // Only sequence numbers after the noted ones, and not absurdly far past them.
      guard last > UInt64(noted.times.count), last - UInt64(noted.times.count) < 1 << 20 else {
        return
      }
      let now = clock()
      while UInt64(noted.times.count) < last { noted.times.append(now) }
    }
  }

  package func connectionOpened(_ connection: ConnectionID, now: Int64) {
    service.connectionOpened(connection, now: now)
  }

  package func receive(_ message: ClientMessage, from connection: ConnectionID, now: Int64) {
    record.withLock { record in
      switch message {
      case .join(let request): record.pendingNames[connection] = request.userName
      case .resume(let request):
        if let peer = record.peerOfUser[request.user] { record.pendingNames[connection] = peer }
      default: break
      }
    }
    service.receive(message, from: connection, now: now)
  }

  package func connectionClosed(_ connection: ConnectionID, now: Int64) {
    record.withLock { record in
      if record.connections[connection] != nil {
        record.connections[connection] = ConnectionRecord(closed: true)
      }
    }
    service.connectionClosed(connection, now: now)
  }

  package func tick(now: Int64) { service.tick(now: now) }
}

/// The media plane passes straight through: the tap records nothing of it.
extension HostTap: MediaHost {
  package func attachMedia(output: @escaping (MediaHostOutput) -> Void) {
    service.attachMedia(output: output)
  }

  package func receiveDatagram(_ bytes: [UInt8], from endpoint: MediaEndpointID, now: Int64) {
    service.receiveDatagram(bytes, from: endpoint, now: now)
  }
}

extension HostTap {

  /// The chat messages each peer's current connection must have delivered, for connections
  /// that are still open.
  package func expectedChat() -> ExpectedChat {
    record.withLock { record in
      record.foldBroadcasts()
      var places: [String: [Range<Int32>]] = [:]
      for (peer, connection) in record.current {
        guard let entry = record.connections[connection], !entry.closed else { continue }
        // In place order: messages sent to it alone were noted before the folded broadcasts.
        places[peer] = entry.chats.sorted { $0.lowerBound < $1.lowerBound }
      }
      return ExpectedChat(log: record.chatLog, places: places)
    }
  }

  private static func note(_ item: HostOutput, in record: inout Record) {
    switch item {
    case .send(let message, let connection):
      note(message, on: connection, in: &record)
    case .broadcast(let message, let group):
      let ids = message.chatIDs
      guard !ids.isEmpty else { return }
      // Logged once, and the run of places noted once for the whole group.
      let first = record.chatLog.count
      record.chatLog.append(contentsOf: ids)
      let places = Int32(first)..<Int32(record.chatLog.count)
      if let last = record.broadcasts.last, group.id != 0, last.group.id == group.id,
        last.group.version == group.version, last.places.upperBound == places.lowerBound
      {
        record.broadcasts[record.broadcasts.count - 1].places =
          last.places.lowerBound..<places.upperBound
      } else {
        record.broadcasts.append(BroadcastRun(group: group, places: places))
        record.broadcastReceivers += group.connections.count
        if record.broadcastReceivers > foldLimit { record.foldBroadcasts() }
      }
    case .close(let connection, _):
      // A closed connection owes nothing more: forget its messages.
      if record.connections[connection] != nil {
        record.connections[connection] = ConnectionRecord(closed: true)
      }
    }
  }

  private static func note(
    _ message: ServerMessage, on connection: ConnectionID, in record: inout Record
  ) {
    switch message {
    case .joined(let snapshot, _):
      guard let peer = record.pendingNames.removeValue(forKey: connection) else { return }
      record.peerOfUser[snapshot.myself] = peer
      // Only the newest admitted connection of a peer is owed anything.
      if let older = record.current[peer], older != connection {
        record.connections[older] = nil
      }
      record.connections[connection] = ConnectionRecord(
        peer: peer, admitted: true, admittedAt: Int32(record.chatLog.count))
      record.current[peer] = connection
    case .events, .notice:
      let ids = message.chatIDs
      guard !ids.isEmpty, record.connections[connection]?.admitted == true else { return }
      let first = Int32(record.chatLog.count)
      record.chatLog.append(contentsOf: ids)
      record.connections[connection]?.noteChats(first..<Int32(record.chatLog.count))
    case .left:
      if record.connections[connection] != nil {
        record.connections[connection] = ConnectionRecord(closed: true)
      }
    default:
      break
    }
  }
}

/// Per peer, the chat messages the service sent on that peer's current, still-open connection:
/// what the peer's callbacks must have delivered. Each message is a place in one log of ids,
/// so a broadcast to a thousand peers is one id and a thousand ranges that grow, and checking
/// it numbers each id once, not once per receiver.
///
/// A value.
public struct ExpectedChat: Sendable {
  /// Every chat message id the service sent, once each, in order.
  private(set) var log: [String]
  /// Per peer, runs of places in ``log``.
  private(set) var places: [String: [Range<Int32>]]

  /// Nothing expected.
  public init() {
    self.init(log: [], places: [:])
  }

  init(log: [String], places: [String: [Range<Int32>]]) {
    self.log = log
    self.places = places
  }

  /// Adds `id` to what `peer` must have delivered (a world that checks the checks).
  ///
  /// - Parameters:
  ///   - id: A message id.
  ///   - peer: The peer's name.
  public mutating func expect(_ id: String, of peer: String) {
    let place = Int32(log.count)
    log.append(id)
    places[peer, default: []].append(place..<(place + 1))
  }

  /// Calls `body` with the place in ``log`` of each message `peer` must have delivered.
  func forEachPlace(of peer: String, _ body: (Int) -> Void) {
    for run in places[peer] ?? [] {
      for place in run { body(Int(place)) }
    }
  }
}

extension ServerMessage {
  /// The ids of the chat messages it carries, in order: a batch's, or a private notice's.
  fileprivate var chatIDs: [String] {
    switch self {
    case .events(let batch):
      guard batch.events.contains(where: \.isChat) else { return [] }
      return batch.events.compactMap {
        if case .chatMessageReceived(let chat) = $0 { chat.id } else { nil }
      }
    case .notice(.chatMessageReceived(let chat)):
      return [chat.id]
    default:
      return []
    }
  }
}

extension SessionEvent {
  fileprivate var isChat: Bool {
    if case .chatMessageReceived = self { return true }
    return false
  }
}
