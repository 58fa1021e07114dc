import SessionCore
import SessionTransport

extension SDKEngine {
  /// The bytes of a datagram the media session wants sent.
  func encode(_ datagram: OutgoingDatagram) -> [UInt8] {
    switch datagram {
    case .packet(let packet): packet.encode()
    case .report(let report): report.encode()
    case .bind(let user, let token): MediaBind(user: user, token: token).encode()
    case .ping(let sendTime): MediaDatagram.ping(sendTime: sendTime).encode()
    }
  }

  /// Sends one media request on the signalling link.
  func sendMediaRequest(_ request: MediaRequest) {
    link?.send(.media(request))
  }

  /// A datagram that is not a media packet: a pong, or something a member never gets.
  func receiveControl(_ datagram: MediaDatagram, at time: Int64) {
    switch datagram {
    case .pong(let sendTime):
      media?.pong(sendTime: sendTime, at: time)
    case .packet, .report, .bind, .ping:
      media?.diagnostics.unexpectedDatagrams += 1
    }
  }

  /// A media notice from the service.
  func handleMediaNotice(_ notice: MediaNotice) {
    guard media != nil else {
      ignoreMedia("media notice with no media plane")
      return
    }
    switch notice {
    case .bound:
      media?.bound()
    case .subscribeRefused(let publisher, let kind, let reason):
      mediaSubscriptionRefused(publisher: publisher, kind: kind, reason: reason)
    case .keyFrameRequested(let stream):
      media?.keyFrameRequested(stream)
    case .downlinkEstimate(let bitrate):
      media?.setDownlinkEstimate(bitrate)
    }
  }

  private func ignoreMedia(_ what: String) {
    diagnostics.ignoredMessages += 1
    log(.warning, "ignored \(what)")
  }
}
