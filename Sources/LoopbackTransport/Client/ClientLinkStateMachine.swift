import SessionCore
import SessionTransport

/// The life of one ``LoopbackClientLink``: made, waiting for the server's hello
/// acknowledgement (messages queue), ready, failing, closed.
///
/// Pure: each input returns the action the link performs; the machine does no I/O. Impossible
/// transitions are `preconditionFailure`s.
///
/// ```
/// idle ──start──▶ awaitingAck ──helloAck──▶ ready
///                     │                       │
///                     └─goodbye / bad frame / heartbeat timeout / sever──▶ failing
/// any started state ──TCP closed──▶ finished (reports .closed once, unless the owner closed)
/// any state ──owner close()──▶ closedByOwner (reports nothing)
/// ```
///
/// > Important: A value owned by one link; loop-confined with it.
struct ClientLinkStateMachine {
  private enum State {
    /// Made, not started: messages sent now wait for the handshake.
    case idle(pending: [ClientMessage])
    /// Connecting; the hello is queued or sent; messages wait for the acknowledgement.
    case awaitingAck(pending: [ClientMessage])
    /// The handshake is done; messages are written at once.
    case ready
    /// Closing for this reason; it is reported when the TCP connection has closed.
    case failing(LinkCloseReason)
    /// The owner closed the link; nothing more is reported.
    case closedByOwner
    /// The TCP connection closed and its reason was reported.
    case finished
  }

  /// What to do when the owner sends a message.
  enum SendAction: Equatable {
    /// Write it now.
    case write
    /// It waits for the handshake.
    case queued
    /// The link is closing or closed: drop it.
    case drop
  }

  /// What to do with an arrived frame.
  enum FrameAction: Equatable {
    /// Hand the message to the owner.
    case deliver(ServerMessage)
    /// The handshake is done: write these queued messages, in order.
    case flush([ClientMessage])
    /// The server broke the protocol: send this goodbye, then close after flushing.
    case reject(WireGoodbye)
    /// The server said goodbye: close.
    case close
    /// Nothing: the link is closing.
    case ignore
  }

  private var state: State = .idle(pending: [])

  /// Whether the handshake is done and the link is not closing.
  var isReady: Bool {
    if case .ready = state { return true }
    return false
  }

  /// Whether the owner closed the link.
  var isClosedByOwner: Bool {
    if case .closedByOwner = state { return true }
    return false
  }

  /// Whether the link is started and neither closing nor closed: the server is expected to
  /// speak.
  var isAwaitingServer: Bool {
    switch state {
    case .awaitingAck, .ready: true
    case .idle, .failing, .closedByOwner, .finished: false
    }
  }

  /// The owner started the link.
  ///
  /// - Returns: Whether to connect (`false` when started before or closed).
  mutating func start() -> Bool {
    guard case .idle(let pending) = state else { return false }
    state = .awaitingAck(pending: pending)
    return true
  }

  /// The owner sends `message`.
  mutating func send(_ message: ClientMessage) -> SendAction {
    switch state {
    case .idle(var pending):
      state = .finished  // releases the array's storage for an in-place append
      pending.append(message)
      state = .idle(pending: pending)
      return .queued
    case .awaitingAck(var pending):
      state = .finished
      pending.append(message)
      state = .awaitingAck(pending: pending)
      return .queued
    case .ready:
      return .write
    case .failing, .closedByOwner, .finished:
      return .drop
    }
  }

  /// A frame from the server decoded.
  ///
  /// - Parameters:
  ///   - frame: The frame.
  ///   - version: The protocol version the link asked for in its hello.
  mutating func frameArrived(_ frame: WireServerFrame, version: UInt16) -> FrameAction {
    switch state {
    case .awaitingAck(let pending):
      switch frame {
      case .helloAck(let ack) where ack.version == version:
        state = .ready
        return .flush(pending)
      case .helloAck(let ack):
        return fail("the server acknowledged version \(ack.version), not \(version)")
      case .goodbye(let goodbye):
        state = .failing(Self.reason(for: goodbye))
        return .close
      case .message:
        return fail("a message before the hello acknowledgement")
      }
    case .ready:
      switch frame {
      case .message(let message):
        return .deliver(message)
      case .helloAck:
        return fail("a second hello acknowledgement")
      case .goodbye(let goodbye):
        state = .failing(Self.reason(for: goodbye))
        return .close
      }
    case .idle:
      preconditionFailure("a frame arrived on a link that was never started")
    case .failing, .closedByOwner, .finished:
      return .ignore
    }
  }

  /// A frame from the server failed to decode.
  mutating func decodeFailed(_ error: WireError) -> FrameAction {
    guard isAwaitingServer else { return .ignore }
    state = .failing(.failed("malformed frame from the server: \(error)"))
    return .reject(WireGoodbye(for: error))
  }

  private mutating func fail(_ text: String) -> FrameAction {
    state = .failing(.failed("protocol error: \(text)"))
    return .reject(WireGoodbye(reason: .malformed, text: text))
  }

  /// Nothing was heard from the server for the heartbeat timeout.
  ///
  /// - Returns: Whether to close the connection.
  mutating func heartbeatTimedOut() -> Bool {
    guard isAwaitingServer else { return false }
    state = .failing(.failed("heartbeat timeout"))
    return true
  }

  /// The connection is dropped on purpose, as a failing network would drop it.
  ///
  /// - Returns: Whether to cut the connection.
  mutating func sever() -> Bool {
    guard isAwaitingServer else { return false }
    state = .failing(.failed("severed"))
    return true
  }

  /// The connection could not even be attempted (the loop is shutting down).
  mutating func connectFailed(_ reason: LinkCloseReason) {
    guard case .awaitingAck = state else { return }
    state = .failing(reason)
  }

  /// Ends a link whose connection was never made (see ``connectFailed(_:)``).
  ///
  /// - Returns: The reason to report, or `nil` if the owner closed the link meanwhile.
  mutating func finishWithoutConnection() -> LinkCloseReason? {
    switch state {
    case .failing(let reason):
      state = .finished
      return reason
    case .closedByOwner:
      state = .finished
      return nil
    case .idle, .awaitingAck, .ready, .finished:
      return nil
    }
  }

  /// The owner closed the link.
  ///
  /// - Returns: Whether a connection may be open and must be closed.
  mutating func ownerClosed() -> Bool {
    switch state {
    case .idle:
      state = .closedByOwner
      return false
    case .awaitingAck, .ready, .failing:
      state = .closedByOwner
      return true
    case .closedByOwner, .finished:
      return false
    }
  }

  /// The TCP connection closed.
  ///
  /// - Parameter reason: Why, as the TCP layer saw it.
  /// - Returns: The reason to report to the owner, or `nil` if the owner closed the link.
  mutating func connectionClosed(_ reason: CloseReason) -> LinkCloseReason? {
    switch state {
    case .awaitingAck, .ready:
      state = .finished
      return Self.reason(for: reason)
    case .failing, .closedByOwner:
      // As when the connection was never made: the failure's own reason, or nothing.
      return finishWithoutConnection()
    case .idle, .finished:
      preconditionFailure("a link's connection closed while the link was \(state)")
    }
  }

  /// How a server's goodbye reads to the owner: a shutdown is the peer closing; anything else
  /// is a failure, with the server's words, escaped (``LogText/escaped(_:limit:)``): the reason
  /// ends up in logs, the link's and the SDK's.
  static func reason(for goodbye: WireGoodbye) -> LinkCloseReason {
    switch goodbye.reason {
    case .shuttingDown: .closedByPeer
    default:
      .failed("the server said goodbye (\(goodbye.reason)): \(LogText.escaped(goodbye.text))")
    }
  }

  /// How a TCP close reads to the owner.
  static func reason(for close: CloseReason) -> LinkCloseReason {
    switch close {
    case .peerClosed: .closedByPeer
    case .error(let error): .failed(error.description)
    case .frameTooLarge: .failed("the server sent a frame longer than the maximum")
    case .protocolError(let detail): .failed(detail)
    case .idleTimeout: .failed("heartbeat timeout")
    case .writeQueueOverflow: .failed("write queue overflow")
    case .bufferLimit: .failed("over the buffer limit")
    case .local: .failed("the event loop shut down")
    }
  }
}
