/// Where a link of a ``VirtualNetwork`` is in its life, signalling (``VirtualLink``) or media
/// (``VirtualMediaLink``) alike: made, started, or ended (closed, or killed with its node).
///
/// > Important: A value, held by its link; confined to its network's isolation domain.
enum VirtualLinkState {
  case idle
  case open
  case ended

  /// What starting a link in this state, made for `peer`'s incarnation `incarnation`, leads
  /// to: an idle link opens, unless its node is dead, restarted since the link was made, or its
  /// network gone or finished, when it ends at once; a link not idle stays as it is.
  ///
  /// A function of the state rather than a `mutating` method on purpose: the links read their
  /// state on every delivery, and a modify access held across these calls would make the
  /// compiler check exclusivity dynamically on each of those reads.
  ///
  /// - Parameters:
  ///   - peer: The link's node.
  ///   - incarnation: The node's incarnation the link was made for.
  /// - Returns: The state after the start, and the network to tell of the link once open
  ///   (`nil` if it did not open).
  func starting(on peer: VirtualPeer, incarnation: UInt64) -> (
    state: VirtualLinkState, network: VirtualNetwork?
  ) {
    guard self == .idle else { return (self, nil) }
    guard let network = peer.network, peer.alive, peer.incarnation == incarnation,
      !network.isFinished
    else { return (.ended, nil) }
    return (.open, network)
  }
}
