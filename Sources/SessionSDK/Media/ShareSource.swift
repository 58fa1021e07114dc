import SessionCore
import SessionTransport

/// A synthetic screen share: one stream of frames at a low rate (5 fps, 1280×720, 800 kbps by
/// default), sized by the same bitrate model as video. A paused share sends nothing; resuming
/// starts with a key frame.
///
/// > Important: A value, owned by whoever drives it; `Sendable`.
package struct ShareSource: Sendable {
  /// The default frame rate.
  package static let defaultFrameRate = 5
  /// The default resolution and bitrate.
  package static let defaultLayer = SimulcastLayer(width: 1_280, height: 720, bitrate: 800_000)

  /// The sender.
  package let user: UserID
  /// Frames per second.
  package let frameRate: Int
  /// The resolution and bitrate.
  package let layer: SimulcastLayer
  private var frames: FrameSource

  /// Creates a share that is sending from `start`.
  ///
  /// - Parameters:
  ///   - user: The sharer.
  ///   - layer: The resolution and bitrate; 1280×720 at 800 kbps by default.
  ///   - frameRate: Frames per second, 1 to 60; 5 by default.
  ///   - seed: The seed of the frame-size variation.
  ///   - start: The time of the first frame, in microseconds.
  ///   - firstSequence: The first packet's sequence number; 0 by default.
  /// - Throws: ``MediaSourceError`` for a rate, resolution or bitrate outside the limits.
  package init(
    user: UserID, layer: SimulcastLayer = defaultLayer, frameRate: Int = defaultFrameRate,
    seed: UInt64, start: Int64, firstSequence: UInt32 = 0
  ) throws(MediaSourceError) {
    guard MediaSourceLimits.frameRates.contains(frameRate) else {
      throw .invalidFrameRate(frameRate)
    }
    try SimulcastLayer.validate([layer])
    self.user = user
    self.frameRate = frameRate
    self.layer = layer
    let encoder = LayerEncoder(
      stream: StreamID(user: user, kind: .share), width: layer.width, height: layer.height,
      bitrate: layer.bitrate, fps: frameRate, keyIntervalSeconds: FrameSource.keyIntervalSeconds,
      seed: seed, firstSequence: firstSequence)
    frames = FrameSource(fps: frameRate, encoders: [encoder], start: start, sending: true)
  }

  /// The share's stream.
  package var stream: StreamID { StreamID(user: user, kind: .share) }

  /// Whether the share is paused.
  package var isPaused: Bool { !frames.isSending }

  /// The packets of every frame due at or before `now` and not taken yet (none while paused).
  ///
  /// - Parameter now: The current time, in microseconds.
  /// - Returns: The packets in send order.
  package mutating func packets(until now: Int64) -> [MediaPacket] {
    frames.packets(until: now)
  }

  /// Pauses or resumes the share at `now`; frames due before `now` are still handed out, and
  /// resuming starts with a key frame at `now`.
  ///
  /// - Parameters:
  ///   - paused: Whether to pause.
  ///   - now: When, in microseconds.
  package mutating func setPaused(_ paused: Bool, at now: Int64) {
    frames.setSending(!paused, at: now)
  }

  /// Makes the next frame a key frame.
  package mutating func requestKeyFrame() {
    frames.requestKeyFrame(layer: nil)
  }
}
