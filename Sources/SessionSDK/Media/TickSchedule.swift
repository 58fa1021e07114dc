import SessionTransport

/// The tick bookkeeping of a periodic source (``AudioSource``, ``FrameSource``): its
/// ``MediaClock``, the packets due before a change of state and not handed out yet, and the
/// latest time seen (time never runs backwards for a source).
///
/// The source makes each tick's packets itself, from a part of its own state it lends for the
/// call (`state`, given to `emit`). A change of state at `now` first moves the packets due
/// before `now` into the pending ones (``flush(until:isSending:state:emit:)``), so it never
/// loses or invents a packet of the time before it; a tick due at `now` follows the new state.
///
/// > Important: A value; owned by the source that holds it.
struct TickSchedule: Sendable {
  private var clock: MediaClock
  /// Packets due before a state change, not yet handed out.
  private var pending: [MediaPacket] = []
  /// The latest time seen.
  private(set) var latest: Int64

  /// Creates a schedule whose first tick is at `start`.
  ///
  /// - Parameters:
  ///   - rate: Ticks per second, at least 1.
  ///   - start: The time of the first tick, in microseconds.
  init(rate: Int, start: Int64) {
    clock = MediaClock(rate: rate, start: start)
    latest = start
  }

  /// The pending packets, then those of every tick due at or before `now` not taken yet (none
  /// while not sending), in time order.
  ///
  /// - Parameters:
  ///   - now: The current time, in microseconds.
  ///   - isSending: Whether the source sends now.
  ///   - state: What `emit` makes packets from.
  ///   - emit: Appends the packets of the tick (its number and time) to the array.
  /// - Returns: The packets in send order.
  mutating func packets<State>(
    until now: Int64, isSending: Bool, state: inout State,
    emit: (inout State, _ tick: Int64, _ time: Int64, inout [MediaPacket]) -> Void
  ) -> [MediaPacket] {
    var packets = pending
    pending = []
    collect(until: now, isSending: isSending, state: &state, emit: emit, into: &packets)
    return packets
  }

  /// Moves the packets due before `now` into the pending ones, before a change of state at
  /// `now`.
  ///
  /// - Parameters:
  ///   - now: The time of the change, in microseconds.
  ///   - isSending: Whether the source sends before the change.
  ///   - state: What `emit` makes packets from.
  ///   - emit: Appends the packets of the tick (its number and time) to the array.
  mutating func flush<State>(
    until now: Int64, isSending: Bool, state: inout State,
    emit: (inout State, _ tick: Int64, _ time: Int64, inout [MediaPacket]) -> Void
  ) {
    guard now > .min else { return }
    var packets = pending
    pending = []
    collect(until: now - 1, isSending: isSending, state: &state, emit: emit, into: &packets)
    pending = packets
  }

  /// Starts the ticks again at `now`, or at the latest time seen if that is later.
  mutating func restart(at now: Int64) {
    clock.restart(at: max(now, latest))
  }

  private mutating func collect<State>(
    until now: Int64, isSending: Bool, state: inout State,
    emit: (inout State, _ tick: Int64, _ time: Int64, inout [MediaPacket]) -> Void,
    into packets: inout [MediaPacket]
  ) {
    guard now >= latest else { return }
    latest = now
    guard isSending else { return }
    for tick in clock.take(until: now) {
      guard let time = clock.time(ofTick: tick) else { break }
      emit(&state, tick, time, &packets)
    }
  }
}
