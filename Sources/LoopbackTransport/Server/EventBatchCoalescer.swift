import SessionCore
import SessionTransport

/// Holds back a session's event broadcast so that the next ones of the same loop turn, to the
/// same receivers, can join it as one larger batch (``LoopbackServerConfiguration/coalescesEventBatches``).
///
/// A broadcast continues the held batch when it names the same receiver list, its first
/// sequence number follows the held batch's last, and the merged batch stays under the size
/// cap. Everything else — another receiver list, any other output — flushes the held batch
/// first, so that every connection still receives its messages in the order the host sent them.
///
/// > Important: A value owned by the server core; loop-confined with it.
struct EventBatchCoalescer {
  private var firstSequence: UInt64 = 0
  private var events: [SessionEvent] = []
  private var receivers = FanOutGroup.adHoc([])
  private var encodedBytes = 0
  private(set) var isHolding = false
  /// The largest merged payload, in bytes (estimated from the parts' encodings).
  let maxBytes: Int

  init(maxBytes: Int) {
    self.maxBytes = maxBytes
  }

  /// Merges `batch` into the held one when it continues it.
  ///
  /// - Parameters:
  ///   - batch: The broadcast batch.
  ///   - receivers: Its receiver list.
  ///   - encodedBytes: The batch's own encoded size.
  /// - Returns: Whether it was merged; if not, flush and then ``hold(_:to:encodedBytes:)`` it.
  mutating func absorb(_ batch: EventBatch, to receivers: FanOutGroup, encodedBytes: Int)
    -> Bool
  {
    guard isHolding, self.encodedBytes + encodedBytes <= maxBytes,
      batch.firstSequence == firstSequence &+ UInt64(events.count),
      self.receivers.isCachedAs(receivers) || self.receivers == receivers
    else { return false }
    events.append(contentsOf: batch.events)
    self.encodedBytes += encodedBytes
    return true
  }

  /// Starts holding `batch`; nothing may be held.
  mutating func hold(_ batch: EventBatch, to receivers: FanOutGroup, encodedBytes: Int) {
    precondition(!isHolding, "a held batch was not flushed")
    isHolding = true
    firstSequence = batch.firstSequence
    events = batch.events
    self.receivers = receivers
    self.encodedBytes = encodedBytes
  }

  /// Takes the held batch, if any, as one broadcast.
  mutating func take() -> HostOutput? {
    guard isHolding else { return nil }
    isHolding = false
    let batch = EventBatch(firstSequence: firstSequence, events: events)
    let output = HostOutput.broadcast(.events(batch), to: receivers)
    events = []
    receivers = .adHoc([])
    return output
  }
}
