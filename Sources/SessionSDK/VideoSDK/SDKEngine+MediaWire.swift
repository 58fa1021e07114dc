import SessionCore
import SessionTransport

extension SDKEngine {
  /// The bytes of a datagram the media session wants sent, tagged under the media key; `nil`
  /// before the service sent the credential (nothing goes out before then).
  func encode(_ datagram: OutgoingDatagram) -> [UInt8]? {
    guard let mediaAuthenticator = mediaPlane.authenticator else { return nil }
    var bytes: [UInt8]
    switch datagram {
    case .packet(let packet):
      // The per-packet path: one allocation with room for the trailer, sealed in place.
      let size = packet.datagramSize
      bytes = [UInt8](repeating: 0, count: size + MediaAuthenticator.trailerSize)
      bytes.withUnsafeMutableBytes { buffer in
        _ = packet.encode(into: buffer)
        mediaAuthenticator.writeTrailer(into: buffer, bodyCount: size)
      }
      return bytes
    case .report(let report): bytes = report.encode()
    case .feedback(let feedback): bytes = feedback.encode()
    case .bind(let user, let credential):
      bytes = MediaBind(user: user, credential: credential).encode()
    case .checkReply(let credential, let nonce):
      bytes = MediaDatagram.checkReply(credential: credential, nonce: nonce).encode()
    case .ping(let sendTime): bytes = MediaDatagram.ping(sendTime: sendTime).encode()
    }
    mediaAuthenticator.seal(&bytes)
    return bytes
  }

  /// Sends one media request on the signalling link.
  func sendMediaRequest(_ request: MediaRequest) {
    link?.send(.media(request))
  }

  /// A datagram that is not a media packet: a pong or a check, which must carry the tag of the
  /// instance's own key, or something a member never gets.
  func receiveControl(_ datagram: MediaDatagram, sealed bytes: [UInt8], at time: Int64) {
    switch datagram {
    case .pong, .check:
      guard mediaPlane.authenticator?.isAuthentic(bytes) == true else {
        mediaPlane.session?.diagnostics.unauthenticatedDatagrams += 1
        return
      }
      if case .pong(let sendTime) = datagram {
        mediaPlane.session?.pong(sendTime: sendTime, at: time)
      } else if case .check(let nonce) = datagram,
        let reply = mediaPlane.session?.checkReply(nonce: nonce), let bytes = encode(reply)
      {
        mediaPlane.link?.send(bytes)
      }
    case .packet, .report, .feedback, .bind, .ping, .checkReply:
      mediaPlane.session?.diagnostics.unexpectedDatagrams += 1
    }
  }

  /// A media notice from the service.
  func handleMediaNotice(_ notice: MediaNotice) {
    if case .credential = notice, mediaPlane.session == nil {
      // Every joined is followed by one; an instance without a media plane has no use for it.
      return
    }
    guard mediaPlane.session != nil else {
      ignoreMedia("media notice with no media plane")
      return
    }
    switch notice {
    case .bound:
      mediaPlane.session?.bound()
    case .subscribeRefused(let publisher, let kind, let reason):
      mediaSubscriptionRefused(publisher: publisher, kind: kind, reason: reason)
    case .keyFrameRequested(let stream):
      mediaPlane.session?.keyFrameRequested(stream)
    case .downlinkEstimate(let bitrate):
      mediaPlane.session?.setDownlinkEstimate(bitrate)
    case .credential(let credential):
      if mediaPlane.session?.credential?.key != credential.key {
        mediaPlane.authenticator = MediaAuthenticator(key: credential.key)
      }
      mediaPlane.session?.setCredential(credential)
    case .unbound(let reason):
      log(.notice, "media endpoint unbound (\(reason)); binding again")
      mediaPlane.session?.unbound()
    case .streamPaused(let publisher, let kind, let reason):
      log(.info, "\(kind) of \(publisher) paused by the service (\(reason))")
      mediaPlane.session?.streamPaused(StreamKey(user: publisher, kind: kind), reason: reason)
    case .streamResumed(let publisher, let kind):
      log(.info, "\(kind) of \(publisher) resumed by the service")
      mediaPlane.session?.streamResumed(StreamKey(user: publisher, kind: kind))
    }
  }

  private func ignoreMedia(_ what: String) {
    diagnostics.ignoredMessages += 1
    log(.warning, "ignored \(what)")
  }
}
