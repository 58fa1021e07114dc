import SessionTransport

/// A link of a ``VirtualNetwork``: one connection from a peer's node to the service, over the
/// reliable channel.
///
/// It sends a heartbeat when it has sent nothing for the configuration's heartbeat interval,
/// and fails with `.failed("heartbeat timeout")` when it has heard nothing for the heartbeat
/// timeout (telling the host, over the network, that it closed). Every event reaches the
/// handler from the network's event loop (``VirtualNetwork/step()``), never from inside
/// ``start(_:)``, ``send(_:)`` or ``close()``.
///
/// > Important: Confined to its network's isolation domain.
public final class VirtualLink: LookaheadLink {
  typealias State = VirtualLinkState

  let peer: VirtualPeer
  let serial: Int
  let incarnation: UInt64
  var state = State.idle
  var handler: ((LinkEvent) -> Void)?
  /// Hears of this link's next message shortly before it arrives (see ``setLookahead(_:)``).
  var lookahead: (any LinkLookahead)?
  /// The lookahead's ``LinkLookahead/lookaheadAddress``, read once when it was set.
  var lookaheadAddress: UnsafeRawPointer?
  var connectionState: Connection?
  /// Virtual time of the last message heard and sent (µs).
  var lastHeard: Int64 = 0
  var lastSent: Int64 = 0

  init(peer: VirtualPeer, serial: Int, incarnation: UInt64) {
    self.peer = peer
    self.serial = serial
    self.incarnation = incarnation
  }

  /// The connection this link is, as the host sees it; `nil` until started.
  public var connection: ConnectionID? { connectionState?.id }

  /// The node this link belongs to.
  public var node: String { peer.name }

  /// Connects: the open travels to the service, followed by whatever is sent.
  ///
  /// - Parameter handler: Gets the link's events, one at a time, from the network's loop.
  public func start(_ handler: @escaping (LinkEvent) -> Void) {
    let (next, network) = state.starting(on: peer, incarnation: incarnation)
    state = next
    guard let network else { return }
    self.handler = handler
    network.linkStarted(self)
  }

  /// Sends a message to the host, behind everything sent before.
  ///
  /// - Parameter message: The message.
  public func send(_ message: ClientMessage) {
    guard state == .open, let network = peer.network, let connection = connectionState else {
      return
    }
    lastSent = network.now
    network.sendReliable(.client(message), on: connection)
  }

  /// Closes the link: the handler is let go of at once, and the close travels to the host.
  /// Harmless twice.
  public func close() {
    guard state == .open else { return }
    end()
    if let network = peer.network, let connection = connectionState {
      network.closeFromClient(connection)
    }
  }

  /// Tells `lookahead` of a message just before the delivery ahead of it on the network's
  /// queue, when the two are due at once (a broadcast's receivers, one after the other).
  ///
  /// - Parameter lookahead: The owner to tell; `nil` stops it.
  package func setLookahead(_ lookahead: (any LinkLookahead)?) {
    guard state != .ended else { return }
    self.lookahead = lookahead
    lookaheadAddress = lookahead?.lookaheadAddress
  }

  /// Ends the link at its end: no handler, no timers, off its node's list.
  func end() {
    state = .ended
    handler = nil
    lookahead = nil
    lookaheadAddress = nil
    connectionState?.link = nil
    peer.links[serial] = nil
  }
}
