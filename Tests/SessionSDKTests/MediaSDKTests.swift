import SessionCore
import SessionTransport
import Testing

@testable import SessionSDK

/// The SDK's media plane: binding, the sources following the replica, canvases and sinks,
/// limits and refusals, statistics, network quality, talking, and bad datagrams.
@MainActor
@Suite struct MediaSDKTests {
  let service = MiniService()

  // MARK: Binding and probing

  @Test func bindRepeatsEvery250msUntilBoundThenPings() {
    let ada = MediaMember("Ada", service: service)
    #expect(ada.link.isStarted)
    ada.run(from: 0, to: 600_000)
    let before = ada.link.take()
    #expect(
      before.binds
        == Array(
          repeating: MediaBind(user: ada.id, credential: UInt64(ada.id.rawValue)), count: 3))
    #expect(ada.link.everySentDatagramIsAuthentic)
    #expect(before.pings.isEmpty, "no ping before the endpoint is bound")
    ada.bind()
    ada.run(from: 600_000, to: 2_000_000)
    let after = ada.link.take()
    #expect(after.binds.isEmpty)
    #expect(after.pings == [600_000, 1_600_000])
    #expect(ada.sdk.mediaDiagnostics.bindsSent == 3)
  }

  @Test func aResumeBindsAgainWithTheCredentialItResends() throws {
    let ada = MediaMember("Ada", service: service)
    ada.run(from: 0, to: 100_000)
    ada.bind()
    _ = ada.link.take()
    let link = try #require(service.link(of: ada.id))
    link.fail()
    #expect(ada.sdk.isInSession())
    #expect(ada.sdk.diagnostics.resumes == 1)
    ada.run(from: 100_000, to: 400_000)
    #expect(
      ada.link.take().binds
        == Array(
          repeating: MediaBind(user: ada.id, credential: UInt64(ada.id.rawValue)), count: 2))
    #expect(ada.media.links.count == 1, "the media link lives through the resume")
    ada.bind()
    ada.run(from: 400_000, to: 1_000_000)
    #expect(ada.link.take().binds.isEmpty)
  }

  @Test func aCheckUnderItsOwnKeyIsAnsweredAtOnceAndAForgedOneOrPongIsNot() {
    let ada = MediaMember("Ada", service: service)
    ada.run(from: 0, to: 100_000)
    _ = ada.link.take()
    // The service's check, tagged under Ada's key: answered with the same nonce.
    ada.link.deliver(MediaDatagram.check(nonce: 0xFEED).encode(), at: 100_000)
    #expect(
      ada.link.take() == [.checkReply(credential: UInt64(ada.id.rawValue), nonce: 0xFEED)])
    #expect(ada.link.everySentDatagramIsAuthentic)
    // The same check, and a pong, under another key: ignored and counted.
    let forger = MediaAuthenticator(key: [UInt8](repeating: 1, count: 16), sending: .toMember)
    ada.link.deliverRaw(forger.sealed(MediaDatagram.check(nonce: 1).encode()), at: 110_000)
    ada.link.deliverRaw(forger.sealed(MediaDatagram.pong(sendTime: 5).encode()), at: 110_000)
    #expect(ada.link.take().isEmpty)
    #expect(ada.sdk.mediaDiagnostics.unauthenticatedDatagrams == 2)
    #expect(ada.sdk.mediaDiagnostics.checksAnswered == 1)
  }

  @Test func anUnboundNoticeStartsBindingAgain() {
    let ada = MediaMember("Ada", service: service)
    ada.bind()
    ada.run(from: 0, to: 300_000)
    #expect(ada.link.take().binds.isEmpty)
    service.notify(ada.id, .unbound(.consentExpired))
    ada.run(from: 300_000, to: 600_000)
    let after = ada.link.take()
    #expect(after.binds.count == 2)
    #expect(after.pings.isEmpty, "nothing but binds until bound again")
    #expect(ada.sdk.mediaDiagnostics.unbinds == 1)
  }

  @Test func withoutAMediaPlaneNothingIsSentAndStatisticsReadZero() throws {
    let grace = MediaMember("Grace", service: service, withMedia: false)
    let ada = MediaMember("Ada", service: service, withMedia: false)
    #expect(ada.media.links.isEmpty)
    let sink = FrameSink()
    let canvas = try #require(ada.user(grace.id)?.getVideoCanvas())
    #expect(canvas.subscribe(with: sink, aspectMode: .letterBox, andResolution: .auto) == .success)
    #expect(ada.requests().isEmpty)
    #expect(
      ada.user(grace.id)?.getVideoStatisticInfo()
        == QOSStatistics(direction: .receive, statisticsType: .video))
    #expect(
      ada.myself?.getAudioStatisticInfo() == QOSStatistics(direction: .send, statisticsType: .audio)
    )
    #expect(ada.sdk.getSession()?.getSessionVideoStatisticInfo() == SessionStatisticInfo())
    #expect(ada.sdk.mediaDiagnostics == MediaDiagnostics())
    // Talking is reported at once, as before.
    #expect(ada.sdk.getAudioHelper().simulateTalking(true) == .success)
    #expect(service.talkingReports[ada.id] == [true])
  }

  @Test func leavingClosesTheMediaLink() {
    let ada = MediaMember("Ada", service: service, videoOn: true)
    ada.bind()
    ada.run(from: 0, to: 100_000)
    #expect(ada.sdk.leaveSession(false) == .success)
    #expect(ada.link.isClosed)
    #expect(ada.myself?.getVideoStatisticInfo().packetsTransferred ?? 0 == 0)
  }

  @Test func releasingTheInstanceClosesTheMediaLink() {
    let media = FakeMediaLinkFactory()
    do {
      let sdk = VideoSDK()
      let params = InitParams(domain: "zoom.us", transport: service)
      params.media = media
      sdk.initialize(params)
      sdk.joinSession(
        SessionContext(token: "header.payload.signature", sessionName: "S", userName: "Ada"))
      #expect(media.last?.isStarted == true)
    }
    #expect(media.last?.isClosed == true)
  }

  @Test func anInvalidFrameRateIsRefused() {
    for rate in [0, -1, 61, .max] {
      let params = InitParams(domain: "zoom.us", transport: service)
      params.media = FakeMediaLinkFactory()
      params.videoFrameRate = rate
      #expect(VideoSDK().initialize(params) == .invalidParameter)
    }
    let params = InitParams(domain: "zoom.us", transport: service)
    params.videoFrameRate = 60
    #expect(VideoSDK().initialize(params) == .success)
  }

  // MARK: Sources

  @Test func videoStartsWithItsLayersAnnouncedAndStopsWithThemWithdrawn() {
    let grace = MediaMember("Grace", service: service, videoOn: true)
    grace.bind()
    grace.run(from: 0, to: 1_000_000)
    let streams = (0..<3).map { StreamID(user: grace.id, kind: .video, layer: UInt8($0)) }
    #expect(
      grace.requests() == [
        .announce(streams[0], bitrate: 150_000, width: 320, height: 180),
        .announce(streams[1], bitrate: 500_000, width: 640, height: 360),
        .announce(streams[2], bitrate: 1_500_000, width: 1_280, height: 720),
      ])
    let sent = grace.link.take().packets
    for stream in streams {
      let frames = Set(sent.filter { $0.stream == stream }.map(\.frameID))
      #expect(frames.count == 30, "30 frames a second on \(stream)")
    }
    #expect(grace.sdk.getVideoHelper().stopVideo() == .success)
    grace.run(from: 1_000_000, to: 2_000_000)
    #expect(grace.requests() == streams.map { .withdraw($0) })
    #expect(grace.link.take().packets.filter { $0.sendTime >= 1_000_000 }.isEmpty)
    // On again: the same sequence continues, and the layers are announced again.
    #expect(grace.sdk.getVideoHelper().startVideo() == .success)
    grace.run(from: 2_000_000, to: 2_100_000)
    #expect(grace.requests().count == 3)
    let again = grace.link.take().packets.filter { $0.stream == streams[0] }
    #expect(again.first?.isKeyFrame == true)
    #expect(again.first.map { $0.sequence > 0 } == true)
  }

  @Test func aLowSendResolutionSendsOneLayer() {
    let student = MediaMember(
      "Student", service: service, resolution: .resolution180, videoOn: true)
    student.bind()
    student.run(from: 0, to: 500_000)
    #expect(
      student.requests() == [
        .announce(
          StreamID(user: student.id, kind: .video), bitrate: 150_000, width: 320, height: 180)
      ])
    #expect(Set(student.link.take().packets.map(\.stream.layer)) == [0])
  }

  @Test func nothingIsSentBeforeTheEndpointIsBound() {
    let grace = MediaMember("Grace", service: service, videoOn: true)
    grace.run(from: 0, to: 500_000)
    #expect(grace.link.take().packets.isEmpty)
    #expect(grace.requests().count == 3, "announcements ride signalling at once")
    grace.bind()
    grace.run(from: 500_000, to: 600_000)
    #expect(!grace.link.take().packets.isEmpty)
  }

  @Test func audioSendsWhileConnectedAndUnmuted() throws {
    let grace = MediaMember("Grace", service: service, audio: true)
    grace.bind()
    grace.run(from: 0, to: 1_000_000)
    let stream = StreamID(user: grace.id, kind: .audio)
    #expect(grace.requests() == [.announce(stream, bitrate: 32_000, width: 0, height: 0)])
    #expect(grace.link.take().packets.filter { $0.stream == stream }.count == 50)
    let me = try #require(grace.myself)
    #expect(grace.sdk.getAudioHelper().muteAudio(me) == .success)
    grace.run(from: 1_000_000, to: 2_000_000)
    #expect(grace.requests() == [.withdraw(stream)])
    #expect(grace.link.take().packets.isEmpty)
    #expect(grace.sdk.getAudioHelper().unmuteAudio(me) == .success)
    grace.run(from: 2_000_000, to: 2_200_000)
    #expect(grace.requests() == [.announce(stream, bitrate: 32_000, width: 0, height: 0)])
    #expect(grace.link.take().packets.count == 10)
  }

  @Test func aShareSendsWhileStartedAndNotPaused() {
    let grace = MediaMember("Grace", service: service)
    grace.bind()
    let share: ShareHelper = grace.sdk.getShareHelper()
    let stream = StreamID(user: grace.id, kind: .share)
    let announce = MediaRequest.announce(stream, bitrate: 800_000, width: 1_280, height: 720)
    grace.run(from: 0, to: 500_000)
    #expect(grace.requests().isEmpty)
    #expect(share.startShare(with: FrameSink()) == .success)
    grace.run(from: 500_000, to: 1_500_000)
    #expect(grace.requests() == [announce])
    #expect(Set(grace.link.take().packets.filter { $0.stream == stream }.map(\.frameID)).count == 5)
    #expect(share.pauseShare() == .success)
    grace.run(from: 1_500_000, to: 2_500_000)
    #expect(grace.requests() == [.withdraw(stream)])
    #expect(grace.link.take().packets.isEmpty)
    #expect(share.resumeShare() == .success)
    grace.run(from: 2_500_000, to: 3_000_000)
    #expect(grace.requests() == [announce])
    #expect(grace.link.take().packets.first?.isKeyFrame == true)
    #expect(share.stopShare() == .success)
    grace.run(from: 3_000_000, to: 3_500_000)
    #expect(grace.requests() == [.withdraw(stream)])
  }

  @Test func aKeyFrameRequestIsHonouredForOwnStreamsOnly() {
    let grace = MediaMember("Grace", service: service, videoOn: true)
    grace.bind()
    grace.run(from: 0, to: 500_000)
    _ = grace.link.take()
    let layer1 = StreamID(user: grace.id, kind: .video, layer: 1)
    grace.run(from: 500_000, to: 600_000)
    #expect(!grace.link.take().packets.contains { $0.isKeyFrame }, "no periodic key frame here")
    service.notify(grace.id, .keyFrameRequested(layer1))
    grace.run(from: 600_000, to: 640_000)
    let next = grace.link.take().packets
    #expect(next.filter { $0.stream == layer1 }.allSatisfy { $0.isKeyFrame })
    #expect(!next.filter { $0.stream.layer != 1 }.contains { $0.isKeyFrame })
    #expect(grace.sdk.mediaDiagnostics.keyFramesRequested == 1)
    // Someone else's stream, or one not sent: ignored.
    service.notify(grace.id, .keyFrameRequested(StreamID(user: 99, kind: .video)))
    service.notify(grace.id, .keyFrameRequested(StreamID(user: grace.id, kind: .share)))
    #expect(grace.sdk.mediaDiagnostics.ignoredNotices == 2)
    #expect(grace.sdk.mediaDiagnostics.keyFramesRequested == 1)
  }

  @Test func theOwnCanvasShowsWhatTheCameraSends() throws {
    let grace = MediaMember("Grace", service: service, videoOn: true)
    grace.bind()
    let preview = FrameSink()
    let canvas = try #require(grace.myself?.getVideoCanvas())
    #expect(
      canvas.subscribe(with: preview, aspectMode: .letterBox, andResolution: .auto) == .success)
    grace.run(from: 0, to: 1_000_000)
    #expect(preview.frames.count == 30)
    #expect(preview.frames.allSatisfy { $0.layer == 2 && $0.width == 1_280 && $0.user == grace.id })
    #expect(grace.requests().allSatisfy { if case .announce = $0 { true } else { false } })
  }

  // MARK: Talking

  @Test func theTalkingModelDrivesReportTalking() {
    let grace = MediaMember("Grace", service: service, audio: true)
    grace.bind()
    grace.run(from: 0, to: 30_000_000, step: 20_000)
    let reports = service.talkingReports[grace.id] ?? []
    #expect(reports.count >= 4, "a spurt and a silence average 4.5 s")
    #expect(zip(reports, reports.dropFirst()).allSatisfy { $0 != $1 }, "each report is a change")
    // The packets since the last report carry its state's levels.
    let last = reports.last ?? false
    let packets = grace.link.take().packets.suffix(5)
    #expect(packets.allSatisfy { last ? $0.audioLevel <= 40 : $0.audioLevel >= 100 })
  }

  @Test func simulateTalkingSetsTheModelsState() throws {
    let grace = MediaMember("Grace", service: service, audio: true)
    grace.bind()
    #expect(grace.sdk.getAudioHelper().simulateTalking(true) == .success)
    grace.run(from: 0, to: 3_000_000, step: 20_000)
    #expect(service.talkingReports[grace.id]?.last == true)
    #expect(grace.link.take().packets.allSatisfy { $0.audioLevel <= 40 })
    #expect(grace.sdk.getAudioHelper().simulateTalking(false) == .success)
    grace.run(from: 3_000_000, to: 4_000_000, step: 20_000)
    #expect(service.talkingReports[grace.id]?.last == false)
    // Muted: nothing is reported, whatever the state.
    let me = try #require(grace.myself)
    #expect(grace.sdk.getAudioHelper().muteAudio(me) == .success)
    let count = service.talkingReports[grace.id]?.count
    #expect(grace.sdk.getAudioHelper().simulateTalking(true) == .success)
    grace.run(from: 4_000_000, to: 5_000_000, step: 20_000)
    #expect(service.talkingReports[grace.id]?.count == count)
  }

  // MARK: Bad datagrams

  @Test func malformedAndUnexpectedDatagramsAreDroppedAndCounted() throws {
    let grace = MediaMember("Grace", service: service)
    let ada = MediaMember("Ada", service: service)
    ada.bind()
    let sink = FrameSink()
    let canvas = try #require(ada.user(grace.id)?.getVideoCanvas())
    canvas.subscribe(with: sink, aspectMode: .letterBox, andResolution: .auto)
    let good = MediaPacket(
      stream: StreamID(user: grace.id, kind: .video), sequence: 1, frameID: 1, isKeyFrame: true,
      sendTime: 0, payloadBytes: 10, width: 320, height: 180)
    var truncated = good.encode()
    truncated.removeLast(5)
    var badKind = good.encode()
    badKind[6] = 9
    var badVersion = good.encode()
    badVersion[0] = 7
    let malformed: [[UInt8]] = [
      [], [1], [1, 1], [1, 99], truncated, badKind, badVersion,
      [UInt8](repeating: 0xFF, count: 2_000),
    ]
    for bytes in malformed { ada.link.deliver(bytes, at: 10) }
    let unexpected: [MediaDatagram] = [
      .report(
        ReceiverReport(
          subscriber: grace.id, stream: StreamID(user: ada.id, kind: .video), highestSequence: 0,
          packetsReceived: 0, packetsLost: 0, jitter: 0, lastSendTime: 0)),
      .bind(MediaBind(user: grace.id, credential: 1)),
      .ping(sendTime: 5),
    ]
    for datagram in unexpected { ada.link.deliver(datagram.encode(), at: 20) }
    ada.link.deliver(MediaDatagram.pong(sendTime: 12_345).encode(), at: 30)
    // A packet of the local user's own stream, and of a user not present.
    ada.link.deliver(
      MediaPacket(
        stream: StreamID(user: ada.id, kind: .audio), sequence: 0, frameID: 0, isKeyFrame: true,
        sendTime: 0, payloadBytes: 80
      ).encode(), at: 40)
    ada.link.deliver(
      MediaPacket(
        stream: StreamID(user: 77, kind: .audio), sequence: 0, frameID: 0, isKeyFrame: true,
        sendTime: 0, payloadBytes: 80
      ).encode(), at: 40)
    let counts = ada.sdk.mediaDiagnostics
    #expect(counts.malformedDatagrams == malformed.count)
    #expect(counts.unexpectedDatagrams == unexpected.count)
    #expect(counts.strayPongs == 1)
    #expect(counts.unknownStreamPackets == 2)
    #expect(sink.frames.isEmpty)
    // The good one still renders, and a second copy is a duplicate.
    ada.link.deliver(good.encode(), at: 50)
    ada.link.deliver(good.encode(), at: 60)
    #expect(sink.frames.count == 1)
    #expect(ada.sdk.mediaDiagnostics.duplicatePackets == 1)
  }

  @Test func hostileFieldsNeverTrap() throws {
    let grace = MediaMember("Grace", service: service)
    let ada = MediaMember("Ada", service: service)
    let sink = FrameSink()
    try #require(ada.user(grace.id)?.getVideoCanvas())
      .subscribe(with: sink, aspectMode: .letterBox, andResolution: .auto)
    let extremes: [(UInt32, Int64, UInt16)] = [
      (.max, .min, .max), (0, .max, 1), (.max / 2, 0, 2), (1, -1, 65_535),
    ]
    for (index, (sequence, sendTime, framePackets)) in extremes.enumerated() {
      let packet = MediaPacket(
        stream: StreamID(user: grace.id, kind: .video, layer: UInt8(index % 3)),
        sequence: sequence, frameID: sequence, isKeyFrame: index % 2 == 0, sendTime: sendTime,
        payloadBytes: 1_200, width: .max, height: .max, framePackets: framePackets)
      ada.link.deliver(packet.encode(), at: .max - Int64(index))
      ada.link.deliver(packet.encode(), at: .min + Int64(index))
    }
    ada.link.tick(.max)
    let statistics = try #require(ada.user(grace.id)?.getVideoStatisticInfo())
    #expect(statistics.packetsTransferred > 0)
    #expect(statistics.averageLoss >= 0 && statistics.averageLoss <= 1_000)
  }
}
