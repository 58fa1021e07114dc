/// The frames of one received stream being put together: a frame is whole when as many
/// packets of it arrived as it says it has.
///
/// Four frames at most are open at a time (a frame's packets are sent back to back, so more
/// only happens under heavy reordering); a fifth pushes out the oldest, which is lost. Frames
/// are independent (there is no retransmission, FEC or reference chain): an incomplete frame
/// costs only itself. Duplicates never reach it (``LayerSequence`` filters them), so counting
/// is enough.
///
/// > Important: A value; owned by the ``StreamReceiver`` that holds it.
struct FrameAssembly: Sendable {
  /// A whole frame.
  struct Frame: Sendable, Hashable {
    var layer: UInt8
    var frameID: UInt32
    var firstSequence: UInt32
    var isKeyFrame: Bool
    var sendTime: Int64
    var width: UInt16
    var height: UInt16
  }

  private struct Slot: Sendable {
    var isOpen = false
    var frame = Frame(
      layer: 0, frameID: 0, firstSequence: 0, isKeyFrame: false, sendTime: 0, width: 0,
      height: 0)
    var expected: UInt16 = 0
    var received: UInt16 = 0
  }

  /// How many frames may be open at once.
  static let slotCount = 4

  private var slots = [Slot](repeating: Slot(), count: FrameAssembly.slotCount)
  /// Frames given up on: pushed out by newer frames, or older than a frame already whole.
  private(set) var framesLost = 0

  /// Takes one packet of a frame.
  ///
  /// - Parameters:
  ///   - layer: The packet's layer.
  ///   - frameID: Its frame.
  ///   - sequence: Its sequence number.
  ///   - packets: How many packets the frame has (the first packet seen decides).
  ///   - isKeyFrame: Whether the frame is a key frame.
  ///   - sendTime: The frame's send time.
  ///   - width: The frame's width.
  ///   - height: The frame's height.
  /// - Returns: The frame, when this packet made it whole.
  /// - Complexity: O(1).
  mutating func take(
    layer: UInt8, frameID: UInt32, sequence: UInt32, packets: UInt16, isKeyFrame: Bool,
    sendTime: Int64, width: UInt16, height: UInt16
  ) -> Frame? {
    let frame = Frame(
      layer: layer, frameID: frameID, firstSequence: sequence, isKeyFrame: isKeyFrame,
      sendTime: sendTime, width: width, height: height)
    if packets <= 1 { return frame }
    var free: Int?
    var oldest = 0
    for index in slots.indices {
      guard slots[index].isOpen else {
        if free == nil { free = index }
        continue
      }
      if slots[index].frame.layer == layer, slots[index].frame.frameID == frameID {
        slots[index].received &+= 1
        if Int32(bitPattern: sequence &- slots[index].frame.firstSequence) < 0 {
          slots[index].frame.firstSequence = sequence
        }
        guard slots[index].received >= slots[index].expected else { return nil }
        slots[index].isOpen = false
        return slots[index].frame
      }
      if slots[index].frame.sendTime < slots[oldest].frame.sendTime {
        oldest = index
      }
    }
    let index: Int
    if let free {
      index = free
    } else {
      index = oldest
      framesLost += 1
    }
    slots[index] = Slot(isOpen: true, frame: frame, expected: packets, received: 1)
    return nil
  }

  /// Gives up on the open frames sent before `sendTime` (a later frame rendered).
  ///
  /// - Parameter sendTime: The send time of the frame just rendered.
  mutating func drop(before sendTime: Int64) {
    for index in slots.indices where slots[index].isOpen && slots[index].frame.sendTime < sendTime {
      slots[index].isOpen = false
      framesLost += 1
    }
  }

  /// Counts a whole frame that came too late to render as lost.
  mutating func countLate() {
    framesLost += 1
  }
}
