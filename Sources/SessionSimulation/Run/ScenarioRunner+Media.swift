import Foundation
import SessionCore
import SessionSDK
import SessionService
import SessionTransport
import VirtualNetwork

/// A headless view a peer's canvas renders into: it counts the frames it receives.
///
/// > Important: Confined to the world's domain, like the SDK instance that feeds it.
final class CanvasView: VideoSink {
  /// Frames received.
  private(set) var frames = 0

  func onFrameReceived(_ frame: VideoFrame) { frames += 1 }
}

extension ScenarioRunner {
  /// Whether the scenario asks for a media plane: any peer has a `media` object.
  static func wantsMedia(_ scenario: Scenario) -> Bool {
    scenario.peers.contains { $0.media != nil }
  }

  /// Sets up an instance's media: its media links, what it sends, its seed.
  func configureMedia(_ params: InitParams, for peer: SimulatedPeer) {
    guard hasMedia, let links = world.mediaTransport(for: peer.name) else { return }
    let spec = peer.spec.media ?? PeerMediaSpec()
    params.media = links
    params.videoSendResolution = spec.send.videoResolution
    params.videoFrameRate = spec.frameRate
    var random = streams.stream("media-\(peer.index)-\(peer.incarnation)")
    params.mediaSeed = random.next()
  }

  /// After a callback that changes who is present or who shares, brings the peer's canvases
  /// in line with its `media.subscribe`.
  func updateCanvases(after callback: VideoSDKCallback, of peer: SimulatedPeer) {
    guard hasMedia else { return }
    if peer.mediaStartedAt == nil, peer.isInSession {
      let now = peer.sdk.mediaFigures.now
      if now > 0 { peer.mediaStartedAt = now }
    }
    // After the heal a joining microphone is silent from the start, as at the heal.
    if case .onSessionJoin = callback, isHealed {
      _ = peer.sdk.getAudioHelper().simulateTalking(false)
    }
    guard let spec = peer.spec.media?.subscribe else { return }
    switch callback {
    case .onSessionJoin:
      peer.canvases.removeAll()
      peer.shareCanvas = nil
    case .onUserJoin, .onUserLeave, .onUserShareStatusChanged:
      break
    case .onSessionLeave:
      peer.canvases.removeAll()
      peer.shareCanvas = nil
      return
    default:
      return
    }
    guard peer.isInSession, let session = peer.sdk.getSession() else { return }
    let resolution = spec.resolution.videoResolution
    // Video: the first `maxVideo` present users, in roster order, whose names match.
    var wanted: [UserID] = []
    for user in session.getOrderedUsers() where wanted.count < spec.maxVideo {
      guard let name = user.getUserName(), name != peer.name, spec.watches(name) else {
        continue
      }
      wanted.append(user.id)
    }
    let wantedSet = Set(wanted)
    for (id, view) in peer.canvases where !wantedSet.contains(id) {
      session.user(withID: id)?.getVideoCanvas()?.unSubscribe(with: view)
      peer.canvases[id] = nil
    }
    for id in wanted where peer.canvases[id] == nil {
      guard let canvas = session.user(withID: id)?.getVideoCanvas() else { continue }
      let view = CanvasView()
      if canvas.subscribe(with: view, aspectMode: .panAndScan, andResolution: resolution)
        == .success
      {
        peer.canvases[id] = view
      }
    }
    // Share: the share on screen, if the peer watches shares.
    guard spec.share else { return }
    let myself = session.getMySelf()?.id
    // Only a share in the peer's place (a subsession, or the main session) is on its screen.
    let state = peer.sdk.store.current
    let sharer = state.shares.values.filter { share in
      share.owner != myself
        && (myself.map { state.subSessions.together(share.owner, $0) } ?? true)
    }
    .min { $0.owner < $1.owner }
    if let current = peer.shareCanvas, current.owner != sharer?.owner {
      session.user(withID: current.owner)?.getShareActionList()?.first?.getShareCanvas()?
        .unSubscribe(with: current.view)
      peer.shareCanvas = nil
    }
    if peer.shareCanvas == nil, let sharer,
      let canvas = session.user(withID: sharer.owner)?.getShareActionList()?.first?
        .getShareCanvas()
    {
      let view = CanvasView()
      if canvas.subscribe(with: view, aspectMode: .original, andResolution: .auto) == .success {
        peer.shareCanvas = (sharer.owner, view)
      }
    }
  }

  /// The run's media table, from every peer's figures and the service's counts.
  func mediaSummary() -> MediaSummary? {
    guard hasMedia else { return nil }
    let serviceState = world.serviceState(ofSession: scenario.session.name)
    var all = DelayHistogram()
    var rows: [MediaSummary.Row] = []
    for peer in peers {
      let figures = peer.sdk.mediaFigures
      let mine = peer.userID
      var expected = 0
      var received = 0
      var bytes: Int64 = 0
      var lost: Int64 = 0
      var wanted: Int64 = 0
      var freezes = 0
      var paused = 0
      var pausedTime: Int64 = 0
      var firstArrival = Int64.max
      if peer.canAct, peer.isInSession {
        for id in peer.canvases.keys
        where serviceState?.participants[id]?.isVideoOn == true {
          // A track the service paused is not missing: it is counted apart.
          if figures.isPaused(from: id, kind: .video) {
            paused += 1
            continue
          }
          // Nor is one still silent that has not had its two seconds since it began or was
          // resumed.
          let arriving = figures.isArriving(from: id, kind: .video)
          guard arriving || figures.isDue(from: id, kind: .video) else { continue }
          expected += 1
          if arriving { received += 1 }
        }
        if let share = peer.shareCanvas, share.owner != mine {
          let arriving = figures.isArriving(from: share.owner, kind: .share)
          if arriving || figures.isDue(from: share.owner, kind: .share) {
            expected += 1
            if arriving { received += 1 }
          }
        }
      }
      for stream in figures.streams {
        bytes += stream.bytes
        // Audio reaches a peer only while its talker is among the loudest three: its gaps
        // are selection, not loss, so loss counts video and share.
        if stream.kind != .audio {
          lost += stream.packetsLost
          wanted += stream.packetsExpected
        }
        freezes += stream.freezes
        pausedTime += stream.pausedTime
        if let first = stream.firstArrival { firstArrival = min(firstArrival, first) }
      }
      var delays = figures.videoDelays
      delays.merge(figures.audioDelays)
      delays.merge(figures.shareDelays)
      all.merge(delays)
      let span = max(1, figures.now - (firstArrival == .max ? figures.now : firstArrival))
      let sendSpan = max(1_000_000, figures.now - (peer.mediaStartedAt ?? figures.now))
      rows.append(
        MediaSummary.Row(
          peer: peer.name, tracksReceived: received, tracksExpected: expected,
          receiveKbps: Double(bytes) * 8 / Double(span) * 1_000,
          sendKbps: Double(figures.sentBytes) * 8 / Double(sendSpan) * 1_000,
          lossPercent: wanted == 0 ? 0 : Double(lost) / Double(wanted) * 100,
          freezes: freezes, pausedTracks: paused, pausedSeconds: Double(pausedTime) / 1_000_000,
          delayP50Ms: delays.count == 0 ? nil : Double(delays.percentile(0.5)) / 1_000,
          delayP99Ms: delays.count == 0 ? nil : Double(delays.percentile(0.99)) / 1_000))
    }
    let statistics = world.mediaStatistics()
    var summary = MediaSummary(
      rows: rows,
      delayP50Ms: all.count == 0 ? nil : Double(all.percentile(0.5)) / 1_000,
      delayP99Ms: all.count == 0 ? nil : Double(all.percentile(0.99)) / 1_000,
      forwardedPackets: statistics?.packetsForwarded ?? 0,
      droppedDatagrams: statistics?.dropped.total ?? 0)
    if let drops = statistics?.dropped {
      for (reason, count) in [
        ("malformed", drops.malformed), ("unbound", drops.unbound), ("spoofed", drops.spoofed),
        ("not sending", drops.notSending), ("unknown stream", drops.unknownStream),
        ("bad bind", drops.badBind), ("bad report", drops.badReport),
        ("unexpected", drops.unexpected),
      ] where count > 0 {
        summary.droppedByReason[reason] = count
      }
    }
    return summary
  }

  /// `expect.media.recoverWithin`, at that long after the last timed fault ended: every peer in
  /// the session has each subscription at its top layer, none paused, as the service forwards.
  func checkRecovery(within: SimDuration) {
    for peer in peers where peer.canAct && peer.isInSession {
      guard let user = peer.userID,
        let below = world.subscriptionsBelowTop(of: user, inSession: scenario.session.name),
        below > 0
      else { continue }
      fail(
        "media", peer: peer.name,
        "\(below) subscriptions below their top layer or paused \(within) after the last fault")
    }
  }

  /// Checks `expect.media` against the summary.
  func checkMedia(_ summary: MediaSummary) {
    guard let expect = scenario.expect.media else { return }
    for row in summary.rows {
      if expect.tracks, row.tracksReceived < row.tracksExpected {
        fail(
          "media", peer: row.peer,
          "receives \(row.tracksReceived) of the \(row.tracksExpected) tracks it subscribes")
      }
      if let bound = expect.maxLossPercent, row.lossPercent > bound {
        fail(
          "media", peer: row.peer,
          "loss \(String(format: "%.2f", row.lossPercent))% over the bound of \(bound)%")
      }
      if let bound = expect.maxPausedTracks, row.pausedTracks > bound {
        fail(
          "media", peer: row.peer,
          "\(row.pausedTracks) tracks paused at the end, over the bound of \(bound)")
      }
      if let bound = expect.maxP99DelayMs, let p99 = row.delayP99Ms, p99 > bound {
        fail(
          "media", peer: row.peer,
          "p99 one-way delay \(String(format: "%.1f", p99)) ms over the bound of \(bound) ms")
      }
    }
  }
}

extension MediaFigures {
  /// Whether the service holds the stream of `publisher`'s of `kind` paused now.
  func isPaused(from publisher: UserID, kind: MediaKind) -> Bool {
    streams.contains { $0.publisher == publisher && $0.kind == kind && $0.isPaused }
  }

  /// How long a track has to deliver: the final check wants a packet within it, µs.
  static let arrivalWindow: Int64 = 2_000_000

  /// Whether a stream of `publisher`'s of `kind` delivered in the last two seconds.
  func isArriving(from publisher: UserID, kind: MediaKind) -> Bool {
    streams.contains { stream in
      stream.publisher == publisher && stream.kind == kind
        && (stream.lastArrival.map { now - $0 <= Self.arrivalWindow } ?? false)
    }
  }

  /// Whether a stream of `publisher`'s of `kind` should be arriving by now: it began (was
  /// subscribed, or resumed by the service) at least two seconds ago. A resumed stream starts
  /// again only at a key frame the router asks the publisher for, so until then its last
  /// packet is from before the pause. A subscription with no stream at all (refused, or
  /// forgotten) is due: it is missing.
  func isDue(from publisher: UserID, kind: MediaKind) -> Bool {
    guard
      let stream = streams.first(where: { $0.publisher == publisher && $0.kind == kind }),
      let startedAt = stream.startedAt
    else { return true }
    return now - startedAt >= Self.arrivalWindow
  }
}

extension MediaResolutionSpec {
  /// The SDK's resolution for this name.
  var videoResolution: VideoResolution {
    switch self {
    case .p90: .resolution90
    case .p180: .resolution180
    case .p360: .resolution360
    case .p720: .resolution720
    case .auto: .auto
    }
  }
}
