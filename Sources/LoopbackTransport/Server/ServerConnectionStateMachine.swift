import SessionTransport

/// The life of one accepted connection as the server sees it: waiting for the hello, ready,
/// closing, closed.
///
/// Pure: each input returns the action its owner (``ServerCore``) performs; the machine does no
/// I/O. Impossible transitions are `preconditionFailure`s.
///
/// ```
/// awaitingHello ──hello ok──▶ ready ──goodbye / bad frame / host or server close──▶ closing
///       │                       │                                                    │
///       └──bad hello, timeout, server close──▶ closing ◀─────────────────────────────────┘
///                     any state ──TCP closed──▶ closed
/// ```
///
/// > Important: A value owned by one server connection; loop-confined with it.
struct ServerConnectionStateMachine {
  private enum State {
    /// Accepted; the first frame must be a hello before `deadline` (loop milliseconds).
    case awaitingHello(deadline: UInt64)
    /// The handshake is done; the host knows the connection.
    case ready
    /// Closing on purpose: the last frames flush until `deadline`, then the connection is cut.
    case closing(deadline: UInt64, hostKnows: Bool)
    /// The TCP connection closed.
    case closed
  }

  /// What to do with an arrived frame.
  enum FrameAction: Equatable {
    /// Send the acknowledgement, then tell the host the connection opened.
    case acknowledge(WireHelloAck)
    /// Hand the message to the host.
    case deliver(ClientMessage)
    /// Send the goodbye, then close after flushing, with this reason.
    case reject(WireGoodbye, CloseReason)
    /// The peer said goodbye: close without answering.
    case closeQuietly(WireGoodbye)
    /// Nothing: the connection is closing.
    case ignore
  }

  /// What to do when a deadline may have passed.
  enum DeadlineAction: Equatable {
    /// Nothing is due.
    case none
    /// No hello in time: send the goodbye and close after flushing.
    case reject(WireGoodbye, CloseReason)
    /// A closing connection did not flush in time: close it now.
    case cut
  }

  private var state: State

  /// A machine for a connection accepted at loop time `now`.
  ///
  /// - Parameters:
  ///   - now: The loop time of the accept.
  ///   - helloTimeout: Milliseconds the peer has to send its hello.
  init(now: UInt64, helloTimeout: UInt64) {
    state = .awaitingHello(deadline: now &+ helloTimeout)
  }

  /// Whether the host knows the connection (the handshake completed and the host has not been
  /// told it closed).
  var hostKnows: Bool {
    switch state {
    case .ready: true
    case .closing(_, let hostKnows): hostKnows
    case .awaitingHello, .closed: false
    }
  }

  /// Whether the handshake is done and the connection is not closing.
  var isReady: Bool {
    if case .ready = state { return true }
    return false
  }

  /// A frame decoded.
  ///
  /// - Parameters:
  ///   - frame: The frame.
  ///   - supported: The protocol versions the server speaks.
  ///   - now: Loop time, for the drain deadline.
  ///   - drainTimeout: Milliseconds a closing connection has to flush.
  mutating func frameArrived(
    _ frame: WireClientFrame, supported: ClosedRange<UInt16>, now: UInt64, drainTimeout: UInt64
  ) -> FrameAction {
    switch state {
    case .awaitingHello:
      switch frame {
      case .hello(let hello):
        switch WireProtocol.answer(to: hello, supported: supported) {
        case .helloAck(let ack):
          state = .ready
          return .acknowledge(ack)
        case .goodbye(let goodbye):
          state = .closing(deadline: now &+ drainTimeout, hostKnows: false)
          return .reject(goodbye, .protocolError("wrong version: \(goodbye.text)"))
        case .message:
          preconditionFailure("WireProtocol.answer returned a message")
        }
      case .goodbye(let goodbye):
        state = .closing(deadline: now &+ drainTimeout, hostKnows: false)
        return .closeQuietly(goodbye)
      case .message(let message):
        state = .closing(deadline: now &+ drainTimeout, hostKnows: false)
        let text = "expected a hello first, got \(Self.name(of: message))"
        return .reject(WireGoodbye(reason: .malformed, text: text), .protocolError(text))
      }
    case .ready:
      switch frame {
      case .message(let message):
        return .deliver(message)
      case .hello:
        state = .closing(deadline: now &+ drainTimeout, hostKnows: true)
        let text = "a second hello after the handshake"
        return .reject(WireGoodbye(reason: .malformed, text: text), .protocolError(text))
      case .goodbye(let goodbye):
        state = .closing(deadline: now &+ drainTimeout, hostKnows: true)
        return .closeQuietly(goodbye)
      }
    case .closing, .closed:
      return .ignore
    }
  }

  /// A frame failed to decode.
  mutating func decodeFailed(_ error: WireError, now: UInt64, drainTimeout: UInt64)
    -> FrameAction
  {
    switch state {
    case .awaitingHello, .ready:
      state = .closing(deadline: now &+ drainTimeout, hostKnows: hostKnows)
      let goodbye = WireGoodbye(for: error)
      let reason: CloseReason =
        goodbye.reason == .tooLarge ? .frameTooLarge : .protocolError("malformed: \(error)")
      return .reject(goodbye, reason)
    case .closing, .closed:
      return .ignore
    }
  }

  /// The periodic check: a hello or a drain may be overdue.
  mutating func checkDeadline(now: UInt64, helloTimeout: UInt64, drainTimeout: UInt64)
    -> DeadlineAction
  {
    switch state {
    case .awaitingHello(let deadline) where now >= deadline:
      state = .closing(deadline: now &+ drainTimeout, hostKnows: false)
      return .reject(
        WireGoodbye(reason: .idleTimeout, text: "no hello within \(helloTimeout) ms"),
        .idleTimeout)
    case .closing(let deadline, _) where now >= deadline:
      return .cut
    case .awaitingHello, .ready, .closing, .closed:
      return .none
    }
  }

  /// The host asked to close the connection (``SessionTransport/HostOutput/close(_:reason:)``): close after
  /// flushing (the core sends a goodbye first when the reason has one).
  ///
  /// - Returns: Whether to close; `false` if the connection is not ready (already closing).
  mutating func hostRequestedClose(now: UInt64, drainTimeout: UInt64) -> Bool {
    guard case .ready = state else { return false }
    state = .closing(deadline: now &+ drainTimeout, hostKnows: true)
    return true
  }

  /// The server closes the connection on its own account (shutting down, or a message it can't
  /// frame): say goodbye, then close after flushing.
  ///
  /// - Returns: Whether to close; `false` if the connection is already closing.
  mutating func serverCloses(now: UInt64, drainTimeout: UInt64) -> Bool {
    switch state {
    case .awaitingHello, .ready:
      state = .closing(deadline: now &+ drainTimeout, hostKnows: hostKnows)
      return true
    case .closing, .closed:
      return false
    }
  }

  /// The TCP connection closed, for whatever reason.
  ///
  /// - Returns: Whether the host must be told (``SessionTransport/SessionHost/connectionClosed(_:now:)``).
  mutating func connectionClosed() -> Bool {
    let notify = hostKnows
    if case .closed = state { preconditionFailure("a server connection closed twice") }
    state = .closed
    return notify
  }

  private static func name(of message: ClientMessage) -> String {
    switch message {
    case .join: "join"
    case .password: "password"
    case .command: "command"
    case .resume: "resume"
    case .heartbeat: "heartbeat"
    case .media: "media"
    }
  }
}
