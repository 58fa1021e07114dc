import LoopbackTransport

/// What a ``FaultProxy`` did for one peer, over all of its connections so far.
///
/// A value; `Sendable`. Bytes count what the proxy wrote on to the other side.
public struct ProxyPeerStatistics: Hashable, Sendable, Codable {
  /// Connections accepted on the peer's listener.
  public var connectionsAccepted: Int
  /// Connections open now (either side not closed yet).
  public var connectionsOpen: Int
  /// Bytes forwarded from the peer to the server.
  public var bytesUplink: Int
  /// Bytes forwarded from the server to the peer.
  public var bytesDownlink: Int
  /// Chunks (one read's bytes each) held back rather than forwarded at once: for a delay, a
  /// loss, a partition, or behind another chunk held.
  public var chunksDelayed: Int
  /// Simulated losses: each one a chunk held for a retransmission delay (a chunk lost twice in
  /// a row counts twice). Nothing is ever dropped.
  public var losses: Int
  /// Connections the proxy reset on its own: more than
  /// ``FaultProxyConfiguration/maxHeldBytes`` held one way, a side that couldn't take the
  /// bytes (its write queue overflowed) or failed, or a server that couldn't be reached.
  public var resets: Int
  /// Connections ended by ``FaultProxy/kill(peer:)``.
  public var kills: Int
  /// Bytes held back now, both ways, over the peer's open connections.
  public var bytesHeld: Int

  /// Creates statistics; every count defaults to 0.
  ///
  /// - Parameters:
  ///   - connectionsAccepted: Connections accepted.
  ///   - connectionsOpen: Connections open now.
  ///   - bytesUplink: Bytes forwarded to the server.
  ///   - bytesDownlink: Bytes forwarded to the peer.
  ///   - chunksDelayed: Chunks held back.
  ///   - losses: Simulated losses.
  ///   - resets: Connections the proxy reset.
  ///   - kills: Connections killed.
  ///   - bytesHeld: Bytes held now.
  public init(
    connectionsAccepted: Int = 0, connectionsOpen: Int = 0, bytesUplink: Int = 0,
    bytesDownlink: Int = 0, chunksDelayed: Int = 0, losses: Int = 0, resets: Int = 0,
    kills: Int = 0, bytesHeld: Int = 0
  ) {
    self.connectionsAccepted = connectionsAccepted
    self.connectionsOpen = connectionsOpen
    self.bytesUplink = bytesUplink
    self.bytesDownlink = bytesDownlink
    self.chunksDelayed = chunksDelayed
    self.losses = losses
    self.resets = resets
    self.kills = kills
    self.bytesHeld = bytesHeld
  }
}
