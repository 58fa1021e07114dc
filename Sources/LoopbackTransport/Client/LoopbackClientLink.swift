import SessionCore
import SessionTransport

/// The SDK's end of a TCP connection to a ``LoopbackServer``: a `SessionLink` over loopback.
///
/// Made by a ``LoopbackLinkFactory``. ``start(_:)`` connects and sends the hello; messages sent
/// before the server acknowledged it wait, in order, and are written right after the
/// acknowledgement. Frames from the server are decoded into ``SessionTransport/LinkEvent/message(_:)``, in
/// order. The link sends a heartbeat when it has sent nothing for
/// ``LoopbackLinkConfiguration/heartbeatInterval`` and fails with
/// `.failed("heartbeat timeout")` when it has heard nothing for
/// ``LoopbackLinkConfiguration/heartbeatTimeout``.
///
/// Closes reach the handler once, as ``SessionTransport/LinkEvent/closed(_:)``: the server closing or resetting
/// the connection is ``SessionTransport/LinkCloseReason/closedByPeer`` (so is its `shuttingDown` goodbye); any
/// other goodbye, a frame that doesn't decode, a refused connection or a timeout is
/// ``SessionTransport/LinkCloseReason/failed(_:)`` with the reason. After ``close()`` the handler gets nothing
/// more; closing twice is harmless. A closed link stays closed: for a new connection (a
/// reconnect, a resume), ask the factory for a new link.
///
/// > Important: Loop-confined: create it (through its factory), use it and drop it on the
/// > factory's loop thread; the handler runs there, one event at a time, never from inside
/// > ``send(_:)`` or ``start(_:)``. The SDK instances that own links must live on that thread
/// > too.
public final class LoopbackClientLink: SessionLink {
  /// The loop the link runs on.
  public let loop: EventLoop
  /// The address the link connects to.
  public let host: String
  /// The port the link connects to.
  public let port: UInt16

  let context: LinkContext
  /// Index in the context's heartbeat list; -1 when not registered.
  var registryIndex = -1
  // Unchecked exclusivity: loop-confined, and each access is one read, one write or one
  // mutating call that calls nothing out (the machine returns an action; the handler is read,
  // then called); every frame reads both, and the dynamic checks cost more than the read.
  @exclusivity(unchecked) private var machine = ClientLinkStateMachine()
  private var connection: TCPConnection?
  @exclusivity(unchecked) private var handler: ((LinkEvent) -> Void)?
  /// Loop time of the last frame written, for heartbeats.
  private var lastSent: UInt64 = 0
  /// Loop time the owner closed the link, to bound the final flush.
  private var closedAt: UInt64 = 0
  /// The fragments of a server message longer than a frame, while they arrive.
  private lazy var reassembly = WireReassembly(
    maxMessageSize: context.configuration.tcp.maxMessageSize)

  init(context: LinkContext, host: String, port: UInt16) {
    context.loop.assertInEventLoop()
    self.loop = context.loop
    self.context = context
    self.host = host
    self.port = port
  }

  /// Connects, sends the hello, and starts delivering events to `handler`. Starting twice is
  /// harmless (the second call does nothing).
  ///
  /// A connection that can't even be attempted (the loop is shutting down) is reported as
  /// `.closed(.failed(…))` in a later loop turn.
  ///
  /// - Parameter handler: Receives the link's events on the loop thread.
  public func start(_ handler: @escaping (LinkEvent) -> Void) {
    loop.assertInEventLoop()
    guard machine.start() else { return }
    self.handler = handler
    let tcp: TCPConnection
    do {
      tcp = try TCPConnection.connect(
        loop: loop, host: host, port: port, configuration: context.configuration.tcp)
    } catch {
      reportLater(.failed(error.description))
      return
    }
    connection = tcp
    // Strong captures: the connection drops its callbacks when it closes, and `close()` drops
    // this one at once. The frame callback captures the handler itself, so that a frame calls
    // it without loading (and retaining) the property; the machine's state, not the
    // property, decides whether it may be called.
    tcp.onFrame = { [self, handler] frame in frameArrived(frame, handler: handler) }
    tcp.onClose = { [self] reason in connectionClosed(reason) }
    write(.hello(WireHello(clientName: context.configuration.clientName)))
    context.register(self)
  }

  /// Sends a message: at once if the handshake is done, otherwise right after it. Messages
  /// are written in the order sent; those sent in one loop turn share one write. Dropped once
  /// the link is closing or closed.
  ///
  /// - Parameter message: The message.
  public func send(_ message: ClientMessage) {
    loop.assertInEventLoop()
    switch machine.send(message) {
    case .write: write(.message(message))
    case .queued, .drop: break
    }
  }

  /// Closes the link: writes what was sent (within the heartbeat timeout), then closes the
  /// connection. The handler gets no more events. Closing twice is harmless.
  ///
  /// Off the loop (an SDK instance let go of on another thread closes its link from its
  /// `deinit`), the close is queued to the loop, and events delivered until it runs still
  /// reach the handler there.
  public func close() {
    guard loop.inEventLoop else {
      let link = OffLoopClose(link: self)
      _ = loop.execute { link.run() }
      return
    }
    handler = nil
    connection?.onFrame = nil  // and with it the handler it captured
    guard machine.ownerClosed() else { return }
    closedAt = loop.now
    connection?.close(afterFlushing: true)
  }

  /// Drops the connection at once, without a goodbye, as a failing network would: the server
  /// sees the peer close; the handler gets `.closed(.failed("severed"))`. For tests and
  /// fault injection.
  public func sever() {
    loop.assertInEventLoop()
    guard machine.sever() else { return }
    connection?.close()
  }

  /// Whether the handshake is done and the link is open.
  public var isReady: Bool {
    loop.assertInEventLoop()
    return machine.isReady
  }

  // MARK: Connection callbacks

  /// A frame from the server; `handler` is the owner's, called only while the machine lets
  /// messages through (ready, not closed by the owner).
  private func frameArrived(
    _ payload: UnsafeRawBufferPointer, handler: (LinkEvent) -> Void
  ) {
    context.frameArrived()
    let action: ClientLinkStateMachine.FrameAction
    if WireFragments.isFragment(payload) || reassembly.isAssembling {
      action = fragmentArrived(payload)
    } else {
      action = decode(payload, handler: handler)
    }
    perform(action, handler: handler)
  }

  /// Decodes one whole frame: a message on a ready link goes straight to `handler` (the
  /// answer is then `.ignore`); anything else goes to the state machine.
  private func decode(
    _ payload: UnsafeRawBufferPointer, handler: (LinkEvent) -> Void
  ) -> ClientLinkStateMachine.FrameAction {
    do throws(WireError) {
      // The hot path: a message on a ready link goes straight to the owner (the machine would
      // answer `.deliver` without changing state), and an event batch, the fan-out's frame,
      // skips the frame enum too.
      if machine.isReady,
        let batch = try context.decoder.decodeEventBatch(payload, reusing: &context.events)
      {
        handler(.message(.events(batch)))
        return .ignore
      }
      let frame = try context.decoder.decodeServerFrame(payload, reusing: &context.events)
      if machine.isReady, case .message(let message) = frame {
        handler(.message(message))
        return .ignore
      }
      return machine.frameArrived(frame, version: WireProtocol.version)
    } catch {
      return machine.decodeFailed(error)
    }
  }

  /// A frame while a message arrives in fragments (WireProtocol.md §4.5): joined; the whole
  /// message, once its last fragment is in, goes where a frame goes. Any other frame in
  /// between, a malformed fragment and a message over the limit break the protocol.
  private func fragmentArrived(_ payload: UnsafeRawBufferPointer)
    -> ClientLinkStateMachine.FrameAction
  {
    do throws(WireError) {
      guard WireFragments.isFragment(payload) else {
        reassembly.reset()
        throw WireError(
          .invalidValue, offset: 0,
          detail: "a frame came between the fragments of a message")
      }
      guard let whole = try reassembly.take(payload) else { return .ignore }
      let decoder = WireDecoder(maxFrameSize: context.configuration.tcp.maxMessageSize)
      let frame = try decoder.decodeServerFrame(whole[...])
      return machine.frameArrived(frame, version: WireProtocol.version)
    } catch {
      return machine.decodeFailed(error)
    }
  }

  private func perform(
    _ action: ClientLinkStateMachine.FrameAction, handler: (LinkEvent) -> Void
  ) {
    switch action {
    case .deliver(let message):
      handler(.message(message))
    case .flush(let pending):
      for message in pending { write(.message(message)) }
    case .reject(let goodbye):
      write(.goodbye(goodbye))
      connection?.close(reason: .protocolError(goodbye.text), afterFlushing: true)
    case .close:
      connection?.close()
    case .ignore:
      break
    }
  }

  private func connectionClosed(_ reason: CloseReason) {
    context.unregister(self)
    connection = nil
    let report = machine.connectionClosed(reason)
    let handler = self.handler
    self.handler = nil
    guard let report else { return }
    context.log(
      LoopbackLogRecord(
        level: .info, message: "link to \(host):\(port) closed: \(report)", label: "loopback.link"))
    handler?(.closed(report))
  }

  /// The heartbeat sweep: fail a silent link, keep a quiet one alive, bound a final flush.
  func checkHeartbeat(now: UInt64) {
    guard let connection else { return }
    let configuration = context.configuration
    if machine.isClosedByOwner {
      if millisecondsElapsed(from: closedAt, to: now) >= configuration.heartbeatTimeout {
        connection.close()
      }
      return
    }
    // The server's silence lasts until the loop's last look at the socket, not until now:
    // after a long turn, frames waiting to be read are not silence (Decision 0011).
    // Silence before the heartbeats were last resumed (a paused process) does not count.
    let heard = max(connection.lastReadTime, context.silenceFloor)
    let silence = millisecondsElapsed(from: heard, to: loop.lastPollTime)
    if silence >= configuration.heartbeatTimeout {
      if machine.heartbeatTimedOut() { connection.close(reason: .idleTimeout) }
      return
    }
    if machine.isReady,
      millisecondsElapsed(from: lastSent, to: now) >= configuration.heartbeatInterval
    {
      write(.message(.heartbeat))
    }
  }

  /// A sweep from inside a long loop turn, at `now` (the current time, not the turn's): sends
  /// a heartbeat if one is due, and hands it to libuv at once, since the turn's writes
  /// otherwise leave only when it ends. Timeouts are judged only by the timer's sweep.
  func sendHeartbeatWithinTurn(now: UInt64) {
    guard let connection, machine.isReady,
      millisecondsElapsed(from: lastSent, to: now) >= context.configuration.heartbeatInterval
    else { return }
    write(.message(.heartbeat))
    lastSent = now
    connection.flushNow()
  }

  private func write(_ frame: WireClientFrame) {
    guard let connection else { return }
    context.scratch.removeAll(keepingCapacity: true)
    WireEncoder.appendPayload(frame, to: &context.scratch)
    context.scratch.withUnsafeBytes { bytes in _ = connection.send(frame: bytes) }
    // A heartbeat sent from inside a turn may have set a later time than the turn's own.
    lastSent = max(lastSent, loop.now)
  }

  /// Reports a close that happened before there was a connection, in a later loop turn.
  private func reportLater(_ reason: LinkCloseReason) {
    machine.connectFailed(reason)
    let bound = LoopBound(self, loop: loop)
    let accepted = loop.execute {
      let link = bound.value
      guard let report = link.machine.finishWithoutConnection() else { return }
      let handler = link.handler
      link.handler = nil
      handler?(.closed(report))
    }
    if !accepted { handler = nil }
  }
}

/// Loop-confined: use ``LoopBound`` to pass a link between threads.
@available(*, unavailable)
extension LoopbackClientLink: Sendable {}

/// Carries a link to its loop to close it there.
///
/// `@unchecked Sendable`: the link is only touched in `run()`, which runs on its loop (it is
/// handed to ``EventLoop/execute(_:)``); other threads only move the reference.
private struct OffLoopClose: @unchecked Sendable {
  let link: LoopbackClientLink

  func run() { link.close() }
}
