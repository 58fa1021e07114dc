import SessionTransport

/// What video and share sources have in common: a frame schedule (``TickSchedule``), one
/// encoder per layer, and whether frames are being sent.
///
/// A change of state at `now` first moves the packets due before `now` into the schedule's
/// pending ones, so it never loses or invents a packet of the time before it; a frame due at
/// `now` follows the new state.
///
/// > Important: A value; owned by the source that holds it.
struct FrameSource: Sendable {
  /// Seconds between two periodic key frames.
  static let keyIntervalSeconds = 2

  private var schedule: TickSchedule
  private(set) var encoders: [LayerEncoder]
  private(set) var isSending: Bool

  init(
    fps: Int, encoders: [LayerEncoder], start: Int64, sending: Bool
  ) {
    schedule = TickSchedule(rate: fps, start: start)
    self.encoders = encoders
    self.isSending = sending
  }

  /// The packets of every frame due at or before `now` not handed out yet, layer by layer in
  /// each frame, frames in time order.
  mutating func packets(until now: Int64) -> [MediaPacket] {
    schedule.packets(until: now, isSending: isSending, state: &encoders, emit: Self.encodeFrame)
  }

  /// Starts or stops sending at `now`. Starting again begins with key frames at `now`.
  mutating func setSending(_ sending: Bool, at now: Int64) {
    guard sending != isSending else { return }
    schedule.flush(until: now, isSending: isSending, state: &encoders, emit: Self.encodeFrame)
    isSending = sending
    if sending {
      schedule.restart(at: now)
      for index in encoders.indices { encoders[index].restart() }
    }
  }

  /// Appends one frame's packets, layer by layer.
  private static func encodeFrame(
    _ encoders: inout [LayerEncoder], tick: Int64, time: Int64, into packets: inout [MediaPacket]
  ) {
    for index in encoders.indices {
      encoders[index].encodeFrame(tick: tick, time: time, into: &packets)
    }
  }

  /// Makes the next frame of one layer (or of every layer, for `nil`) a key frame.
  mutating func requestKeyFrame(layer: UInt8?) {
    for index in encoders.indices where layer == nil || encoders[index].stream.layer == layer {
      encoders[index].requestKeyFrame()
    }
  }
}
