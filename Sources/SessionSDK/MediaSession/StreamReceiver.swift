import SessionCore
import SessionTransport

/// What the local user receives of one remote user's video, audio or share: loss, jitter,
/// frames, freezes and the per-second figures the statistics, the receiver reports and the
/// network quality read.
///
/// Packets are counted per simulcast layer (each layer numbers its own packets): the layer
/// received is the *current* one. The service forwards a subscriber one layer at a time and
/// switches at key frames, so a packet of another layer sent after the current layer's newest
/// (or its key frame sent with it) is a switch, which starts that layer's count afresh; older
/// packets of another layer are late ones of the layer left. Loss is RFC 3550's: packets expected
/// (from the highest sequence number) minus packets received, so a late packet makes up for
/// its gap. A gap longer than ``pauseGap`` is a pause, not loss: audio reaches a subscriber
/// only while its sender is among the loudest talkers, so its stream stops and starts.
///
/// A frame renders when all its packets arrived and it is newer than the last frame rendered
/// (`FrameAssembly`). A *freeze* is a gap between two rendered frames longer than
/// max(150 ms, 3 × the mean frame interval), as WebRTC's scenario tests count them; the mean
/// is smoothed over the intervals that were not freezes.
///
/// Every packet costs O(1) and allocates nothing.
///
/// > Important: A value; owned by the ``MediaSession`` that holds it.
struct StreamReceiver: Sendable {
  /// The shortest freeze, µs.
  static let minimumFreeze: Int64 = 150_000
  /// A freeze is longer than this many mean frame intervals.
  static let freezeIntervals: Int64 = 3
  /// The longest transit difference the jitter estimator takes, µs (a hostile send time moves
  /// it by no more).
  static let maxTransitStep: UInt64 = 10_000_000

  /// Whose stream.
  let publisher: UserID
  /// Which kind.
  let kind: MediaKind
  /// Missing packets in one gap beyond which the gap is a pause, not loss.
  let pauseGap: Int64

  private var layers: [LayerSequence]
  /// The layer received now, once a packet arrived.
  private(set) var currentLayer: UInt8?
  /// The newest send time of the current layer.
  private var newestSendTime = Int64.min

  // Totals since the stream started.
  private(set) var expected: Int64 = 0
  private(set) var received: Int64 = 0
  private(set) var bytes: Int64 = 0
  private(set) var duplicates = 0
  private(set) var tooOld = 0
  private(set) var pauses = 0
  private(set) var framesRendered = 0
  private(set) var freezes = 0
  private(set) var freezeTime: Int64 = 0
  /// When the first packet arrived.
  private(set) var firstArrival: Int64?
  /// When the newest packet arrived.
  private(set) var lastArrival: Int64?
  /// When the stream last began, µs: its subscription (an audio stream's first packet), or
  /// the service's last pause or resume of it; `nil` while the clock is unknown. A resumed
  /// stream starts again at a key frame, which takes a round trip to the publisher.
  private(set) var startedAt: Int64?

  // Jitter, RFC 3550 A.8: sixteen times the estimate, in µs.
  private var jitter16: Int64 = 0
  private var lastTransit: Int64?
  /// The newest packet's send time, for reports.
  private(set) var lastSendTime: Int64 = 0
  /// The least transit (arrival minus send time) of the stream, µs.
  private var baseTransit: Int64?
  /// The newest packet's transit above the stream's least, µs, at most ``maxTransitStep``:
  /// how long it waited in queues, by the stream's own measure (senders' clocks and their
  /// uplinks' base delays cancel out). The delay-based detector reads it (`DelayTrend`).
  private(set) var queueing: Int64 = 0

  private var assembly = FrameAssembly()
  private var lastRenderedSendTime = Int64.min
  private var lastRender: Int64?
  private var meanInterval: Int64?
  /// The last frame rendered.
  private(set) var lastFrame: FrameAssembly.Frame?

  // The interval since the last evaluation.
  private var intervalStart: Int64?
  private var markExpected: Int64 = 0
  private var markReceived: Int64 = 0
  private var intervalBytes: Int64 = 0
  private var intervalFrames = 0
  private var intervalDelaySum: Int64 = 0
  private var intervalDelayCount: Int64 = 0

  // The last evaluation's figures.
  private(set) var losses = LossWindow()
  private(set) var fps = 0
  private(set) var bps = 0
  /// The mean one-way delay of the last interval, µs.
  private(set) var meanDelay: Int64 = 0
  /// The network quality of the stream.
  var quality = NetworkQualityTracker()

  /// A receiver for one stream.
  ///
  /// - Parameters:
  ///   - publisher: Whose stream.
  ///   - kind: Video, audio or share.
  ///   - start: When it began (a subscription, or the first packet of an audio stream), µs.
  init(publisher: UserID, kind: MediaKind, start: Int64?) {
    self.publisher = publisher
    self.kind = kind
    pauseGap = kind == .audio ? 2 : LayerSequence.maxJump
    layers = Array(repeating: LayerSequence(), count: kind == .video ? Int(StreamID.maxLayers) : 1)
    intervalStart = start
    startedAt = start
  }

  /// Starts the first interval at `time` if the receiver began before the clock was known.
  mutating func startIfNeeded(at time: Int64) {
    if intervalStart == nil { intervalStart = time }
    if startedAt == nil { startedAt = time }
  }

  /// Packets lost in total (never below 0).
  var lost: Int64 { max(0, expected - received) }

  /// The interarrival jitter, µs.
  var jitter: Int64 { jitter16 >> 4 }

  /// The stream the receiver reports on: the current layer's.
  var stream: StreamID {
    StreamID(user: publisher, kind: kind, layer: currentLayer ?? 0)
  }

  /// The highest sequence number of the current layer.
  var highestSequence: UInt32 {
    layers[Int(currentLayer ?? 0)].highestOnWire
  }

  /// Frames that never rendered: incomplete, or too late.
  var framesLost: Int { assembly.framesLost }

  /// What one packet was.
  enum Outcome: Hashable {
    /// Counted; no frame completed.
    case accepted
    /// Counted, and it completed this frame, which renders.
    case frame(FrameAssembly.Frame)
    /// Received before: dropped.
    case duplicate
    /// Too far behind the stream's newest to tell: dropped.
    case tooOld
    /// Not a layer of the stream's kind: dropped.
    case badLayer
  }

  /// Takes one packet of the stream.
  ///
  /// - Parameters:
  ///   - packet: The packet; its stream is this receiver's (any layer).
  ///   - now: When it arrived, µs.
  ///   - delay: Its one-way delay, µs (clamped by the caller).
  /// - Returns: What it was.
  /// - Complexity: O(1).
  mutating func receive(_ packet: MediaPacket, at now: Int64, delay: Int64) -> Outcome {
    let layer = packet.stream.layer
    let slot = Int(layer)
    guard slot < layers.count else { return .badLayer }
    if currentLayer == nil {
      currentLayer = layer
    } else if layer != currentLayer,
      packet.sendTime > newestSendTime || (packet.isKeyFrame && packet.sendTime == newestSendTime)
        || !layers[slot].isActive
    {
      // The service forwards one layer at a time: a newer packet of another layer is a
      // switch, and that layer's count starts again (it stopped when the service moved away).
      layers[slot].reset()
      currentLayer = layer
      newestSendTime = .min
    }
    switch layers[slot].take(packet.sequence) {
    case .first:
      expected += 1
    case .advanced(let gap):
      if gap - 1 > pauseGap {
        expected += 1
        pauses += 1
      } else {
        expected += gap
      }
    case .late:
      break
    case .duplicate:
      duplicates += 1
      return .duplicate
    case .tooOld:
      tooOld += 1
      return .tooOld
    }
    received += 1
    let size = Int64(packet.datagramSize)
    bytes += size
    intervalBytes += size
    if firstArrival == nil { firstArrival = now }
    if intervalStart == nil { intervalStart = now }
    lastArrival = now
    if layer == currentLayer, packet.sendTime > newestSendTime {
      newestSendTime = packet.sendTime
      lastSendTime = packet.sendTime
    }
    let transit = now &- packet.sendTime
    // Clamped to an hour either way, so that a hostile send time cannot overflow the
    // difference.
    let bounded = min(max(transit, -3_600_000_000), 3_600_000_000)
    if let base = baseTransit, bounded >= base {
      queueing = min(bounded - base, Int64(Self.maxTransitStep))
    } else {
      baseTransit = bounded
      queueing = 0
    }
    if let lastTransit {
      let step = Int64(min((transit &- lastTransit).magnitude, Self.maxTransitStep))
      jitter16 += step - ((jitter16 + 8) >> 4)
    }
    lastTransit = transit
    intervalDelaySum &+= delay
    intervalDelayCount += 1
    if kind == .audio {
      framesRendered += 1
      intervalFrames += 1
      return .accepted
    }
    guard
      let frame = assembly.take(
        layer: layer, frameID: packet.frameID, sequence: packet.sequence,
        packets: packet.framePackets, isKeyFrame: packet.isKeyFrame, sendTime: packet.sendTime,
        width: packet.width, height: packet.height)
    else { return .accepted }
    guard frame.sendTime > lastRenderedSendTime else {
      assembly.countLate()
      return .accepted
    }
    render(frame, at: now)
    return .frame(frame)
  }

  private mutating func render(_ frame: FrameAssembly.Frame, at now: Int64) {
    assembly.drop(before: frame.sendTime)
    lastRenderedSendTime = frame.sendTime
    if let lastRender {
      let gap = now &- lastRender
      if let mean = meanInterval {
        if gap > max(Self.minimumFreeze, Self.freezeIntervals * mean) {
          freezes += 1
          freezeTime &+= gap
        } else {
          meanInterval = mean + (gap - mean) / 8
        }
      } else if gap > 0 {
        meanInterval = gap
      }
    }
    lastRender = now
    lastFrame = frame
    framesRendered += 1
    intervalFrames += 1
  }

  /// The service paused the stream (or resumed it): its gap is neither a freeze nor loss.
  /// The freeze clock starts again at the next frame, and each layer's numbering at its
  /// next packet (a resume may come back on the same layer far ahead).
  ///
  /// - Parameter now: The time of the pause or resume, µs, if the clock is known.
  mutating func restartAfterPause(at now: Int64?) {
    if let now { startedAt = now }
    lastRender = nil
    layers = Array(repeating: LayerSequence(), count: layers.count)
  }

  /// Whether the stream is frozen now: frames rendered before, none for longer than a freeze.
  ///
  /// - Parameter now: The time, µs.
  func isFrozen(at now: Int64) -> Bool {
    guard let lastRender else { return false }
    let threshold = max(Self.minimumFreeze, Self.freezeIntervals * (meanInterval ?? 0))
    return now &- lastRender > threshold
  }

  /// What one evaluation measured.
  struct Interval: Sendable, Hashable {
    var received: Int64
    var lost: Int64
    var expected: Int64
  }

  /// Ends the interval at `now`: the rates, the loss window and the marks move on.
  ///
  /// - Parameter now: The time, µs.
  /// - Returns: The interval's packets.
  mutating func closeInterval(at now: Int64) -> Interval {
    let start = intervalStart ?? now
    let elapsed = max(1, now &- start)
    let intervalExpected = expected - markExpected
    let intervalReceived = received - markReceived
    let intervalLost = max(0, intervalExpected - intervalReceived)
    losses.add(expected: intervalExpected, lost: intervalLost)
    fps = Int((Int64(intervalFrames) * 1_000_000 + elapsed / 2) / elapsed)
    bps = Int(Double(intervalBytes) * 8 * 1_000_000 / Double(elapsed))
    meanDelay = intervalDelayCount == 0 ? 0 : intervalDelaySum / intervalDelayCount
    markExpected = expected
    markReceived = received
    intervalBytes = 0
    intervalFrames = 0
    intervalDelaySum = 0
    intervalDelayCount = 0
    intervalStart = now
    return Interval(
      received: intervalReceived, lost: intervalLost, expected: max(0, intervalExpected))
  }
}
