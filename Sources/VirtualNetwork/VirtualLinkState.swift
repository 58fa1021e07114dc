/// Where a link of a ``VirtualNetwork`` is in its life, signalling (``VirtualLink``) or media
/// (``VirtualMediaLink``) alike: made, started, or ended (closed, or killed with its node).
///
/// > Important: A value, held by its link; confined to its network's isolation domain.
enum VirtualLinkState {
  case idle
  case open
  case ended

  /// Starts a link made for `peer`'s incarnation `incarnation`: an idle link opens, unless its
  /// node is dead, restarted since the link was made, or its network gone or finished, when it
  /// ends at once.
  ///
  /// - Returns: The network to tell of the link, once open; `nil` if it did not open (a link
  ///   not idle stays as it is).
  mutating func start(on peer: VirtualPeer, incarnation: UInt64) -> VirtualNetwork? {
    guard self == .idle else { return nil }
    guard let network = peer.network, peer.alive, peer.incarnation == incarnation,
      !network.isFinished
    else {
      self = .ended
      return nil
    }
    self = .open
    return network
  }
}
