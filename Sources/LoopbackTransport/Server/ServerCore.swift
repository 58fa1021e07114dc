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
  /// Connections accepted so far.
  private(set) var acceptedCount = 0
  /// Frames and payload bytes queued so far, and writes of connections that closed.
  private var framesSent = 0
  private var payloadBytesSent = 0
  private var writesOfClosedConnections = 0
  /// Bytes of unfinished frames held by all connections together (each connection's
  /// ``ServerConnection/bufferedBytes``).
  private(set) var bufferedBytes = 0

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
      machine: ServerConnectionStateMachine(now: now, helloTimeout: configuration.helloTimeout))
    connections[id] = connection
    helloDeadlines.append(id, deadline: now &+ configuration.helloTimeout)
    // Strong captures: the connection drops its callbacks when it closes.
    tcp.onFrame = { [self] frame in frameArrived(frame, on: connection) }
    tcp.onClose = { [self] reason in connectionClosed(connection, reason: reason) }
    tcp.onBufferedBytesChange = { [self] in bufferedBytesChanged(on: connection) }
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
    connection.closeDetail = detail
    if let goodbye { write(.goodbye(goodbye), to: connection) }
    connection.tcp.close(reason: reason, afterFlushing: true)
    drainDeadlines.append(connection.id, deadline: loop.now &+ configuration.drainTimeout)
  }

  private func connectionClosed(_ connection: ServerConnection, reason: CloseReason) {
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
    record(Self.level(for: reason), text, connection)
    if notifyHost { host.connectionClosed(connection.id, now: clock.now()) }
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
      guard scratch.count <= configuration.tcp.maxFrameSize else {
        refuseOversize(size: scratch.count, to: connection)
        return
      }
      scratch.withUnsafeBytes { bytes in _ = connection.tcp.send(frame: bytes) }
      framesSent += 1
      payloadBytesSent += scratch.count
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
      "a \(size)-byte message exceeds the \(configuration.tcp.maxFrameSize)-byte frame "
        + "limit; closing", connection)
    let goodbye = WireGoodbye(
      reason: .tooLarge, text: "the server's message exceeds the frame limit")
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
  }

  /// The counters so far.
  var statistics: LoopbackServerStatistics {
    var writes = writesOfClosedConnections
    for connection in connections.values { writes += connection.tcp.writeCallCount }
    return LoopbackServerStatistics(
      connectionsAccepted: acceptedCount, connectionsOpen: connections.count,
      framesSent: framesSent, payloadBytesSent: payloadBytesSent, writes: writes,
      bufferedFrameBytes: bufferedBytes, media: media?.statistics)
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

  private func finishShutdown() {
    ticker?.close()
    ticker = nil
    coalescingTimer?.close()
    coalescingTimer = nil
    let completions = shutdownCompletions
    shutdownCompletions.removeAll()
    for completion in completions { completion() }
  }

  private func record(
    _ level: LoopbackLogRecord.Level, _ message: String, _ connection: ServerConnection
  ) {
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
  /// The group resolved last (its id and version name its list: ``FanOutGroup``).
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
