import SessionTransport

/// What a service's media plane did with the datagrams and requests it received, over its
/// lifetime (``SessionService/mediaStatistics``).
///
/// Every datagram is counted once in ``datagramsReceived`` and then either handled (a bind
/// accepted, a pong sent, a report applied, a packet routed) or dropped for exactly one
/// ``Drops`` reason. Counters wrap instead of trapping, so no traffic can stop the relay.
///
/// > Important: A value; `Sendable`.
public struct MediaPlaneStatistics: Sendable, Hashable {
  /// Why datagrams were dropped, one counter per reason.
  public struct Drops: Sendable, Hashable {
    /// Datagrams that did not decode (see ``SessionService/mediaStatistics``'s
    /// ``MediaPlaneStatistics/malformedReasons`` for why).
    public var malformed: UInt64 = 0
    /// Packets, reports and pings from an endpoint bound to no member.
    public var unbound: UInt64 = 0
    /// Packets for a stream of another user than the endpoint's, and reports naming another
    /// subscriber.
    public var spoofed: UInt64 = 0
    /// Packets of a stream its sender may not send now: video while its video is off, audio
    /// while disconnected or muted, share while not sharing or paused.
    public var notSending: UInt64 = 0
    /// Packets the router refused: a stream never announced, or withdrawn.
    public var unknownStream: UInt64 = 0
    /// Binds and check replies naming no member's credential, or another user than the
    /// credential's.
    public var badBind: UInt64 = 0
    /// Datagrams whose tag is not the right one under the key of the member they claim (or
    /// whose endpoint is bound to): forged, altered, or sent with an old key.
    public var unauthenticated: UInt64 = 0
    /// Check replies that answer no outstanding check of theirs from that address (a wrong,
    /// stale or replayed nonce).
    public var badCheck: UInt64 = 0
    /// Binds over a member's rate of return-path checks (``SessionService/maxChecksPerSecond``).
    public var checksThrottled: UInt64 = 0
    /// Reports on a stream the member does not watch, and feedback the router refused (one
    /// older than the subscriber's previous feedback).
    public var badReport: UInt64 = 0
    /// Pings and feedback over a member's rate (``SessionService/maxControlPerSecond``).
    public var throttled: UInt64 = 0
    /// Datagrams only the service sends (a pong).
    public var unexpected: UInt64 = 0

    /// Zero counters.
    public init() {}

    /// The sum of every reason.
    public var total: UInt64 {
      malformed &+ unbound &+ spoofed &+ notSending &+ unknownStream &+ badBind &+ badReport
        &+ unexpected &+ unauthenticated &+ badCheck &+ checksThrottled &+ throttled
    }
  }

  /// Datagrams received, whatever became of them.
  public var datagramsReceived: UInt64 = 0
  /// Their bytes.
  public var bytesReceived: UInt64 = 0
  /// Media packets accepted and given to the router (including those that reached nobody).
  public var packetsRouted: UInt64 = 0
  /// Packet copies sent: each forwarded packet counts once per endpoint it went to.
  public var packetsForwarded: UInt64 = 0
  /// Their bytes (whole datagrams).
  public var bytesForwarded: UInt64 = 0
  /// Binds accepted (each answered with ``SessionTransport/MediaNotice/bound``).
  public var bindsAccepted: UInt64 = 0
  /// Pongs sent.
  public var pongsSent: UInt64 = 0
  /// Return-path checks sent to addresses binds came from.
  public var checksSent: UInt64 = 0
  /// Bound endpoints dropped because nothing authentic came from them for the consent timeout.
  public var consentsExpired: UInt64 = 0
  /// Per-stream reports accepted (on a stream the member watches).
  public var reportsApplied: UInt64 = 0
  /// Feedback applied to a downlink estimate.
  public var feedbackApplied: UInt64 = 0
  /// ``SessionTransport/MediaNotice/keyFrameRequested(_:)`` notices sent to publishers.
  public var keyFrameRequests: UInt64 = 0
  /// ``SessionTransport/MediaNotice/downlinkEstimate(_:)`` notices sent.
  public var estimateNotices: UInt64 = 0
  /// ``SessionTransport/MediaNotice/streamPaused(publisher:kind:reason:)`` and
  /// ``SessionTransport/MediaNotice/streamResumed(publisher:kind:)`` notices sent.
  public var pauseNotices: UInt64 = 0
  /// Dropped datagrams, by reason.
  public var dropped = Drops()
  /// Malformed datagrams by decoding refusal.
  public var malformedReasons: [MediaDecodingError.Reason: UInt64] = [:]
  /// Subscriptions refused (each answered with ``SessionTransport/MediaNotice/subscribeRefused(publisher:kind:reason:)``).
  public var subscribeRefusals: UInt64 = 0
  /// Media requests ignored: from a connection in no session, announcing or withdrawing
  /// another user's stream, announcing video while the camera is off or a share while not
  /// sharing, or refused by the router (a layer out of range).
  public var requestsIgnored: UInt64 = 0

  /// Zero statistics.
  public init() {}

  /// One line for logs: what came in, what went out, and every drop by reason, for example
  /// `received 120 (9.1 kB), routed 80, forwarded 400, binds 3, checks 3, pongs 10, dropped
  /// 27: unauthenticated 20, unbound 7`.
  public var summary: String {
    var text =
      "received \(datagramsReceived) (\(bytesReceived) B), routed \(packetsRouted), "
      + "forwarded \(packetsForwarded), binds \(bindsAccepted), checks \(checksSent), "
      + "pongs \(pongsSent), reports \(reportsApplied), feedback \(feedbackApplied), consents expired \(consentsExpired), "
      + "dropped \(dropped.total)"
    let reasons: [(String, UInt64)] = [
      ("malformed", dropped.malformed), ("unbound", dropped.unbound),
      ("unauthenticated", dropped.unauthenticated), ("spoofed", dropped.spoofed),
      ("notSending", dropped.notSending), ("unknownStream", dropped.unknownStream),
      ("badBind", dropped.badBind), ("badCheck", dropped.badCheck),
      ("checksThrottled", dropped.checksThrottled), ("badReport", dropped.badReport),
      ("throttled", dropped.throttled),
      ("unexpected", dropped.unexpected),
    ]
    let nonzero = reasons.filter { $0.1 > 0 }.map { "\($0.0) \($0.1)" }
    if !nonzero.isEmpty { text += ": " + nonzero.joined(separator: ", ") }
    return text
  }
}
