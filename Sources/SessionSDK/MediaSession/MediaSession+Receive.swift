import SessionCore
import SessionTransport

extension MediaSession {
  /// What a received packet came to.
  enum Received: Hashable {
    /// Counted; nothing to render.
    case counted
    /// It completed a frame to render in the stream's views.
    case frame(VideoFrame)
    /// Not used (counted in ``MediaSession/diagnostics``).
    case dropped
  }

  /// Takes a media packet that arrived at `now`.
  ///
  /// Audio is received from anyone present (the service picks the loudest talkers); video and
  /// share only while subscribed.
  ///
  /// - Parameters:
  ///   - packet: A decoded packet.
  ///   - now: When it arrived, µs.
  ///   - isPresent: Whether a user is in the session, asked only for a new audio stream.
  /// - Returns: What it came to.
  /// - Complexity: O(1).
  mutating func receive(
    _ packet: MediaPacket, at now: Int64, isPresent: (UserID) -> Bool
  ) -> Received {
    advance(to: now)
    let key = StreamKey(user: packet.stream.user, kind: packet.stream.kind)
    let position: Int
    if let found = receiverIndex[key] {
      position = found
    } else if key.kind == .audio, key.user != me, isPresent(key.user) {
      position = receivers.count
      receiverIndex[key] = position
      receivers.append(StreamReceiver(publisher: key.user, kind: .audio, start: now))
    } else {
      diagnostics.unknownStreamPackets += 1
      return .dropped
    }
    let delay = min(Self.maxDelay, max(0, now &- packet.sendTime))
    let expectedBefore = receivers[position].expected
    let receivedBefore = receivers[position].received
    let outcome = receivers[position].receive(packet, at: now, delay: delay)
    if key.kind != .audio {
      feedbackExpected &+= receivers[position].expected &- expectedBefore
      feedbackReceived &+= receivers[position].received &- receivedBefore
    }
    if receivers[position].received != receivedBefore {
      delayTrend.arrived(
        bytes: packet.datagramSize, queueing: receivers[position].queueing, at: now)
    }
    switch outcome {
    case .duplicate:
      diagnostics.duplicatePackets += 1
      return .dropped
    case .tooOld:
      diagnostics.tooOldPackets += 1
      return .dropped
    case .badLayer:
      diagnostics.unknownStreamPackets += 1
      return .dropped
    case .accepted:
      delays[key.kind.index].record(delay)
      return .counted
    case .frame(let frame):
      delays[key.kind.index].record(delay)
      return .frame(
        VideoFrame(
          user: key.user, kind: key.kind == .share ? .share : .video, width: Int(frame.width),
          height: Int(frame.height), layer: Int(frame.layer), frameID: frame.frameID,
          firstSequence: frame.firstSequence, isKeyFrame: frame.isKeyFrame,
          sendTime: frame.sendTime, receiveTime: now))
    }
  }

  /// The least time between two feedbacks while the detector reads overuse, µs.
  static let overuseFeedbackInterval: Int64 = 150_000

  /// The feedback due at `now`, if any: every ``SessionTransport/DownlinkFeedback/interval``
  /// while bound and receiving, at once when the detector turns to overusing, and every
  /// ``overuseFeedbackInterval`` while it stays there (so that the service's cuts follow the
  /// queue, not the half-second clock).
  mutating func feedbackDue(at now: Int64) -> DownlinkFeedback? {
    guard isBound, !receivers.isEmpty else { return nil }
    let due = nextFeedback.map { now >= $0 } ?? true
    // Overuse since the last feedback (even one the detector has left again), or overuse now.
    let overuseSince = delayTrend.lastOveruse.map { turned in
      lastFeedback.map { turned > $0 } ?? true
    }
    let early =
      (overuseSince == true || delayTrend.signal == .overusing)
      && lastFeedback.map { now &- $0 >= Self.overuseFeedbackInterval } ?? true
    guard due || early else { return nil }
    delayTrend.idle(at: now)
    lastFeedback = now
    nextFeedback = now &+ DownlinkFeedback.interval
    let lost = max(0, feedbackExpected &- feedbackReceived)
    let feedback = DownlinkFeedback(
      subscriber: me, packetsReceived: UInt32(clamping: feedbackReceived),
      packetsLost: UInt32(clamping: lost),
      receiveRate: UInt32(clamping: Int64(delayTrend.receiveRate(at: now).rounded())),
      queueDelay: UInt32(clamping: Int64(delayTrend.queueDelay.rounded())),
      signal: delayTrend.signal)
    feedbackReceived = 0
    feedbackExpected = 0
    return feedback
  }

  /// Takes the service's answer to a ping.
  ///
  /// - Returns: Whether it answered a ping in flight.
  @discardableResult
  mutating func pong(sendTime: Int64, at now: Int64) -> Bool {
    advance(to: now)
    guard probe.pong(sendTime: sendTime, at: self.now ?? now) else {
      diagnostics.strayPongs += 1
      return false
    }
    return true
  }
}
