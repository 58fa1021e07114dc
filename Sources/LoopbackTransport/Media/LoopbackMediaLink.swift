import SessionTransport

/// The SDK's end of the loopback media plane: a UDP socket on the client loop that sends to
/// the server's media port (or a ``LoopbackFaults/MediaFaultProxy``'s port for the peer) and delivers what
/// comes back, with a tick every ``tickInterval``.
///
/// Made by a ``LoopbackMediaLinkFactory``. ``start(_:)`` binds a socket on 127.0.0.1 (a port
/// the kernel picks) and registers the link with its loop's one media ticker. Datagrams from
/// any port other than the server's are dropped (``datagramsFromOthers``). Sends go to the
/// kernel at once from the bytes given (`uv_udp_try_send`); one the kernel can't take is
/// dropped and counted, as a full network queue would. Ticks and arrivals carry
/// `LoopbackMediaClock` time, the same clock the server stamps with.
///
/// A link whose socket can't be made (the loop is shutting down) never delivers anything.
///
/// > Important: Loop-confined: create it (through its factory), use it and drop it on the
/// > factory's loop thread; the handler runs there, one event at a time, never from inside
/// > ``start(_:)``, ``send(_:)`` or ``close()``. The loop keeps the socket, and through it the
/// > link, alive until ``close()`` or the loop's shutdown.
public final class LoopbackMediaLink: MediaLink {
  enum State {
    case idle
    case open
    case closed
  }

  /// The loop the link runs on.
  public let loop: EventLoop
  /// The port on 127.0.0.1 the link sends to.
  public let serverPort: UInt16
  /// The longest gap between two ticks, in microseconds (the ticker's interval).
  public let tickInterval: Int64

  private let tickerInterval: UInt64
  private var state = State.idle
  @exclusivity(unchecked) private var handler: ((MediaLinkEvent) -> Void)?
  private var socket: UDPSocket?
  private var ticker: MediaTicker?
  /// Index in the ticker's list; -1 when not registered.
  var tickerIndex = -1
  private var strangers = 0
  private var refused = 0

  init(loop: EventLoop, serverPort: UInt16, tickInterval: UInt64) {
    loop.assertInEventLoop()
    self.loop = loop
    self.serverPort = serverPort
    self.tickerInterval = max(1, tickInterval)
    self.tickInterval = Int64(clamping: max(1, tickInterval)) &* 1_000
  }

  /// Binds the link's socket and starts delivering datagrams and ticks to `handler`. Starting
  /// twice, or after ``close()``, does nothing.
  ///
  /// - Parameter handler: Receives the link's events on the loop thread.
  public func start(_ handler: @escaping (MediaLinkEvent) -> Void) {
    loop.assertInEventLoop()
    guard state == .idle else { return }
    state = .open
    guard let socket = try? UDPSocket(loop: loop),
      let ticker = try? MediaTicker.shared(on: loop, interval: tickerInterval)
    else {
      state = .closed
      return
    }
    self.handler = handler
    self.socket = socket
    self.ticker = ticker
    let serverPort = self.serverPort
    // Strong: the socket drops its handler when it closes, which ends the cycle.
    socket.onDatagram = { [self, handler] port, bytes in
      guard port == serverPort else {
        strangers += 1
        return
      }
      handler(.datagram(Array(bytes), at: LoopbackMediaClock.now()))
    }
    ticker.register(self)
  }

  /// Sends one datagram to the server, from the bytes given, at once or not at all. Dropped
  /// unless the link is open; dropped and counted when the kernel can't take it.
  ///
  /// - Parameter datagram: At most ``UDPSocket/maxDatagramSize`` bytes (a media datagram is
  ///   far smaller); a larger one is dropped and counted.
  public func send(_ datagram: [UInt8]) {
    guard state == .open, let socket else { return }
    let sent = datagram.withUnsafeBytes { socket.trySend(lent: $0, to: serverPort) }
    if !sent { refused &+= 1 }
  }

  /// Stops the link: no more events, the socket closes, sends are dropped. Harmless twice.
  ///
  /// Off the loop (an SDK instance let go of on another thread closes its link from its
  /// `deinit`), the close is queued to the loop, and events delivered until it runs still
  /// reach the handler there.
  public func close() {
    guard loop.inEventLoop else {
      let link = OffLoopMediaClose(link: self)
      _ = loop.execute { link.run() }
      return
    }
    guard state != .closed else { return }
    state = .closed
    handler = nil
    ticker?.unregister(self)
    ticker = nil
    socket?.close()
  }

  /// Whether the link is started and not closed.
  public var isOpen: Bool { state == .open && socket != nil }

  /// The link's own port on 127.0.0.1, once started.
  public var localPort: UInt16? { socket?.localPort }

  /// Datagrams that came from a port other than the server's, dropped.
  public var datagramsFromOthers: Int { strangers }

  /// Sends dropped: the kernel couldn't take them at once, or they were too large.
  public var sendsDropped: Int { refused }

  /// The socket's counters, once started (they stay readable after the close).
  ///
  /// > Important: Loop thread only.
  package var socketStatistics: UDPSocketStatistics? { socket?.statistics }

  /// A tick of the loop's ticker.
  func tick(now: Int64) {
    guard state == .open, let handler else { return }
    handler(.tick(now: now))
  }
}

/// Loop-confined.
@available(*, unavailable)
extension LoopbackMediaLink: Sendable {}

/// Carries a link to its loop to close it there.
///
/// `@unchecked Sendable`: the link is touched only by `run()`, on the link's loop thread.
private struct OffLoopMediaClose: @unchecked Sendable {
  let link: LoopbackMediaLink

  func run() { link.close() }
}
