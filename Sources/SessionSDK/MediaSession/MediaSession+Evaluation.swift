import SessionCore
import SessionTransport

extension MediaSession {
  /// The once-a-second work: each received stream closes its interval and reports, every
  /// stream's network quality is evaluated, and the overall level goes to the service when it
  /// changed.
  mutating func evaluate(
    at now: Int64, canSignal: Bool, isPublishing: (UserID, MediaKind) -> Bool,
    into out: inout MediaOutput
  ) {
    lastEvaluation = now
    for index in receivers.indices {
      let interval = receivers[index].closeInterval(at: now)
      let receiver = receivers[index]
      // Audio reaches a subscriber only while its sender is among the loudest talkers, so its
      // gaps are the service's choice as much as loss: only video and share are reported.
      let key = StreamKey(user: receiver.publisher, kind: receiver.kind)
      let isPaused = paused[key] != nil
      // A paused stream reports too (nothing received, nothing lost): the reports are what
      // lets the service's estimate grow back and resume it.
      if isBound, receiver.kind != .audio, interval.received > 0 || isPaused {
        out.datagrams.append(
          .report(
            ReceiverReport(
              subscriber: me, stream: receiver.stream, highestSequence: receiver.highestSequence,
              packetsReceived: UInt32(clamping: interval.received),
              packetsLost: UInt32(clamping: interval.lost),
              jitter: UInt32(clamping: receiver.jitter), lastSendTime: receiver.lastSendTime)))
      }
      let sample: QualitySample?
      if interval.received > 0 {
        sample = QualitySample(
          loss: interval.expected == 0 ? 0 : Double(interval.lost) / Double(interval.expected),
          delay: Double(receiver.meanDelay) / 1_000, jitter: Double(receiver.jitter) / 1_000)
      } else if receiver.kind != .audio, receiver.firstArrival != nil, !isPaused,
        isPublishing(receiver.publisher, receiver.kind)
      {
        // Nothing arrived of a stream that flowed and is still sent: all of it was lost.
        sample = QualitySample(loss: 1, delay: 0, jitter: 0)
      } else {
        sample = nil
      }
      if let level = receivers[index].quality.evaluate(sample) {
        out.levels.append(
          LevelChange(type: DataType(receiver.kind), level: level, user: receiver.publisher))
      }
    }
    // A subscription paused before anything of it arrived has no receiver: it reports too.
    if isBound {
      for key in paused.keys.sorted() where receiverIndex[key] == nil {
        out.datagrams.append(
          .report(
            ReceiverReport(
              subscriber: me, stream: StreamID(user: key.user, kind: key.kind),
              highestSequence: 0, packetsReceived: 0, packetsLost: 0, jitter: 0,
              lastSendTime: 0)))
      }
    }
    let probeSample = self.probeSample(at: now)
    for kind in MediaKind.all {
      let slot = kind.index
      let elapsed = Double(Self.evaluationInterval)
      sent[slot].fps = Int((Double(sent[slot].intervalFrames) * 1_000_000 / elapsed).rounded())
      sent[slot].bps = Int(Double(sent[slot].intervalBytes) * 8 * 1_000_000 / elapsed)
      sent[slot].intervalFrames = 0
      sent[slot].intervalBytes = 0
      if let level = sendQuality[slot].evaluate(sending.sends(kind) ? probeSample : nil) {
        out.levels.append(LevelChange(type: DataType(kind), level: level, user: me))
      }
    }
    if canSignal, overallLevel != reportedOverall {
      reportedOverall = overallLevel
      out.commands.append(.reportNetworkQuality(overallLevel))
    }
  }

  /// The send side's measurements: the pings' loss, half their round trip and variation;
  /// `nil` before any ping was answered or due.
  func probeSample(at now: Int64) -> QualitySample? {
    let (due, lost) = probe.loss(at: now)
    guard due > 0 || probe.rtt != nil else { return nil }
    return QualitySample(
      loss: due == 0 ? 0 : Double(lost) / Double(due),
      delay: Double(probe.rtt ?? 0) / 2_000, jitter: Double(probe.variation) / 2_000)
  }

  /// The local user's overall network quality: the worst of the kinds it sends, none when it
  /// sends nothing measured.
  var overallLevel: NetworkQuality {
    var worst = NetworkQuality.none
    for tracker in sendQuality where tracker.level != .none {
      if worst == .none || tracker.level.rawValue < worst.rawValue { worst = tracker.level }
    }
    return worst
  }
}
