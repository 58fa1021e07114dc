import Foundation
import LoopbackTransport
import SessionCore
@_spi(Testing) import SessionSDK
import SessionService
import SessionTestSupport
import SessionTransport
import Synchronization
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A new IPv4 UDP socket's descriptor.
private func udpSocket() throws -> Int32 {
  #if canImport(Glibc)
    let descriptor = socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
  #else
    let descriptor = socket(AF_INET, SOCK_DGRAM, 0)
  #endif
  guard descriptor >= 0 else { throw POSIXError(.EIO) }
  return descriptor
}

/// Hostile media on a raw UDP socket against a real server: malformed, truncated, oversized,
/// unbound, spoofed and out-of-state packets are dropped and counted, never reach a
/// subscriber, and never stop the relay.
@Suite("Bad media from a raw socket")
struct MediaBadInputTests {
  /// A view that counts the frames it receives, from any thread's point of view.
  final class CountingSink: VideoSink, @unchecked Sendable {
    let frames = Mutex(0)
    func onFrameReceived(_ frame: VideoFrame) { frames.withLock { $0 += 1 } }
  }

  /// A POSIX UDP socket on 127.0.0.1, sending to one port.
  final class RawUDP {
    let descriptor: Int32
    var target = sockaddr_in()

    init(port: UInt16) throws {
      descriptor = try udpSocket()
      target.sin_family = sa_family_t(AF_INET)
      target.sin_port = port.bigEndian
      target.sin_addr.s_addr = inet_addr("127.0.0.1")
    }

    deinit { close(descriptor) }

    /// The next datagram to arrive within `milliseconds`, or `nil`.
    func receive(milliseconds: Int32 = 2_000) -> [UInt8]? {
      var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
      guard poll(&poller, 1, milliseconds) == 1 else { return nil }
      var buffer = [UInt8](repeating: 0, count: 65_536)
      let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
      return count >= 0 ? Array(buffer[..<count]) : nil
    }

    /// Binds this socket with `credential` as a client does: the bind, then the answer to
    /// the check it brings. Returns whether a check came.
    @discardableResult
    func bind(user: UserID, credential: MediaCredential) -> Bool {
      let authenticator = MediaAuthenticator(key: credential.key)
      for _ in 0..<5 {
        send(
          authenticator.sealed(
            MediaDatagram.bind(MediaBind(user: user, credential: credential.id)).encode()))
        while let bytes = receive(milliseconds: 1_000) {
          let body = bytes.withUnsafeBytes { MediaDatagram.body(ofSealed: $0).map(Array.init) }
          guard let body, case .check(let nonce)? = try? MediaDatagram.decode(body) else {
            continue
          }
          send(
            authenticator.sealed(
              MediaDatagram.checkReply(credential: credential.id, nonce: nonce).encode()))
          return true
        }
      }
      return false
    }

    func send(_ bytes: [UInt8]) {
      var address = target
      _ = bytes.withUnsafeBytes { buffer in
        withUnsafePointer(to: &address) { pointer in
          pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { raw in
            sendto(
              descriptor, buffer.baseAddress, buffer.count, 0, raw,
              socklen_t(MemoryLayout<sockaddr_in>.size))
          }
        }
      }
    }
  }

  /// Joins an SDK peer with a media plane through the server's media port.
  static func joinWithMedia(
    _ name: String, harness: LoopbackHarness, videoOn: Bool
  ) throws -> Peer {
    let (client, port, link) = (harness.client, harness.port, harness.linkConfiguration)
    let mediaPort = try #require(harness.server.mediaPort)
    let callbacks = Recorder<VideoSDKCallback>()
    let (sdk, factory, links) = try client.sync {
      let factory = LoopbackLinkFactory(loop: client, port: port, configuration: link)
      let links = TestLinkFactory(wrapping: factory)
      let sdk = VideoSDK()
      sdk.callbackObserver = { callbacks.append($0) }
      let params = InitParams(domain: "zoom.us", transport: links, clock: factory.clock.now)
      params.media = LoopbackMediaLinkFactory(loop: client, port: mediaPort)
      params.videoSendResolution = .resolution180
      sdk.initialize(params)
      return (
        LoopBound(sdk, loop: client), LoopBound(factory, loop: client),
        LoopBound(links, loop: client)
      )
    }
    let peer = Peer(name: name, sdk: sdk, factory: factory, links: links, callbacks: callbacks)
    try peer.join(session: "Room", token: harness.token(), videoOn: videoOn)
    #expect(peer.waitFor(.onSessionJoin), "\(name) did not join")
    return peer
  }

  /// Subscribes `viewer` to `publisher`'s video and waits for its first 10 frames.
  static func watch(_ publisher: UserID, on viewer: Peer) throws -> CountingSink {
    let sink = CountingSink()
    try viewer.run { sdk in
      let canvas = sdk.getSession()?.user(withID: publisher)?.getVideoCanvas()
      _ = canvas?.subscribe(with: sink, aspectMode: .panAndScan, andResolution: .auto)
    }
    #expect(waitUntil(timeoutSeconds: 20) { sink.frames.withLock { $0 } >= 10 })
    return sink
  }

  @Test func hostilePacketsAreDroppedAndCountedAndTheRelayGoesOn() throws {
    let harness = try LoopbackHarness()
    defer { harness.shutdown() }
    let alice = try Self.joinWithMedia("alice", harness: harness, videoOn: true)
    let bob = try Self.joinWithMedia("bob", harness: harness, videoOn: false)
    let mallory = try Self.joinWithMedia("mallory", harness: harness, videoOn: false)
    let aliceID = try #require(try alice.myID())
    let malloryID = try #require(try mallory.myID())
    #expect(bob.waitFor { $0 == .onUserJoin([malloryID]) })
    let sink = try Self.watch(aliceID, on: bob)

    // Every kind of hostile datagram, from one raw socket.
    let mediaPort = try #require(harness.server.mediaPort)
    let raw = try RawUDP(port: mediaPort)
    let claim = MediaPacket(
      stream: StreamID(user: aliceID, kind: .video, layer: 0), sequence: 4_000_000_000,
      frameID: 4_000_000_000, isKeyFrame: true, sendTime: .max, payloadBytes: 1_200,
      audioLevel: 127, width: 320, height: 180)
    let valid = claim.encode() + [UInt8](repeating: 0, count: MediaDatagram.trailerSize)
    raw.send(Array(repeating: 0xFF, count: 50))  // malformed
    raw.send(Array(valid.prefix(20)))  // truncated
    raw.send(valid + Array(repeating: 0, count: 300))  // oversized for its header
    raw.send(Array(repeating: 0, count: 60_000))  // oversized for any datagram
    raw.send([])  // empty
    for _ in 0..<20 { raw.send(valid) }  // unbound: a well-formed claim of alice's video
    // Bound as mallory (with mallory's own credential), it claims alice's stream: spoofed.
    let links = mallory.links
    let credential = try #require(try mallory.loop.sync { links.value.mediaCredential })
    let sealer = MediaAuthenticator(key: credential.key)
    // A bind naming alice with mallory's credential is refused.
    raw.send(sealer.sealed(MediaBind(user: aliceID, credential: credential.id).encode()))
    #expect(raw.bind(user: malloryID, credential: credential))
    #expect(
      waitUntil(timeoutSeconds: 10) {
        ((try? harness.onService { $0.mediaStatistics.bindsAccepted }) ?? 0) >= 4
      })
    for _ in 0..<20 { raw.send(sealer.sealed(claim.encode())) }
    // Untagged, or tagged under another key, from the bound socket: unauthenticated.
    for _ in 0..<20 { raw.send(valid) }
    // And mallory's own video, whose camera is off: not sending.
    var own = claim
    own.stream = StreamID(user: malloryID, kind: .video, layer: 0)
    for _ in 0..<20 { raw.send(sealer.sealed(own.encode())) }

    let counted = waitUntil(timeoutSeconds: 10) {
      let drops = (try? harness.onService { $0.mediaStatistics.dropped }) ?? .init()
      return drops.malformed >= 4 && drops.unbound >= 20 && drops.spoofed >= 20
        && drops.notSending >= 20 && drops.badBind >= 1 && drops.unauthenticated >= 20
    }
    let statistics = try harness.onService { $0.mediaStatistics }
    #expect(counted, "\(statistics.dropped)")
    // Nothing of it reached bob: alice's stream there never saw the forged sequence numbers
    // (they would count as billions of packets expected), and bob's frames go on.
    let before = sink.frames.withLock { $0 }
    #expect(waitUntil(timeoutSeconds: 10) { sink.frames.withLock { $0 } >= before + 10 })
    let stream = try bob.run { sdk in
      sdk.mediaFigures.streams.first { $0.publisher == aliceID && $0.kind == .video }
    }
    let received = try #require(stream)
    #expect(received.packetsExpected < 100_000)
    #expect(received.lossFraction < 0.05)
    #expect(try bob.run { $0.mediaDiagnostics.unknownStreamPackets } == 0)
    _ = alice
  }

  /// N3: one datagram from each of many fresh sockets, past the endpoint table's size, never
  /// evicts a bound publisher's endpoint (one that never pings and that the server never
  /// sends to): its video keeps reaching its viewer.
  @Test func aFloodOfFreshSourcesNeverEvictsABoundPublisher() throws {
    var server = LoopbackServerConfiguration()
    server.maxMediaEndpoints = 16
    let harness = try LoopbackHarness(server: server)
    defer { harness.shutdown() }
    let alice = try Self.joinWithMedia("alice", harness: harness, videoOn: true)
    let bob = try Self.joinWithMedia("bob", harness: harness, videoOn: false)
    let aliceID = try #require(try alice.myID())
    let sink = try Self.watch(aliceID, on: bob)
    let mediaPort = try #require(harness.server.mediaPort)
    // 400 fresh sockets, 25 times the table, each sending one junk datagram (in batches,
    // so that the process keeps few descriptors open at once).
    for _ in 0..<20 {
      let batch = try (0..<20).map { _ in try RawUDP(port: mediaPort) }
      for socket in batch { socket.send([UInt8](repeating: 0x02, count: 40)) }
      usleep(5_000)
    }
    let evicted = waitUntil(timeoutSeconds: 10) {
      ((try? harness.server.statistics().media?.endpointsEvicted) ?? 0) >= 300
    }
    #expect(evicted)
    let before = sink.frames.withLock { $0 }
    #expect(waitUntil(timeoutSeconds: 10) { sink.frames.withLock { $0 } >= before + 10 })
    _ = alice
  }

  /// A UDP socket bound to 127.0.0.1 that only listens: a victim's port.
  final class ListeningUDP {
    let descriptor: Int32
    private(set) var port: UInt16 = 0

    init() throws {
      descriptor = try udpSocket()
      var address = sockaddr_in()
      address.sin_family = sa_family_t(AF_INET)
      address.sin_addr.s_addr = inet_addr("127.0.0.1")
      var length = socklen_t(MemoryLayout<sockaddr_in>.size)
      let bound = withUnsafeMutablePointer(to: &address) { pointer in
        pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { raw in
          bind(descriptor, raw, length) == 0 && getsockname(descriptor, raw, &length) == 0
        }
      }
      guard bound else { throw POSIXError(.EADDRINUSE) }
      port = UInt16(bigEndian: address.sin_port)
    }

    deinit { close(descriptor) }

    /// Every datagram that arrives within `milliseconds` of the last.
    func drain(milliseconds: Int32) -> [[UInt8]] {
      var datagrams: [[UInt8]] = []
      var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
      while poll(&poller, 1, milliseconds) == 1 {
        var buffer = [UInt8](repeating: 0, count: 65_536)
        let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
        guard count >= 0 else { break }
        datagrams.append(Array(buffer[..<count]))
      }
      return datagrams
    }
  }

  /// Sends UDP datagrams to 127.0.0.1 with any source port, through a raw IP socket (root).
  static func sendForged(_ payload: [UInt8], from source: UInt16, to destination: UInt16) -> Bool {
    let descriptor = socket(AF_INET, Int32(SOCK_RAW.rawValue), Int32(IPPROTO_RAW))
    guard descriptor >= 0 else { return false }
    defer { close(descriptor) }
    let total = 20 + 8 + payload.count
    var packet = [UInt8](repeating: 0, count: total)
    packet[0] = 0x45
    packet[2] = UInt8(total >> 8)
    packet[3] = UInt8(total & 0xFF)
    packet[8] = 64
    packet[9] = 17  // UDP
    for offset in [12, 16] {
      packet[offset] = 127
      packet[offset + 3] = 1
    }
    packet[20] = UInt8(source >> 8)
    packet[21] = UInt8(source & 0xFF)
    packet[22] = UInt8(destination >> 8)
    packet[23] = UInt8(destination & 0xFF)
    packet[24] = UInt8((8 + payload.count) >> 8)
    packet[25] = UInt8((8 + payload.count) & 0xFF)
    // A zero UDP checksum means none (IPv4); the kernel fills in the IP header's.
    packet.replaceSubrange(28..., with: payload)
    var target = sockaddr_in()
    target.sin_family = sa_family_t(AF_INET)
    target.sin_addr.s_addr = inet_addr("127.0.0.1")
    let sent = packet.withUnsafeBytes { buffer in
      withUnsafePointer(to: &target) { pointer in
        pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { raw in
          sendto(
            descriptor, buffer.baseAddress, buffer.count, 0, raw,
            socklen_t(MemoryLayout<sockaddr_in>.size))
        }
      }
    }
    return sent == total
  }

  /// N2 over real sockets: binds forged with a victim's source port and the attacker's own
  /// credential bring the victim a few checks smaller than the binds, never a stream, though
  /// the attacker subscribes to a 30 fps video. Needs root for the raw socket (CI runs as
  /// root).
  @Test(.enabled(if: getuid() == 0, "forging a source port needs a raw socket (root)"))
  func bindsForgedWithAVictimsPortReflectNothing() throws {
    let harness = try LoopbackHarness()
    defer { harness.shutdown() }
    let alice = try Self.joinWithMedia("alice", harness: harness, videoOn: true)
    let mallory = try Self.joinWithMedia("mallory", harness: harness, videoOn: false)
    let aliceID = try #require(try alice.myID())
    let malloryID = try #require(try mallory.myID())
    let sink = try Self.watch(aliceID, on: mallory)
    let links = mallory.links
    let credential = try #require(try mallory.loop.sync { links.value.mediaCredential })
    let mediaPort = try #require(harness.server.mediaPort)
    let victim = try ListeningUDP()
    let bind = MediaAuthenticator(key: credential.key).sealed(
      MediaBind(user: malloryID, credential: credential.id).encode())
    var bytesIn = 0
    for _ in 0..<40 {
      #expect(Self.sendForged(bind, from: victim.port, to: mediaPort))
      bytesIn += bind.count
      usleep(25_000)
    }
    let received = victim.drain(milliseconds: 1_000)
    #expect(!received.isEmpty, "the checks reach the forged address")
    #expect(received.allSatisfy { $0.count == 34 && $0[1] == MediaDatagram.Kind.check.rawValue })
    #expect(received.reduce(0) { $0 + $1.count } < bytesIn)
    // Mallory's own endpoint still gets the video.
    let before = sink.frames.withLock { $0 }
    #expect(waitUntil(timeoutSeconds: 10) { sink.frames.withLock { $0 } >= before + 10 })
    let statistics = try harness.onService { $0.mediaStatistics }
    #expect(statistics.checksSent >= 1)
  }
}
