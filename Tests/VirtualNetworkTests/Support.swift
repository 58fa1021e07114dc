import SessionCore
import SessionTransport
import VirtualNetwork

/// A host that records what reaches it with the host clock's time, answers heartbeats, and
/// sends or closes when a test says so.
final class ScriptedHost: SessionHost {
  enum Record: Equatable {
    case opened(ConnectionID)
    case received(ConnectionID, ClientMessage)
    case closed(ConnectionID)
  }

  private var output: ((HostOutput) -> Void)?
  private(set) var records: [(time: Int64, record: Record)] = []
  private(set) var open: [ConnectionID] = []
  private(set) var ticks = 0

  func attach(output: @escaping (HostOutput) -> Void) { self.output = output }

  func connectionOpened(_ connection: ConnectionID, now: Int64) {
    records.append((now, .opened(connection)))
    open.append(connection)
  }

  func receive(_ message: ClientMessage, from connection: ConnectionID, now: Int64) {
    records.append((now, .received(connection, message)))
    if message == .heartbeat { output?(.send(.heartbeat, to: connection)) }
  }

  func connectionClosed(_ connection: ConnectionID, now: Int64) {
    records.append((now, .closed(connection)))
    open.removeAll { $0 == connection }
  }

  func tick(now: Int64) { ticks += 1 }

  func send(_ message: ServerMessage, to connection: ConnectionID) {
    output?(.send(message, to: connection))
  }

  func broadcast(_ message: ServerMessage) {
    output?(.broadcast(message, to: .adHoc(open)))
  }

  func close(_ connection: ConnectionID) {
    output?(.close(connection, reason: .requested))
  }

  /// The commands received, in order, with their ids.
  var commandIDs: [CommandID] {
    records.compactMap {
      if case .received(_, .command(let id, _)) = $0.record { id } else { nil }
    }
  }

  var closed: [ConnectionID] {
    records.compactMap { if case .closed(let id) = $0.record { id } else { nil } }
  }
}

/// A link's events, kept by its handler.
final class LinkLog {
  var events: [(time: Int64, event: LinkEvent)] = []

  var messages: [ServerMessage] {
    events.compactMap { if case .message(let message) = $0.event { message } else { nil } }
  }

  var closeReason: LinkCloseReason? {
    for (_, event) in events { if case .closed(let reason) = event { return reason } }
    return nil
  }
}

extension VirtualNetwork {
  /// A started link of `peer`, logging into the returned log with this network's time.
  func startLink(_ peer: String) -> (link: any SessionLink, log: LinkLog) {
    let log = LinkLog()
    let link = self.peer(peer).makeLink()
    link.start { [unowned self] event in log.events.append((self.now, event)) }
    return (link, log)
  }
}

/// A numbered command, for checking order.
func command(_ id: CommandID) -> ClientMessage {
  .command(id, .startVideo)
}

/// Milliseconds to microseconds.
func ms(_ value: Int64) -> Int64 { value * 1_000 }

extension SessionLink {
  /// The connection of a virtual link.
  var connection: ConnectionID? { (self as? VirtualLink)?.connection }
}
