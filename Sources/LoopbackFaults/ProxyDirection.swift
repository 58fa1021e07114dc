import LoopbackTransport

/// Which way through a ``FaultProxy`` a fault applies: `uplink` is the peer's bytes on their way
/// to the server, `downlink` the server's on their way to the peer, `both` either.
///
/// A value; `Sendable`. Its raw values (`"uplink"`, `"downlink"`, `"both"`) are the names a
/// scenario file uses.
public enum ProxyDirection: String, Sendable, Hashable, Codable, CaseIterable {
  /// Peer to server.
  case uplink
  /// Server to peer.
  case downlink
  /// Both ways.
  case both

  /// Whether a fault given for this direction applies to bytes going `way`.
  func includes(_ way: ProxyWay) -> Bool {
    switch (self, way) {
    case (.both, _), (.uplink, .uplink), (.downlink, .downlink): true
    case (.uplink, .downlink), (.downlink, .uplink): false
    }
  }
}

/// One of the two ways bytes go through a proxied connection (a ``ProxyDirection`` without
/// `both`).
enum ProxyWay: Hashable, Sendable, CaseIterable {
  /// Peer to server.
  case uplink
  /// Server to peer.
  case downlink
}
