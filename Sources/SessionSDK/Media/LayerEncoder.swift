import SessionCore
import SessionTransport

/// The bitrate model of one stream: frame sizes, key frames and packetization.
///
/// A group of pictures is `keyInterval` frames: one key frame five times the size of a delta
/// frame, then deltas, sized so that the group averages the layer's bitrate. Each frame's size
/// varies by up to ±10% (uniform, mean 1) from the stream's own seeded generator. A key frame
/// asked for out of turn starts a new group and leaves a debt of its extra bytes, which the
/// following delta frames pay back (up to half a delta each), so the average holds. A frame
/// is split into the fewest packets of at most `MediaPacket.maxPayloadBytes` bytes, as equal as
/// possible.
///
/// > Important: A value; owned by the source that holds it.
struct LayerEncoder: Sendable {
  /// A key frame's size over a delta frame's.
  static let keyFrameRatio = 5.0
  /// The largest frame one stream can carry.
  static let maxFrameBytes = Int(UInt16.max) * MediaPacket.maxPayloadBytes

  /// The stream this encoder numbers.
  let stream: StreamID
  /// The frame size in pixels.
  let width: UInt16
  let height: UInt16
  /// A delta frame's nominal size in bytes.
  let deltaBytes: Double
  /// Frames per group of pictures.
  let keyInterval: Int64

  private var random: SimulationRandom
  private var sequence: UInt32
  private var frameID: UInt32 = 0
  /// Whether the next frame is a key frame out of turn (`true` for the first frame too).
  private var keyPending = true
  /// Whether the pending key frame leaves a debt (one asked for, not one starting a stream).
  private var keyIsExtra = false
  /// The tick of the last key frame.
  private var lastKeyTick: Int64 = 0
  /// Bytes the delta frames still owe for key frames asked for out of turn.
  private var debt = 0.0

  /// Creates an encoder.
  ///
  /// - Parameters:
  ///   - stream: The stream.
  ///   - width: The frame width (0 for audio).
  ///   - height: The frame height.
  ///   - bitrate: The average bitrate, bits per second.
  ///   - fps: Frames per second.
  ///   - keyIntervalSeconds: Seconds per group of pictures.
  ///   - seed: The source's seed; the stream id is mixed in.
  ///   - firstSequence: The first packet's sequence number.
  init(
    stream: StreamID, width: Int, height: Int, bitrate: Int, fps: Int, keyIntervalSeconds: Int,
    seed: UInt64, firstSequence: UInt32
  ) {
    self.stream = stream
    self.width = UInt16(clamping: width)
    self.height = UInt16(clamping: height)
    let interval = Int64(max(1, fps * keyIntervalSeconds))
    self.keyInterval = interval
    let perFrame = Double(bitrate) / 8 / Double(max(fps, 1))
    // keyFrameRatio·d + (interval − 1)·d = interval · perFrame.
    self.deltaBytes = perFrame * Double(interval) / (Double(interval) - 1 + Self.keyFrameRatio)
    self.random = MediaSeed.generator(seed: seed, stream: stream)
    self.sequence = firstSequence
  }

  /// The nominal key frame size in bytes.
  var keyBytes: Double { deltaBytes * Self.keyFrameRatio }

  /// Makes the next frame a key frame (a receiver asked for one).
  mutating func requestKeyFrame() {
    guard !keyPending else { return }
    keyPending = true
    keyIsExtra = true
  }

  /// Makes the next frame a key frame that starts the stream again (after a pause), without a
  /// debt.
  mutating func restart() {
    keyPending = true
    keyIsExtra = false
  }

  /// Encodes the frame of `tick` sent at `time` and appends its packets.
  mutating func encodeFrame(tick: Int64, time: Int64, into packets: inout [MediaPacket]) {
    let isKey = keyPending || tick - lastKeyTick >= keyInterval || tick < lastKeyTick
    let variation = 0.9 + 0.2 * MediaSeed.unit(&random)
    var size: Double
    if isKey {
      size = keyBytes * variation
      if keyPending && keyIsExtra { debt += keyBytes - deltaBytes }
      keyPending = false
      keyIsExtra = false
      lastKeyTick = tick
    } else {
      size = deltaBytes * variation
      let payment = min(debt, deltaBytes / 2)
      debt -= payment
      size -= payment
    }
    let bytes = min(Self.maxFrameBytes, max(1, Int(size.rounded())))
    let count = (bytes + MediaPacket.maxPayloadBytes - 1) / MediaPacket.maxPayloadBytes
    let (base, extra) = bytes.quotientAndRemainder(dividingBy: count)
    for index in 0..<count {
      packets.append(
        MediaPacket(
          stream: stream, sequence: sequence, frameID: frameID, isKeyFrame: isKey,
          sendTime: time, payloadBytes: UInt16(base + (index < extra ? 1 : 0)),
          audioLevel: 127, width: width, height: height, framePackets: UInt16(count)))
      sequence &+= 1
    }
    frameID &+= 1
  }
}

/// Seeds for the sources' generators: one independent generator per stream of a seed.
///
/// > Important: Stateless.
enum MediaSeed {
  /// A generator that depends only on the seed and the stream, so adding a layer or drawing
  /// more for one stream never changes another's draws.
  static func generator(seed: UInt64, stream: StreamID) -> SimulationRandom {
    var mixer = SimulationRandom(seed: seed)
    let key =
      UInt64(stream.user.rawValue) << 16 | UInt64(stream.kind.rawValue) << 8
      | UInt64(stream.layer)
    var second = SimulationRandom(seed: mixer.next() ^ key)
    return SimulationRandom(seed: second.next())
  }

  /// A uniform number in [0, 1) with 53 random bits.
  static func unit(_ random: inout SimulationRandom) -> Double {
    Double(random.next() >> 11) * 0x1.0p-53
  }
}
