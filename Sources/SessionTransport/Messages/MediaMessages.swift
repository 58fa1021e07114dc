import SessionCore

/// A media-plane request on the signalling channel, from a member to the service
/// (``ClientMessage/media(_:)``). Reliable and ordered, unlike the media itself.
public enum MediaRequest: Sendable, Hashable, Codable {
  /// Receive `publisher`'s video or share, at most `maxLines` lines on the shorter side
  /// (0: no limit). Subscribing again changes only the limit.
  case subscribe(publisher: UserID, kind: MediaKind, maxLines: UInt16)
  /// Stop receiving it.
  case unsubscribe(publisher: UserID, kind: MediaKind)
  /// The member sends this stream of its own at about `bitrate` bits per second, in frames of
  /// `width` × `height`.
  case announce(StreamID, bitrate: UInt32, width: UInt16, height: UInt16)
  /// The member stopped sending this stream.
  case withdraw(StreamID)
}

/// Why the service refused a ``MediaRequest/subscribe(publisher:kind:maxLines:)``.
public enum MediaRefusalReason: UInt8, Sendable, Hashable, Codable, CaseIterable {
  /// Over the video subscription limit (25): the SDK's `HasSubscribeExceededLimit`.
  case exceededLimit = 2
  /// Another user's share is already subscribed: the SDK's `HasSubscribeOneShare`.
  case oneShare = 4
  /// The publisher is not in the session, is the subscriber, or the kind is audio.
  case invalid = 100
}

/// A media-plane message on the signalling channel, from the service to one member
/// (``ServerMessage/media(_:)``).
public enum MediaNotice: Sendable, Hashable, Codable {
  /// The member's media endpoint is bound: the address passed the return-path check (or was
  /// already bound to the member), and its datagrams are accepted from now on.
  case bound
  /// A subscription was refused; nothing changed.
  case subscribeRefused(publisher: UserID, kind: MediaKind, reason: MediaRefusalReason)
  /// Send a key frame of this stream of yours soon: a subscriber waits for one.
  case keyFrameRequested(StreamID)
  /// The service's estimate of the member's downlink, bits per second (sent when it moves by
  /// more than a tenth): the `bandwidth` of the member's receive statistics.
  case downlinkEstimate(UInt32)
  /// The member's media credential: the id its binds name and the key that tags its
  /// datagrams. Sent after every `joined` (a join or a resume); the member binds (again)
  /// when it arrives.
  case credential(MediaCredential)
  /// The member's media endpoint is no longer bound, for the reason given: the service sends
  /// it nothing and drops its datagrams until it binds again.
  case unbound(MediaUnboundReason)
  /// The service stopped forwarding the member's subscription to `publisher`'s `kind` for
  /// `reason`: it keeps the subscription and resumes it (``streamResumed(publisher:kind:)``)
  /// when it can.
  case streamPaused(publisher: UserID, kind: MediaKind, reason: MediaPauseReason)
  /// A paused subscription flows again, from the next key frame.
  case streamResumed(publisher: UserID, kind: MediaKind)
}

/// Why the service paused a subscription (``MediaNotice/streamPaused(publisher:kind:reason:)``).
public enum MediaPauseReason: UInt8, Sendable, Hashable, Codable, CaseIterable {
  /// The member's downlink estimate cannot carry the stream's lowest layer beside the
  /// subscriptions of higher priority (the stream allocator).
  case bandwidth = 1
}

/// Why the service dropped a member's media endpoint (``MediaNotice/unbound(_:)``).
public enum MediaUnboundReason: UInt8, Sendable, Hashable, Codable, CaseIterable {
  /// Nothing authentic came from the address for the consent timeout (RFC 7675's consent
  /// freshness): the service stopped sending there.
  case consentExpired = 1
  /// The member bound another address, or another member proved the address its own (a port
  /// reused): the old binding went.
  case replaced = 2
}
