import SessionService
import SessionTransport
import Synchronization

/// One call a transport made on its host.
public enum HostEvent: Sendable, Hashable {
  /// ``SessionTransport/SessionHost/connectionOpened(_:now:)``.
  case opened(ConnectionID)
  /// ``SessionTransport/SessionHost/receive(_:from:now:)``.
  case received(ConnectionID, ClientMessage)
  /// ``SessionTransport/SessionHost/connectionClosed(_:now:)``.
  case closed(ConnectionID)
}

/// What a ``RecordingHost`` was told, in order, readable from any thread.
///
/// `Sendable`: the events are behind a `Mutex`. The host appends on its own domain (a server's
/// loop thread, or the domain of an in-process network); a test reads on its own.
public final class HostRecord: Sendable {
  private let items = Mutex<[HostEvent]>([])

  /// An empty record.
  public init() {}

  /// Appends an event.
  ///
  /// - Parameter event: What the transport did.
  public func append(_ event: HostEvent) {
    items.withLock { $0.append(event) }
  }

  /// Every event so far, in order.
  public var events: [HostEvent] { items.withLock { $0 } }

  /// The connections the host has seen open, in order.
  public var openedConnections: [ConnectionID] {
    events.compactMap { if case .opened(let id) = $0 { id } else { nil } }
  }

  /// The connections the host has seen close, in order (a connection closed twice is listed
  /// twice).
  public var closedConnections: [ConnectionID] {
    events.compactMap { if case .closed(let id) = $0 { id } else { nil } }
  }

  /// How many connections the host thinks are open: opens minus closes.
  public var openConnectionCount: Int {
    items.withLock { events in
      events.reduce(0) { count, event in
        switch event {
        case .opened: count + 1
        case .closed: count - 1
        case .received: count
        }
      }
    }
  }
}

/// A `SessionService` that records every call its transport makes, then
/// forwards it: the host of a ``LinkContractWorld``.
///
/// > Important: Not `Sendable`. Confined to the host's isolation domain, like the service it
/// > wraps (a server's loop thread; the domain of an in-process network). Only ``record`` is
/// > shared with the test.
public final class RecordingHost: SessionHost {
  /// The service every call goes on to.
  public let service: SessionService
  /// What the transport did, in order.
  public let record: HostRecord

  /// Wraps a service.
  ///
  /// - Parameters:
  ///   - service: The service to forward to.
  ///   - record: Where calls are recorded.
  public init(service: SessionService, record: HostRecord) {
    self.service = service
    self.record = record
  }

  /// Wraps a new service that accepts ``LinkContract/fixture``'s tokens.
  ///
  /// - Parameters:
  ///   - configuration: The service's configuration; ``LinkContract/serviceConfiguration`` by
  ///     default, which the contract's cases assume (its heartbeat timeout in particular).
  ///   - record: Where calls are recorded.
  public convenience init(
    configuration: ServiceConfiguration = LinkContract.serviceConfiguration, record: HostRecord
  ) {
    self.init(service: SessionService(configuration: configuration), record: record)
  }

  /// Forwards to the service.
  ///
  /// - Parameter output: Where the service sends its outputs.
  public func attach(output: @escaping (HostOutput) -> Void) { service.attach(output: output) }

  /// Records the open, then forwards it.
  ///
  /// - Parameters:
  ///   - connection: The connection.
  ///   - now: The transport's clock, in milliseconds.
  public func connectionOpened(_ connection: ConnectionID, now: Int64) {
    record.append(.opened(connection))
    service.connectionOpened(connection, now: now)
  }

  /// Records the message, then forwards it.
  ///
  /// - Parameters:
  ///   - message: The message.
  ///   - connection: The connection it came on.
  ///   - now: The transport's clock, in milliseconds.
  public func receive(_ message: ClientMessage, from connection: ConnectionID, now: Int64) {
    record.append(.received(connection, message))
    service.receive(message, from: connection, now: now)
  }

  /// Records the close, then forwards it.
  ///
  /// - Parameters:
  ///   - connection: The connection.
  ///   - now: The transport's clock, in milliseconds.
  public func connectionClosed(_ connection: ConnectionID, now: Int64) {
    record.append(.closed(connection))
    service.connectionClosed(connection, now: now)
  }

  /// Forwards to the service (ticks are not recorded).
  ///
  /// - Parameter now: The transport's clock, in milliseconds.
  public func tick(now: Int64) { service.tick(now: now) }
}
