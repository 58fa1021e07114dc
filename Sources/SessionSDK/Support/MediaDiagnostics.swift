/// Counts of what an SDK instance's media plane received but could not use, and of the media
/// plane's own work. All the drop counts are zero on a clean network with a well-behaved
/// service.
public struct MediaDiagnostics: Sendable, Hashable, Codable {
  /// Datagrams that did not decode (truncated, too long, wrong version or type, bad fields).
  public var malformedDatagrams = 0
  /// Datagrams that decoded but are not for a member (reports, binds, pings from the service).
  public var unexpectedDatagrams = 0
  /// Packets of a stream the instance does not receive: its own, a user not present, a video
  /// or share not subscribed.
  public var unknownStreamPackets = 0
  /// Packets received twice.
  public var duplicatePackets = 0
  /// Packets too far behind their stream's newest to count.
  public var tooOldPackets = 0
  /// Answers to pings that were never sent, already answered, or forgotten.
  public var strayPongs = 0
  /// Media notices that named nothing of the instance's (a key frame of a stream it does not
  /// send, a refusal of a subscription it no longer wants).
  public var ignoredNotices = 0
  /// Bind datagrams sent.
  public var bindsSent = 0
  /// Key frames sent because a subscriber asked.
  public var keyFramesRequested = 0
  /// Pongs and checks whose tag is not the right one under the instance's media key (forged,
  /// or from an old credential).
  public var unauthenticatedDatagrams = 0
  /// Return-path checks answered.
  public var checksAnswered = 0
  /// Times the service said the endpoint is no longer bound (`MediaNotice.unbound(_:)`).
  public var unbinds = 0

  /// No counts.
  public init() {}

  /// The sums of two sets of counts.
  static func + (lhs: MediaDiagnostics, rhs: MediaDiagnostics) -> MediaDiagnostics {
    var sum = lhs
    sum.malformedDatagrams += rhs.malformedDatagrams
    sum.unexpectedDatagrams += rhs.unexpectedDatagrams
    sum.unknownStreamPackets += rhs.unknownStreamPackets
    sum.duplicatePackets += rhs.duplicatePackets
    sum.tooOldPackets += rhs.tooOldPackets
    sum.strayPongs += rhs.strayPongs
    sum.ignoredNotices += rhs.ignoredNotices
    sum.bindsSent += rhs.bindsSent
    sum.keyFramesRequested += rhs.keyFramesRequested
    sum.unauthenticatedDatagrams += rhs.unauthenticatedDatagrams
    sum.checksAnswered += rhs.checksAnswered
    sum.unbinds += rhs.unbinds
    return sum
  }
}
