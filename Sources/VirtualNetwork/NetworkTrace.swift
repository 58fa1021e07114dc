import SessionCore
import SessionTransport

/// One thing that happened on a ``VirtualNetwork``, for its ``VirtualNetwork/observer``.
///
/// The text is deterministic: equal seeds and inputs give equal traces, event for event.
///
/// A value; `Sendable`.
public struct NetworkTraceEvent: Sendable, Hashable, CustomStringConvertible {
  /// What happened.
  public enum Kind: Sendable, Hashable {
    /// A message or datagram left its sender.
    case sent
    /// It reached its receiver.
    case delivered
    /// It is gone: lost (datagrams), dropped at a queue's tail, blocked (datagrams), or
    /// discarded because its connection or node ended. The summary says which.
    case dropped
    /// A reliable message was lost this many times and will arrive late by as many
    /// retransmission timeouts.
    case retransmitted(Int)
    /// A reliable message waits behind a partition or hold.
    case held
    /// A held message goes on its way after a heal or release.
    case released
    /// A connection's open reached the host.
    case opened
    /// A connection closed: at the link (the summary says why) or at the host.
    case closed
    /// A fault the runner injected: kill, pause, partition…
    case fault(String)
  }

  /// Virtual time, in microseconds.
  public var time: Int64
  /// The event's place in the trace, from 0.
  public var sequence: UInt64
  /// What happened.
  public var kind: Kind
  /// The sending node (a peer's name or `"service"`).
  public var from: String
  /// The receiving node.
  public var to: String
  /// The connection, for the reliable channel.
  public var connection: ConnectionID?
  /// What moved, for example `"events #12 (3)"`, `"join"` or `"heartbeat"`.
  public var summary: String

  /// One line, for example `"1500 #4 delivered alice->service c1 join"`.
  public var description: String {
    let kindText: String
    switch kind {
    case .sent: kindText = "sent"
    case .delivered: kindText = "delivered"
    case .dropped: kindText = "dropped"
    case .retransmitted(let count): kindText = "retransmitted×\(count)"
    case .held: kindText = "held"
    case .released: kindText = "released"
    case .opened: kindText = "opened"
    case .closed: kindText = "closed"
    case .fault(let name): kindText = "fault(\(name))"
    }
    let connectionText = connection.map { " \($0)" } ?? ""
    return "\(time) #\(sequence) \(kindText) \(from)->\(to)\(connectionText) \(summary)"
  }
}

/// A message that had not arrived when the run ended (``VirtualNetwork/finish()``).
///
/// A value; `Sendable`.
public struct InFlightMessage: Sendable, Hashable, CustomStringConvertible {
  /// Which channel it was on.
  public enum Channel: String, Sendable, Hashable {
    /// A link's message, open or close.
    case reliable
    /// A datagram.
    case datagram
  }

  /// Where it was.
  public enum State: String, Sendable, Hashable {
    /// On its way, due at a later time.
    case inFlight
    /// Held behind a partition or hold.
    case held
    /// Arrived at a paused peer, waiting for it to resume.
    case waiting
  }

  /// The sending node.
  public var from: String
  /// The receiving node.
  public var to: String
  /// The channel.
  public var channel: Channel
  /// Where it was.
  public var state: State
  /// The connection, for the reliable channel.
  public var connection: ConnectionID?
  /// What it was, as in ``NetworkTraceEvent/summary``.
  public var summary: String
  /// When it was sent, in microseconds of virtual time.
  public var sentAt: Int64

  /// One line, for example `"alice->service c1 join (reliable, held, sent at 1500)"`.
  public var description: String {
    let connectionText = connection.map { " \($0)" } ?? ""
    return
      "\(from)->\(to)\(connectionText) \(summary) (\(channel.rawValue), \(state.rawValue), "
      + "sent at \(sentAt))"
  }
}

/// What moved in one direction of one peer's link.
///
/// A value; `Sendable`.
public struct LinkCounters: Sendable, Hashable {
  /// Reliable messages sent (opens and closes included).
  public var sent = 0
  /// Reliable messages delivered.
  public var delivered = 0
  /// Reliable messages discarded because their connection or node ended first.
  public var dropped = 0
  /// Lost attempts of reliable messages, each retransmitted after a timeout.
  public var retransmitted = 0
  /// Reliable messages that were held behind a partition or hold.
  public var held = 0
  /// Bytes of reliable messages sent, where sized (a bandwidth limit, or
  /// ``VirtualNetworkConfiguration/countsMessageBytes``), and of datagrams.
  public var bytes = 0
  /// Datagrams sent through this direction.
  public var datagramsSent = 0
  /// Datagrams delivered through this direction.
  public var datagramsDelivered = 0
  /// Datagrams lost, tail-dropped or blocked in this direction.
  public var datagramsDropped = 0
  /// Extra copies of datagrams made in this direction.
  public var datagramsDuplicated = 0

  /// Empty counters.
  public init() {}

  /// Adds another set of counters.
  ///
  /// - Parameter other: The counters to add.
  public mutating func add(_ other: LinkCounters) {
    sent += other.sent
    delivered += other.delivered
    dropped += other.dropped
    retransmitted += other.retransmitted
    held += other.held
    bytes += other.bytes
    datagramsSent += other.datagramsSent
    datagramsDelivered += other.datagramsDelivered
    datagramsDropped += other.datagramsDropped
    datagramsDuplicated += other.datagramsDuplicated
  }
}

/// The counters of every peer's link, by peer and direction.
///
/// A value; `Sendable`.
public struct VirtualNetworkStatistics: Sendable, Hashable {
  /// Each peer's counters, uplink and downlink.
  public var peers: [String: [LinkDirection: LinkCounters]]

  /// Statistics of these peers.
  ///
  /// - Parameter peers: Counters by peer and direction.
  public init(peers: [String: [LinkDirection: LinkCounters]] = [:]) {
    self.peers = peers
  }

  /// One peer's counters in one direction; zero for a peer never seen.
  ///
  /// - Parameters:
  ///   - peer: The peer's name.
  ///   - direction: The direction.
  /// - Returns: The peer's counters in that direction; all zero when the peer has none.
  public subscript(peer peer: String, direction direction: LinkDirection) -> LinkCounters {
    peers[peer]?[direction] ?? LinkCounters()
  }

  /// Every peer's counters in one direction, added up.
  ///
  /// - Parameter direction: The direction.
  /// - Returns: The sums.
  public func total(_ direction: LinkDirection) -> LinkCounters {
    var sum = LinkCounters()
    for counters in peers.values { sum.add(counters[direction] ?? LinkCounters()) }
    return sum
  }
}

// MARK: Summaries

extension ClientMessage {
  /// A short, deterministic description: `"join"`, `"command #7"`, `"heartbeat"`…
  var traceSummary: String {
    switch self {
    case .join: "join"
    case .password: "password"
    case .command(let id, let command): "command #\(id) \(command.name)"
    case .resume: "resume"
    case .heartbeat: "heartbeat"
    case .media: "media"
    }
  }
}

extension ServerMessage {
  /// A short, deterministic description: `"events #12 (3)"`, `"joined"`, `"heartbeat"`…
  var traceSummary: String {
    switch self {
    case .joined(let snapshot, _): "joined #\(snapshot.sequence)"
    case .joinRefused(let error): "joinRefused \(error.sdkName)"
    case .passwordRequired(let wrong): wrong ? "passwordRequired wrong" : "passwordRequired"
    case .events(let batch): "events #\(batch.firstSequence) (\(batch.events.count))"
    case .notice: "notice"
    case .commandFailed(let id, let error): "commandFailed #\(id) \(error.sdkName)"
    case .left(let reason): "left \(reason)"
    case .heartbeat: "heartbeat"
    case .media: "media"
    }
  }
}
