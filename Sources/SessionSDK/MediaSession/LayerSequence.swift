/// The sequence numbers of one layer of a received stream: the highest so far (extended past
/// the 32-bit wrap) and which of the 64 numbers below it arrived, to tell late packets from
/// duplicates.
///
/// A packet more than 64 numbers behind the highest is *too old* (a real receiver's jitter
/// buffer would have given up on it), unless the packet after it follows it: then the sender
/// started numbering again (RFC 3550's resynchronisation) and the count restarts there. A jump
/// ahead of more than ``maxJump`` numbers restarts the count too, so one stray number cannot
/// make thousands of packets look lost.
///
/// > Important: A value; owned by the ``StreamReceiver`` that holds it.
struct LayerSequence: Sendable, Hashable {
  /// The largest forward jump taken as a gap rather than a restart (RFC 3550's `MAX_DROPOUT`).
  static let maxJump: Int64 = 3_000

  /// What one packet's number was.
  enum Verdict: Hashable {
    /// The layer's first packet (or the first after a restart).
    case first
    /// A new highest number, `gap` numbers after the previous highest (1 when none is missing).
    case advanced(gap: Int64)
    /// Below the highest, not seen before: it fills an earlier gap.
    case late
    /// Seen before.
    case duplicate
    /// Too far below the highest to tell.
    case tooOld
  }

  /// Whether a packet of the layer has arrived since the last ``reset()``.
  private(set) var isActive = false
  /// The highest number, extended (it keeps counting past `UInt32.max`).
  private(set) var highest: Int64 = 0
  /// Bit `i` says whether number `highest − i` arrived.
  private var window: UInt64 = 0
  /// The last too-old number, which the next packet may follow (a restart).
  private var probation: UInt32?

  /// The highest number as it appears on the wire.
  var highestOnWire: UInt32 { UInt32(truncatingIfNeeded: highest) }

  /// Forgets the layer: its next packet is a ``Verdict/first``.
  mutating func reset() {
    isActive = false
    highest = 0
    window = 0
    probation = nil
  }

  /// Takes one packet's number.
  ///
  /// - Parameter sequence: The number on the wire.
  /// - Returns: What it was.
  /// - Complexity: O(1).
  mutating func take(_ sequence: UInt32) -> Verdict {
    defer { if probation != nil, probation != sequence { probation = nil } }
    guard isActive else {
      isActive = true
      highest = Int64(sequence)
      window = 1
      return .first
    }
    let delta = Int64(Int32(bitPattern: sequence &- highestOnWire))
    if delta > 0 {
      highest += delta
      if delta > Self.maxJump {
        window = 1
        return .first
      }
      window = delta >= 64 ? 1 : (window << UInt64(delta)) | 1
      return .advanced(gap: delta)
    }
    let behind = -delta
    guard behind < 64 else {
      if let probation, sequence == probation &+ 1 {
        highest = Int64(sequence)
        window = 1
        self.probation = nil
        return .first
      }
      probation = sequence
      return .tooOld
    }
    let bit: UInt64 = 1 << UInt64(behind)
    if window & bit != 0 { return .duplicate }
    window |= bit
    return .late
  }
}
