import SessionCore
import SessionTransport

/// The loop-side half of a ``LoopbackServer``: the listener, the connections, the host and its
/// ticks.
///
/// Frames are decoded here and handed to the host; the host's outputs are encoded here, once
/// per message, and appended to each receiving connection's outgoing buffer (which the loop
/// writes with one `uv_write` per connection per loop turn).
///
/// > Important: Loop-confined: created, used and dropped on the server's loop thread (its
/// > callbacks run there).
final class ServerCore<Host: SessionHost> {
  let loop: EventLoop
  let configuration: LoopbackServerConfiguration
  let host: Host
  let clock: LoopWallClock
  let log: LoopbackLogHandler
  let decoder: WireDecoder
  /// The bound port, once started.
  private(set) var port: UInt16 = 0
  private(set) var isShuttingDown = false
  /// Set by ``kill()``: the host hears of nothing more.
  private(set) var isKilled = false
  /// Connections accepted so far.
  private(set) var acceptedCount = 0
  /// Frames and payload bytes queued so far, and writes of connections that closed.
  private var framesSent = 0
  private var payloadBytesSent = 0
  private var writesOfClosedConnections = 0
  /// Bytes of unfinished frames held by all connections together (each connection's
  /// ``ServerConnection/bufferedBytes``).
  private(set) var bufferedBytes = 0
  /// Bytes all connections that are not being cut hold for writing
  /// (``LoopbackServerConfiguration/maxQueuedWriteBytesTotal``).
  let writeAccount = WriteAccount()
  /// Connections out of a session, oldest first.
  private var pendingQueue = PendingQueue()
  /// Connections with ``ServerConnection/isPending``.
  private(set) var pendingCount = 0
  /// Connections with ``ServerConnection/isClosing``.
  private var closingCount = 0
  /// Connections admitted to a session now (sent a `joined`, not closing).
  private var admittedCount = 0
  /// What the resource limits did so far (``LoopbackServerStatistics``).
  private var limits = LoopbackServerStatistics.Limits()

  private var listener: TCPListener?
  private var ticker: UVTimer?
  private var connections: [ConnectionID: ServerConnection] = [:]
  private var helloDeadlines = DeadlineQueue()
  private var drainDeadlines = DeadlineQueue()
  private var nextConnection: UInt64 = 0
  /// The encoding of the message being sent; reused so that steady state allocates nothing.
  private var scratch: [UInt8] = []
  /// The last broadcast's receivers, resolved to their TCP connections: a session's
  /// broadcasts name the same (cached) receiver list over and over, and comparing it with the
  /// last one (identical storage compares in O(1)) is far cheaper than a lookup per receiver.
  private var fanOut = ResolvedFanOut()
  /// The event broadcast held back to merge with the rest of this turn's, when coalescing.
  private var coalescer: EventBatchCoalescer
  /// Flushes the held broadcast at the start of the next loop turn.
  private var coalescingTimer: UVTimer?
  private var shutdownCompletions: [() -> Void] = []

  /// The media plane, when the host has a media side.
  private(set) var media: ServerMediaPlane?
  private let mediaHost: (any MediaHost)?

  init(
    loop: EventLoop, configuration: LoopbackServerConfiguration, host: Host,
    mediaHost: (any MediaHost)? = nil, log: @escaping LoopbackLogHandler
  ) {
    loop.preconditionInEventLoop()
    self.loop = loop
    self.configuration = configuration
    self.host = host
    self.mediaHost = mediaHost
    self.clock = LoopWallClock(loop: loop)
    self.log = log
    self.decoder = WireDecoder(maxFrameSize: configuration.tcp.maxFrameSize)
    self.coalescer = EventBatchCoalescer(maxBytes: configuration.tcp.maxFrameSize / 2)
    scratch.reserveCapacity(4_096)
  }

  /// The number of open connections, handshake done or not.
  var connectionCount: Int { connections.count }

  /// Connects the host's output, binds, listens and starts ticking.
  func start() throws(UVError) {
    host.attach { [weak self] output in self?.perform(output) }
    let listener = try TCPListener(
      loop: loop, host: configuration.host, port: configuration.port,
      backlog: configuration.backlog, configuration: configuration.tcp
    ) { [self] connection in
      accept(connection)
    }
    listener.onError = { [log] error in
      log(LoopbackLogRecord(level: .error, message: "accepting a connection failed: \(error)"))
    }
    self.listener = listener
    port = listener.localPort
    if let mediaHost {
      do throws(UDPSocketError) {
        media = try ServerMediaPlane(loop: loop, host: mediaHost, configuration: configuration)
      } catch {
        listener.close()
        self.listener = nil
        switch error {
        case .system(let underlying): throw underlying
        default: throw UVError(.invalidArgument, operation: "media socket: \(error)")
        }
      }
    }
    let ticker = try UVTimer(loop: loop)
    let interval = configuration.tickInterval
    ticker.schedule(afterMilliseconds: interval, repeatingEvery: interval) { [self] in tick() }
    self.ticker = ticker
    if configuration.coalescesEventBatches { coalescingTimer = try UVTimer(loop: loop) }
    log(
      LoopbackLogRecord(
        level: .info, message: "listening on \(configuration.host):\(listener.localPort)"))
    if let media {
      log(LoopbackLogRecord(level: .info, message: "media on udp 127.0.0.1:\(media.port)"))
    }
  }

  // MARK: Connections

  private func accept(_ tcp: TCPConnection) {
    guard !isShuttingDown else {
      tcp.close()
      return
    }
    nextConnection += 1
    acceptedCount += 1
    let id = ConnectionID(nextConnection)
    let now = loop.now
    let connection = ServerConnection(
      id: id, tcp: tcp,
      machine: ServerConnectionStateMachine(now: now, helloTimeout: configuration.helloTimeout),
      logBucket: LogTokenBucket(
        burst: configuration.logBurstPerConnection,
        perSecond: configuration.logLinesPerSecondPerConnection, now: now))
    connections[id] = connection
    helloDeadlines.append(id, deadline: now &+ configuration.helloTimeout)
    tcp.writeAccount = writeAccount
    // Strong captures: the connection drops its callbacks when it closes.
    tcp.onFrame = { [self] frame in frameArrived(frame, on: connection) }
    tcp.onClose = { [self] reason in connectionClosed(connection, reason: reason) }
    tcp.onBufferedBytesChange = { [self] in bufferedBytesChanged(on: connection) }
    tcp.onWriteQueueOverflow = { [self] in
      let text =
        "your write queue passed \(configuration.tcp.maxQueuedWriteBytes) bytes: you are not "
        + "reading what the server sends"
      cutSlowConsumer(connection, text: text)
    }
    becomePending(connection, now: now)
    enforceConnectionCaps(newcomer: connection)
  }

  // MARK: Connection caps and admission

  /// Counts `connection` as out of a session from `now`, due in one by the admission timeout.
  private func becomePending(_ connection: ServerConnection, now: UInt64) {
    guard !connection.isPending, !connection.isClosing else { return }
    connection.isPending = true
    connection.pendingEpoch += 1
    pendingCount += 1
    pendingQueue.append(
      connection.id, epoch: connection.pendingEpoch,
      deadline: now &+ configuration.admissionTimeout)
  }

  /// `connection` is no longer pending: admitted, closing or closed.
  private func leavePending(_ connection: ServerConnection) {
    guard connection.isPending else { return }
    connection.isPending = false
    pendingCount -= 1
  }

  /// The server sent `connection` a `joined`: it is in a session.
  private func admit(_ connection: ServerConnection) {
    guard connection.isPending else { return }
    leavePending(connection)
    admittedCount += 1
  }

  /// The server sent `connection` a `left`: it is out of its session again.
  private func readmitPending(_ connection: ServerConnection) {
    guard !connection.isPending, !connection.isClosing else { return }
    admittedCount -= 1
    becomePending(connection, now: loop.now)
  }

  /// Whether a pending-queue entry still stands for a pending connection.
  private func isLive(_ entry: PendingQueue.Entry) -> Bool {
    guard let connection = connections[entry.id] else { return false }
    return connection.isPending && connection.pendingEpoch == entry.epoch
  }

  /// A connection was accepted: past the pending cap, or the total cap, the oldest pending
  /// connection goes; past the total cap with nobody pending but the newcomer, the newcomer is
  /// told the server is full.
  private func enforceConnectionCaps(newcomer: ServerConnection) {
    let open = connections.count - closingCount
    let overTotal = open > configuration.maxConnections
    guard overTotal || pendingCount > configuration.maxPendingConnections else { return }
    if let oldest = pendingQueue.oldest(where: isLive), oldest.id != newcomer.id,
      let victim = connections[oldest.id]
    {
      pendingQueue.removeOldest()
      limits.pendingEvicted += 1
      let text =
        overTotal
        ? "evicted: the server holds its most connections (\(configuration.maxConnections)) "
          + "and this was the oldest not in a session"
        : "evicted: the server holds its most connections not in a session "
          + "(\(configuration.maxPendingConnections)) and this was the oldest"
      closeForLimit(victim, goodbye: WireGoodbye(reason: .idleTimeout, text: text))
      return
    }
    guard overTotal else { return }
    limits.refusedWhenFull += 1
    let text =
      "the server is full: it holds its most connections (\(configuration.maxConnections)), "
      + "all in sessions; try again later"
    closeForLimit(newcomer, goodbye: WireGoodbye(reason: .shuttingDown, text: text))
  }

  /// Closes a connection for a resource limit: the goodbye, then the close after flushing.
  private func closeForLimit(_ connection: ServerConnection, goodbye: WireGoodbye) {
    guard connection.machine.serverCloses(now: loop.now, drainTimeout: configuration.drainTimeout)
    else { return }
    closeOnPurpose(connection, goodbye: goodbye, reason: .local, detail: goodbye.text)
  }

  /// Closes connections that stayed out of a session past the admission timeout.
  private func checkAdmissionDeadlines(now: UInt64) {
    while let entry = pendingQueue.oldest(where: isLive), entry.deadline <= now {
      pendingQueue.removeOldest()
      guard let connection = connections[entry.id] else { continue }
      limits.admissionTimeouts += 1
      let text = "not in a session within \(configuration.admissionTimeout) ms"
      guard connection.machine.serverCloses(now: now, drainTimeout: configuration.drainTimeout)
      else {
        beginClosing(connection)
        continue
      }
      closeOnPurpose(
        connection, goodbye: WireGoodbye(reason: .idleTimeout, text: text), reason: .idleTimeout,
        detail: text)
    }
  }

  // MARK: Write budget

  /// Ends a connection that doesn't read: its frames not yet begun are dropped, the one it is
  /// reading finishes, then `goodbye(slowConsumer)` and the close (cut after the drain
  /// timeout). Its bytes leave the write budget's account at once.
  private func cutSlowConsumer(_ connection: ServerConnection, text: String) {
    guard connection.machine.serverCloses(now: loop.now, drainTimeout: configuration.drainTimeout)
    else {
      connection.tcp.close(reason: .writeQueueOverflow)
      return
    }
    limits.slowConsumersCut += 1
    beginClosing(connection)
    connection.closeDetail = text
    // Not `scratch`: a broadcast may be reading it (this runs from inside a send).
    let goodbye = WireEncoder.payload(
      WireServerFrame.goodbye(WireGoodbye(reason: .slowConsumer, text: text)))
    connection.tcp.leaveWriteAccount()
    goodbye.withUnsafeBytes { bytes in
      connection.tcp.replaceQueuedFrames(withFinalFrame: bytes, reason: .writeQueueOverflow)
    }
    framesSent += 1
    payloadBytesSent += goodbye.count
    drainDeadlines.append(connection.id, deadline: loop.now &+ configuration.drainTimeout)
  }

  /// The connections hold more than `maxQueuedWriteBytesTotal` for writing: cuts those
  /// holding the most, each with `goodbye(slowConsumer)`, until the total fits again.
  ///
  /// Rare (only past the bound, and each pass brings the total back within it), so the
  /// O(n log n) sort is fine.
  private func shedSlowestReaders() {
    let limit = configuration.maxQueuedWriteBytesTotal
    let total = writeAccount.heldBytes
    let holders = connections.values.filter { !$0.isClosing && $0.tcp.heldWriteBytes > 0 }
      .sorted {
        ($0.tcp.heldWriteBytes, $1.id.rawValue) > ($1.tcp.heldWriteBytes, $0.id.rawValue)
      }
    for connection in holders {
      guard writeAccount.heldBytes > limit else { break }
      let text =
        "your \(connection.tcp.heldWriteBytes) unread bytes were among the largest when the "
        + "server's write queues held \(total) bytes, over its limit of \(limit): you are not "
        + "reading what it sends"
      cutSlowConsumer(connection, text: text)
    }
  }

  /// Checks the write budget after a send.
  @inline(__always)
  private func checkWriteBudget() {
    if writeAccount.heldBytes > configuration.maxQueuedWriteBytesTotal { shedSlowestReaders() }
  }

  /// A read changed the bytes a connection holds for its unfinished frame.
  private func bufferedBytesChanged(on connection: ServerConnection) {
    let held = connection.tcp.bufferedFrameBytes
    bufferedBytes += held - connection.bufferedBytes
    connection.bufferedBytes = held
    if bufferedBytes > configuration.maxBufferedBytes { shedLargestUnfinishedFrames() }
  }

  /// The connections' unfinished frames hold more than `maxBufferedBytes`: closes those
  /// holding the largest, each after `goodbye(tooLarge)`, until the total fits again.
  ///
  /// A peer that announces big frames and sends them slowly, or not at all, is the likely
  /// culprit, and the one that costs most; peers sending small frames hold a few bytes at
  /// most and are the last to go. Rare (only past the bound), so the O(n log n) sort is fine.
  private func shedLargestUnfinishedFrames() {
    let limit = configuration.maxBufferedBytes
    let holders = connections.values.filter { $0.bufferedBytes > 0 }.sorted {
      ($0.bufferedBytes, $1.id.rawValue) > ($1.bufferedBytes, $0.id.rawValue)
    }
    let total = bufferedBytes
    for connection in holders {
      guard bufferedBytes > limit else { break }
      let held = connection.bufferedBytes
      bufferedBytes -= held
      connection.bufferedBytes = 0
      let text =
        "an unfinished frame of \(held) bytes was among the largest when unfinished frames "
        + "held \(total) bytes, over the server's limit of \(limit)"
      if connection.machine.serverCloses(now: loop.now, drainTimeout: configuration.drainTimeout) {
        let goodbye = WireGoodbye(reason: .tooLarge, text: text)
        closeOnPurpose(connection, goodbye: goodbye, reason: .bufferLimit, detail: text)
      }
      // Closing (now, or before) stopped its reads, so its buffer can go now rather than when
      // the goodbye has flushed.
      connection.tcp.discardPartialFrame()
    }
  }

  private func frameArrived(_ payload: UnsafeRawBufferPointer, on connection: ServerConnection) {
    let now = loop.now
    let drain = configuration.drainTimeout
    let action: ServerConnectionStateMachine.FrameAction
    do throws(WireError) {
      let frame = try decoder.decodeClientFrame(payload)
      if case .hello(let hello) = frame {
        // The client chooses its name: escaped once here, for every log line it appears in.
        connection.clientName = hello.clientName.map { LogText.escaped($0) }
      }
      action = connection.machine.frameArrived(
        frame, supported: configuration.supportedVersions, now: now, drainTimeout: drain)
    } catch {
      action = connection.machine.decodeFailed(error, now: now, drainTimeout: drain)
    }
    switch action {
    case .deliver(let message):
      host.receive(message, from: connection.id, now: clock.now())
    case .acknowledge(let ack):
      write(.helloAck(ack), to: connection)
      record(.debug, "hello from \(connection.clientName ?? "an unnamed client")", connection)
      host.connectionOpened(connection.id, now: clock.now())
    case .reject(let goodbye, let reason):
      closeOnPurpose(connection, goodbye: goodbye, reason: reason, detail: nil)
    case .closeQuietly(let goodbye):
      closeOnPurpose(
        connection, goodbye: nil, reason: .local,
        detail: "the client said goodbye (\(goodbye.reason)): \(LogText.escaped(goodbye.text))")
    case .ignore:
      break
    }
  }

  /// Sends `goodbye` (if any), then closes after flushing; a peer that doesn't read is cut at
  /// the drain deadline.
  private func closeOnPurpose(
    _ connection: ServerConnection, goodbye: WireGoodbye?, reason: CloseReason, detail: String?
  ) {
    beginClosing(connection)
    connection.closeDetail = detail
    if let goodbye { write(.goodbye(goodbye), to: connection) }
    connection.tcp.close(reason: reason, afterFlushing: true)
    drainDeadlines.append(connection.id, deadline: loop.now &+ configuration.drainTimeout)
  }

  /// The server closes `connection` on purpose: it leaves the counts of the caps.
  private func beginClosing(_ connection: ServerConnection) {
    guard !connection.isClosing else { return }
    if !connection.isPending { admittedCount -= 1 }
    leavePending(connection)
    connection.isClosing = true
    closingCount += 1
  }

  private func connectionClosed(_ connection: ServerConnection, reason: CloseReason) {
    beginClosing(connection)
    closingCount -= 1
    let notifyHost = connection.machine.connectionClosed()
    connections.removeValue(forKey: connection.id)
    fanOut.invalidate()
    writesOfClosedConnections += connection.tcp.writeCallCount
    bufferedBytes -= connection.bufferedBytes
    connection.bufferedBytes = 0
    var text = "closed: \(reason)"
    if case .peerClosed = reason, connection.tcp.decoder.hasPartialFrame {
      text += " in the middle of a frame"
    }
    if let detail = connection.closeDetail { text += " (\(detail))" }
    if let name = connection.clientName { text += " [\(name)]" }
    // The close is always logged, with what the rate limit held back.
    let held = connection.logBucket.suppressed
    if held > 0 {
      limits.logLinesSuppressed += held
      text += "; \(LogTokenBucket.summary(held))"
    }
    log(LoopbackLogRecord(level: Self.level(for: reason), message: text, connection: connection.id))
    if notifyHost && !isKilled { host.connectionClosed(connection.id, now: clock.now()) }
    if isShuttingDown, connections.isEmpty { finishShutdown() }
  }

  private static func level(for reason: CloseReason) -> LoopbackLogRecord.Level {
    switch reason {
    case .peerClosed, .local: .info
    case .idleTimeout: .notice
    case .protocolError, .frameTooLarge, .writeQueueOverflow, .bufferLimit: .warning
    case .error: .error
    }
  }

  // MARK: Time

  private func tick() {
    if !isShuttingDown { host.tick(now: clock.now()) }
    let now = loop.now
    for id in helloDeadlines.popDue(now: now) { checkDeadline(of: id, now: now) }
    for id in drainDeadlines.popDue(now: now) { checkDeadline(of: id, now: now) }
    checkAdmissionDeadlines(now: now)
  }

  private func checkDeadline(of id: ConnectionID, now: UInt64) {
    guard let connection = connections[id] else { return }
    let action = connection.machine.checkDeadline(
      now: now, helloTimeout: configuration.helloTimeout,
      drainTimeout: configuration.drainTimeout)
    switch action {
    case .none:
      break
    case .reject(let goodbye, let reason):
      closeOnPurpose(connection, goodbye: goodbye, reason: reason, detail: goodbye.text)
    case .cut:
      let flushing = connection.closeDetail.map { "\($0); " } ?? ""
      connection.closeDetail = flushing + "cut after \(configuration.drainTimeout) ms of flushing"
      connection.tcp.close()
    }
  }

  // MARK: Host outputs

  private func perform(_ output: HostOutput) {
    guard !isKilled else { return }
    if coalescingTimer != nil {
      guard !coalesce(output) else { return }
      flushHeldEvents()
    }
    deliver(output)
  }

  /// Holds or merges an event broadcast; returns whether it did (otherwise deliver it, after
  /// flushing what is held).
  private func coalesce(_ output: HostOutput) -> Bool {
    guard case .broadcast(.events(let batch), let ids) = output else { return false }
    encode(.events(batch))
    let size = scratch.count
    if coalescer.absorb(batch, to: ids, encodedBytes: size) { return true }
    flushHeldEvents()
    guard size <= coalescer.maxBytes else { return false }
    coalescer.hold(batch, to: ids, encodedBytes: size)
    if let timer = coalescingTimer, !timer.isScheduled {
      // Fires at the start of the next loop turn, before its writes are flushed.
      timer.schedule(afterMilliseconds: 0) { [self] in flushHeldEvents() }
    }
    return true
  }

  /// Delivers the held event broadcast, if any.
  private func flushHeldEvents() {
    guard let held = coalescer.take() else { return }
    deliver(held)
  }

  private func deliver(_ output: HostOutput) {
    switch output {
    case .send(let message, let id):
      guard let connection = connections[id] else { return }
      encode(message)
      if scratch.count <= configuration.tcp.maxFrameSize {
        scratch.withUnsafeBytes { bytes in _ = connection.tcp.send(frame: bytes) }
        framesSent += 1
        payloadBytesSent += scratch.count
      } else {
        // A message longer than a frame (the snapshot of a session of thousands) goes as
        // fragments, back to back (WireProtocol.md §4.5), up to the largest a client joins.
        guard scratch.count <= configuration.tcp.maxMessageSize else {
          refuseOversize(size: scratch.count, to: connection)
          return
        }
        if connection.tcp.send(fragmentsOf: scratch) {
          framesSent += WireFragments.frameCount(
            of: scratch.count, maxFrameSize: configuration.tcp.maxFrameSize)
          payloadBytesSent += scratch.count
        }
      }
      switch message {
      case .joined: admit(connection)
      case .left: readmitPending(connection)
      default: break
      }
      checkWriteBudget()
    case .broadcast(let message, let group):
      encode(message)
      let size = scratch.count
      let ids = group.connections
      guard size <= configuration.tcp.maxFrameSize else {
        for id in ids {
          if let connection = connections[id] { refuseOversize(size: size, to: connection) }
        }
        return
      }
      if !fanOut.matches(group) {
        fanOut.resolve(group) { connections[$0]?.tcp }
      }
      // Encoded once; the same bytes are appended to every receiver's outgoing buffer.
      scratch.withUnsafeBytes { bytes in
        for target in fanOut.targets {
          _ = target._withUnsafeGuaranteedRef { $0.send(frame: bytes) }
          // Cutting a slow reader doesn't close it yet, so every target stays valid.
          checkWriteBudget()
        }
      }
      framesSent += ids.count
      payloadBytesSent += ids.count * size
    case .close(let id, let reason):
      guard let connection = connections[id],
        connection.machine.hostRequestedClose(
          now: loop.now, drainTimeout: configuration.drainTimeout)
      else { return }
      closeForHost(connection, reason: reason)
    }
  }

  /// Closes a connection the host asked to close, telling the peer why when the protocol has
  /// a word for it.
  private func closeForHost(_ connection: ServerConnection, reason: HostCloseReason) {
    switch reason {
    case .idleTimeout:
      // WireProtocol §3: a connection silent past the heartbeat timeout hears why.
      let goodbye = WireGoodbye(reason: .idleTimeout, text: reason.description)
      closeOnPurpose(
        connection, goodbye: goodbye, reason: .idleTimeout,
        detail: "closed by the host: \(reason)")
    case .superseded, .requested:
      // No goodbye reason fits; the peer sees the close.
      let detail = reason == .requested ? "closed by the host" : "closed by the host: \(reason)"
      closeOnPurpose(connection, goodbye: nil, reason: .local, detail: detail)
    }
  }

  private func encode(_ message: ServerMessage) {
    scratch.removeAll(keepingCapacity: true)
    WireEncoder.appendPayload(message, to: &scratch)
  }

  /// A message too long for one frame would leave the member out of step: close it.
  private func refuseOversize(size: Int, to connection: ServerConnection) {
    record(
      .error,
      "a \(size)-byte message exceeds the \(configuration.tcp.maxMessageSize)-byte message "
        + "limit; closing", connection)
    let goodbye = WireGoodbye(
      reason: .tooLarge, text: "the server's message exceeds the message limit")
    guard connection.machine.serverCloses(now: loop.now, drainTimeout: configuration.drainTimeout)
    else { return }
    closeOnPurpose(connection, goodbye: goodbye, reason: .local, detail: goodbye.text)
  }

  private func write(_ frame: WireServerFrame, to connection: ServerConnection) {
    scratch.removeAll(keepingCapacity: true)
    WireEncoder.appendPayload(frame, to: &scratch)
    scratch.withUnsafeBytes { bytes in _ = connection.tcp.send(frame: bytes) }
    framesSent += 1
    payloadBytesSent += scratch.count
    checkWriteBudget()
  }

  /// The counters so far.
  var statistics: LoopbackServerStatistics {
    var writes = writesOfClosedConnections
    for connection in connections.values { writes += connection.tcp.writeCallCount }
    return LoopbackServerStatistics(
      connectionsAccepted: acceptedCount, connectionsOpen: connections.count,
      framesSent: framesSent, payloadBytesSent: payloadBytesSent, writes: writes,
      bufferedFrameBytes: bufferedBytes, media: media?.statistics,
      connectionsPending: pendingCount, connectionsInSessions: admittedCount,
      queuedWriteBytes: writeAccount.heldBytes, limits: limits)
  }

  // MARK: Shutdown

  /// Stops accepting, says goodbye to every connection and closes them after flushing;
  /// `completion` runs on the loop once every connection closed.
  func beginShutdown(completion: @escaping () -> Void) {
    shutdownCompletions.append(completion)
    guard !isShuttingDown else {
      if connections.isEmpty { finishShutdown() }
      return
    }
    isShuttingDown = true
    flushHeldEvents()
    listener?.close()
    listener = nil
    media?.close()
    let now = loop.now
    for id in connections.keys.sorted(by: { $0.rawValue < $1.rawValue }) {
      guard let connection = connections[id] else { continue }
      guard connection.machine.serverCloses(now: now, drainTimeout: configuration.drainTimeout)
      else { continue }
      let goodbye = WireGoodbye(reason: .shuttingDown, text: "the server is shutting down")
      closeOnPurpose(connection, goodbye: goodbye, reason: .local, detail: "server shutdown")
    }
    if connections.isEmpty { finishShutdown() }
  }

  /// Dies as a killed process would: stops accepting, closes the media socket and the ticks,
  /// and resets every connection (RST, no goodbye, nothing flushed). The host hears of nothing
  /// more, and its later outputs are dropped; the loop's shutdown closes what is left.
  func kill() {
    isKilled = true
    isShuttingDown = true
    listener?.close()
    listener = nil
    media?.close()
    ticker?.close()
    ticker = nil
    coalescingTimer?.close()
    coalescingTimer = nil
    for connection in connections.values { connection.tcp.reset() }
  }

  private func finishShutdown() {
    ticker?.close()
    ticker = nil
    coalescingTimer?.close()
    coalescingTimer = nil
    let completions = shutdownCompletions
    shutdownCompletions.removeAll()
    for completion in completions { completion() }
  }

  /// Logs a line about `connection`, within its rate limit
  /// (``LoopbackServerConfiguration/logBurstPerConnection``): held-back lines are counted,
  /// and the first line let through after them is preceded by a summary.
  private func record(
    _ level: LoopbackLogRecord.Level, _ message: String, _ connection: ServerConnection
  ) {
    guard let held = connection.logBucket.admit(now: loop.now) else { return }
    if held > 0 {
      limits.logLinesSuppressed += held
      log(
        LoopbackLogRecord(
          level: .notice, message: LogTokenBucket.summary(held), connection: connection.id))
    }
    log(LoopbackLogRecord(level: level, message: message, connection: connection.id))
  }
}

/// Loop-confined: carried between threads only inside a ``LoopBound``.
@available(*, unavailable)
extension ServerCore: Sendable {}

/// A broadcast group resolved to TCP connections, valid while the group's id and version stay
/// the same and until a connection closes.
///
/// > Important: A value owned by the server core; loop-confined with it.
struct ResolvedFanOut {
  /// The group resolved last (its id and version name its list: ``SessionTransport/FanOutGroup``).
  private var group: FanOutGroup?
  /// The open connections among `ids`, in order. Unretained: an open connection is retained
  /// by its libuv handle, and the cache is invalidated whenever a connection closes, so every
  /// target outlives the cache entry (and sending needs no reference counting per receiver).
  private(set) var targets: ContiguousArray<Unmanaged<TCPConnection>> = []

  /// Whether `group` is the group resolved last: the same id (not 0) and version. O(1).
  func matches(_ group: FanOutGroup) -> Bool {
    self.group?.isCachedAs(group) ?? false
  }

  /// Resolves `group` with `lookup` and caches the result.
  mutating func resolve(_ group: FanOutGroup, lookup: (ConnectionID) -> TCPConnection?) {
    targets.removeAll(keepingCapacity: true)
    for id in group.connections {
      if let tcp = lookup(id) { targets.append(Unmanaged.passUnretained(tcp)) }
    }
    self.group = group
  }

  /// Forgets the cached list (a connection closed).
  mutating func invalidate() {
    group = nil
    targets.removeAll(keepingCapacity: true)
  }
}
