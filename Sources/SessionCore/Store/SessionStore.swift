import Observation

/// The observable home of one ``SessionState``: the view-model layer of an app.
///
/// `send(_:)` reduces one event at a time. An event sent while another is being reduced (from an
/// observer, say) is queued and applied after it, never recursively. Each applied event gets the
/// next sequence number and goes to every observer and every ``events()`` stream.
///
/// ``state`` and ``lastRejection`` are observable (`Observation`): a view that reads them is
/// invalidated by the next outermost ``send(_:)`` that changes them, however many queued events
/// that send applies. The store tells `Observation` about a change only when one of them was
/// read since it last did: no observation can be registered without a read, and one that was
/// notified is done (`withObservationTracking` tracks once; SwiftUI and `Observations` read
/// again to track again). A replica nobody reads pays nothing for being observable
/// (Decision 0008).
///
/// > Important: A store is confined to the isolation domain that created it: usually the main
/// > actor in an app, the event-loop thread in a simulation. It is not `Sendable`; call every
/// > method from that domain. Streams from ``events()`` may be consumed anywhere.
public final class SessionStore: Observable {
  // The store is confined to one isolation domain and never recurses into a reduction (sends
  // from observers are queued), so no two accesses to these properties overlap. Dynamic
  // exclusivity checks on them cost more than the reduction itself, so they are off.
  // Declared in the order an event reads them, small ones first, so that a send touches few
  // cache lines: a simulation holds a thousand stores and an event visits every one.
  @exclusivity(unchecked) private var isReducing = false
  // Whether `state` (`lastRejection`) was read since `Observation` was last told it changed:
  // only then can an observation be waiting for a change to it.
  @exclusivity(unchecked) private var stateWasRead = false
  @exclusivity(unchecked) private var rejectionWasRead = false
  // Whether `rejection` holds one: a flag beside the others, so that a send that applies does
  // not read the rejection's own cache line to find it empty.
  @exclusivity(unchecked) private var hasRejection = false
  /// Whether invariants are checked after every event (default: on in debug builds).
  @exclusivity(unchecked) public var checksInvariants: Bool
  /// How many events this store has applied (the sequence number of the last one); 0 before
  /// any. A count of the store's own, not the service's sequence. Not observable.
  @exclusivity(unchecked) public private(set) var appliedCount: UInt64 = 0

  /// Events sent while another was being reduced, applied right after it, in order.
  @exclusivity(unchecked) private var pending = FIFO<SessionEvent>()
  @exclusivity(unchecked) private var observers:
    [(id: Int, body: (AppliedEvent, SessionState) -> Void)] = []
  @exclusivity(unchecked) private var streams: [AsyncStream<AppliedEvent>.Continuation] = []
  @exclusivity(unchecked) private var storage: SessionState
  // After the state: read once per event, after the reduction.
  /// Which applied events get their invariants checked by the store itself, without a call
  /// out per event (a simulation's replicas; see ``InvariantSampling``). Nil: none.
  @exclusivity(unchecked) package var invariantSampling: InvariantSampling?
  /// Told of each sampled event after which the invariants do not hold: its sequence number,
  /// the event and what is broken. Called only then.
  @exclusivity(unchecked) package var onInvariantViolation:
    ((UInt64, SessionEvent, [InvariantViolation]) -> Void)?
  @exclusivity(unchecked) private var rejection: EventRejection?
  @exclusivity(unchecked) private var nextObserverID = 0
  private let now: () -> Int64
  private let registrar = ObservationRegistrar()

  private static let stateKey: any KeyPath<SessionStore, SessionState> & Sendable = \.state
  private static let rejectionKey: any KeyPath<SessionStore, EventRejection?> & Sendable =
    \.lastRejection

  /// The current state. Views observe it.
  public var state: SessionState {
    stateWasRead = true
    registrar.access(self, keyPath: Self.stateKey)
    return storage
  }

  /// The current state read in place, for the SDK's and the simulation's own bookkeeping: no
  /// copy (a copy of the state retains each of its tables) and no observation registered, so
  /// the next send does not tell `Observation` of a change nobody can be waiting for. Views
  /// read ``state``.
  package var current: SessionState {
    _read { yield storage }
  }

  /// The current phase, read as ``current`` reads (one field: nothing else is copied).
  package var currentPhase: SessionPhase { storage.phase }
  /// The local user's id in the current state, read as ``current`` reads.
  package var currentMyselfID: UserID? { storage.myselfID }
  /// Whether the current state has no live share, read as ``current`` reads.
  package var currentSharesAreEmpty: Bool { storage.shares.isEmpty }
  /// Whether anyone is in a subsession in the current state, read as ``current`` reads.
  package var currentHasSubSessionMembers: Bool { !storage.subSessions.rooms.isEmpty }
  /// The subsession board of the current state, read as ``current`` reads.
  package var currentSubSessions: SubSessionBoard { storage.subSessions }

  /// `id`'s participant in the current state, read as ``current`` reads: one participant is
  /// copied, not the state.
  package func currentParticipant(_ id: UserID) -> Participant? { storage.participants[id] }

  /// `owner`'s live share in the current state, read as ``current`` reads.
  package func currentShare(of owner: UserID) -> ActiveShare? { storage.shares[owner] }

  /// Where `id`'s participant lies, for a caller about to send an event that changes it and
  /// that prefetches it (Decision 0009). Reads no state a view could observe; changes nothing.
  /// The address is valid until the next event.
  package func participantAddress(_ id: UserID) -> UnsafeRawPointer? {
    storage.participants.valueAddress(forKey: id)
  }

  /// The memory that adding participant `id` will write, for a caller about to send the
  /// `usersJoined` event of one joiner (Decision 0009): `body` gets each address. Reads no
  /// state a view could observe; changes nothing.
  package func forEachJoinerAddress(_ id: UserID, _ body: (UnsafeRawPointer) -> Void) {
    // Every address first, then the calls: the reads overlap instead of each waiting on the
    // prefetch before it.
    let slot = storage.participants.slotAddress(forKey: id)
    let (next, index) = storage.order.insertionAddresses(of: id)
    if let slot { body(slot) }
    if let next { body(next) }
    if let index { body(index) }
  }

  /// The memory that receiving chat `message` will read and write, for a caller about to send
  /// its `chatMessageReceived` event (Decision 0009): `body` gets each address (the sender's
  /// participant, the history index's probe, the end of the kept history). Reads no state a view
  /// could observe; changes nothing.
  package func forEachChatAddress(_ message: ChatMessage, _ body: (UnsafeRawPointer) -> Void) {
    // The hash before any read of the state (see ChatHistory.appendAddresses).
    let hash = ChatHistory.slotHash(message.id)
    let sender = storage.participants.valueAddress(forKey: message.sender)
    let (slot, end) = storage.chat.appendAddresses(slotHash: hash)
    if let sender { body(sender) }
    if let slot { body(slot) }
    if let end { body(end) }
  }

  /// The last rejection, if the last event processed was rejected.
  public var lastRejection: EventRejection? {
    rejectionWasRead = true
    registrar.access(self, keyPath: Self.rejectionKey)
    return rejection
  }

  /// Creates a store.
  ///
  /// - Parameters:
  ///   - state: The initial state.
  ///   - now: The clock stamped on applied events, in milliseconds. Injected so that tests and
  ///     simulations stay deterministic; the default always says 0.
  public init(state: SessionState = SessionState(), now: @escaping () -> Int64 = { 0 }) {
    self.storage = state
    self.now = now
    #if DEBUG
      checksInvariants = true
    #else
      checksInvariants = false
    #endif
  }

  /// The outcome of ``send(_:)``.
  public enum SendResult: Sendable, Hashable {
    /// The event applied with this sequence number.
    case applied(UInt64)
    /// The event did not apply; the state is unchanged.
    case rejected(EventRejection)
    /// The store was reducing; the event will apply (or be rejected) right after.
    case queued
  }

  /// Applies an event, or queues it when called while another event is being reduced.
  ///
  /// - Parameter event: The event to apply.
  /// - Returns: What happened to the event.
  /// - Complexity: The reducer's cost, plus O(observers + streams) per applied event.
  @discardableResult
  public func send(_ event: SessionEvent) -> SendResult {
    if isReducing {
      pending.append(event)
      return .queued
    }
    isReducing = true
    // Reads during this send (observers reading the state) set `stateWasRead` again, so an
    // observation they register hears of the next send.
    let notifies = stateWasRead
    stateWasRead = false
    if notifies { registrar.willSet(self, keyPath: Self.stateKey) }
    let result = process(event)
    if !pending.isEmpty { drainPending() }
    isReducing = false
    if notifies { registrar.didSet(self, keyPath: Self.stateKey) }
    return result
  }

  /// Applies events in order, as ``send(_:)`` would one by one.
  ///
  /// - Parameter events: The events to apply, in order.
  /// - Returns: The rejections, by position in `events`; empty when every event applied.
  @discardableResult
  public func send(contentsOf events: some Sequence<SessionEvent>) -> [(Int, EventRejection)] {
    var rejections: [(Int, EventRejection)] = []
    for (index, event) in events.enumerated() {
      if case .rejected(let rejection) = send(event) { rejections.append((index, rejection)) }
    }
    return rejections
  }

  /// Applies the events sent during a reduction. Out of line: inlined into `send(_:)`, its loop
  /// made every send keep its result on the stack around the (almost always skipped) drain.
  @inline(never)
  private func drainPending() {
    while let next = pending.popFirst() { _ = process(next) }
  }

  private func process(_ event: SessionEvent) -> SendResult {
    do {
      try storage.reduce(event)
    } catch {
      if rejection != error { setRejection(error) }
      return .rejected(error)
    }
    if hasRejection { setRejection(nil) }
    if checksInvariants {
      let violations = storage.checkInvariants()
      precondition(violations.isEmpty, "invariants broken after \(event.name): \(violations)")
    }
    appliedCount += 1
    if let sampling = invariantSampling,
      sampling.isDue(appliedCount, participants: storage.participants.count)
    {
      checkSampledInvariants(after: event)
    }
    // Nobody to tell (a replica in a simulation): skip the clock and the applied event.
    guard !observers.isEmpty || !streams.isEmpty else { return .applied(appliedCount) }
    let applied = AppliedEvent(sequence: appliedCount, timestamp: now(), event: event)
    for observer in observers { observer.body(applied, storage) }
    if !streams.isEmpty { yield(applied) }
    return .applied(appliedCount)
  }

  /// Checks the invariants after a sampled event and tells ``onInvariantViolation`` of a
  /// failure. Out of line: most events are not sampled.
  @inline(never)
  private func checkSampledInvariants(after event: SessionEvent) {
    let violations = storage.checkInvariants()
    guard !violations.isEmpty else { return }
    onInvariantViolation?(appliedCount, event, violations)
  }

  private func setRejection(_ value: EventRejection?) {
    hasRejection = value != nil
    guard rejectionWasRead else {
      rejection = value
      return
    }
    rejectionWasRead = false
    registrar.withMutation(of: self, keyPath: Self.rejectionKey) { rejection = value }
  }

  private func yield(_ applied: AppliedEvent) {
    var index = 0
    while index < streams.count {
      if case .terminated = streams[index].yield(applied) {
        streams.remove(at: index)
      } else {
        index += 1
      }
    }
  }

  /// Calls `body` after each applied event, on the store's isolation domain, with the event and
  /// the state after it. Events that `body` sends are queued, not recursed.
  ///
  /// - Parameter body: The observer, called with the applied event and the state after it.
  /// - Returns: A token for ``removeObserver(_:)``.
  @discardableResult
  public func addObserver(_ body: @escaping (AppliedEvent, SessionState) -> Void) -> Int {
    nextObserverID += 1
    observers.append((nextObserverID, body))
    return nextObserverID
  }

  /// The current state, read without telling `Observation` (a checker's read, which no view
  /// waits on).
  package var uncountedState: SessionState { storage }

  /// The host, read in place (no copy of the state).
  package var hostIDInPlace: UserID? { storage.hostID }

  /// How many participants the state holds, read in place (no copy of the state).
  package var participantCount: Int { storage.participants.count }

  /// Stops calling an observer.
  ///
  /// - Parameter token: The token ``addObserver(_:)`` returned. An unknown token does nothing.
  public func removeObserver(_ token: Int) {
    observers.removeAll { $0.id == token }
  }

  /// A stream of the events applied from now on, for consumers outside the UI.
  ///
  /// The stream buffers without bound; it finishes when the store is deinitialised.
  ///
  /// - Returns: A stream of every event the store applies after this call, in order.
  public func events() -> AsyncStream<AppliedEvent> {
    let (stream, continuation) = AsyncStream<AppliedEvent>.makeStream()
    streams.append(continuation)
    return stream
  }

  deinit {
    for stream in streams { stream.finish() }
  }
}

/// Which of a store's applied events get their invariants checked (``SessionStore/invariantSampling``).
///
/// In a session of up to ``everyEventUpTo`` participants, every event. Above it, one event in
/// `spread × (participants / everyEventUpTo)`, offset by ``place``: when each of a simulation's
/// replicas gets its own place and `spread` is the number of replicas, the checks are staggered
/// across them and cost O(participants) per event across the whole session, not
/// O(participants² log participants). A value.
package struct InvariantSampling: Sendable, Hashable {
  /// Up to this many participants, every event is checked (at least 1).
  package var everyEventUpTo: Int
  /// Above ``everyEventUpTo``, how many events apart checks are, per multiple of it (at least 1).
  package var spread: UInt64
  /// Offsets which events are checked.
  package var place: UInt64

  /// A sampling.
  ///
  /// - Parameters:
  ///   - everyEventUpTo: Up to this many participants, every event is checked.
  ///   - spread: Above it, checks this many events apart per multiple of it.
  ///   - place: The offset of the checked events.
  package init(everyEventUpTo: Int, spread: Int, place: UInt64) {
    self.everyEventUpTo = max(1, everyEventUpTo)
    self.spread = UInt64(max(1, spread))
    self.place = place
  }

  /// Whether the event applied as `sequence` in a session of `participants` is checked.
  @inline(__always)
  package func isDue(_ sequence: UInt64, participants: Int) -> Bool {
    guard participants > everyEventUpTo else { return true }
    let (stride, overflow) = spread.multipliedReportingOverflow(
      by: UInt64(participants / everyEventUpTo))
    // A stride past `UInt64` checks nothing but the first of each wrap: never a division by 0.
    return (sequence &+ place) % (overflow ? .max : stride) == 0
  }
}
