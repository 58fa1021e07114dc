import SessionCore
import SessionTransport

extension MediaSession {
  /// What the local user sends of `kind`.
  func sendStatistics(_ kind: MediaKind) -> QOSStatistics {
    var statistics = QOSStatistics(direction: .send, statisticsType: DataType(kind))
    let counters = sent[kind.index]
    let now = self.now ?? 0
    let (due, lost) = probe.loss(at: now)
    statistics.timestamp = lastEvaluation / 1_000
    statistics.fps = sending.sends(kind) ? counters.fps : 0
    statistics.width = kind == .audio ? 0 : counters.width
    statistics.height = kind == .audio ? 0 : counters.height
    statistics.bps = counters.bps
    statistics.rtt = Int((probe.rtt ?? 0) / 1_000)
    statistics.jitter = Int(probe.variation / 1_000)
    statistics.packetsLost = probe.totalLost(at: now)
    statistics.packetsTransferred = counters.packets
    statistics.bytesTransferred = counters.bytes
    statistics.averageLoss = due == 0 ? 0 : lost * 1_000 / due
    statistics.maximumLoss = statistics.averageLoss
    statistics.bandwidth = counters.bps
    statistics.framesEncoded = counters.frames
    statistics.networkLevel = sendQuality[kind.index].level
    return statistics
  }

  /// What the local user receives of `key`; zero when it receives nothing of it.
  func receiveStatistics(_ key: StreamKey) -> QOSStatistics {
    var statistics = QOSStatistics(direction: .receive, statisticsType: DataType(key.kind))
    statistics.pauseReason = paused[key].map { StreamPauseReason($0.reason) }
    guard let receiver = receiver(key) else { return statistics }
    statistics.timestamp = lastEvaluation / 1_000
    statistics.fps = receiver.fps
    statistics.width = Int(receiver.lastFrame?.width ?? 0)
    statistics.height = Int(receiver.lastFrame?.height ?? 0)
    statistics.bps = receiver.bps
    statistics.rtt = Int((probe.rtt ?? 0) / 1_000)
    statistics.jitter = Int(receiver.jitter / 1_000)
    statistics.packetsLost = Int(receiver.lost)
    statistics.packetsTransferred = Int(receiver.received)
    statistics.bytesTransferred = Int(receiver.bytes)
    statistics.averageLoss = receiver.losses.averagePerThousand
    statistics.maximumLoss = receiver.losses.maximumPerThousand
    statistics.bandwidth = Int(downlinkEstimate ?? 0)
    statistics.framesDecoded = receiver.framesRendered
    statistics.networkLevel = receiver.quality.level
    return statistics
  }

  /// The session's figures for `kind`: the local user's stream and everything received of it.
  func sessionStatistics(_ kind: MediaKind) -> SessionStatisticInfo {
    var info = SessionStatisticInfo()
    let send = sendStatistics(kind)
    if sending.sends(kind) {
      info.sendFrameWidth = send.width
      info.sendFrameHeight = send.height
      info.sendFps = send.fps
    }
    info.sendLatency = Int((probe.rtt ?? 0) / 2_000)
    info.sendJitter = send.jitter
    info.sendPacketLossAvg = send.averageLoss
    info.sendPacketLossMax = send.maximumLoss
    var largest: StreamReceiver?
    var delaySum: Int64 = 0
    var delayCount: Int64 = 0
    var lossSum = 0
    var weights = 0
    for receiver in receivers where receiver.kind == kind && receiver.received > 0 {
      let lines = receiver.lastFrame.map { min($0.width, $0.height) } ?? 0
      let largestLines = largest?.lastFrame.map { min($0.width, $0.height) } ?? 0
      if largest == nil || lines > largestLines { largest = receiver }
      if receiver.fps > 0 || receiver.bps > 0 {
        delaySum += receiver.meanDelay
        delayCount += 1
      }
      info.recvJitter = max(info.recvJitter, Int(receiver.jitter / 1_000))
      let weight = max(1, receiver.bps)
      lossSum += receiver.losses.averagePerThousand * weight
      weights += weight
      info.recvPacketLossMax = max(info.recvPacketLossMax, receiver.losses.maximumPerThousand)
    }
    if let largest, kind != .audio {
      info.recvFrameWidth = Int(largest.lastFrame?.width ?? 0)
      info.recvFrameHeight = Int(largest.lastFrame?.height ?? 0)
      info.recvFps = largest.fps
    }
    info.recvLatency = delayCount == 0 ? 0 : Int(delaySum / delayCount / 1_000)
    info.recvPacketLossAvg = weights == 0 ? 0 : lossSum / weights
    return info
  }

  /// What a run summary needs of everything received.
  func figures() -> MediaFigures {
    let now = self.now ?? 0
    var figures = MediaFigures()
    figures.streams = receivers.map { receiver in
      let key = StreamKey(user: receiver.publisher, kind: receiver.kind)
      var stream = MediaFigures.Stream(publisher: receiver.publisher, kind: receiver.kind)
      stream.isSubscribed = wanted[key] != nil
      stream.packetsReceived = receiver.received
      stream.packetsExpected = receiver.expected
      stream.packetsLost = receiver.lost
      stream.bytes = receiver.bytes
      stream.bitrate = receiver.bps
      stream.averageLoss = receiver.losses.averagePerThousand
      stream.framesRendered = receiver.framesRendered
      stream.framesLost = receiver.framesLost
      stream.freezes = receiver.freezes
      stream.freezeTime = receiver.freezeTime
      stream.isFrozen = receiver.isFrozen(at: now)
      stream.firstArrival = receiver.firstArrival
      stream.lastArrival = receiver.lastArrival
      stream.startedAt = receiver.startedAt
      stream.layer = receiver.currentLayer.map(Int.init)
      stream.width = Int(receiver.lastFrame?.width ?? 0)
      stream.height = Int(receiver.lastFrame?.height ?? 0)
      stream.isPaused = paused[key] != nil
      stream.pausedTime = pausedTime(of: key)
      if stream.isPaused { stream.isFrozen = false }
      return stream
    }
    // Subscriptions paused before anything of them arrived.
    for key in paused.keys.sorted() where receiverIndex[key] == nil {
      var stream = MediaFigures.Stream(publisher: key.user, kind: key.kind)
      stream.isSubscribed = wanted[key] != nil
      stream.isPaused = true
      stream.pausedTime = pausedTime(of: key)
      figures.streams.append(stream)
    }
    figures.videoDelays = delays[MediaKind.video.index]
    figures.audioDelays = delays[MediaKind.audio.index]
    figures.shareDelays = delays[MediaKind.share.index]
    figures.sentPackets = sent.reduce(0) { $0 + $1.packets }
    figures.sentBytes = sent.reduce(0) { $0 + $1.bytes }
    figures.isBound = isBound
    figures.now = now
    return figures
  }
}

/// What an instance received on its media plane, for a simulation's run summary: one entry per
/// stream received (video and share while subscribed, audio while heard), and the one-way
/// delays of every packet, per kind.
///
/// > Important: A value; `Sendable`.
package struct MediaFigures: Sendable, Hashable {
  /// One stream received.
  package struct Stream: Sendable, Hashable {
    /// Whose stream.
    package var publisher: UserID
    /// Video, audio or share.
    package var kind: MediaKind
    /// Whether a view subscribes it (audio: never; it is heard unasked).
    package var isSubscribed = false
    /// Packets received, expected (from the sequence numbers) and lost, in total.
    package var packetsReceived: Int64 = 0
    package var packetsExpected: Int64 = 0
    package var packetsLost: Int64 = 0
    /// Bytes received (headers included).
    package var bytes: Int64 = 0
    /// Bits per second over the last evaluation.
    package var bitrate = 0
    /// The loss of the last five seconds, per thousand.
    package var averageLoss = 0
    /// Frames rendered, and frames that never rendered.
    package var framesRendered = 0
    package var framesLost = 0
    /// Freezes counted, and their total length, µs.
    package var freezes = 0
    package var freezeTime: Int64 = 0
    /// Whether the stream is frozen now (never while paused).
    package var isFrozen = false
    /// Whether the service paused it now (the stream allocator), and for how long it was
    /// paused in all, µs: time apart from freezes.
    package var isPaused = false
    package var pausedTime: Int64 = 0
    /// When the first and the newest packet arrived, µs.
    package var firstArrival: Int64?
    package var lastArrival: Int64?
    /// When the stream last began, µs: its subscription, or the service's last pause or
    /// resume of it (a resumed stream arrives again from the publisher's next key frame).
    package var startedAt: Int64?
    /// The layer received now.
    package var layer: Int?
    /// The size of the last frame rendered.
    package var width = 0
    package var height = 0

    package init(publisher: UserID, kind: MediaKind) {
      self.publisher = publisher
      self.kind = kind
    }

    /// The fraction of expected packets that were lost, in total.
    package var lossFraction: Double {
      packetsExpected == 0 ? 0 : Double(packetsLost) / Double(packetsExpected)
    }
  }

  /// The streams, in the order they began.
  package var streams: [Stream] = []
  /// One-way delays, per kind.
  package var videoDelays = DelayHistogram()
  package var audioDelays = DelayHistogram()
  package var shareDelays = DelayHistogram()
  /// What the instance sent: packets and bytes of every kind.
  package var sentPackets = 0
  package var sentBytes = 0
  /// Whether the media endpoint is bound.
  package var isBound = false
  /// The media clock when the figures were taken, µs.
  package var now: Int64 = 0

  package init() {}
}
