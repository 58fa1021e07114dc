import SessionCore
import SessionTransport

extension SDKEngine {
  /// The bytes of a datagram the media session wants sent.
  func encode(_ datagram: OutgoingDatagram) -> [UInt8]? {
    switch datagram {
    case .packet(let packet): packet.encode()
    case .report(let report): report.encode()
    case .bind, .ping: nil  // TODO(wire): MediaDatagram.bind / .ping once on main.
    }
  }

  /// Sends one media request on the signalling link.
  func sendMediaRequest(_ request: MediaRequest) {
    // TODO(wire): link?.send(.media(request)) once ClientMessage.media is on main.
    _ = request
  }

  /// A datagram that is not a media packet: a pong, or something a member never gets.
  func receiveControl(_ datagram: MediaDatagram, at time: Int64) {
    media?.diagnostics.unexpectedDatagrams += 1
  }
}
