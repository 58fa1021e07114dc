/// One direction of a member's link to the service: the package's one word for a way through a
/// network, a proxy or a fault.
///
/// A value; `Sendable`. Its raw values (`"uplink"`, `"downlink"`) are the names scenario files
/// use.
public enum LinkDirection: String, Sendable, Hashable, Codable, CaseIterable {
  /// From the peer towards the service (or another node).
  case uplink
  /// From the service (or another node) towards the peer.
  case downlink
}

/// Which directions of a link something (a fault, a hold) acts on: one, or both.
///
/// A value; `Sendable`. Its raw values (`"uplink"`, `"downlink"`, `"both"`) are the names
/// scenario files use.
public enum LinkDirections: String, Sendable, Hashable, Codable, CaseIterable {
  /// Peer to service only.
  case uplink
  /// Service to peer only.
  case downlink
  /// Both ways.
  case both

  /// Whether `direction` is one of these.
  ///
  /// - Parameter direction: One direction of the link.
  /// - Returns: `true` for `both`, or when it is the one direction named.
  public func includes(_ direction: LinkDirection) -> Bool {
    switch (self, direction) {
    case (.both, _), (.uplink, .uplink), (.downlink, .downlink): true
    case (.uplink, .downlink), (.downlink, .uplink): false
    }
  }

  /// The directions, uplink first.
  public var directions: [LinkDirection] {
    switch self {
    case .uplink: [.uplink]
    case .downlink: [.downlink]
    case .both: [.uplink, .downlink]
    }
  }
}
