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
    /// Binds whose token is not the named member's current resume token (or no member has it).
    public var badBind: UInt64 = 0
    /// Reports the router refused (one older than the subscriber's previous report).
    public var badReport: UInt64 = 0
    /// Datagrams only the service sends (a pong).
    public var unexpected: UInt64 = 0

    /// Zero counters.
    public init() {}

    /// The sum of every reason.
    public var total: UInt64 {
      malformed &+ unbound &+ spoofed &+ notSending &+ unknownStream &+ badBind &+ badReport
        &+ unexpected
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
  /// Binds accepted (each answered with ``MediaNotice/bound``).
  public var bindsAccepted: UInt64 = 0
  /// Pongs sent.
  public var pongsSent: UInt64 = 0
  /// Reports applied to a downlink estimate.
  public var reportsApplied: UInt64 = 0
  /// ``MediaNotice/keyFrameRequested(_:)`` notices sent to publishers.
  public var keyFrameRequests: UInt64 = 0
  /// ``MediaNotice/downlinkEstimate(_:)`` notices sent.
  public var estimateNotices: UInt64 = 0
  /// Dropped datagrams, by reason.
  public var dropped = Drops()
  /// Malformed datagrams by decoding refusal.
  public var malformedReasons: [MediaDecodingError.Reason: UInt64] = [:]
  /// Subscriptions refused (each answered with ``MediaNotice/subscribeRefused(publisher:kind:reason:)``).
  public var subscribeRefusals: UInt64 = 0
  /// Media requests ignored: from a connection in no session, announcing or withdrawing
  /// another user's stream, announcing video while the camera is off or a share while not
  /// sharing, or refused by the router (a layer out of range).
  public var requestsIgnored: UInt64 = 0

  /// Zero statistics.
  public init() {}
}
