/// Identifies one connection to a service.
public struct ConnectionID: Hashable, Sendable, Codable, CustomStringConvertible {
  /// The number.
  public var rawValue: UInt64

  /// Creates an id.
  public init(_ rawValue: UInt64) { self.rawValue = rawValue }

  /// A textual form for logs.
  public var description: String { "c\(rawValue)" }
}

/// What a service asks its transport to do.
public enum HostOutput: Sendable, Hashable {
  /// Send this message on the connection.
  case send(ServerMessage, to: ConnectionID)
  /// Send one message to many connections; a transport encodes it once.
  case broadcast(ServerMessage, to: [ConnectionID])
  /// Close the connection after what was sent before.
  case close(ConnectionID)
}

/// The service's end of the seam: messages in, outputs out, time injected. Sans-IO.
///
/// A transport opens connections, feeds their messages in, tells of closes, and calls
/// ``tick(now:)`` now and then so timers can fire. The host answers through the `output`
/// closure given to ``attach(output:)``.
///
/// > Important: A host is confined to one isolation domain (the event-loop thread, or the
/// > caller of a deterministic network). It may call `output` from inside any of its methods.
public protocol SessionHost: AnyObject {
  /// Where the host sends its outputs; called once before anything else.
  func attach(output: @escaping (HostOutput) -> Void)
  /// A connection opened.
  func connectionOpened(_ connection: ConnectionID, now: Int64)
  /// A message arrived on a connection.
  func receive(_ message: ClientMessage, from connection: ConnectionID, now: Int64)
  /// A connection closed (either side); the host must not send on it again.
  func connectionClosed(_ connection: ConnectionID, now: Int64)
  /// Time passed; run timers due by `now` (milliseconds).
  func tick(now: Int64)
}
