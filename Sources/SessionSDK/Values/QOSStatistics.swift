import SessionCore

/// Which way a ``QOSStatistics`` value looks: what the local user sends, or what it receives
/// from one remote user.
public enum StatisticsDirection: UInt8, Sendable, Codable, Hashable, CaseIterable {
  /// What the local user sends.
  case send = 0
  /// What the local user receives.
  case receive = 1
}

/// The quality of one media stream, shaped like `ZoomVideoSDKQOSStatistics`: what
/// ``User/getVideoStatisticInfo()``, ``User/getAudioStatisticInfo()`` and
/// ``User/getShareStatisticInfo()`` return (send figures for the local user, receive figures for
/// a remote one).
///
/// Totals count from the moment the stream started (a send source started, or the subscription
/// began); the rates (`fps`, `bps`) are over the last one-second evaluation; the losses
/// (`averageLoss`, `maximumLoss`) are over the last five evaluations. Every field is zero (and
/// the level ``SessionCore/NetworkQuality/none``) with no media plane, or for a stream not
/// sent or received. `Docs/SessionSDK.md`, "Media", says how each is measured.
///
/// > Important: A value; `Sendable`.
public struct QOSStatistics: Sendable, Codable, Hashable {
  /// Send or receive.
  public var direction: StatisticsDirection
  /// Video, audio or share.
  public var statisticsType: DataType
  /// When the figures were last evaluated, in milliseconds on the media link's clock.
  public var timestamp: Int64
  /// Frames per second: sent (the camera's frame rate in use) or rendered.
  public var fps: Int
  /// The frame width in pixels: the highest layer sent, or the last frame rendered.
  public var width: Int
  /// The frame height in pixels.
  public var height: Int
  /// Bits per second on the wire (headers included), over the last evaluation.
  public var bps: Int
  /// The round-trip time to the service, in milliseconds, from the media plane's pings.
  public var rtt: Int
  /// Interarrival jitter in milliseconds (RFC 3550) when receiving; the pings' round-trip
  /// variation when sending.
  public var jitter: Int
  /// Packets lost in total: sequence gaps when receiving; unanswered pings when sending (the
  /// sender hears nothing else about its uplink).
  public var packetsLost: Int
  /// Packets received, or sent, in total.
  public var packetsTransferred: Int
  /// Bytes received, or sent, in total (headers included).
  public var bytesTransferred: Int
  /// The loss over the last five seconds, per thousand.
  public var averageLoss: Int
  /// The worst one-second loss within the last five seconds, per thousand.
  public var maximumLoss: Int
  /// Bits per second: the service's estimate of the local downlink when receiving, the
  /// bitrate sent when sending.
  public var bandwidth: Int
  /// Frames encoded (sending): one per frame time, whatever the number of simulcast layers.
  public var framesEncoded: Int
  /// Frames rendered (receiving): frames whose every packet arrived.
  public var framesDecoded: Int
  /// The stream's network quality (see ``VideoSDKDelegate/onUserNetworkStatusChanged(_:level:user:)``).
  public var networkLevel: NetworkQuality
  /// Why the service paused the stream (receiving), `nil` while it flows. A paused stream's
  /// silence counts as neither loss nor a freeze. Not in the Zoom Video SDK.
  public var pauseReason: StreamPauseReason?

  /// Statistics with every figure zero.
  ///
  /// - Parameters:
  ///   - direction: Send or receive.
  ///   - statisticsType: Video, audio or share.
  public init(direction: StatisticsDirection, statisticsType: DataType) {
    self.direction = direction
    self.statisticsType = statisticsType
    timestamp = 0
    fps = 0
    width = 0
    height = 0
    bps = 0
    rtt = 0
    jitter = 0
    packetsLost = 0
    packetsTransferred = 0
    bytesTransferred = 0
    averageLoss = 0
    maximumLoss = 0
    bandwidth = 0
    framesEncoded = 0
    framesDecoded = 0
    networkLevel = .none
  }
}

/// The session's figures for one kind of media, send and receive side by side, shaped like the
/// SDK's `ZoomVideoSDKVideoStatisticInfo` / `…AudioStatisticInfo` / `…ShareStatisticInfo`:
/// what ``Session/getSessionVideoStatisticInfo()``, ``Session/getSessionAudioStatisticInfo()``
/// and ``Session/getSessionShareStatisticInfo()`` return.
///
/// Send figures are the local user's stream; receive figures gather every stream of the kind the
/// local user receives: the frame size and rate of the largest stream, the mean one-way delay,
/// the largest jitter, the loss of all of them together (average) and the worst stream's worst
/// second (maximum). Losses are per thousand over the last five seconds; audio has no frame
/// size or rate. All zero with no media plane.
///
/// > Important: A value; `Sendable`.
public struct SessionStatisticInfo: Sendable, Codable, Hashable {
  /// The width of the frames sent (the highest layer).
  public var sendFrameWidth = 0
  /// The height of the frames sent.
  public var sendFrameHeight = 0
  /// Frames sent per second.
  public var sendFps = 0
  /// Half the round-trip time to the service, in milliseconds.
  public var sendLatency = 0
  /// The round-trip variation, in milliseconds.
  public var sendJitter = 0
  /// The pings' loss over the last five seconds, per thousand.
  public var sendPacketLossAvg = 0
  /// The pings' worst loss in that time, per thousand (the pings' loss over the whole window,
  /// as one ping a second gives no finer grain).
  public var sendPacketLossMax = 0
  /// The width of the largest stream received.
  public var recvFrameWidth = 0
  /// Its height.
  public var recvFrameHeight = 0
  /// Its frames rendered per second.
  public var recvFps = 0
  /// The mean one-way delay of what was received in the last second, in milliseconds.
  public var recvLatency = 0
  /// The largest interarrival jitter of the streams received, in milliseconds.
  public var recvJitter = 0
  /// The loss of every stream received together over the last five seconds, per thousand.
  public var recvPacketLossAvg = 0
  /// The worst one-second loss of any stream received in that time, per thousand.
  public var recvPacketLossMax = 0

  /// Figures all zero.
  public init() {}
}

/// `ZoomVideoSDKVideoStatisticInfo`.
public typealias VideoStatisticInfo = SessionStatisticInfo
/// `ZoomVideoSDKAudioStatisticInfo` (no frame size or rate).
public typealias AudioStatisticInfo = SessionStatisticInfo
/// `ZoomVideoSDKShareStatisticInfo`.
public typealias ShareStatisticInfo = SessionStatisticInfo
