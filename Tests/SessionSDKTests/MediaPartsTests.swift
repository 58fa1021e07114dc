import SessionCore
import SessionTransport
import Testing

@testable import SessionSDK

/// The media plane's parts, one by one: sequence numbers, frame assembly, loss windows, delay
/// histograms, the ping probe and the network-quality hysteresis.
@Suite struct MediaPartsTests {
  // MARK: Sequence numbers

  @Test func sequencesCountGapsLateAndDuplicatePackets() {
    var layer = LayerSequence()
    #expect(layer.take(10) == .first)
    #expect(layer.take(11) == .advanced(gap: 1))
    #expect(layer.take(14) == .advanced(gap: 3))
    #expect(layer.take(12) == .late)
    #expect(layer.take(12) == .duplicate)
    #expect(layer.take(14) == .duplicate)
    #expect(layer.take(14 &- 70) == .tooOld)
    #expect(layer.highestOnWire == 14)
  }

  @Test func sequencesWrapAround() {
    var layer = LayerSequence()
    #expect(layer.take(.max - 1) == .first)
    #expect(layer.take(.max) == .advanced(gap: 1))
    #expect(layer.take(0) == .advanced(gap: 1))
    #expect(layer.take(2) == .advanced(gap: 2))
    #expect(layer.take(1) == .late)
    #expect(layer.highest == Int64(UInt32.max) + 3)
  }

  @Test func aHugeJumpOrATooOldPairRestartsTheCount() {
    var layer = LayerSequence()
    #expect(layer.take(100) == .first)
    #expect(layer.take(100 + 3_001) == .first, "a jump past 3000 is a restart, not loss")
    #expect(layer.take(100 + 3_002) == .advanced(gap: 1))
    // Numbering from 0 again: the first too-old packet is dropped, the next one restarts.
    #expect(layer.take(0) == .tooOld)
    #expect(layer.take(1) == .first)
    #expect(layer.take(2) == .advanced(gap: 1))
    // Two too-old packets that do not follow each other restart nothing.
    #expect(layer.take(2 &- 500) == .tooOld)
    #expect(layer.take(2 &- 400) == .tooOld)
    #expect(layer.take(3) == .advanced(gap: 1))
  }

  // MARK: Frames

  @Test func aFrameIsWholeWhenItsPacketsArrivedInAnyOrder() {
    var assembly = FrameAssembly()
    func take(_ sequence: UInt32, frame: UInt32, of packets: UInt16 = 3, at time: Int64 = 0)
      -> FrameAssembly.Frame?
    {
      assembly.take(
        layer: 0, frameID: frame, sequence: sequence, packets: packets, isKeyFrame: false,
        sendTime: time, width: 1, height: 1)
    }
    #expect(take(2, frame: 1) == nil)
    #expect(take(0, frame: 1) == nil)
    let whole = take(1, frame: 1)
    #expect(whole?.frameID == 1 && whole?.firstSequence == 0)
    #expect(take(5, frame: 2, of: 1)?.frameID == 2, "a one-packet frame is whole at once")
    // Five frames open at once: the oldest is pushed out and lost.
    for frame in UInt32(10)..<15 { #expect(take(frame * 3, frame: frame, at: Int64(frame)) == nil) }
    #expect(assembly.framesLost == 1)
    assembly.drop(before: 14)
    #expect(assembly.framesLost == 4)
  }

  @Test func aLostPacketLosesOnlyItsFrame() throws {
    var receiver = StreamReceiver(publisher: 1, kind: .video, start: 0)
    var source = try VideoSource(user: 1, ladder: [.p720], seed: 1, start: 0)
    let sent = packets(of: &source, from: 0, to: 1_000_000)
    let frames = Dictionary(grouping: sent, by: \.frameID)
    let victim = try #require(frames.keys.sorted().dropFirst(5).first)
    var rendered: [UInt32] = []
    for packet in sent where !(packet.frameID == victim && packet == frames[victim]?.first) {
      if case .frame(let frame) = receiver.receive(packet, at: packet.sendTime, delay: 0) {
        rendered.append(frame.frameID)
      }
    }
    #expect(rendered == frames.keys.sorted().filter { $0 != victim })
    #expect(receiver.lost == 1)
    #expect(receiver.framesLost == 1, "given up on when the next frame rendered")
  }

  @Test func aLayerSwitchAtAKeyFrameStartsThatLayersCount() throws {
    var receiver = StreamReceiver(publisher: 1, kind: .video, start: 0)
    var source = try VideoSource(user: 1, seed: 1, start: 0)
    let sent = packets(of: &source, from: 0, to: 4_100_000)
    // Layer 2 until the key frame at 2 s, then layer 0.
    let forwarded = sent.filter {
      $0.sendTime < 2_000_000 ? $0.stream.layer == 2 : $0.stream.layer == 0
    }
    for packet in forwarded { _ = receiver.receive(packet, at: packet.sendTime, delay: 0) }
    #expect(receiver.lost == 0)
    #expect(receiver.currentLayer == 0)
    #expect(receiver.lastFrame?.height == 180)
    #expect(receiver.freezes == 0)
    // Back up to layer 2 at the key frame at 4 s, whose count had stopped at 2 s.
    let later = packets(of: &source, from: 4_100_000, to: 4_500_000).filter { $0.stream.layer == 2 }
    for packet in later { _ = receiver.receive(packet, at: packet.sendTime, delay: 0) }
    #expect(receiver.lost == 0)
    #expect(receiver.currentLayer == 2)
  }

  @Test func audioGapsBeyondTwoPacketsArePausesNotLoss() {
    var receiver = StreamReceiver(publisher: 1, kind: .audio, start: 0)
    func packet(_ sequence: UInt32) -> MediaPacket {
      MediaPacket(
        stream: StreamID(user: 1, kind: .audio), sequence: sequence, frameID: sequence,
        isKeyFrame: true, sendTime: Int64(sequence) * 20_000, payloadBytes: 80, audioLevel: 30)
    }
    for sequence: UInt32 in [0, 1, 3, 4, 20, 21] {
      _ = receiver.receive(packet(sequence), at: Int64(sequence) * 20_000, delay: 0)
    }
    #expect(receiver.lost == 1, "the one missing packet is loss; the gap of 15 is a pause")
    #expect(receiver.pauses == 1)
  }

  @Test func jitterFollowsRFC3550() throws {
    var receiver = StreamReceiver(publisher: 1, kind: .audio, start: 0)
    for sequence in UInt32(0)..<200 {
      let sent = Int64(sequence) * 20_000
      let wobble: Int64 = sequence % 2 == 0 ? 0 : 4_000
      _ = receiver.receive(
        MediaPacket(
          stream: StreamID(user: 1, kind: .audio), sequence: sequence, frameID: sequence,
          isKeyFrame: true, sendTime: sent, payloadBytes: 80),
        at: sent + 10_000 + wobble, delay: 10_000 + wobble)
    }
    // Each transit differs from the last by 4 ms: the estimate tends to 4 ms.
    #expect(abs(receiver.jitter - 4_000) < 100)
  }

  // MARK: Windows and histograms

  @Test func theLossWindowKeepsFiveSeconds() {
    var window = LossWindow()
    #expect(window.averagePerThousand == 0 && window.newest == nil)
    window.add(expected: 100, lost: 50)
    for _ in 0..<4 { window.add(expected: 100, lost: 0) }
    #expect(window.averagePerThousand == 100 && window.maximumPerThousand == 500)
    window.add(expected: 100, lost: 10)
    #expect(window.averagePerThousand == 20 && window.maximumPerThousand == 100)
    window.add(expected: -5, lost: 99)
    #expect(window.newest == nil)
    window.add(expected: 10, lost: 99)
    #expect(window.newest == 1)
  }

  @Test func histogramPercentilesErrByLessThanABucket() {
    var histogram = DelayHistogram()
    #expect(histogram.percentile(0.5) == 0)
    for delay in 1...10_000 { histogram.record(Int64(delay) * 10) }
    let median = histogram.percentile(0.5)
    #expect(median >= 50_000 && Double(median) <= 50_000 * 1.07)
    let p99 = histogram.percentile(0.99)
    #expect(p99 >= 99_000 && Double(p99) <= 99_000 * 1.07)
    #expect(histogram.percentile(1) == 100_000)
    var other = DelayHistogram()
    other.record(.max)
    other.record(-5)
    other.merge(histogram)
    #expect(other.count == 10_002)
    #expect(other.percentile(0) == 0)
    #expect(other.percentile(.nan) == .max)
    for bucket in 0..<DelayHistogram.bucketCount - 1 {
      #expect(DelayHistogram.upperEdge(of: bucket) + 1 == lowerEdge(bucket + 1))
    }
  }

  func lowerEdge(_ bucket: Int) -> Int64 {
    DelayHistogram.upperEdge(of: bucket - 1) + 1
  }

  @Test func histogramBucketsAreContiguous() {
    for value: Int64 in [0, 1, 31, 32, 33, 63, 64, 1_000, 1_000_000, 1 << 40, (1 << 43) - 1] {
      let bucket = DelayHistogram.bucket(of: value)
      #expect(value <= DelayHistogram.upperEdge(of: bucket))
      #expect(bucket == 0 || value > DelayHistogram.upperEdge(of: bucket - 1))
    }
    #expect(DelayHistogram.bucket(of: .max) == DelayHistogram.bucketCount - 1)
  }

  // MARK: The probe

  @Test func theProbeMeasuresRoundTripsAndLoss() {
    var probe = PingProbe()
    probe.ping(at: 0)
    let answers = [
      probe.pong(sendTime: 0, at: 40_000),
      probe.pong(sendTime: 0, at: 50_000),  // answered already
      probe.pong(sendTime: 7, at: 50_000),  // never sent
      probe.pong(sendTime: 2_000_000, at: 50_000),  // from the future
    ]
    #expect(answers == [true, false, false, false])
    #expect(probe.rtt == 40_000)
    probe.ping(at: 1_000_000)
    probe.ping(at: 2_000_000)
    let late = probe.pong(sendTime: 2_000_000, at: 2_080_000)
    #expect(late)
    #expect(probe.rtt == 50_000)
    #expect(probe.loss(at: 2_500_000) == (due: 2, lost: 0), "the ping at 1 s is not due yet")
    #expect(probe.loss(at: 3_000_000) == (due: 3, lost: 1))
    #expect(probe.totalLost(at: 3_000_000) == 1)
  }

  // MARK: Network quality

  static func sample(score: Double) -> QualitySample {
    // No delay effect beyond the fixed 10 ms (0.25 points): the loss sets the score.
    QualitySample(loss: max(0, (99.75 - score) / 300), delay: 0, jitter: 0)
  }

  @Test func theScoreWeighsLossAndDelay() {
    #expect(QualitySample(loss: 0, delay: 0, jitter: 0).score == 99.75)
    #expect(abs(QualitySample(loss: 0.1, delay: 0, jitter: 0).score - 69.75) < 1e-9)
    #expect(abs(QualitySample(loss: 0, delay: 600, jitter: 0).score - 51) < 1e-9)
    #expect(QualitySample(loss: 1, delay: 0, jitter: 0).score == 0)
    #expect((0...100).contains(QualitySample(loss: .nan, delay: .nan, jitter: .infinity).score))
    #expect(abs(Self.sample(score: 70).score - 70) < 1e-9)
  }

  @Test func theFirstMeasurementSetsTheLevelAndSilenceClearsIt() {
    var tracker = NetworkQualityTracker()
    #expect(tracker.evaluate(nil) == nil)
    #expect(tracker.evaluate(Self.sample(score: 60)) == .normal)
    #expect(tracker.evaluate(nil) == nil, "one empty evaluation keeps the level")
    #expect(tracker.evaluate(Self.sample(score: 60)) == nil)
    #expect(tracker.evaluate(nil) == nil)
    #expect(tracker.evaluate(nil) == NetworkQuality.none)
    #expect(tracker.level == .none)
  }

  @Test func aLevelChangesOnlyAfterTwoEvaluationsPastTheMargin() {
    var tracker = NetworkQualityTracker()
    #expect(tracker.evaluate(Self.sample(score: 95)) == .good)
    // Down: the smoothed score goes 95 → 70 → 57.5; the second evaluation past 75 changes it.
    #expect(tracker.evaluate(Self.sample(score: 45)) == nil)
    #expect(tracker.evaluate(Self.sample(score: 45)) == .normal)
    // Up again: needs 85 twice.
    #expect(tracker.evaluate(Self.sample(score: 100)) == nil)
    #expect(tracker.evaluate(Self.sample(score: 100)) == nil)
    #expect(tracker.evaluate(Self.sample(score: 100)) == .good)
  }

  @Test func aScoreHoveringAroundABoundaryNeverFlaps() {
    var tracker = NetworkQualityTracker()
    #expect(tracker.evaluate(Self.sample(score: 82)) == .good)
    for round in 0..<40 {
      #expect(tracker.evaluate(Self.sample(score: round % 2 == 0 ? 77 : 83)) == nil)
    }
    #expect(tracker.level == .good)
    var normal = NetworkQualityTracker()
    #expect(normal.evaluate(Self.sample(score: 78)) == .normal)
    for round in 0..<40 {
      #expect(normal.evaluate(Self.sample(score: round % 2 == 0 ? 84 : 76)) == nil)
    }
    var bad = NetworkQualityTracker()
    #expect(bad.evaluate(Self.sample(score: 48)) == .bad)
    for round in 0..<40 {
      #expect(bad.evaluate(Self.sample(score: round % 2 == 0 ? 46 : 54)) == nil)
    }
    #expect(bad.level == .bad)
  }

  @Test func aSingleBadSecondDoesNotChangeTheLevel() {
    var tracker = NetworkQualityTracker()
    #expect(tracker.evaluate(Self.sample(score: 99)) == .good)
    #expect(tracker.evaluate(Self.sample(score: 20)) == nil)
    #expect(tracker.evaluate(Self.sample(score: 99)) == nil)
    #expect(tracker.level == .good)
  }

  @Test func aCollapseGoesStraightToBad() {
    var tracker = NetworkQualityTracker()
    #expect(tracker.evaluate(Self.sample(score: 99)) == .good)
    #expect(tracker.evaluate(Self.sample(score: 0)) == nil)
    #expect(tracker.evaluate(Self.sample(score: 0)) == .bad)
    #expect(NetworkQualityTracker.target(from: .good, score: 10) == .bad)
    #expect(NetworkQualityTracker.target(from: .bad, score: 99) == .good)
  }

  // MARK: Settings

  @Test func theSendResolutionPicksTheLayers() throws {
    let heights = { (resolution: VideoResolution) in
      MediaSettings(resolution: resolution, frameRate: 30, seed: 0)?.layers.map(\.height)
    }
    #expect(heights(.resolution720) == [180, 360, 720])
    #expect(heights(.auto) == [180, 360, 720])
    #expect(heights(.resolution360) == [180, 360])
    #expect(heights(.resolution180) == [180])
    #expect(heights(.resolution90) == [90])
    #expect(MediaSettings(resolution: .auto, frameRate: 0, seed: 0) == nil)
    #expect(MediaSettings(resolution: .auto, frameRate: 61, seed: 0) == nil)
  }
}

extension MediaPartsTests {
  @Test func aHistogramMinusAnEarlierCopyHoldsWhatCameSince() {
    var histogram = DelayHistogram()
    for _ in 0..<100 { histogram.record(1_000) }
    let earlier = histogram
    for _ in 0..<10 { histogram.record(50_000) }
    let recent = histogram.subtracting(earlier)
    #expect(recent.count == 10)
    #expect(recent.percentile(0.5) >= 50_000 && recent.percentile(0.5) < 53_500)
    #expect(earlier.subtracting(histogram).count == 0)
  }
}
