import LoopbackTransport
import SessionCore
import SessionTransport
import Synchronization
import Testing

@testable import LoopbackFaults

/// One datagram as a media host saw it.
struct HostDatagram: Sendable {
  var bytes: [UInt8]
  var from: MediaEndpointID
  var now: Int64
}

/// One datagram as a media link's handler saw it.
struct LinkDatagram: Sendable {
  var bytes: [UInt8]
  var at: Int64
}

/// A session host that does nothing, with a media side that echoes, fans out, or echoes only
/// datagrams that start with ``MediaTestHost/bindMark`` (what a bound member would send), and
/// records every datagram.
///
/// > Important: Lives on the server's loop; its record is `Sendable`.
final class MediaTestHost: SessionHost, MediaHost {
  enum Mode: Sendable {
    case echo
    case fanOut
    case echoMarked
  }

  /// The first byte of a datagram ``Mode/echoMarked`` answers.
  static let bindMark: UInt8 = 0xB1

  let mode: Mode
  let record: Recorder<HostDatagram>
  private var output: ((MediaHostOutput) -> Void)?
  private var endpoints: [MediaEndpointID] = []

  init(mode: Mode, record: Recorder<HostDatagram>) {
    self.mode = mode
    self.record = record
  }

  func attach(output: @escaping (HostOutput) -> Void) {}
  func connectionOpened(_ connection: ConnectionID, now: Int64) {}
  func receive(_ message: ClientMessage, from connection: ConnectionID, now: Int64) {}
  func connectionClosed(_ connection: ConnectionID, now: Int64) {}
  func tick(now: Int64) {}

  func attachMedia(output: @escaping (MediaHostOutput) -> Void) { self.output = output }

  func receiveDatagram(_ bytes: [UInt8], from endpoint: MediaEndpointID, now: Int64) {
    record.append(HostDatagram(bytes: bytes, from: endpoint, now: now))
    if !endpoints.contains(endpoint) { endpoints.append(endpoint) }
    switch mode {
    case .echo:
      output?(.send(bytes, to: endpoint))
    case .fanOut:
      output?(.forward(bytes, to: endpoints.filter { $0 != endpoint }))
    case .echoMarked:
      if bytes.first == Self.bindMark { output?(.send(bytes, to: endpoint)) }
    }
  }

  func emit(_ output: MediaHostOutput) { self.output?(output) }
}

/// A media link started on a client loop, and what its handler got.
struct ClientMedia: Sendable {
  let link: LoopBound<LoopbackMediaLink>
  let datagrams: Recorder<LinkDatagram>
  let ticks: Recorder<Int64>

  var loop: EventLoop { link.loop }

  /// Sends the payloads from the client loop, all in one loop turn.
  func sendAll(_ payloads: [[UInt8]]) throws {
    let link = self.link
    try link.loop.sync { for payload in payloads { link.value.send(payload) } }
  }

  /// Sends one datagram from the client loop.
  func send(_ payload: [UInt8]) throws {
    try sendAll([payload])
  }

  /// Sends `count` payloads, `perTurn` per loop turn, so the receivers read in between.
  func sendPaced(
    count: Int, perTurn: Int = 50, _ make: @escaping @Sendable (Int) -> [UInt8]
  ) {
    let (link, loop) = (self.link, self.loop)
    @Sendable func batch(from start: Int) {
      for index in start..<min(start + perTurn, count) { link.value.send(make(index)) }
      if start + perTurn < count { loop.execute { batch(from: start + perTurn) } }
    }
    loop.execute { batch(from: 0) }
  }

  /// The link's own port.
  func localPort() throws -> UInt16 {
    let link = self.link
    return try link.loop.sync { link.value.localPort ?? 0 }
  }
}

/// A `LoopbackServer` whose host is a ``MediaTestHost``, a client loop for media links, and
/// optionally a `FaultProxy` with a media half on a loop of its own.
final class MediaFixture: Sendable {
  let server: LoopbackServer<MediaTestHost>
  let hostRecord = Recorder<HostDatagram>()
  let client: EventLoop
  let proxyLoop: EventLoop
  let proxy: LoopBound<FaultProxy>?
  let mediaPort: UInt16

  init(
    _ mode: MediaTestHost.Mode = .echo,
    configuration: LoopbackServerConfiguration = LoopbackServerConfiguration(),
    proxied: Bool = false, seed: UInt64 = 11
  ) throws {
    let record = hostRecord
    server = try LoopbackServer(configuration: configuration) {
      MediaTestHost(mode: mode, record: record)
    }
    guard let port = server.mediaPort else {
      Issue.record("a media host gets a media port")
      throw LoopTimedOut()
    }
    mediaPort = port
    client = try EventLoop(name: "media-test-client")
    proxyLoop = try EventLoop(name: "media-test-proxy")
    if proxied {
      let (proxyLoop, upstream) = (self.proxyLoop, server.port)
      proxy = try proxyLoop.sync {
        LoopBound(
          try FaultProxy(
            loop: proxyLoop, upstreamPort: upstream, seed: seed, mediaUpstreamPort: port,
            mediaConfiguration: MediaFaultProxyConfiguration(
              socket: UDPConfiguration(receiveBufferSize: 1 << 20))),
          loop: proxyLoop)
      }
    } else {
      proxy = nil
    }
  }

  /// Runs `body` with the proxy on its loop.
  @discardableResult
  func withProxy<Result: Sendable>(_ body: @escaping @Sendable (FaultProxy) throws -> Result)
    throws -> Result
  {
    guard let proxy else { throw LoopTimedOut() }
    return try proxyLoop.sync { try body(proxy.value) }
  }

  /// A peer's media port on the proxy (listening for it first).
  func proxyPort(_ peer: String) throws -> UInt16 {
    try withProxy { proxy in
      _ = try proxy.listen(peer: peer)
      return proxy.mediaPort(of: peer) ?? 0
    }
  }

  /// The media half's counters of a peer.
  func proxyStatistics(_ peer: String) throws -> MediaProxyPeerStatistics {
    try withProxy { $0.mediaStatistics[peer] ?? MediaProxyPeerStatistics() }
  }

  /// A media link on the client loop to `port` (the server's by default), started.
  func link(to port: UInt16? = nil, tickInterval: UInt64 = 10) throws -> ClientMedia {
    let (client, target) = (self.client, port ?? mediaPort)
    let datagrams = Recorder<LinkDatagram>()
    let ticks = Recorder<Int64>()
    let link = try client.sync {
      let factory = LoopbackMediaLinkFactory(loop: client, port: target, tickInterval: tickInterval)
      let link = factory.makeLoopbackMediaLink()
      link.start { event in
        switch event {
        case .datagram(let bytes, let at): datagrams.append(LinkDatagram(bytes: bytes, at: at))
        case .tick(let now): ticks.append(now)
        }
      }
      return LoopBound(link, loop: client)
    }
    return ClientMedia(link: link, datagrams: datagrams, ticks: ticks)
  }

  /// The server's media counters.
  func statistics() throws -> LoopbackMediaStatistics {
    try server.statistics().media ?? LoopbackMediaStatistics()
  }

  func shutdown(sourceLocation: SourceLocation = #_sourceLocation) {
    if let proxy { _ = try? proxyLoop.sync { proxy.value.shutdown() } }
    #expect(client.shutdown().isClean, sourceLocation: sourceLocation)
    #expect(proxyLoop.shutdown().isClean, sourceLocation: sourceLocation)
    #expect(server.shutdown().isClean, sourceLocation: sourceLocation)
  }
}

/// A datagram carrying its index and its send time (``LoopbackMediaClock``), 12 bytes.
func stampedDatagram(_ index: Int) -> [UInt8] {
  withUnsafeBytes(of: UInt32(truncatingIfNeeded: index).bigEndian, Array.init)
    + withUnsafeBytes(of: LoopbackMediaClock.now().bigEndian, Array.init)
}

/// The index and send time of a ``stampedDatagram(_:)``.
func unstamp(_ bytes: [UInt8]) -> (index: Int, sentAt: Int64)? {
  guard bytes.count == 12 else { return nil }
  let index = bytes[0..<4].reduce(0) { $0 << 8 | Int($1) }
  let sentAt = bytes[4..<12].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
  return (index, Int64(bitPattern: sentAt))
}
