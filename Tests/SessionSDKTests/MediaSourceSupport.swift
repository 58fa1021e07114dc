import SessionCore
import SessionTransport

/// The packets a source sends from `start` to `end` (exclusive), polled every `step` µs as
/// an SDK's loop would.
func drive(
  from start: Int64 = 0, to end: Int64, step: Int64 = 10_000,
  _ poll: (Int64) -> [MediaPacket]
) -> [MediaPacket] {
  var packets: [MediaPacket] = []
  var now = start
  while now < end {
    packets += poll(now)
    now += step
  }
  return packets
}

/// Packets grouped by stream.
func byStream(_ packets: [MediaPacket]) -> [StreamID: [MediaPacket]] {
  Dictionary(grouping: packets, by: \.stream)
}

/// The frames of one stream's packets, in order: each frame's packets.
func frames(_ packets: [MediaPacket]) -> [[MediaPacket]] {
  var result: [[MediaPacket]] = []
  for packet in packets {
    if let last = result.last?.last, last.frameID == packet.frameID {
      result[result.count - 1].append(packet)
    } else {
      result.append([packet])
    }
  }
  return result
}

/// Payload bits per second over `seconds`.
func bitrate(_ packets: [MediaPacket], seconds: Double) -> Double {
  Double(packets.reduce(0) { $0 + Int($1.payloadBytes) }) * 8 / seconds
}

/// Whether `value` is within `fraction` of `target`.
func within(_ value: Double, _ fraction: Double, of target: Double) -> Bool {
  abs(value - target) <= fraction * target
}

/// Whether each packet's sequence number is one more than the previous one's (wrapping).
func consecutive(_ packets: [MediaPacket]) -> Bool {
  zip(packets, packets.dropFirst()).allSatisfy { $0.sequence &+ 1 == $1.sequence }
}
