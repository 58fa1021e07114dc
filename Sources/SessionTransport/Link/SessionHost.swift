/// Identifies one connection to a service.
public struct ConnectionID: Hashable, Sendable, Codable, CustomStringConvertible {
  /// The number.
  public var rawValue: UInt64

  /// Creates an id.
  ///
  /// - Parameter rawValue: The number.
  public init(_ rawValue: UInt64) { self.rawValue = rawValue }

  /// A textual form for logs.
  public var description: String { "c\(rawValue)" }
}

/// What a service asks its transport to do.
public enum HostOutput: Sendable, Hashable {
  /// Send this message on the connection.
  case send(ServerMessage, to: ConnectionID)
  /// Send one message to a group of connections; a transport encodes it once, and may keep
  /// what it resolved the group to while the group's id and version stay the same.
  case broadcast(ServerMessage, to: FanOutGroup)
  /// Close the connection after what was sent before, for `reason`: a transport that can tell
  /// the peer why (a wire `goodbye`) does so, and logs it.
  case close(ConnectionID, reason: HostCloseReason = .requested)
}

/// The receivers of a broadcast, named so that a transport can cache what it resolved them to.
///
/// A host gives each list it broadcasts to again and again (a session's members) an ``id`` of
/// its own, and a new ``version`` whenever the list changes: equal id and version mean an equal
/// list, so a transport compares two numbers instead of the lists. Id 0 is an ad-hoc list
/// (``adHoc(_:)``) that nobody caches. A value; `Sendable`.
public struct FanOutGroup: Sendable, Hashable {
  /// The group's identity, unique among the host's groups for the host's lifetime; 0 for an
  /// ad-hoc list.
  public var id: UInt64
  /// Changes whenever ``connections`` does (for the same id).
  public var version: UInt64
  /// The receivers, in the order they get the message.
  public var connections: [ConnectionID]

  /// A named group.
  ///
  /// - Parameters:
  ///   - id: The group's identity, not 0.
  ///   - version: The version of its list.
  ///   - connections: The receivers, in order.
  public init(id: UInt64, version: UInt64, connections: [ConnectionID]) {
    self.id = id
    self.version = version
    self.connections = connections
  }

  /// A list broadcast to once (a private notice to a few members): id 0, never cached.
  ///
  /// - Parameter connections: The receivers, in order.
  /// - Returns: The group.
  public static func adHoc(_ connections: [ConnectionID]) -> FanOutGroup {
    FanOutGroup(id: 0, version: 0, connections: connections)
  }

  /// Whether a transport may reuse what it resolved `other` to for this group.
  ///
  /// - Parameter other: A group the transport resolved before.
  /// - Returns: `true` when both groups have the same nonzero id and the same version; `false`
  ///   otherwise, and always for an ad-hoc group (id 0).
  public func isCachedAs(_ other: FanOutGroup) -> Bool {
    id != 0 && id == other.id && version == other.version
  }
}

/// Why a host closes a connection (``HostOutput/close(_:reason:)``).
///
/// The transport turns it into what the peer hears before the close and into its log line; the
/// host's own state is the same whatever the reason. A value; `Sendable`.
public enum HostCloseReason: Sendable, Hashable, CustomStringConvertible {
  /// Nothing arrived on the connection for at least `milliseconds` (the host's heartbeat
  /// timeout): the peer is presumed dead. A transport that can says `goodbye(idleTimeout)`
  /// first (WireProtocol.md §3, heartbeats).
  case idleTimeout(milliseconds: Int64)
  /// The connection's member resumed on the connection `by`; this one is stale. No goodbye
  /// reason names this, so the peer just sees the close.
  case superseded(by: ConnectionID)
  /// No more specific reason: the host wants the connection closed.
  case requested

  /// A phrase for logs, for example `"no frame for 15000 ms"`.
  public var description: String {
    switch self {
    case .idleTimeout(let milliseconds): "no frame for \(milliseconds) ms"
    case .superseded(let newer): "superseded by a resume on \(newer)"
    case .requested: "requested"
    }
  }
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
  ///
  /// - Parameter output: Takes each output; the host may call it from inside any of its methods.
  func attach(output: @escaping (HostOutput) -> Void)
  /// A connection opened.
  ///
  /// - Parameters:
  ///   - connection: The transport's id for the new connection.
  ///   - now: The current time, in milliseconds on the host's clock.
  func connectionOpened(_ connection: ConnectionID, now: Int64)
  /// A message arrived on a connection.
  ///
  /// - Parameters:
  ///   - message: The decoded message.
  ///   - connection: The connection it arrived on.
  ///   - now: The arrival time, in milliseconds on the host's clock.
  func receive(_ message: ClientMessage, from connection: ConnectionID, now: Int64)
  /// A connection closed (either side); the host must not send on it again.
  ///
  /// - Parameters:
  ///   - connection: The connection that closed.
  ///   - now: The current time, in milliseconds on the host's clock.
  func connectionClosed(_ connection: ConnectionID, now: Int64)
  /// Time passed; run timers due by `now` (milliseconds).
  ///
  /// - Parameter now: The current time, in milliseconds on the host's clock.
  func tick(now: Int64)
}
