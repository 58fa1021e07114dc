import SessionCore
import SessionTransport
import Testing

@testable import SessionSDK

/// Statistics and network quality under injected loss and delay, in virtual time.
@MainActor
@Suite struct MediaStatisticsTests {
  let service = MiniService()
  let grace: MediaMember
  let ada: MediaMember
  let view = FrameSink()

  init() throws {
    grace = MediaMember("Grace", service: service, videoOn: true)
    ada = MediaMember("Ada", service: service)
    ada.bind()
    _ = ada.requests()
  }

  func subscribe(_ resolution: VideoResolution = .auto) throws {
    let canvas = try #require(ada.user(grace.id)?.getVideoCanvas())
    #expect(
      canvas.subscribe(with: view, aspectMode: .letterBox, andResolution: resolution) == .success)
  }

  /// Runs Ada from `start` to `end`: every 10 ms the datagrams due arrive, then a tick; her
  /// pings are answered `rtt` later when `answer` says so.
  func run(
    _ arrivals: [(time: Int64, bytes: [UInt8])], from start: Int64 = 0, to end: Int64,
    rtt: Int64 = 40_000, answer: (Int64) -> Bool = { _ in true }
  ) {
    var pending = arrivals.sorted { $0.time < $1.time }[...]
    var pongs: [(Int64, Int64)] = []
    var seen = ada.link.sent.count
    var now = start
    while now < end {
      while let next = pending.first, next.time <= now {
        ada.link.deliver(next.bytes, at: next.time)
        pending.removeFirst()
      }
      for (index, pong) in pongs.enumerated().reversed() where pong.0 <= now {
        ada.link.deliver(MediaDatagram.pong(sendTime: pong.1).encode(), at: pong.0)
        pongs.remove(at: index)
      }
      ada.link.tick(now)
      for bytes in ada.link.sent[seen...] {
        if case .ping(let time)? = FakeMediaLink.decodeSealed(bytes), answer(time) {
          pongs.append((time + rtt, time))
        }
      }
      seen = ada.link.sent.count
      now += 10_000
    }
  }

  /// Grace's 720p stream (one layer) over `[start, end)`, arriving `delay` after it was sent;
  /// `keep` picks the packets that arrive, by their index.
  func graceStream(
    from start: Int64 = 0, to end: Int64, delay: Int64, frameRate: Int = 30,
    keep: (Int) -> Bool = { _ in true }
  ) throws -> [(time: Int64, bytes: [UInt8])] {
    var source = try singleLayerSource(grace.id, frameRate: frameRate)
    return packets(of: &source, from: start, to: end).enumerated().compactMap { index, packet in
      keep(index) ? (packet.sendTime + delay, packet.encode()) : nil
    }
  }

  @Test func tenPercentLossReadsTenPercent() throws {
    try subscribe()
    run(try graceStream(to: 8_000_000, delay: 30_000) { $0 % 10 != 9 }, to: 8_000_000)
    let statistics = try #require(ada.user(grace.id)?.getVideoStatisticInfo())
    #expect(statistics.direction == .receive && statistics.statisticsType == .video)
    #expect((85...115).contains(statistics.averageLoss), "\(statistics.averageLoss)‰")
    #expect(statistics.maximumLoss >= statistics.averageLoss)
    let total =
      Double(statistics.packetsLost)
      / Double(statistics.packetsLost + statistics.packetsTransferred)
    #expect(abs(total - 0.10) <= 0.015, "\(total)")
    #expect(statistics.width == 1_280 && statistics.height == 720)
    #expect(statistics.fps > 0 && statistics.fps < 30, "frames missing a packet do not render")
    #expect(statistics.framesDecoded > 0)
    #expect(statistics.rtt == 40)
    #expect(statistics.jitter == 0, "a constant delay has no jitter")
    // The receiver reports say the same, once a second.
    let reports = ada.link.datagrams.reports
    #expect((7...8).contains(reports.count))
    let lost = reports.dropFirst().reduce(0) { $0 + Int($1.packetsLost) }
    let received = reports.dropFirst().reduce(0) { $0 + Int($1.packetsReceived) }
    #expect(abs(Double(lost) / Double(lost + received) - 0.10) <= 0.015)
    #expect(
      reports.allSatisfy {
        $0.subscriber == ada.id && $0.stream == StreamID(user: grace.id, kind: .video)
      })
    // And the session's figures.
    let session = try #require(ada.sdk.getSession()?.getSessionVideoStatisticInfo())
    #expect(session.recvLatency == 30)
    #expect(session.recvFrameHeight == 720)
    #expect((85...115).contains(session.recvPacketLossAvg))
  }

  @Test func noLossReadsNoLoss() throws {
    try subscribe()
    run(try graceStream(to: 6_000_000, delay: 30_000), to: 6_000_000)
    let statistics = try #require(ada.user(grace.id)?.getVideoStatisticInfo())
    #expect(
      statistics.averageLoss == 0 && statistics.maximumLoss == 0 && statistics.packetsLost == 0)
    #expect(statistics.fps == 30)
    #expect(
      abs(statistics.bps - 1_550_000) < 200_000, "\(statistics.bps) bps: 1.5 Mbps and headers")
    #expect(ada.networkChanges() == [.onUserNetworkStatusChanged(.video, .good, user: grace.id)])
  }

  @Test func delayReadsAsLatencyAndLowersTheLevel() throws {
    try subscribe()
    run(try graceStream(to: 6_000_000, delay: 600_000), to: 6_600_000)
    let session = try #require(ada.sdk.getSession()?.getSessionVideoStatisticInfo())
    #expect(session.recvLatency == 600)
    #expect(ada.user(grace.id)?.getVideoStatisticInfo().networkLevel == .normal)
    let figures = ada.sdk.mediaFigures
    #expect(figures.videoDelays.percentile(0.5) >= 600_000)
    #expect(figures.videoDelays.percentile(0.99) <= 640_000)
  }

  @Test func aGapFreezesAndSteadyFramesDoNot() throws {
    try subscribe()
    // Steady for 3 s, nothing for half a second, steady again.
    run(
      try graceStream(to: 5_000_000, delay: 20_000).filter {
        $0.time < 3_020_000 || $0.time >= 3_520_000
      }, to: 5_000_000)
    let stream = try #require(ada.sdk.mediaFigures.streams.first)
    #expect(stream.freezes == 1)
    #expect(stream.freezeTime >= 500_000 && stream.freezeTime < 560_000)
    #expect(!stream.isFrozen)
  }

  @Test func steadyFramesNeverFreeze() throws {
    try subscribe()
    run(try graceStream(to: 5_000_000, delay: 20_000), to: 5_000_000)
    #expect(ada.sdk.mediaFigures.streams.first?.freezes == 0)
    // Nor does a slow share: five frames a second is not a freeze.
    let alan = MediaMember("Alan", service: service)
    #expect(alan.sdk.getShareHelper().startShare(with: FrameSink()) == .success)
    let canvas = try #require(ada.user(alan.id)?.getShareActionList()?.first?.getShareCanvas())
    let shareView = FrameSink()
    canvas.subscribe(with: shareView, aspectMode: .letterBox, andResolution: .auto)
    var share = try ShareSource(user: alan.id, seed: 1, start: 5_000_000)
    var sent: [MediaPacket] = []
    var now: Int64 = 5_000_000
    while now < 10_000_000 {
      sent += share.packets(until: now)
      now += 10_000
    }
    run(sent.map { ($0.sendTime + 20_000, $0.encode()) }, from: 5_000_000, to: 10_000_000)
    #expect(shareView.frames.count == 25)
    #expect(ada.sdk.mediaFigures.streams.first { $0.kind == .share }?.freezes == 0)
  }

  @Test func aStreamThatStopsArrivingReadsBadAndRecovers() throws {
    try subscribe()
    let stream = try graceStream(to: 14_000_000, delay: 20_000)
    run(stream.filter { $0.time < 4_000_000 }, to: 4_000_000)
    #expect(ada.networkChanges() == [.onUserNetworkStatusChanged(.video, .good, user: grace.id)])
    // A partition: Grace's camera is on, nothing arrives.
    run([], from: 4_000_000, to: 8_000_000) { _ in false }
    #expect(
      ada.networkChanges().contains(.onUserNetworkStatusChanged(.video, .bad, user: grace.id)))
    #expect(ada.sdk.mediaFigures.streams.first?.isFrozen == true)
    run(stream.filter { $0.time >= 8_000_000 }, from: 8_000_000, to: 14_000_000)
    #expect(ada.networkChanges().last == .onUserNetworkStatusChanged(.video, .good, user: grace.id))
    #expect(ada.sdk.mediaFigures.streams.first?.freezes == 1)
    #expect(ada.sdk.mediaFigures.streams.first?.isFrozen == false)
  }

  @Test func aSenderThatNumbersAgainIsFollowed() throws {
    try subscribe()
    run(try graceStream(to: 3_000_000, delay: 20_000), to: 3_000_000)
    let before = view.frames.count
    // A new source: its numbers start from 0 again.
    var restarted = try singleLayerSource(grace.id)
    let again = packets(of: &restarted, from: 3_000_000, to: 5_000_000).map {
      (time: $0.sendTime + 20_000, bytes: $0.encode())
    }
    run(again, from: 3_000_000, to: 5_000_000)
    #expect(view.frames.count > before + 50)
  }

  @Test func unsubscribingTakesTheLevelBackToNone() throws {
    try subscribe()
    run(try graceStream(to: 3_000_000, delay: 20_000), to: 3_000_000)
    _ = ada.networkChanges()
    try #require(ada.user(grace.id)?.getVideoCanvas()).unSubscribe(with: view)
    #expect(ada.networkChanges() == [.onUserNetworkStatusChanged(.video, .none, user: grace.id)])
    #expect(
      ada.user(grace.id)?.getVideoStatisticInfo()
        == QOSStatistics(direction: .receive, statisticsType: .video))
  }

  @Test func theSendSideFollowsThePingsAndReportsTheOverallLevel() throws {
    #expect(grace.sdk.getVideoHelper().startVideo() == .success)
    let adaVideo = try #require(ada.sdk.getVideoHelper().startVideo() == .success ? ada : nil)
    run([], to: 5_000_000)
    #expect(
      adaVideo.networkChanges().contains(.onUserNetworkStatusChanged(.video, .good, user: ada.id)))
    #expect(service.qualityReports[ada.id] == [.good])
    #expect(ada.myself?.getOverallNetworkLevel() == .good)
    let sending = try #require(ada.myself?.getVideoStatisticInfo())
    #expect(sending.direction == .send && sending.fps == 30 && sending.width == 1_280)
    #expect(sending.rtt == 40 && sending.bandwidth > 2_000_000)
    #expect(sending.framesEncoded >= 120)
    // Every ping lost from 5 s on: bad, reported once.
    run([], from: 5_000_000, to: 18_000_000) { _ in false }
    #expect(service.qualityReports[ada.id] == [.good, .bad])
    #expect(ada.myself?.getVideoStatisticInfo().averageLoss == 1_000)
    // Answered again: good again, once the lost pings are out of the window.
    run([], from: 18_000_000, to: 32_000_000)
    #expect(service.qualityReports[ada.id]?.last == .good)
    let mine = ada.networkChanges().filter {
      if case .onUserNetworkStatusChanged(_, _, let user) = $0 { user == ada.id } else { false }
    }
    #expect(mine.last == .onUserNetworkStatusChanged(.video, .good, user: ada.id))
    // Nothing sent: none.
    #expect(ada.sdk.getVideoHelper().stopVideo() == .success)
    run([], from: 32_000_000, to: 36_000_000)
    #expect(service.qualityReports[ada.id]?.last == NetworkQuality.none)
  }

  @Test func theDownlinkEstimateIsTheReceiveBandwidth() throws {
    try subscribe()
    service.notify(ada.id, .downlinkEstimate(2_500_000))
    run(try graceStream(to: 2_000_000, delay: 20_000), to: 2_000_000)
    #expect(ada.user(grace.id)?.getVideoStatisticInfo().bandwidth == 2_500_000)
  }

  /// A paused subscription shows its reason on the canvas and in the statistics until the
  /// service resumes it, the subscription ends, or a new credential starts the media state
  /// afresh; a pause of a stream no longer subscribed is ignored.
  @Test func aPauseShowsUntilItsResumeAnUnsubscribeOrANewCredential() throws {
    try subscribe()
    let canvas = try #require(ada.user(grace.id)?.getVideoCanvas())
    #expect(canvas.pauseReason() == nil)
    service.notify(ada.id, .streamPaused(publisher: grace.id, kind: .video, reason: .bandwidth))
    #expect(canvas.pauseReason() == .bandwidth)
    #expect(ada.user(grace.id)?.getVideoStatisticInfo().pauseReason == .bandwidth)
    service.notify(ada.id, .streamResumed(publisher: grace.id, kind: .video))
    #expect(canvas.pauseReason() == nil)
    // A new credential (after a resume) forgets the pause; the service sends it again.
    service.notify(ada.id, .streamPaused(publisher: grace.id, kind: .video, reason: .bandwidth))
    service.notify(ada.id, .credential(MiniService.mediaCredential(of: ada.id)))
    #expect(canvas.pauseReason() == nil)
    // Unsubscribing ends a pause, and a pause after it is about nothing subscribed.
    service.notify(ada.id, .streamPaused(publisher: grace.id, kind: .video, reason: .bandwidth))
    #expect(canvas.unSubscribe(with: view) == .success)
    #expect(canvas.pauseReason() == nil)
    service.notify(ada.id, .streamPaused(publisher: grace.id, kind: .video, reason: .bandwidth))
    #expect(canvas.pauseReason() == nil)
  }

  /// A stream begins at its subscription and again at each pause or resume the service sends:
  /// a resumed stream arrives only from the publisher's next key frame, so a run's final check
  /// gives it its two seconds from the resume, not from its last packet before the pause.
  @Test func aStreamBeginsAgainWhenTheServiceResumesIt() throws {
    run([], to: 500_000)
    try subscribe()
    let begun = ada.sdk.mediaFigures.streams.first?.startedAt
    #expect(begun == 490_000)
    let stream = try graceStream(to: 6_000_000, delay: 20_000)
    run(stream.filter { $0.time < 3_000_000 }, from: 500_000, to: 3_000_000)
    let arrived = try #require(ada.sdk.mediaFigures.streams.first?.lastArrival)
    service.notify(ada.id, .streamPaused(publisher: grace.id, kind: .video, reason: .bandwidth))
    run([], from: 3_000_000, to: 5_000_000)
    service.notify(ada.id, .streamResumed(publisher: grace.id, kind: .video))
    let figures = ada.sdk.mediaFigures
    #expect(figures.streams.first?.startedAt == 4_990_000)
    #expect(figures.streams.first?.lastArrival == arrived)
    #expect(figures.streams.first?.isPaused == false)
  }
}
