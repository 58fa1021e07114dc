import SessionCore
import SessionTransport
import Testing

@testable import SessionSDK

/// Canvases on the media plane: subscriptions follow the live views, frames reach sinks, the
/// local limits and the service's refusals.
@MainActor
@Suite struct MediaCanvasTests {
  let service = MiniService()
  let grace: MediaMember
  let ada: MediaMember

  init() {
    grace = MediaMember("Grace", service: service, videoOn: true)
    ada = MediaMember("Ada", service: service)
    ada.bind()
    _ = ada.requests()
  }

  func videoCanvas(of user: UserID) throws -> VideoCanvas {
    try #require(ada.user(user)?.getVideoCanvas())
  }

  /// The packets of Grace's camera, one layer of it, over `[start, end)`.
  func graceLayer(_ layer: UInt8, from start: Int64 = 0, to end: Int64) throws -> [MediaPacket] {
    var source = try VideoSource(user: grace.id, seed: 3, start: 0)
    return packets(of: &source, from: start, to: end).filter { $0.stream.layer == layer }
  }

  @Test func subscribingSendsTheRequestAndFramesReachTheSink() throws {
    let sink = FrameSink()
    #expect(
      try videoCanvas(of: grace.id).subscribe(
        with: sink, aspectMode: .letterBox, andResolution: .resolution360) == .success)
    #expect(ada.requests() == [.subscribe(publisher: grace.id, kind: .video, maxLines: 360)])
    let sent = try graceLayer(1, to: 1_000_000)
    for packet in sent { ada.link.deliver(packet.encode(), at: packet.sendTime + 20_000) }
    #expect(sink.frames.count == 30)
    let first = try #require(sink.frames.first)
    #expect(first.user == grace.id && first.kind == .video && first.layer == 1)
    #expect(first.width == 640 && first.height == 360 && first.isKeyFrame)
    #expect(first.delay == 20_000)
    #expect(first.firstSequence == sent[0].sequence)
    #expect(Set(sink.frames.map(\.frameID)).count == 30)
  }

  @Test func aFrameRendersOnlyWhenEveryPacketArrived() throws {
    let sink = FrameSink()
    try videoCanvas(of: grace.id).subscribe(
      with: sink, aspectMode: .letterBox, andResolution: .auto)
    let key = try graceLayer(2, to: 10_000)
    #expect(key.count > 1)
    for packet in key.dropLast() { ada.link.deliver(packet.encode(), at: 1_000) }
    #expect(sink.frames.isEmpty)
    if let last = key.last { ada.link.deliver(last.encode(), at: 2_000) }
    #expect(sink.frames.count == 1)
  }

  @Test func theLastViewLeavingUnsubscribesAndDeliveryStops() throws {
    let canvas = try videoCanvas(of: grace.id)
    let small = FrameSink()
    let large = FrameSink()
    canvas.subscribe(with: small, aspectMode: .letterBox, andResolution: .resolution360)
    canvas.subscribe(with: large, aspectMode: .letterBox, andResolution: .resolution720)
    canvas.subscribe(with: large, aspectMode: .panAndScan, andResolution: .resolution720)
    #expect(
      ada.requests() == [
        .subscribe(publisher: grace.id, kind: .video, maxLines: 360),
        .subscribe(publisher: grace.id, kind: .video, maxLines: 720),
      ])
    let sent = try graceLayer(1, to: 100_000)
    for packet in sent { ada.link.deliver(packet.encode(), at: packet.sendTime) }
    #expect(small.frames.count == 3 && large.frames.count == 3)
    canvas.unSubscribe(with: large)
    #expect(ada.requests() == [.subscribe(publisher: grace.id, kind: .video, maxLines: 360)])
    canvas.unSubscribe(with: small)
    #expect(ada.requests() == [.unsubscribe(publisher: grace.id, kind: .video)])
    canvas.unSubscribe(with: small)
    #expect(ada.requests().isEmpty, "unsubscribing again sends nothing")
    let later = try graceLayer(1, from: 100_000, to: 200_000)
    for packet in later { ada.link.deliver(packet.encode(), at: packet.sendTime) }
    #expect(small.frames.count == 3)
    #expect(ada.sdk.mediaDiagnostics.unknownStreamPackets == later.count)
  }

  @Test func autoAsksForEveryLine() throws {
    let canvas = try videoCanvas(of: grace.id)
    let small = FrameSink()
    canvas.subscribe(with: small, aspectMode: .letterBox, andResolution: .resolution180)
    let auto = FrameSink()
    canvas.subscribe(with: auto, aspectMode: .letterBox, andResolution: .auto)
    #expect(
      ada.requests() == [
        .subscribe(publisher: grace.id, kind: .video, maxLines: 180),
        .subscribe(publisher: grace.id, kind: .video, maxLines: 0),
      ])
  }

  @Test func aViewThatIsGoneUnsubscribesAtTheNextFrame() throws {
    var view: FrameSink? = FrameSink()
    try videoCanvas(of: grace.id).subscribe(
      with: view, aspectMode: .letterBox, andResolution: .auto)
    _ = ada.requests()
    view = nil
    for packet in try graceLayer(0, to: 40_000) {
      ada.link.deliver(packet.encode(), at: packet.sendTime)
    }
    #expect(ada.requests() == [.unsubscribe(publisher: grace.id, kind: .video)])
    #expect(ada.sdk.videoSubscriptionCount == 0)
  }

  @Test func aViewThatIsNoSinkStillSubscribes() throws {
    let view = NSObjectStandIn()
    try videoCanvas(of: grace.id).subscribe(
      with: view, aspectMode: .letterBox, andResolution: .auto)
    #expect(ada.requests() == [.subscribe(publisher: grace.id, kind: .video, maxLines: 0)])
    for packet in try graceLayer(0, to: 100_000) {
      ada.link.deliver(packet.encode(), at: packet.sendTime)
    }
    #expect(ada.user(grace.id)?.getVideoStatisticInfo().framesDecoded == 3)
  }

  @Test func theTwentySixthVideoViewFailsLocally() throws {
    let canvas = try videoCanvas(of: grace.id)
    let views = (0..<26).map { _ in FrameSink() }
    for view in views.prefix(25) {
      #expect(
        canvas.subscribe(with: view, aspectMode: .letterBox, andResolution: .auto) == .success)
    }
    #expect(ada.requests().count == 1)
    _ = ada.log.take()
    #expect(
      canvas.subscribe(with: views[25], aspectMode: .letterBox, andResolution: .auto)
        == .sessionVideoError)
    #expect(
      ada.log.take() == [.onVideoCanvasSubscribeFail(.hasSubscribeExceededLimit, user: grace.id)])
    #expect(ada.requests().isEmpty)
    // One view fewer: the 26th fits.
    canvas.unSubscribe(with: views[0])
    #expect(
      canvas.subscribe(with: views[25], aspectMode: .letterBox, andResolution: .auto) == .success)
    #expect(ada.log.take().isEmpty)
  }

  @Test func oneShareIsRenderedAtATime() throws {
    let alan = MediaMember("Alan", service: service)
    #expect(grace.sdk.getShareHelper().enableMultiShare(true) == .success)
    #expect(grace.sdk.getShareHelper().startShare(with: FrameSink()) == .success)
    #expect(alan.sdk.getShareHelper().startShare(with: FrameSink()) == .success)
    let graceShare = try #require(ada.user(grace.id)?.getShareActionList()?.first?.getShareCanvas())
    let alanShare = try #require(ada.user(alan.id)?.getShareActionList()?.first?.getShareCanvas())
    let first = FrameSink()
    let second = FrameSink()
    #expect(
      graceShare.subscribe(with: first, aspectMode: .letterBox, andResolution: .auto) == .success)
    #expect(ada.requests() == [.subscribe(publisher: grace.id, kind: .share, maxLines: 0)])
    _ = ada.log.take()
    #expect(
      alanShare.subscribe(with: second, aspectMode: .letterBox, andResolution: .auto)
        == .sessionShareError)
    #expect(ada.log.take() == [.onVideoCanvasSubscribeFail(.hasSubscribeOneShare, user: alan.id)])
    #expect(ada.requests().isEmpty)
    // The same share in a second view is fine; the view showing it may switch shares.
    #expect(
      graceShare.subscribe(with: second, aspectMode: .letterBox, andResolution: .auto) == .success)
    #expect(graceShare.unSubscribe(with: second) == .success)
    #expect(
      alanShare.subscribe(with: first, aspectMode: .letterBox, andResolution: .auto) == .success)
    #expect(
      ada.requests() == [
        .unsubscribe(publisher: grace.id, kind: .share),
        .subscribe(publisher: alan.id, kind: .share, maxLines: 0),
      ])
    #expect(ada.sdk.getShareHelper().createAnnotationHelper(first)?.shareOwner == alan.id)
  }

  @Test func aRefusalReachesEveryViewAndDropsTheSubscription() throws {
    let canvas = try videoCanvas(of: grace.id)
    let one = FrameSink()
    let two = FrameSink()
    canvas.subscribe(with: one, aspectMode: .letterBox, andResolution: .auto)
    canvas.subscribe(with: two, aspectMode: .letterBox, andResolution: .auto)
    _ = ada.requests()
    _ = ada.log.take()
    service.notify(
      ada.id, .subscribeRefused(publisher: grace.id, kind: .video, reason: .exceededLimit))
    #expect(
      ada.log.take()
        == Array(
          repeating: .onVideoCanvasSubscribeFail(.hasSubscribeExceededLimit, user: grace.id),
          count: 2))
    #expect(ada.sdk.videoSubscriptionCount == 0)
    #expect(ada.requests().isEmpty, "nothing to undo: the service made no subscription")
    for packet in try graceLayer(0, to: 40_000) {
      ada.link.deliver(packet.encode(), at: packet.sendTime)
    }
    #expect(one.frames.isEmpty && two.frames.isEmpty)
    // A refusal of something not wanted changes nothing.
    service.notify(ada.id, .subscribeRefused(publisher: grace.id, kind: .share, reason: .oneShare))
    #expect(ada.log.take().isEmpty)
    #expect(ada.sdk.mediaDiagnostics.ignoredNotices == 1)
    // Subscribing again asks again.
    canvas.subscribe(with: one, aspectMode: .letterBox, andResolution: .auto)
    #expect(ada.requests() == [.subscribe(publisher: grace.id, kind: .video, maxLines: 0)])
  }

  @Test func aShareRefusalSaysOneShare() throws {
    #expect(grace.sdk.getShareHelper().startShare(with: FrameSink()) == .success)
    let canvas = try #require(ada.user(grace.id)?.getShareActionList()?.first?.getShareCanvas())
    let view = FrameSink()
    canvas.subscribe(with: view, aspectMode: .letterBox, andResolution: .auto)
    _ = ada.log.take()
    service.notify(ada.id, .subscribeRefused(publisher: grace.id, kind: .share, reason: .oneShare))
    #expect(ada.log.take() == [.onVideoCanvasSubscribeFail(.hasSubscribeOneShare, user: grace.id)])
  }

  @Test func aUserLeavingEndsTheirSubscriptions() throws {
    let alan = MediaMember("Alan", service: service, videoOn: true)
    let view = FrameSink()
    try videoCanvas(of: alan.id).subscribe(with: view, aspectMode: .letterBox, andResolution: .auto)
    #expect(ada.sdk.videoSubscriptionCount == 1)
    #expect(alan.sdk.leaveSession(false) == .success)
    #expect(ada.sdk.videoSubscriptionCount == 0)
    #expect(ada.sdk.mediaFigures.streams.isEmpty)
  }

  @Test func subscriptionsGoOutAgainAfterAResume() throws {
    let view = FrameSink()
    try videoCanvas(of: grace.id).subscribe(
      with: view, aspectMode: .letterBox, andResolution: .resolution720)
    _ = ada.requests()
    try #require(service.link(of: ada.id)).fail()
    #expect(ada.requests() == [.subscribe(publisher: grace.id, kind: .video, maxLines: 720)])
  }
}
