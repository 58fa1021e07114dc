/// Why a synthetic media source refused its configuration.
///
/// > Important: A value; `Sendable`.
package enum MediaSourceError: Error, Hashable, Sendable, CustomStringConvertible {
  /// A frame rate outside ``MediaSourceLimits/frameRates``.
  case invalidFrameRate(Int)
  /// A width or height outside ``MediaSourceLimits/dimensions``.
  case invalidResolution(width: Int, height: Int)
  /// A bitrate outside ``MediaSourceLimits/bitrates``.
  case invalidBitrate(Int)
  /// No layers, more than `StreamID.maxLayers`, or layers not strictly ascending in height.
  case invalidLayers(count: Int)
  /// A mean talk spurt or silence outside ``MediaSourceLimits/talkDurations``.
  case invalidTalkDuration(Int64)

  /// A sentence for logs.
  package var description: String {
    switch self {
    case .invalidFrameRate(let fps):
      "frame rate \(fps) is outside \(MediaSourceLimits.frameRates)"
    case .invalidResolution(let width, let height):
      "resolution \(width)x\(height) is outside \(MediaSourceLimits.dimensions) on a side"
    case .invalidBitrate(let bitrate):
      "bitrate \(bitrate) bps is outside \(MediaSourceLimits.bitrates)"
    case .invalidLayers(let count):
      "\(count) simulcast layers: 1 to 3, strictly ascending in height, are allowed"
    case .invalidTalkDuration(let duration):
      "a mean talk or silence of \(duration) us is outside \(MediaSourceLimits.talkDurations)"
    }
  }
}

/// The ranges a source's configuration must keep; each keeps every frame within what one
/// packet stream can carry (at most 65,535 packets of 1,200 bytes a frame).
///
/// > Important: Stateless.
package enum MediaSourceLimits {
  /// Frames per second.
  package static let frameRates = 1...60
  /// Pixels on a side.
  package static let dimensions = 1...4_096
  /// Bits per second (1 kbps to 50 Mbps).
  package static let bitrates = 1_000...50_000_000
  /// A mean talk spurt or silence, in microseconds (20 ms to one hour).
  package static let talkDurations: ClosedRange<Int64> = 20_000...3_600_000_000
}
