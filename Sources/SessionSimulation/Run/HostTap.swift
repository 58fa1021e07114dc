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
    /// Chat messages sent on it after the admission, in order, as runs of places in
    /// ``Record/chatLog``: a place costs no retain of the id, and a broadcast to every member
    /// extends each receiver's last run instead of appending to a list that grows with the run.
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

  private struct Record: Sendable {
    var connections: [ConnectionID: ConnectionRecord] = [:]
    var pendingNames: [ConnectionID: String] = [:]
    var peerOfUser: [UserID: String] = [:]
    /// Each peer's newest admitted connection.
    var current: [String: ConnectionID] = [:]
    /// Every chat message id the service sent, once each, in order.
    var chatLog: [String] = []
  }

  package let service: SessionService
  private let record = Mutex(Record())

  package init(_ service: SessionService) { self.service = service }

  package func attach(output: @escaping (HostOutput) -> Void) {
    // Unowned(unsafe): the tap owns the service, which holds this closure.
    service.attach { [unowned(unsafe) self] item in
      self.record.withLock { record in HostTap.note(item, in: &record) }
      output(item)
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
      var places: [String: [Range<Int32>]] = [:]
      for (peer, connection) in record.current {
        guard let entry = record.connections[connection], !entry.closed else { continue }
        places[peer] = entry.chats
      }
      return ExpectedChat(log: record.chatLog, places: places)
    }
  }

  private static func note(_ item: HostOutput, in record: inout Record) {
    switch item {
    case .send(let message, let connection):
      note(message, on: connection, in: &record)
    case .broadcast(let message, let group):
      guard case .events(let batch) = message,
        batch.events.contains(where: \.isChat)
      else { return }
      // Logged once, then its places added to each receiver's list.
      let first = record.chatLog.count
      for event in batch.events {
        if case .chatMessageReceived(let chat) = event { record.chatLog.append(chat.id) }
      }
      let places = Int32(first)..<Int32(record.chatLog.count)
      for connection in group.connections {
        guard let index = record.connections.index(forKey: connection),
          record.connections.values[index].admitted
        else { continue }
        record.connections.values[index].noteChats(places)
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
      record.connections[connection] = ConnectionRecord(peer: peer, admitted: true)
      record.current[peer] = connection
    case .events(let batch):
      guard record.connections[connection]?.admitted == true else { return }
      for event in batch.events {
        if case .chatMessageReceived(let chat) = event {
          let place = Int32(record.chatLog.count)
          record.connections[connection]?.noteChats(place..<(place + 1))
          record.chatLog.append(chat.id)
        }
      }
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

extension SessionEvent {
  fileprivate var isChat: Bool {
    if case .chatMessageReceived = self { return true }
    return false
  }
}
