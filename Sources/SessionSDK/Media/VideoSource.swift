import SessionCore
import SessionTransport

/// A synthetic camera: frames at a fixed rate in simulcast layers, sized by a bitrate model.
///
/// Every frame interval each layer sends one frame (`LayerEncoder` has the model: a key frame
/// every 2 s and on request, five times a delta frame, ±10% seeded variation, the layer's
/// average bitrate; packets of at most 1,200 payload bytes). Sans-IO: time is passed in, in
/// microseconds, and nothing runs between calls.
///
/// > Important: A value, owned by whoever drives it (the SDK instance's queue, a simulated
/// > peer); `Sendable` to move between them.
package struct VideoSource: Sendable {
  /// The default frame rate.
  package static let defaultFrameRate = 30

  /// The sender.
  package let user: UserID
  /// Frames per second.
  package let frameRate: Int
  /// The layers sent, lowest first; layer `i` is stream layer `i`.
  package let layers: [SimulcastLayer]
  private var frames: FrameSource

  /// Creates a camera that is on from `start`.
  ///
  /// - Parameters:
  ///   - user: The sender.
  ///   - width: The camera's width; layers wider than it are not sent.
  ///   - height: The camera's height; layers taller than it are not sent.
  ///   - frameRate: Frames per second, 1 to 60; 30 by default.
  ///   - ladder: The candidate layers, lowest first; by default 180p, 360p and 720p.
  ///   - seed: The seed of the frame-size variation; the same seed gives the same packets.
  ///   - start: The time of the first frame, in microseconds.
  ///   - firstSequence: The first packet's sequence number in every layer; 0 by default.
  /// - Throws: ``MediaSourceError`` for a rate, resolution or ladder outside the limits;
  ///   nothing is created.
  package init(
    user: UserID, width: Int = 1_280, height: Int = 720, frameRate: Int = defaultFrameRate,
    ladder: [SimulcastLayer] = SimulcastLayer.defaults, seed: UInt64, start: Int64,
    firstSequence: UInt32 = 0
  ) throws(MediaSourceError) {
    guard MediaSourceLimits.frameRates.contains(frameRate) else {
      throw .invalidFrameRate(frameRate)
    }
    guard MediaSourceLimits.dimensions.contains(width),
      MediaSourceLimits.dimensions.contains(height)
    else { throw .invalidResolution(width: width, height: height) }
    try SimulcastLayer.validate(ladder)
    let layers = SimulcastLayer.layers(of: ladder, forWidth: width, height: height)
    self.user = user
    self.frameRate = frameRate
    self.layers = layers
    let encoders = layers.enumerated().map { index, layer in
      LayerEncoder(
        stream: StreamID(user: user, kind: .video, layer: UInt8(index)), width: layer.width,
        height: layer.height, bitrate: layer.bitrate, fps: frameRate,
        keyIntervalSeconds: FrameSource.keyIntervalSeconds, seed: seed,
        firstSequence: firstSequence)
    }
    frames = FrameSource(fps: frameRate, encoders: encoders, start: start, sending: true)
  }

  /// The streams this camera sends, lowest layer first.
  package var streams: [StreamID] { frames.encoders.map(\.stream) }

  /// Whether the camera is sending.
  package var isOn: Bool { frames.isSending }

  /// The packets of every frame due at or before `now` and not taken yet; a call with an
  /// earlier time than a previous one adds none. At most the newest second of frames is made
  /// up after a long gap.
  ///
  /// - Parameter now: The current time, in microseconds.
  /// - Returns: The packets in send order: frame by frame, each frame's layers lowest first.
  package mutating func packets(until now: Int64) -> [MediaPacket] {
    frames.packets(until: now)
  }

  /// Turns the camera on or off at `now`. The frames due before `now` are still handed out by
  /// the next ``packets(until:)``, and one due at `now` follows the new state; turning on
  /// again starts with key frames at `now`.
  ///
  /// - Parameters:
  ///   - on: Whether to send.
  ///   - now: When, in microseconds.
  package mutating func setOn(_ on: Bool, at now: Int64) {
    frames.setSending(on, at: now)
  }

  /// Makes the next frame of a layer a key frame, as a receiver's request does; the extra
  /// bytes are paid back by the following frames.
  ///
  /// - Parameter layer: The layer, or `nil` (the default) for every layer.
  package mutating func requestKeyFrame(layer: UInt8? = nil) {
    frames.requestKeyFrame(layer: layer)
  }
}
