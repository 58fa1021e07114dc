import SessionTransport

/// What video and share sources have in common: a frame clock, one encoder per layer, and
/// whether frames are being sent.
///
/// A change of state at `now` first moves the packets due before `now` into `pending`, so it
/// never loses or invents a packet of the time before it; a frame due at `now` follows the
/// new state.
///
/// > Important: A value; owned by the source that holds it.
struct FrameSource: Sendable {
  /// Seconds between two periodic key frames.
  static let keyIntervalSeconds = 2

  private var clock: MediaClock
  private(set) var encoders: [LayerEncoder]
  private(set) var isSending: Bool
  /// Packets due before a state change, not yet handed out.
  private var pending: [MediaPacket] = []
  /// The latest time seen; time never runs backwards for a source.
  private var latest: Int64

  init(
    fps: Int, encoders: [LayerEncoder], start: Int64, sending: Bool
  ) {
    clock = MediaClock(rate: fps, start: start)
    self.encoders = encoders
    self.isSending = sending
    latest = start
  }

  /// The packets of every frame due at or before `now` not handed out yet, layer by layer in
  /// each frame, frames in time order.
  mutating func packets(until now: Int64) -> [MediaPacket] {
    var packets = pending
    pending = []
    collect(until: now, into: &packets)
    return packets
  }

  /// Moves the packets due before `now` into `pending`, before a change of state at `now`.
  private mutating func flush(until now: Int64) {
    guard now > .min else { return }
    var packets = pending
    pending = []
    collect(until: now - 1, into: &packets)
    pending = packets
  }

  private mutating func collect(until now: Int64, into packets: inout [MediaPacket]) {
    guard now >= latest else { return }
    latest = now
    guard isSending else { return }
    for tick in clock.take(until: now) {
      guard let time = clock.time(ofTick: tick) else { break }
      for index in encoders.indices {
        encoders[index].encodeFrame(tick: tick, time: time, into: &packets)
      }
    }
  }

  /// Starts or stops sending at `now`. Starting again begins with key frames at `now`.
  mutating func setSending(_ sending: Bool, at now: Int64) {
    guard sending != isSending else { return }
    flush(until: now)
    isSending = sending
    if sending {
      clock.restart(at: max(now, latest))
      for index in encoders.indices { encoders[index].restart() }
    }
  }

  /// Makes the next frame of one layer (or of every layer, for `nil`) a key frame.
  mutating func requestKeyFrame(layer: UInt8?) {
    for index in encoders.indices where layer == nil || encoders[index].stream.layer == layer {
      encoders[index].requestKeyFrame()
    }
  }
}
