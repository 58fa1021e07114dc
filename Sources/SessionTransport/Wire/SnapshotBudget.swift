import SessionCore

/// The most bytes a `joined` message can take, from the limits on what a snapshot holds.
///
/// A snapshot lists every member, so its size grows with the roster. The service admits no
/// more members than a snapshot of the worst case fits in the largest message a member accepts
/// (a message longer than a frame travels as fragments; 16 MiB by default): every name and key as
/// long as the limits allow, every member sharing, annotating and talking, every number at its
/// widest): however members rename themselves, every join and every resume gets its snapshot.
/// The worst case is counted from the encoding in `Docs/WireProtocol.md` §4.3; a test checks
/// it against the encoder.
///
/// > Important: A plain `Sendable` value.
public struct SnapshotBudget: Sendable, Hashable {
  /// Longest session name in bytes.
  public var maxSessionNameBytes: Int
  /// Longest session id in bytes (the service makes them; its ids are at most 30 bytes).
  public var maxSessionIDBytes: Int
  /// Longest user name in bytes.
  public var maxUserNameBytes: Int
  /// Longest custom user key in bytes.
  public var maxUserKeyBytes: Int

  /// A budget for these limits.
  ///
  /// - Parameters:
  ///   - limits: The session limits (session and user name bytes).
  ///   - maxUserKeyBytes: The longest custom user key (from the token) in bytes.
  ///   - maxSessionIDBytes: The longest session id the service makes.
  public init(limits: SessionLimits, maxUserKeyBytes: Int, maxSessionIDBytes: Int = 64) {
    maxSessionNameBytes = max(0, limits.maxSessionNameBytes)
    self.maxSessionIDBytes = max(0, maxSessionIDBytes)
    maxUserNameBytes = max(0, limits.maxUserNameBytes)
    self.maxUserKeyBytes = max(0, maxUserKeyBytes)
  }

  /// The most payload bytes of a `joined` message for a session of `users` members.
  ///
  /// - Parameter users: The number of members.
  /// - Returns: An upper bound of `WireEncoder.payload(.joined(…)).count`.
  public func joinedPayloadBound(users: Int) -> Int {
    let users = max(0, users)
    let widestUser = 5  // a u32 varint
    let widestCount = Self.varintSize(UInt64(users))
    let participant =
      widestUser + Self.stringSize(maxUserNameBytes) + 7  // role … network quality
      + 10  // join order
      + 1 + Self.stringSize(maxUserKeyBytes)
    // At most one share per member, each member annotating on at most one share.
    let share = widestUser + 3 + widestCount + 10 + 10
    let annotation = widestUser
    let speaker = widestUser
    let subSessionMember = widestUser + 1  // a position under 128
    let recordingAgreement = widestUser
    let perUser =
      participant + share + annotation + speaker + subSessionMember + recordingAgreement
    let fixed =
      1  // message type
      + Self.stringSize(maxSessionNameBytes) + Self.stringSize(maxSessionIDBytes)
      + widestUser  // myself
      + 3 * widestCount  // participants, shares, speakers
      + 2  // share setting, chat privilege
      + 1 + SessionState.maxSpotlighted * widestUser  // the spotlight list
      + 1 + 1 + widestCount  // subsession status, list and member counts
      + 1 + widestCount  // recording status, agreement count
      + SessionState.maxSubSessions
      * (Self.stringSize(SessionState.maxSubSessionIDBytes) + Self.stringSize(0) + 1)
      + SessionState.maxSubSessionNamesBytes  // the names, a byte more each for a longer count
      + 10 + 10  // sequence, resume token
    let (total, overflow) = perUser.multipliedReportingOverflow(by: users)
    let (sum, overflowAgain) = total.addingReportingOverflow(fixed)
    return overflow || overflowAgain ? .max : sum
  }

  /// The most members whose worst-case snapshot fits a payload of `maxPayload` bytes.
  ///
  /// - Parameter maxPayload: The largest frame payload the members accept.
  /// - Returns: A member count, 0 if not even one fits.
  /// - Complexity: O(log n).
  public func usersFitting(in maxPayload: Int) -> Int {
    var low = 0
    var high = 1 << 24
    while low < high {
      let mid = (low + high + 1) / 2
      if joinedPayloadBound(users: mid) <= maxPayload { low = mid } else { high = mid - 1 }
    }
    return low
  }

  private static func stringSize(_ bytes: Int) -> Int { varintSize(UInt64(bytes)) + bytes }

  private static func varintSize(_ value: UInt64) -> Int {
    max(1, (64 - value.leadingZeroBitCount + 6) / 7)
  }
}
